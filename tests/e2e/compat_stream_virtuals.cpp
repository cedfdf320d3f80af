// Calls of the virtual functions of the C++ library's stream buffers inside
// a differentiated function (Enzyme's programs write files this way): a
// local std::filebuf given a buffer (pubsetbuf: a virtual setbuf), a block
// from `new std::filebuf` (its virtual destructor on delete), the bytes of
// an active float written with sputn (a virtual xsputn). Those functions
// are the library's, defined in no file adcc compiles: their calls are
// inactive, as the class's direct calls are (analysis/LibraryObjects.h;
// they were the error "no function defined in this translation unit can be
// the target of this call" from -O1, and at -O0 a run-time error). A stream
// buffer derived by the program keeps its own virtual functions, and a
// derivative that flows through one of them is followed from -O1, where
// the library's sputn is inlined (at -O0 the call of the library's sputn
// on it is an error: lit errors/stream-overrides.cpp), also where the
// object reaches the code as a parameter, a pointer read from memory or
// returned by a function (lit errors/stream-overrides-untraced.cpp). A
// std::ostream or std::istream over such a buffer writing or reading bytes
// (write, read) is an error at every level (lit
// errors/stream-over-derived-buffer.cpp); numbers written and read as text
// through one (os << x, is >> y) carry no derivative, and are accepted at
// every level. Both modes, analytic values and central differences.
#include "check.h"

#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <streambuf>

extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// f(v) = (2v)^2, with output to a file buffer on the way.
double through_filebufs(double v) {
  char buffer[256];
  std::filebuf local;
  local.pubsetbuf(buffer, sizeof buffer);
  v *= 2;
  std::filebuf *heap = new std::filebuf();
  if (heap->open("/dev/null", std::ios::out | std::ios::binary)) {
    float f = float(v);
    heap->sputn(reinterpret_cast<const char *>(&f), sizeof f);
    heap->pubsync();
    heap->close();
  }
  delete heap;
  return v * v;
}

#if defined(__OPTIMIZE__)
// The program's own stream buffer: what is written to it lands, scaled, in
// a double it points to.
struct Accumulator : std::streambuf {
  double *sink;
  double scale;
  Accumulator(double *s, double k) : sink(s), scale(k) {}
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    double d;
    std::memcpy(&d, s, sizeof d);
    *sink += scale * d;
    return n;
  }
};

// g(v) = 1.5 v^2 + v, the v^2 part written through Accumulator::xsputn.
double through_own_buffer(double v) {
  double sink = v;
  Accumulator acc(&sink, 1.5);
  double sq = v * v;
  acc.sputn(reinterpret_cast<const char *>(&sq), sizeof sq);
  return sink;
}

// The same buffer reached as a parameter, through a pointer kept in
// memory, and from a function that makes it: g(v) = 1.5 v^2 + v each.
__attribute__((noinline)) void put(Accumulator &acc, double q) {
  acc.sputn(reinterpret_cast<const char *>(&q), sizeof q);
}

double through_parameter(double v) {
  double sink = v;
  Accumulator acc(&sink, 1.5);
  put(acc, v * v);
  return sink;
}

struct Holder {
  std::streambuf *buf;
};

__attribute__((noinline)) void put_held(Holder *h, double q) {
  h->buf->sputn(reinterpret_cast<const char *>(&q), sizeof q);
}

double through_memory(double v) {
  double sink = v;
  Accumulator acc(&sink, 1.5);
  Holder h{&acc};
  put_held(&h, v * v);
  return sink;
}

__attribute__((noinline)) Accumulator *make(double *sink) {
  return new Accumulator(sink, 1.5);
}

double through_returned(double v) {
  double sink = v;
  Accumulator *acc = make(&sink);
  double sq = v * v;
  acc->sputn(reinterpret_cast<const char *>(&sq), sizeof sq);
  delete acc;
  return sink;
}
#endif

// Text through the program's stream buffers: a count of the characters
// written, and a fixed text read back. No derivative passes through them.
struct Counter : std::streambuf {
  long count = 0;
  int_type overflow(int_type c) override {
    ++count;
    return c;
  }
};

struct Text : std::streambuf {
  char text[8] = "2.5";
  bool given = false;
  int_type underflow() override {
    if (given)
      return traits_type::eof();
    given = true;
    setg(text, text, text + std::strlen(text));
    return traits_type::to_int_type(text[0]);
  }
};

__attribute__((noinline)) void show(std::ostream &os, double x) {
  os << x << ' ';
}

// t(v) = 3 v^2 + 2.5: v^2 written as text to a stream over a Counter (also
// given as a parameter) and as bytes to a stream over a library file
// buffer; 2.5 read as text from a stream over a Text.
double through_text(double v) {
  double sq = v * v;
  Counter counter;
  std::ostream os(&counter);
  os << sq;
  show(os, sq);
  std::filebuf file;
  std::ostream bytes(&file);
  if (file.open("/dev/null", std::ios::out | std::ios::binary))
    bytes.write(reinterpret_cast<const char *>(&sq), sizeof sq);
  Text text;
  std::istream is(&text);
  double y = 0;
  is >> y;
  return 3 * sq + y + 0 * double(counter.count);
}

int main() {
  const double v = 2.1, h = 1e-6;
  double d = __enzyme_autodiff((void *)through_filebufs, v);
  CHECK_CLOSE(d, 8 * v, 1e-12);
  CHECK_CLOSE(d, (through_filebufs(v + h) - through_filebufs(v - h)) / (2 * h),
              1e-6);
  CHECK_CLOSE(__enzyme_fwddiff((void *)through_filebufs, v, 1.0), 8 * v, 1e-12);

#if defined(__OPTIMIZE__)
  double g = __enzyme_autodiff((void *)through_own_buffer, v);
  CHECK_CLOSE(g, 3 * v + 1, 1e-12);
  CHECK_CLOSE(g,
              (through_own_buffer(v + h) - through_own_buffer(v - h)) / (2 * h),
              1e-6);
  CHECK_CLOSE(__enzyme_fwddiff((void *)through_own_buffer, v, 1.0), 3 * v + 1,
              1e-12);
#define CHECK_G(f)                                                             \
  CHECK_CLOSE(__enzyme_autodiff((void *)f, v), 3 * v + 1, 1e-12);             \
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, v, 1.0), 3 * v + 1, 1e-12);          \
  CHECK_CLOSE((f(v + h) - f(v - h)) / (2 * h), 3 * v + 1, 1e-6)
  CHECK_G(through_parameter);
  CHECK_G(through_memory);
  CHECK_G(through_returned);
#endif
  CHECK_CLOSE(through_text(v), 3 * v * v + 2.5, 1e-12);
  double t = __enzyme_autodiff((void *)through_text, v);
  CHECK_CLOSE(t, 6 * v, 1e-12);
  CHECK_CLOSE(t, (through_text(v + h) - through_text(v - h)) / (2 * h), 1e-6);
  CHECK_CLOSE(__enzyme_fwddiff((void *)through_text, v, 1.0), 6 * v, 1e-12);
  return check_finish();
}
