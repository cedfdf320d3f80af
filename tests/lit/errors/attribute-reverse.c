// Reverse-mode attributes: activities Const, Active, Duplicated and
// DuplicatedOnly, checked against the parameters; the batch form is
// reported as not implemented. (Working derivatives: tests/e2e/rev_attributes.c.)
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

// CHECK: attribute-reverse.c:[[@LINE+1]]:1: error: ADCC_REVERSE_BATCH: batched reverse mode is not implemented yet in this version of adcc; use ADCC_REVERSE once per direction
ADCC_REVERSE_BATCH(d_h, 4, DuplicatedOnly, Const) void h(double *x, int n); // expected-error {{ADCC_REVERSE_BATCH: batched reverse mode is not implemented yet in this version of adcc; use ADCC_REVERSE once per direction}}
[[adcc::reverse_batch(d_k, 2, "Active", "Active")]] double k(double x); // expected-error {{attribute 'adcc::reverse_batch': batched reverse mode is not implemented yet}}

// Checked like forward mode, with reverse-mode activities.
ADCC_REVERSE(d_a, Dual, Active) double a(double x); // expected-error {{'Dual' is a forward-mode activity; ADCC_REVERSE accepts Const, Active, Duplicated and DuplicatedOnly}}
ADCC_REVERSE(d_b, Active, Active) double b(double *x); // expected-error {{Active is not valid for parameter 'x' of type 'double *': pointers and references are Duplicated}}
ADCC_REVERSE(d_c, Duplicated, Active) double c(double x); // expected-error {{Duplicated is not valid for parameter 'x' of type 'double': only pointers and references have shadow memory; use Active for a floating-point value}}
ADCC_REVERSE(d_d, Active, Active) int d(double x); // expected-error {{Active is not valid for the return type 'int' of 'd': it carries no derivative; use Const}}
ADCC_REVERSE(d_e, Active) double e(double x); // expected-error {{ADCC_REVERSE expects 2 activities for 'e'}}
ADCC_REVERSE(d_p, Duplicated, Duplicated) double *p(double *x); // expected-error {{Duplicated is not valid for the return type 'double *' of 'p': a reverse-mode derivative returns no shadow; use Active for a floating-point result, Const otherwise}}
ADCC_REVERSE_BATCH(d_w, 0, Active, Active) double w(double x); // expected-error {{the batch width of ADCC_REVERSE_BATCH must be a positive integer constant}}
