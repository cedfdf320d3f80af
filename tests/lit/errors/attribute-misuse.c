// Misplaced or malformed derivative attributes are errors at the attribute
// (file:line:col, exit status 1), never crashes.
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %adcc -std=c23 -fsyntax-only -Xclang -verify=expected,c23 -DC23 %s
// RUN: %expect-exit 1 %adcc -fsyntax-only %s 2>&1 | FileCheck %s
#include <adcc.h>

// CHECK: attribute-misuse.c:[[@LINE+1]]:1: error: ADCC_FORWARD only applies to functions
ADCC_FORWARD(d_var, Dual) double variable; // expected-error {{ADCC_FORWARD only applies to functions}}
struct ADCC_FORWARD(d_s, Dual) s { int i; }; // expected-error {{only applies to functions}}
// CHECK: attribute-misuse.c:[[@LINE+1]]:1: error: ADCC_FORWARD cannot differentiate variadic function 'variadic'
ADCC_FORWARD(d_variadic, Dual, Dual) double variadic(double x, ...); // expected-error {{ADCC_FORWARD cannot differentiate variadic function 'variadic'}}
#ifndef C23
ADCC_FORWARD(d_kr, Dual) double no_prototype(); // expected-error {{ADCC_FORWARD needs a function with a prototype; declare 'no_prototype' with '(void)' if it takes no parameters}}
#endif
void block_scope(void) {
  ADCC_FORWARD(d_local, Dual, Dual) double local(double x); // expected-error {{ADCC_FORWARD applies to functions declared at file or namespace scope}}
}

// The derivative's name comes first, then (batch forms) the width.
__attribute__((adcc_forward)) double no_args(double x);                // expected-error {{attribute 'adcc_forward' needs the name of the derivative function as its first argument}}
__attribute__((adcc_forward("d_f", "Dual, Dual"))) double quoted(double x); // expected-error {{attribute 'adcc_forward' needs the name of the derivative function as its first argument}}
__attribute__((adcc_forward_batch(d_w))) double no_width(double x);    // expected-error {{attribute 'adcc_forward_batch' needs the batch width after the derivative's name}}
// CHECK: attribute-misuse.c:[[@LINE+1]]:26: error: the batch width of ADCC_FORWARD_BATCH must be a positive integer constant
ADCC_FORWARD_BATCH(d_w0, 0, Dual, Dual) double width0(double x);       // expected-error {{the batch width of ADCC_FORWARD_BATCH must be a positive integer constant}}
ADCC_FORWARD_BATCH(d_wn, -2, Dual, Dual) double width_neg(double x);   // expected-error {{must be a positive integer constant}}
ADCC_FORWARD_BATCH(d_wf, 2.0, Dual, Dual) double width_float(double x); // expected-error {{must be a positive integer constant}}
int runtime_width;
ADCC_FORWARD_BATCH(d_wv, runtime_width, Dual, Dual) double width_var(double x); // expected-error {{must be a positive integer constant}}
ADCC_FORWARD_BATCH(d_w65, 65, Dual, Dual) double width65(double x);    // expected-error {{the batch width of ADCC_FORWARD_BATCH must be at most 64}}
enum { lanes = 8 };
ADCC_FORWARD_BATCH(d_w8, lanes, Dual, Dual) double width8(double x);
ADCC_FORWARD_BATCH(d_w4, 2 * 2, Dual, Dual) double width4(double x);

// Written without the macros, activities are string literals.
__attribute__((adcc_forward(d_n, 1, 2))) double number(double x);         // expected-error {{the activities of attribute 'adcc_forward' must be string literals, such as "Dual"}}
__attribute__((adcc_forward(d_l, L"Dual", "Dual"))) double wide(double x); // expected-error {{must be string literals}}
// CHECK: attribute-misuse.c:[[@LINE+1]]:43: error: unknown activity 'Dul'; attribute 'adcc_forward' accepts Const, Dual and DualOnly
__attribute__((adcc_forward(d_t, "Dual", "Dul"))) double typo(double x);  // expected-error {{unknown activity 'Dul'; attribute 'adcc_forward' accepts Const, Dual and DualOnly}}
__attribute__((adcc_forward(d_u, "Dual, Dual", "Dual"))) double split(double x); // expected-error {{attribute 'adcc_forward' expects 2 activities for 'split'}}

#ifdef C23
[[adcc::forward(d_v, "Dual")]] int c23_variable; // c23-error {{attribute 'adcc::forward' only applies to functions}}
[[forward(d_x, "Dual", "Dual")]] double unscoped(double x); // c23-warning {{unknown attribute 'forward' ignored}}
#endif
