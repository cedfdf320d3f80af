// A stream of the library made over a stream buffer the program derives
// (std::ostream os(&acc), std::istream is(&src)): the stream's unformatted
// output and input (write, read) are functions of libstdc++, never inlined,
// that call the buffer's virtual functions (xsputn, underflow) the program
// overrides. With an argument given by address that has a derivative, an
// error at every level (was silently 1 for 1 + 4v, and 1 for 1 + 2v): for
// a local stream over a local buffer, for a stream given as a parameter
// (its buffer unknown, while the module derives one), for reading.
// Numbers written and read as text (os << x, is >> y) carry no derivative
// and stay accepted (e2e compat_stream_virtuals.cpp).
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cstring>
#include <istream>
#include <ostream>
#include <streambuf>

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

double write_to_stream(double v) {
  double sink = v;
  Accumulator acc(&sink);
  std::ostream os(&acc);
  double q = v * v;
  // CHECK-DAG: stream-over-derived-buffer.cpp:[[@LINE+2]]:6: error: cannot differentiate 'write_to_stream(double)' in reverse mode: the C++ library's 'std::ostream::write(char const*, long)' is called on a stream over a stream buffer of a class this program derives from std::streambuf, whose virtual functions it calls
  // CHECK-DAG: stream-over-derived-buffer.cpp:[[@LINE+1]]:6: error: cannot differentiate 'write_to_stream(double)' in forward mode: the C++ library's 'std::ostream::write(char const*, long)' is called on a stream over a stream buffer
  os.write(reinterpret_cast<const char *>(&q), sizeof q);
  return sink;
}

__attribute__((noinline)) void put(std::ostream &os, double q) {
  // CHECK-DAG: stream-over-derived-buffer.cpp:[[@LINE+1]]:6: error: cannot differentiate 'put(std::ostream&, double)' in reverse mode: the C++ library's 'std::ostream::write(char const*, long)' is called on a stream or stream buffer adcc cannot trace to where it was made
  os.write(reinterpret_cast<const char *>(&q), sizeof q);
}

double write_through_parameter(double v) {
  double sink = v;
  Accumulator acc(&sink);
  std::ostream os(&acc);
  put(os, v * v);
  return sink;
}

double read_from_stream(double v) {
  double x = v * v;
  Source src(&x);
  std::istream is(&src);
  double y = 0;
  // CHECK-DAG: stream-over-derived-buffer.cpp:[[@LINE+1]]:6: error: cannot differentiate 'read_from_stream(double)' in forward mode: the C++ library's 'std::istream::read(char*, long)' is called on a stream over a stream buffer of a class this program derives
  is.read(reinterpret_cast<char *>(&y), sizeof y);
  return y + v;
}

double gradient(double v) {
  return __enzyme_autodiff((void *)write_to_stream, v) +
         __enzyme_fwddiff((void *)write_to_stream, v, 1.0) +
         __enzyme_autodiff((void *)write_through_parameter, v) +
         __enzyme_fwddiff((void *)read_from_stream, v, 1.0);
}
