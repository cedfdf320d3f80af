// Reverse mode: the syntax is settled and checked (activities Const,
// Active, Duplicated, DuplicatedOnly), then reported as not implemented.
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

// CHECK: attribute-reverse.c:[[@LINE+1]]:1: error: ADCC_REVERSE: reverse mode is not implemented yet in this version of adcc
ADCC_REVERSE(d_f, Duplicated, Const, Active) double f(const double *x, int n); // expected-error {{ADCC_REVERSE: reverse mode is not implemented yet in this version of adcc}}
ADCC_REVERSE(d_g, Active, Active) double g(double x); // expected-error {{reverse mode is not implemented yet}}
ADCC_REVERSE_BATCH(d_h, 4, DuplicatedOnly, Const) void h(double *x, int n); // expected-error {{ADCC_REVERSE_BATCH: reverse mode is not implemented yet}}
[[adcc::reverse(d_k, "Active", "Active")]] double k(double x); // expected-error {{attribute 'adcc::reverse': reverse mode is not implemented yet}}

// Checked like forward mode, with reverse-mode activities.
ADCC_REVERSE(d_a, Dual, Active) double a(double x); // expected-error {{'Dual' is a forward-mode activity; ADCC_REVERSE accepts Const, Active, Duplicated and DuplicatedOnly}}
ADCC_REVERSE(d_b, Active, Active) double b(double *x); // expected-error {{Active is not valid for parameter 'x' of type 'double *': pointers and references are Duplicated}}
ADCC_REVERSE(d_c, Duplicated, Active) double c(double x); // expected-error {{Duplicated is not valid for parameter 'x' of type 'double': only pointers and references have shadow memory; use Active for a floating-point value}}
ADCC_REVERSE(d_d, Active, Active) int d(double x); // expected-error {{Active is not valid for the return type 'int' of 'd': it carries no derivative; use Const}}
ADCC_REVERSE(d_e, Active) double e(double x); // expected-error {{ADCC_REVERSE expects 2 activities for 'e'}}
ADCC_REVERSE_BATCH(d_w, 0, Active, Active) double w(double x); // expected-error {{the batch width of ADCC_REVERSE_BATCH must be a positive integer constant}}
