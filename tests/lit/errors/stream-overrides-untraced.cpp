// A stream buffer class the program derives (its xsputn and underflow
// overridden), whose object reaches the code adcc differentiates other
// than as a local variable or a `new` made there: as a parameter, as a
// pointer read from memory, as a pointer returned by a function. At -O0
// the library's sputn and sgetn are not inlined, and adcc cannot tell the
// object's class: with a class in the module that overrides a stream
// buffer's virtual functions, a call with an argument given by address
// that has a derivative is an error (was silently 1 for 1 + 4v, the xsputn
// part lost). From -O1 the calls are inlined and differentiated (e2e
// compat_stream_virtuals.cpp).
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cstring>
#include <streambuf>

extern "C" int enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct Accumulator : std::streambuf {
  double *sink;
  explicit Accumulator(double *s) : sink(s) {}
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    double d;
    std::memcpy(&d, s, sizeof d);
    *sink += 2 * d;
    return n;
  }
};

// A parameter.
void put(Accumulator &acc, double q) {
  // CHECK-DAG: stream-overrides-untraced.cpp:[[@LINE+2]]:7: error: cannot differentiate 'put(Accumulator&, double)' in reverse mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on a stream or stream buffer adcc cannot trace to where it was made (a parameter, a pointer read from memory or returned by a function), whose class may be one the program derives from std::streambuf, in this file or another, with virtual functions of its own
  // CHECK-DAG: stream-overrides-untraced.cpp:[[@LINE+1]]:7: error: cannot differentiate 'put(Accumulator&, double)' in forward mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on a stream or stream buffer adcc cannot trace
  acc.sputn(reinterpret_cast<const char *>(&q), sizeof q);
}

double through_parameter(double v) {
  double sink = v;
  Accumulator acc(&sink);
  put(acc, v * v);
  return sink;
}

// A pointer read from memory.
struct Holder {
  std::streambuf *buf;
};

double through_memory(Holder *h, double v) {
  double q = v * v;
  // CHECK-DAG: stream-overrides-untraced.cpp:[[@LINE+1]]:11: error: cannot differentiate 'through_memory(Holder*, double)' in reverse mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on a stream or stream buffer adcc cannot trace
  h->buf->sputn(reinterpret_cast<const char *>(&q), sizeof q);
  return v;
}

// A pointer returned by a function (not inlined at -O0).
Accumulator *make(double *sink) { return new Accumulator(sink); }

double through_returned(double v) {
  double sink = v;
  Accumulator *acc = make(&sink);
  double q = v * v;
  // CHECK-DAG: stream-overrides-untraced.cpp:[[@LINE+1]]:8: error: cannot differentiate 'through_returned(double)' in forward mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on a stream or stream buffer adcc cannot trace
  acc->sputn(reinterpret_cast<const char *>(&q), sizeof q);
  delete acc;
  return sink;
}

// Reading: the place read into is given by address. Source's underflow
// shows the bytes of the double it points to.
struct Source : std::streambuf {
  double *src;
  char bytes[sizeof(double)];
  explicit Source(double *s) : src(s) {}
  int_type underflow() override {
    std::memcpy(bytes, src, sizeof bytes);
    setg(bytes, bytes, bytes + sizeof bytes);
    return traits_type::to_int_type(bytes[0]);
  }
};

double get(std::streambuf &buf) {
  double y = 0;
  // CHECK-DAG: stream-overrides-untraced.cpp:[[@LINE+1]]:7: error: cannot differentiate 'get(std::basic_streambuf<char, std::char_traits<char>>&)' in reverse mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sgetn(char*, long)' is called on a stream or stream buffer adcc cannot trace
  buf.sgetn(reinterpret_cast<char *>(&y), sizeof y);
  return y;
}

double through_read(double v) {
  double x = v * v;
  Source src(&x);
  return get(src) + v;
}

double gradient(double v, Holder *h) {
  return __enzyme_autodiff((void *)through_parameter, v) +
         __enzyme_fwddiff((void *)through_parameter, v, 1.0) +
         __enzyme_autodiff((void *)through_memory, enzyme_const, h, v) +
         __enzyme_fwddiff((void *)through_returned, v, 1.0) +
         __enzyme_autodiff((void *)through_read, v);
}
