; Width 2: each duplicated argument has two shadow parameters; a shadow is
; an array of the two lanes (batch-lanes.ll: how its arithmetic is done).
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

@enzyme_width = external global i32
declare [2 x double] @__enzyme_fwddiff(ptr, ...)

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define [2 x double] @request(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call [2 x double] (ptr, ...) @__enzyme_fwddiff(ptr @sq, i32 %w, i32 2, double %x, double 1.0, double 2.0)
  ret [2 x double] %r
}

; CHECK-LABEL: define [2 x double] @request(double %x)
; CHECK: call [2 x double] @fwddiffe2_sq(double %x, double 1.000000e+00, double 2.000000e+00)
; CHECK-LABEL: define internal [2 x double] @fwddiffe2_sq(double %x, double %x.shadow, double %x.shadow1)
; CHECK-NEXT: [[P:%.*]] = insertvalue [2 x double] poison, double %x.shadow, 0
; CHECK-NEXT: insertvalue [2 x double] [[P]], double %x.shadow1, 1
; CHECK-COUNT-2: extractvalue [2 x double]
