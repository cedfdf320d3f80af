; The type analysis: kinds of values and of the memory pointers point to,
; from load/store types, TBAA tags, GEP offsets, casts and memcpy.
; RUN: adcc-opt -passes=adcc-print-types %s -o /dev/null | FileCheck %s

%pair = type { double, i64 }

define void @f(ptr %p, ptr %q, ptr %r, i64 %i) {
  ; A double moved as an i64 (what SROA makes of a memcpy): the TBAA tag
  ; says the bytes are a double, so the i64 holds a double's bits.
  %bits = load i64, ptr %p, !tbaa !1
  store i64 %bits, ptr %q
  ; Struct fields through constant GEPs.
  %f1 = getelementptr inbounds %pair, ptr %r, i64 0, i32 1
  %n = load i64, ptr %f1
  %m = mul i64 %n, 3
  %v = load double, ptr %r
  ; An array indexed by a variable: every element is a double.
  %e = getelementptr double, ptr %q, i64 %i
  %x = load double, ptr %e
  ret void
}

; CHECK-LABEL: types of 'f'
; CHECK: %p: pointer -> [0]:double
; CHECK: %q: pointer -> [*]:double [0]:double
; CHECK: %r: pointer -> [0]:double [8]:integer
; CHECK: %bits: double
; CHECK: %f1: pointer -> [0]:integer
; CHECK: %n: integer
; CHECK: %v: double
; CHECK: %e: pointer -> [*]:double [0]:double

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}

; A field declared as an integer (not a byte) of a struct that is not a
; union is an integer, whatever is copied through it: the key of
; std::map's pair<const int, double>, moved from an int&& without
; arithmetic. A union's field says nothing.
%kv = type { i32, double }
%union.pun = type { i64 }

define void @fields(ptr %dst, ptr %src, ptr %u, ptr %w) {
  %key = load i32, ptr %src
  %first = getelementptr inbounds %kv, ptr %dst, i32 0, i32 0
  store i32 %key, ptr %first
  %bits = load i64, ptr %w
  %f = getelementptr inbounds %union.pun, ptr %u, i32 0, i32 0
  store i64 %bits, ptr %f
  ret void
}

; CHECK-LABEL: types of 'fields'
; CHECK:      %key: integer
; CHECK-NOT:  %bits: integer

; Stack variables keep their declared fields: floating-point values and
; pointers (a std::tuple<int &&> holds a pointer, which a copy of the tuple
; carries with its shadow).
%ref_and_value = type { ptr, double }

define void @declared(ptr %out) {
  %t = alloca %ref_and_value
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %t, i64 16, i1 false)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: types of 'declared'
; CHECK:      %t: pointer -> [0]:pointer [8]:double

; A pointer loaded or stored with Clang's pointer type tag ("p1 double",
; a `double *` field such as std::vector<double>'s) points to doubles; a
; "p2 double" to pointers. A `void *` ("any pointer") says nothing.
define void @pointees(ptr %v, ptr %w, ptr %u, ptr %fresh) {
  %data = load ptr, ptr %v, !tbaa !10
  %rows = load ptr, ptr %w, !tbaa !14
  store ptr %fresh, ptr %u, !tbaa !10
  %any = load ptr, ptr %v, !tbaa !16
  ret void
}

; CHECK-LABEL: types of 'pointees'
; CHECK:      %fresh: pointer -> [*]:double{{$}}
; CHECK:      %data: pointer -> [*]:double{{$}}
; CHECK:      %rows: pointer -> [*]:pointer{{$}}
; CHECK-NOT:  %any: pointer ->

!10 = !{!11, !11, i64 0}
!11 = !{!"p1 double", !12, i64 0}
!12 = !{!"any pointer", !3, i64 0}
!14 = !{!15, !15, i64 0}
!15 = !{!"p2 double", !12, i64 0}
!16 = !{!12, !12, i64 0}

; A GEP over a declared struct type (how Clang addresses fields and array
; elements at -O0): its base points to that struct (its integer fields
; too), an array of them when
; the GEP steps between elements. The element size carries over to
; pointers whole elements away, phis and copies; a byte offset by a
; variable says nothing about the elements (no [*] from [0]).
%point = type { double, double, i32 }

define void @structs(ptr %p, ptr %q, i64 %n, i64 %off, i1 %c) {
  %next = getelementptr inbounds %point, ptr %p, i64 1
  %two = getelementptr inbounds i8, ptr %p, i64 48
  %sel = select i1 %c, ptr %p, ptr %q
  %mid = getelementptr inbounds i8, ptr %p, i64 %off
  %bytes = mul i64 %n, 24
  call void @llvm.memmove.p0.p0.i64(ptr %q, ptr %p, i64 %bytes, i1 false)
  ret void
}
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: types of 'structs'
; CHECK:      %p: pointer -> [0]:double [8]:double [16]:integer [24]:double [32]:double [40]:integer (elements of 24 bytes)
; CHECK:      %q: pointer -> [0]:double [8]:double [16]:integer [24]:double [32]:double [40]:integer (elements of 24 bytes)
; CHECK:      %next: pointer -> [0]:double [8]:double [16]:integer (elements of 24 bytes)
; CHECK:      %two: pointer (elements of 24 bytes)
; CHECK:      %sel: pointer -> {{.*}} (elements of 24 bytes)
; CHECK:      %mid: pointer -> [0]:double [8]:double [16]:integer [24]:double [32]:double [40]:integer{{$}}

; Null points to nothing: a pointer that starts null (a phi of null and a
; block of doubles, what SROA makes of a growing std::vector) does not take
; what another null-initialized pointer points to.
define void @nulls(ptr %slot, ptr %d, i1 %c) {
entry:
  store ptr null, ptr %slot
  %l = load ptr, ptr %slot
  store ptr %d, ptr %l
  br i1 %c, label %grow, label %done
grow:
  br label %done
done:
  %p = phi ptr [ null, %entry ], [ %d, %grow ]
  store double 1.0, ptr %p
  ret void
}

; CHECK-LABEL: types of 'nulls'
; CHECK:      %p: pointer -> [0]:double{{$}}
