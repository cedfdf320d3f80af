// A stream buffer class derived in another file (its xsputn overridden),
// whose object reaches the differentiated function as a pointer returned
// by a function of that file. At -O0 the library's sputn is not inlined
// and the file that calls it cannot see the class: until 2026-12-06 the
// call was kept as the library's, inactive, and the derivative lost the
// override's part (1 instead of 1 + 4v = 3.8, both modes), because only a
// file that derives such a class itself refused it. Now any stream buffer
// adcc cannot trace is refused there; from -O1 the inlined virtual call
// reaches a function of another file, also an error.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %expect-exit 1 %adcc++ -O0 -c main.cpp -o main.o 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %expect-exit 0 %adcc++ -O2 -c main.cpp -o main.o
// O0-DAG: main.cpp:[[#LINE:]]:8: error: cannot differentiate 'f(double)' in reverse mode: the C++ library's 'std::basic_streambuf<char, std::char_traits<char>>::sputn(char const*, long)' is called on a stream or stream buffer adcc cannot trace to where it was made (a parameter, a pointer read from memory or returned by a function), whose class may be one the program derives from std::streambuf, in this file or another
// O0-DAG: main.cpp:[[#LINE]]:8: error: cannot differentiate 'f(double)' in forward mode: the C++ library's
// From -O2 the file compiles: no function of this file has the virtual
// call's type; where the call runs, the program stops before it with the
// place of the program's call (until 2026-12-07 a compile-time error, lit
// errors/fnptr-untargeted-stop.c), never 1 for 3.8:
// RUN: %adcc++ -O2 -c acc.cpp -o acc.o
// RUN: %adcc++ -O2 -c run.cpp -o run.o
// RUN: %adcc++ main.o acc.o run.o -o t2
// RUN: not --crash ./t2 r 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not --crash ./t2 f 2>&1 | FileCheck %s --check-prefix=STOP
// STOP: adcc runtime: error: main.cpp:10:8: the derivative of 'f(double)' calls a function pointer (at streambuf:{{[0-9]+}}:{{[0-9]+}}, inlined there), and no function of the pointer's type is defined in the translation unit that requests the derivative
// STOP-NOT: reached

//--- acc.cpp
#include <cstring>
#include <streambuf>
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
std::streambuf *make_acc(double *sink) { return new Accumulator(sink); }

//--- main.cpp
#include <streambuf>
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
std::streambuf *make_acc(double *sink);
/* sink = v + 2 v^2 */
double f(double v) {
  double sink = v;
  std::streambuf *acc = make_acc(&sink);
  double q = v * v;
  acc->sputn(reinterpret_cast<const char *>(&q), sizeof q);
  return sink;
}
double df(double v) { return __enzyme_autodiff((void *)f, v); }
double tf(double v) { return __enzyme_fwddiff((void *)f, v, 1.0); }

//--- run.cpp
#include <cstdio>
double df(double);
double tf(double);
int main(int argc, char **argv) {
  double v = 0.7;
  double d = argc > 1 && argv[1][0] == 'r' ? df(v) : tf(v);
  std::printf("reached %.6f (1 + 4v = %.6f)\n", d, 1 + 4 * v);
}
