// Reverse-mode attributes: activities Const, Active, Duplicated and
// DuplicatedOnly, checked against the parameters, for the batch form too.
// (Working derivatives: tests/e2e/rev_attributes.c, rev_width.c.)
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

// CHECK: attribute-reverse.c:[[@LINE+1]]:28: error: 'Dual' is a forward-mode activity; ADCC_REVERSE_BATCH accepts Const, Active, Duplicated and DuplicatedOnly
ADCC_REVERSE_BATCH(d_h, 4, Dual, Const) void h(double *x, int n); // expected-error {{'Dual' is a forward-mode activity; ADCC_REVERSE_BATCH accepts Const, Active, Duplicated and DuplicatedOnly}}
// A hand-written prototype of the batch form must match it.
struct __adcc_d_k_result { double primal; double d_x[2]; };
struct __adcc_d_k_result d_k(double x, double seed_0); // expected-note {{'d_k' is declared here}}
[[adcc::reverse_batch(d_k, 2, "Active", "Active")]] double k(double x); // expected-error {{'d_k' does not match the derivative that attribute 'adcc::reverse_batch' declares; expected 'struct __adcc_d_k_result d_k(double x, double seed_0, double seed_1)'}}

// Checked like forward mode, with reverse-mode activities.
ADCC_REVERSE(d_a, Dual, Active) double a(double x); // expected-error {{'Dual' is a forward-mode activity; ADCC_REVERSE accepts Const, Active, Duplicated and DuplicatedOnly}}
ADCC_REVERSE(d_b, Active, Active) double b(double *x); // expected-error {{Active is not valid for parameter 'x' of type 'double *': pointers and references are Duplicated}}
ADCC_REVERSE(d_c, Duplicated, Active) double c(double x); // expected-error {{Duplicated is not valid for parameter 'x' of type 'double': only pointers and references have shadow memory; use Active for a floating-point value}}
ADCC_REVERSE(d_d, Active, Active) int d(double x); // expected-error {{Active is not valid for the return type 'int' of 'd': it carries no derivative; use Const}}
// Small structs of floating-point values are Active (tests/e2e/split_values.c),
// larger ones or ones with other fields are not.
typedef struct { double x, y, z; } vec3;
typedef struct { double w; long n; } weighted;
ADCC_REVERSE(d_v3, Active, Active) double v3(vec3 p); // expected-error {{Active is not valid for parameter 'p' of type 'vec3': only structs of at most 16 bytes of floating-point values are Active; pass a pointer to it, Duplicated}}
ADCC_REVERSE(d_wt, Active, Active) double wt(weighted p); // expected-error {{Active is not valid for parameter 'p' of type 'weighted': only structs of at most 16 bytes of floating-point values are Active; pass a pointer to it, Duplicated}}
ADCC_REVERSE(d_e, Active) double e(double x); // expected-error {{ADCC_REVERSE expects 2 activities for 'e'}}
ADCC_REVERSE(d_p, Duplicated, Duplicated) double *p(double *x); // expected-error {{Duplicated is not valid for the return type 'double *' of 'p': a reverse-mode derivative returns no shadow; use Active for a floating-point result, Const otherwise}}
ADCC_REVERSE_BATCH(d_w, 0, Active, Active) double w(double x); // expected-error {{the batch width of ADCC_REVERSE_BATCH must be a positive integer constant}}
