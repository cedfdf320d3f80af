// A hand-written declaration of the derivative (needed in other
// translation units) must have the type the attribute declares; the error
// prints the expected prototype. adcc generates the body: the program may
// not define it.
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc -fsyntax-only %s 2>&1 | FileCheck %s
#include <adcc.h>

// Before the attribute.
double d_f(const double *x, const double *d_x, int n); // expected-note {{'d_f' is declared here}}
// CHECK:      attribute-prototype.c:[[@LINE+3]]:1: error: 'd_f' does not match the derivative that ADCC_FORWARD declares; expected 'double d_f(const double *x, double *d_x, int n)'
// CHECK-NEXT: [[@LINE+2]] | ADCC_FORWARD(d_f, Dual, Const, DualOnly) double f(const double *x, int n);
// CHECK-NEXT: {{^ *}}| ^{{$}}
ADCC_FORWARD(d_f, Dual, Const, DualOnly) double f(const double *x, int n); // expected-error {{'d_f' does not match the derivative that ADCC_FORWARD declares; expected 'double d_f(const double *x, double *d_x, int n)'}}

int d_g; // expected-note {{'d_g' is declared here}}
ADCC_FORWARD(d_g, Dual, Dual) double g(double x); // expected-error {{'d_g' does not match the derivative that ADCC_FORWARD declares; expected 'struct __adcc_d_g_result d_g(double x, double d_x)'}}

// After the attribute: C reports conflicting types, adcc the expected
// prototype.
ADCC_FORWARD(d_h, Dual, Dual) double h(double x); // expected-note {{previous declaration is here}} expected-note {{derivative declared by this ADCC_FORWARD}}
double d_h(double x, double d_x); // expected-error {{conflicting types for 'd_h'}} expected-error {{'d_h' does not match the derivative that ADCC_FORWARD declares; expected 'struct __adcc_d_h_result d_h(double x, double d_x)'}}

// Matching declarations, before and after, are fine.
double d_ok(double *x, double *d_x);
ADCC_FORWARD(d_ok, Dual, DualOnly) double ok(double *x);
double d_ok(double *x, double *d_x);

// The result struct may be declared by hand, complete or not.
struct __adcc_d_r_result { double primal; double d_return; };
struct __adcc_d_r_result d_r(double x, double d_x);
ADCC_FORWARD(d_r, Dual, Dual) double r(double x);
struct __adcc_d_i_result;
struct __adcc_d_i_result d_i(double x, double d_x);
ADCC_FORWARD(d_i, Dual, Dual) double incomplete(double x);
double use_i(void) { return d_i(1, 1).primal + d_r(1, 1).d_return; }

// ... but with the fields the attribute declares.
struct __adcc_d_b_result { double primal; float d_return; }; // expected-note {{'__adcc_d_b_result' is declared here}}
ADCC_FORWARD(d_b, Dual, Dual) double b(double x); // expected-error {{'__adcc_d_b_result' does not match the result type that ADCC_FORWARD declares; expected 'struct __adcc_d_b_result { double primal; double d_return; }'}}

// The derivative has no body in the source.
double d_body(double x, double d_x) { return d_x; } // expected-error {{'d_body' is the derivative that ADCC_FORWARD declares; adcc generates its body, so it cannot be defined here}}
ADCC_FORWARD(d_body, Dual, DualOnly) double body(double x); // expected-note {{derivative declared by this ADCC_FORWARD}}
ADCC_FORWARD(d_body2, Dual, DualOnly) double body2(double x); // expected-note {{derivative declared by this ADCC_FORWARD}}
double d_body2(double x, double d_x) { return d_x; } // expected-error {{'d_body2' is the derivative that ADCC_FORWARD declares; adcc generates its body, so it cannot be defined here}}

// One name, one derivative.
ADCC_FORWARD(d_same, Dual, Dual) double one(double x); // expected-note {{derivative declared by this ADCC_FORWARD}}
ADCC_FORWARD(d_same, Dual, Dual) double two(double x); // expected-error {{'d_same' is already the derivative of 'one'}}

// Redeclarations of the primal may repeat the attribute, not change it.
ADCC_FORWARD(d_re, Dual, Dual) double re(double *x);
ADCC_FORWARD(d_re, Dual, Dual) double re(double *x);
ADCC_FORWARD(d_re, DualOnly, Dual) double re(double *x); // expected-error {{'d_re' is already declared as the derivative of 're' with other activities or width}}
// expected-note@-3 {{derivative declared by this ADCC_FORWARD}}
