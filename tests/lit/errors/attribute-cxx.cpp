// C++: what the derivative attributes do not support yet, template
// instantiations checked one by one, and hand-written declarations that
// would silently become other overloads.
// RUN: %adcc++ -std=c++20 -fsyntax-only -Xclang -verify %s
// RUN: %expect-exit 1 %adcc++ -std=c++20 -fsyntax-only %s 2>&1 | FileCheck %s
#include <adcc.h>

struct S {
  // CHECK: attribute-cxx.cpp:[[@LINE+1]]:3: error: ADCC_FORWARD does not support member functions yet; mark a free function
  ADCC_FORWARD(d_m, Dual, Dual) double method(double x); // expected-error {{ADCC_FORWARD does not support member functions yet; mark a free function}}
  ADCC_FORWARD(d_sm, Dual, Dual) static double static_method(double x); // expected-error {{does not support member functions yet}}
  ADCC_FORWARD(d_fr, Dual, Dual) friend double friend_function(double x); // expected-error {{ADCC_FORWARD applies to functions declared at file or namespace scope}}
};
ADCC_FORWARD(d_auto, Dual, Dual) auto deduced(double x) { return x; } // expected-error {{ADCC_FORWARD needs the return type of 'deduced' written out; it cannot be deduced}}
ADCC_FORWARD(d_trailing, Dual, Dual) auto trailing(double x) -> double { return x; }
consteval ADCC_FORWARD(d_ce, Dual, Dual) double compile_time(double x) { return x; } // expected-error {{ADCC_FORWARD cannot differentiate consteval function 'compile_time', which has no code}}
constexpr ADCC_FORWARD(d_cx, Dual, Dual) double constexpr_ok(double x) { return x; }
template <class... T>
ADCC_FORWARD(d_pack, Dual, Dual) double pack(T... x) { return 0; } // expected-error {{ADCC_FORWARD does not support function parameter packs}}
[[adcc::forward(d_v, "Dual")]] int variable; // expected-error {{attribute 'adcc::forward' only applies to functions}}
[[forward(d_x, "Dual", "Dual")]] double unscoped(double x); // expected-warning {{unknown attribute 'forward' ignored}}

// Templates: the activities are checked for each instantiation.
template <class T>
ADCC_FORWARD(d_ti, Dual, Dual) T ti(T x) { return x; } // expected-error {{Dual is not valid for parameter 'x' of type 'int': it carries no derivative; use Const}}
template double ti<double>(double);
template int ti<int>(int); // expected-note {{in instantiation of function template specialization 'ti<int>' requested here}}
template <class T>
ADCC_FORWARD(d_ts, Dual, Dual) T ts(T x) { return x; } // expected-error {{Dual is not valid for parameter 'x' of type 'long'}}
template <> long ts<long>(long x) { return x; } // expected-note {{while declaring the derivative of 'ts<long>'}}
template <class T>
ADCC_FORWARD(d_tv, Dual, Dual) T tv(double x) { return T(x); } // expected-error {{ADCC_FORWARD expects 1 activity for 'tv<void>' (one per parameter; a void function has no return activity), got 2}}
template void tv<void>(double); // expected-note {{in instantiation of function template specialization 'tv<void>' requested here}}
// One derivative per instantiation, as overloads: two instantiations with
// the same parameters cannot share the name.
template <int N>
ADCC_FORWARD(d_tn, Dual, Dual) double tn(double x) { return N * x; } // expected-error {{'d_tn' is already the derivative of 'tn<1>'}} expected-note {{derivative declared by this ADCC_FORWARD}}
template double tn<1>(double);
template double tn<2>(double); // expected-note {{in instantiation of function template specialization 'tn<2>' requested here}}

// A hand-written declaration with other parameters would be an overload
// that nothing defines.
double d_ov(double x, float d_x); // expected-note {{'d_ov' is declared here}}
ADCC_FORWARD(d_ov, Dual, Dual) double ov(double x); // expected-error {{'d_ov' does not match the derivative that ADCC_FORWARD declares; expected '__adcc_d_ov_result d_ov(double x, double d_x)'}}
ADCC_FORWARD(d_later, Dual, DualOnly) double later(double x); // expected-note {{derivative declared by this ADCC_FORWARD}}
double d_later(float x, float d_x); // expected-error {{'d_later' does not match the derivative that ADCC_FORWARD declares; expected 'double d_later(double x, double d_x)'}}
namespace ns {
ADCC_FORWARD(d_ns, Dual, DualOnly) double in_ns(double x); // expected-note {{derivative declared by this ADCC_FORWARD}}
double d_ns(double x); // expected-error {{'d_ns' does not match the derivative that ADCC_FORWARD declares; expected 'double d_ns(double x, double d_x)'}}
double d_ns(double x, double d_x);
} // namespace ns
ADCC_FORWARD(d_ref, Dual, Dual) double &ref(double &x); // expected-error {{Dual is not valid for the return type 'double &' of 'ref': the derivative cannot return a reference; use Const}}
