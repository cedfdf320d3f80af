; libstdc++'s out-of-line red-black tree functions only link and walk
; nodes: a derivative calls them again on the shadows, so that the shadow
; tree follows the primal one, and a node returned gets the node the second
; call returns as its shadow. (They were "external functions without a
; body".) An argument without a shadow beside others with one is an error.
; RUN: split-file %s %t
; RUN: adcc-opt -passes=adcc %t/ok.ll -o - | FileCheck %s
; RUN: not adcc-opt -passes=adcc %t/mixed.ll -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MIXED

;--- ok.ll
declare double @__enzyme_fwddiff(ptr, ...)
declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr)
declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1, ptr, ptr, ptr)

define double @next_value(ptr %node, ptr %fresh, ptr %header) {
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %fresh, ptr %node, ptr %header)
  %next = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node)
  %field = getelementptr inbounds i8, ptr %next, i64 40
  %v = load double, ptr %field
  ret double %v
}

define double @request(ptr %n, ptr %dn, ptr %f, ptr %df, ptr %h, ptr %dh) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @next_value, ptr %n, ptr %dn, ptr %f, ptr %df, ptr %h, ptr %dh)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_next_value(
; CHECK:      call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %fresh, ptr %node, ptr %header)
; CHECK-NEXT: call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %fresh.shadow, ptr %node.shadow, ptr %header.shadow)
; CHECK-NEXT: %next = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node)
; CHECK-NEXT: [[SNEXT:%.*]] = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node.shadow)
; CHECK:      getelementptr inbounds i8, ptr [[SNEXT]], i64 40

;--- mixed.ll
declare double @__enzyme_fwddiff(ptr, ...)
declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1, ptr, ptr, ptr)
@other = internal global [6 x ptr] zeroinitializer

define void @link(ptr %node, ptr %header) {
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %node, ptr @other, ptr %header)
  ret void
}

define void @request(ptr %n, ptr %dn, ptr %h, ptr %dh) {
  call double (ptr, ...) @__enzyme_fwddiff(ptr @link, ptr %n, ptr %dn, ptr %h, ptr %dh)
  ret void
}

; MIXED: error: {{.*}}whose argument 3 points to memory without derivatives while others point to memory with them
