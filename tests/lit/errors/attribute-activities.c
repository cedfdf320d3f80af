// Activities are checked against the primal: one per parameter, then one
// for the return value (none for void), each valid for its type. Errors
// point at the activity word inside the ADCC_FORWARD invocation.
// RUN: %adcc -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc -fsyntax-only %s 2>&1 | FileCheck %s
#include <adcc.h>

// CHECK: attribute-activities.c:[[@LINE+1]]:1: error: ADCC_FORWARD expects 3 activities for 'count' (one per parameter, then one for the return value), got 2
ADCC_FORWARD(d_count, Dual, Dual) double count(double x, int n); // expected-error {{ADCC_FORWARD expects 3 activities for 'count' (one per parameter, then one for the return value), got 2}}
ADCC_FORWARD(d_count4, Dual, Const, Dual, Dual) double count4(double x, int n); // expected-error {{expects 3 activities for 'count4'}}
ADCC_FORWARD(d_none) double none(double x); // expected-error {{expects 2 activities for 'none' (one per parameter, then one for the return value), got 0}}

// A void function has no return activity.
ADCC_FORWARD(d_v, Dual, Const, Const) void v(double *x, int n); // expected-error {{ADCC_FORWARD expects 2 activities for 'v' (one per parameter; a void function has no return activity), got 3}}
ADCC_FORWARD(d_vok, Dual, Const) void vok(double *x, int n);

// CHECK: attribute-activities.c:[[@LINE+1]]:25: error: unknown activity 'Foo'; ADCC_FORWARD accepts Const, Dual and DualOnly
ADCC_FORWARD(d_unknown, Foo, Dual) double unknown(double x); // expected-error-re {{unknown activity 'Foo'; ADCC_FORWARD accepts Const, Dual and DualOnly{{$}}}}
ADCC_FORWARD(d_case, dual, Dual) double lower_case(double x); // expected-error {{unknown activity 'dual'}}
// CHECK: attribute-activities.c:[[@LINE+1]]:36: error: 'Active' is a reverse-mode activity; ADCC_FORWARD accepts Const, Dual and DualOnly
ADCC_FORWARD(d_active, Dual, Dual, Active) double active(double x, double y); // expected-error {{'Active' is a reverse-mode activity; ADCC_FORWARD accepts Const, Dual and DualOnly}}
ADCC_FORWARD(d_dup, Duplicated, Dual) double dup(double *x); // expected-error {{'Duplicated' is a reverse-mode activity}}
ADCC_FORWARD(d_empty, Dual,, Dual) double empty(double x, double y); // expected-error {{missing activity in ADCC_FORWARD}}

// Dual needs a value that carries a derivative: floating point (scalar,
// complex, vector), a struct, or a pointer (to any data: its shadow is
// memory).
// CHECK: attribute-activities.c:[[@LINE+1]]:27: error: Dual is not valid for parameter 'n' of type 'int': it carries no derivative; use Const
ADCC_FORWARD(d_int, Dual, Dual, Dual) double int_param(double x, int n); // expected-error {{Dual is not valid for parameter 'n' of type 'int': it carries no derivative; use Const}}
ADCC_FORWARD(d_bool, DualOnly, Dual) double bool_param(_Bool b); // expected-error {{DualOnly is not valid for parameter 'b' of type '_Bool'}}
enum color { red };
ADCC_FORWARD(d_enum, Dual, Dual) double enum_param(enum color c); // expected-error {{Dual is not valid for parameter 'c' of type 'enum color'}}
ADCC_FORWARD(d_unnamed, Const, Dual, Dual) double unnamed(double, long); // expected-error {{Dual is not valid for parameter 2 of type 'long'}}
ADCC_FORWARD(d_ret, Dual, Dual) int int_return(double x); // expected-error {{Dual is not valid for the return type 'int' of 'int_return': it carries no derivative; use Const}}
ADCC_FORWARD(d_reto, Dual, DualOnly) long long_return(double x); // expected-error {{DualOnly is not valid for the return type 'long'}}

struct pair { double a, b; };
typedef double v4d __attribute__((vector_size(32)));
ADCC_FORWARD(d_ok1, Dual, Const, DualOnly) double ok1(const int *idx, int n);
ADCC_FORWARD(d_ok2, Dual, Dual) struct pair ok2(struct pair p);
ADCC_FORWARD(d_ok3, Dual, Dual, Dual) _Complex double ok3(_Complex double z, v4d v);
ADCC_FORWARD(d_ok4, Dual, Dual) double *ok4(double *p);
ADCC_FORWARD(d_ok5, Const, Const) int ok5(int n);
ADCC_FORWARD(d_ok6, Dual, DualOnly) float ok6(long double x);
