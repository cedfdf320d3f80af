// The custom-derivative attributes (ADCC_FORWARD_RULE, ADCC_REVERSE_RULE,
// ADCC_INACTIVE) name functions declared before them and apply to functions.
// (Working rules: tests/e2e/custom_rules.c, custom_rules_cpp.cpp.)
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

double f(double x) { return x * x; }

// CHECK: rule-attributes.c:[[@LINE+1]]:19: error: ADCC_FORWARD_RULE must name the function it is the derivative of, declared before it (one function, not an overload set): ADCC_FORWARD_RULE(f) double f_fwd(double x, double dx)
ADCC_FORWARD_RULE(nosuch) double a_fwd(double x, double dx); // expected-error {{ADCC_FORWARD_RULE must name the function it is the derivative of}}
ADCC_FORWARD_RULE(f) int not_a_function; // expected-error {{ADCC_FORWARD_RULE only applies to functions}}
ADCC_REVERSE_RULE(f, later_aug) double d_rev(double x, double d); // expected-error {{use of undeclared identifier 'later_aug'}}
ADCC_REVERSE_RULE(f, 3) double e_rev(double x, double d); // expected-error {{ADCC_REVERSE_RULE must name the augmented forward function}}
ADCC_INACTIVE int counter; // expected-error {{ADCC_INACTIVE only applies to functions}}
double g_fwd(double x, double dx) __attribute__((adcc_forward_rule(f, f))); // expected-error {{attribute 'adcc_forward_rule' names 1 function: ADCC_FORWARD_RULE(f) double f_fwd(double x, double dx)}}
ADCC_INACTIVE void h_ok(double x); // (fine: on a declaration)
double k(double x) __attribute__((adcc_inactive(f))); // expected-error {{attribute 'adcc_inactive' takes no arguments: ADCC_INACTIVE void log_value(double v)}}
