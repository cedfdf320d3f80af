; At -O0 Clang writes no TBAA: a pointer loaded from a struct's field does
; not say what it points to, and the integers read through it (OSQP's
; `a->p[a->n]` through `long long *p`) could be a double's bits. The
; frontend records what each pointer field is declared to point to
; (`adcc.declared.pointees`: the struct's IR name, then each pointer
; field's offset and a letter: i integer, d double, f float, p pointer, u
; nothing known such as `void *` or `char *`); the type analysis types the
; memory a pointer loaded from (or stored to) the field points to as it
; types it from an optimized load's pointer TBAA tag. A struct whose name
; two records share with different pointees (`struct.two`) says nothing
; there, nor does a field of bytes, nor a name with no record.
; RUN: adcc-opt -passes=adcc-print-types %s -o /dev/null | FileCheck %s

%struct.csc = type { i64, ptr, ptr, ptr, ptr, ptr }
%struct.two = type { ptr }
%struct.outer = type { i32, %struct.csc }
%struct.norecord = type { ptr }

define double @f(ptr %a, ptr %t, ptr %o, ptr %nr, ptr %v) {
  %pf = getelementptr inbounds %struct.csc, ptr %a, i32 0, i32 1
  %p = load ptr, ptr %pf, align 8
  %nf = getelementptr inbounds %struct.csc, ptr %a, i32 0, i32 0
  %n = load i64, ptr %nf, align 8
  %at = getelementptr inbounds i64, ptr %p, i64 %n
  %count = load i64, ptr %at, align 8
  %wf = getelementptr inbounds %struct.csc, ptr %a, i32 0, i32 2
  %w = load ptr, ptr %wf, align 8
  %weight = load i32, ptr %w, align 4
  %xf = getelementptr inbounds %struct.csc, ptr %a, i32 0, i32 3
  %x = load ptr, ptr %xf, align 8
  %bf = getelementptr inbounds %struct.csc, ptr %a, i32 0, i32 4
  %b = load ptr, ptr %bf, align 8
  %byte = load i64, ptr %b, align 8
  %rf = getelementptr inbounds %struct.csc, ptr %a, i32 0, i32 5
  %rows = load ptr, ptr %rf, align 8
  %row = load ptr, ptr %rows, align 8
  ; A pointer stored into the field points to what the field says.
  store ptr %v, ptr %pf, align 8
  %tf = getelementptr inbounds %struct.two, ptr %t, i32 0, i32 0
  %tp = load ptr, ptr %tf, align 8
  %tv = load i64, ptr %tp, align 8
  ; The csc inside another struct: the innermost struct's field.
  %of = getelementptr inbounds %struct.outer, ptr %o, i32 0, i32 1, i32 1
  %op = load ptr, ptr %of, align 8
  %ov = load i64, ptr %op, align 8
  %nrf = getelementptr inbounds %struct.norecord, ptr %nr, i32 0, i32 0
  %nrp = load ptr, ptr %nrf, align 8
  %nrv = load i64, ptr %nrp, align 8
  ret double 0.0
}

; CHECK-LABEL: types of 'f'
; CHECK:      %v: pointer -> [*]:integer
; CHECK:      %p: pointer -> [*]:integer
; CHECK:      %count: integer
; CHECK:      %w: pointer -> [*]:integer
; CHECK:      %weight: integer
; CHECK:      %x: pointer -> [*]:double
; CHECK:      %b: pointer{{$}}
; CHECK-NOT:  %byte:
; CHECK:      %rows: pointer -> [*]:pointer
; CHECK:      %tp: pointer{{$}}
; CHECK-NOT:  %tv:
; CHECK:      %op: pointer -> [*]:integer
; CHECK:      %ov: integer
; CHECK:      %nrp: pointer{{$}}
; CHECK-NOT:  %nrv:

!adcc.declared.pointees = !{!0, !1, !2}
!0 = !{!"struct.csc", !"8i,16i,24d,32u,40p"}
!1 = !{!"struct.two", !"0i"}
!2 = !{!"struct.two", !"0d"}
