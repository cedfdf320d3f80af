; Forward mode tags its memory accesses as the reverse mode does
; (MemoryScopes.h): the primal's loads and stores touch primal memory, the
; tangents' touch shadow memory and carry the primal access's TBAA; at width
; N each lane's shadow accesses are noalias with the other lanes'. With it a
; store into a shadow does not make the primal reload what it read.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

@enzyme_width = external global i32
declare void @__enzyme_fwddiff(ptr, ...)

define void @scale(ptr %x, ptr %y) {
  %v = load double, ptr %x, !tbaa !0
  %m = fmul double %v, %v
  store double %m, ptr %y, !tbaa !0
  ret void
}

define void @request(ptr %x, ptr %dx0, ptr %dx1, ptr %y, ptr %dy0, ptr %dy1) {
  %w = load i32, ptr @enzyme_width
  call void (ptr, ...) @__enzyme_fwddiff(ptr @scale, i32 %w, i32 2, ptr %x, ptr %dx0, ptr %dx1, ptr %y, ptr %dy0, ptr %dy1)
  ret void
}

; CHECK-LABEL: define internal void @fwddiffe2_scale(
; CHECK: %v = load double, ptr %x, align 8, !tbaa ![[TBAA:[0-9]+]], !alias.scope ![[PRIMAL:[0-9]+]], !noalias ![[NOTPRIMAL:[0-9]+]]
; CHECK: %v.tangent = load double, ptr %{{.*}}, align 8, !tbaa ![[TBAA]], !alias.scope ![[SHADOW0:[0-9]+]], !noalias ![[NOT0:[0-9]+]]
; CHECK: %v.tangent{{.+}} = load double, ptr %{{.*}}, align 8, !tbaa ![[TBAA]], !alias.scope ![[SHADOW1:[0-9]+]], !noalias ![[NOT1:[0-9]+]]
; CHECK: store double %m, ptr %y, align 8, !tbaa ![[TBAA]], !alias.scope ![[PRIMAL]], !noalias ![[NOTPRIMAL]]
; CHECK: store double {{.*}}, align 8, !tbaa ![[TBAA]], !alias.scope ![[SHADOW0]], !noalias ![[NOT0]]
; CHECK: store double {{.*}}, align 8, !tbaa ![[TBAA]], !alias.scope ![[SHADOW1]], !noalias ![[NOT1]]

; CHECK-DAG: ![[PRIMAL]] = !{![[P:[0-9]+]]}
; CHECK-DAG: ![[P]] = !{!"adcc.primal", ![[DOMAIN:[0-9]+]]}
; CHECK-DAG: ![[DOMAIN]] = !{!"adcc.memory"}
; CHECK-DAG: ![[NOTPRIMAL]] = !{![[S:[0-9]+]], ![[T:[0-9]+]]}
; CHECK-DAG: ![[S]] = !{!"adcc.shadow", ![[DOMAIN]]}
; CHECK-DAG: ![[T]] = !{!"adcc.tape", ![[DOMAIN]]}
; CHECK-DAG: ![[SHADOW0]] = !{![[S]], ![[L0:[0-9]+]]}
; CHECK-DAG: ![[SHADOW1]] = !{![[S]], ![[L1:[0-9]+]]}
; CHECK-DAG: ![[NOT0]] = !{![[P]], ![[T]], ![[L1]]}
; CHECK-DAG: ![[NOT1]] = !{![[P]], ![[T]], ![[L0]]}
; CHECK-DAG: ![[L0]] = !{!"adcc.lane0", ![[LANES:[0-9]+]]}
; CHECK-DAG: ![[L1]] = !{!"adcc.lane1", ![[LANES]]}
; CHECK-DAG: ![[LANES]] = !{!"adcc.lanes"}

!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
