// The custom-derivative attributes in C++: methods may be inactive;
// constructors and destructors may not carry them.
// RUN: %adcc++ -fsyntax-only -Xclang -verify %s
#include <adcc.h>

struct Logger {
  [[adcc::inactive]] double scale(double x) const { return 2 * x; }
  ADCC_INACTIVE static double twice(double x) { return 2 * x; }
  ADCC_INACTIVE Logger() {} // expected-error {{ADCC_INACTIVE cannot be used on a constructor or destructor}}
  ADCC_INACTIVE ~Logger() {} // expected-error {{ADCC_INACTIVE cannot be used on a constructor or destructor}}
};

template <class T> T g(T x) { return x * x; }
template <class T>
ADCC_FORWARD_RULE(g) T g_fwd(T x, T dx) { return 2 * x * dx; } // expected-error {{ADCC_FORWARD_RULE cannot be used on a function template}}
