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
// on it is an error: lit errors/stream-overrides.cpp). Both modes,
// analytic values and central differences.
#include "check.h"

#include <cstring>
#include <fstream>
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
#endif

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
#endif
  return check_finish();
}
