// A call of the C++ library's stream-buffer function (sputn) on an object
// of a class the program derives from std::streambuf, with an argument that
// has a derivative: at -O0 the library's function is not inlined, and it
// calls the program's xsputn, which the derivative would not reach. An
// error, not a derivative without that part (was silently 1 for 2v + 1),
// for a local of the class and for one from `new`.
// From -O1 the call is inlined and differentiated (e2e
// compat_stream_virtuals.cpp).
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cstring>
#include <streambuf>

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct Accumulator : std::streambuf {
  double *sink;
  explicit Accumulator(double *s) : sink(s) {}
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    double d;
    std::memcpy(&d, s, sizeof d);
    *sink += d;
    return n;
  }
};

double through_own_buffer(double v) {
  double sink = v;
  Accumulator acc(&sink);
  double sq = v * v;
  // CHECK-DAG: stream-overrides.cpp:[[@LINE+2]]:7: error: cannot differentiate 'through_own_buffer(double)' in reverse mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on an object of a class this program derives from a library stream buffer or stream
  // CHECK-DAG: stream-overrides.cpp:[[@LINE+1]]:7: error: cannot differentiate 'through_own_buffer(double)' in forward mode
  acc.sputn(reinterpret_cast<const char *>(&sq), sizeof sq);
  return sink;
}

// The same object from `new`: its class is known by its constructor, which
// constructs the library's std::streambuf at its `this`.
double through_new_buffer(double v) {
  double sink = v;
  Accumulator *acc = new Accumulator(&sink);
  double sq = v * v;
  // CHECK-DAG: stream-overrides.cpp:[[@LINE+1]]:8: error: cannot differentiate 'through_new_buffer(double)' in reverse mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on an object of a class this program derives from
  acc->sputn(reinterpret_cast<const char *>(&sq), sizeof sq);
  delete acc;
  return sink;
}

double gradient(double v) {
  return __enzyme_autodiff((void *)through_own_buffer, v) +
         __enzyme_fwddiff((void *)through_own_buffer, v, 1.0) +
         __enzyme_autodiff((void *)through_new_buffer, v);
}
