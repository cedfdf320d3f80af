// Reverse and forward mode through C++ library calls that carry no
// derivative: std::cin >> n (stdin comes from a file the program writes
// first), a double read from a std::istringstream over an active variable
// (the value read is a constant: its derivative is reset), wide output
// (std::wcout.imbue, std::wcout << x), a local std::stringbuf used through
// std::streambuf's virtual functions. Closed forms, central differences
// and forward mode (dot-product tests). (std::unordered_map / std::map with
// std::string keys are not here yet: docs/status.md.)
#include "rev_check.h"

#include <cstdio>
#include <iostream>
#include <locale>
#include <sstream>
#include <string>

#include <unistd.h>

// x1 (sin x0 + sin 2 x1 + sin 3 x0) with n = 3 read from stdin
static double cin_count(const double *x) {
  int n = 0;
  std::cin.clear();
  std::cin.seekg(0);
  if (!(std::cin >> n))
    n = 1;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(x[i % 2] * (i + 1));
  return s * x[1];
}

// 1.5 x0^2 - 0.25 x1 + cos x1: a held x0 before the read
static double stream_double(const double *x) {
  std::istringstream in("1.5 -0.25");
  double a = x[0], b = 0;
  in >> a >> b;
  return a * x[0] * x[0] + b * x[1] + std::cos(x[1]);
}

// x0 x1 + exp(x0)
static double wide_out(const double *x) {
  double y = x[0] * x[1];
  std::wcout.imbue(std::locale::classic());
  if (y > 1e6) // never: the output is compiled, not run (stdout stays narrow)
    std::wcout << L"y = " << y << std::endl;
  return y + std::exp(x[0]);
}

// 2 x0 x1 + x1: the first character in the buffer is 'a'
static double streambuf_calls(const double *x) {
  std::stringbuf buf;
  std::streambuf *sb = &buf;
  sb->sputn("abc", 3);
  sb->sputc('d');
  int c = sb->sgetc();
  return x[0] * x[1] * (c == 'a' ? 2.0 : 1.0) + x[1];
}

int main() {
  // stdin: "3", read again from its start by each call of cin_count (a
  // file of this process's own: the levels run side by side)
  char path[64];
  std::snprintf(path, sizeof path, "rev_library_calls.%d.stdin", (int)getpid());
  FILE *f = std::fopen(path, "w");
  if (!f || std::fputs("3\n", f) < 0 || std::fclose(f) != 0 ||
      !std::freopen(path, "r", stdin))
    return 1;
  CHECK_GRAD_AND_DOT(cin_count, 2, 1.0);
  CHECK_GRAD_AND_DOT(stream_double, 2, 1.0);
  CHECK_GRAD_AND_DOT(wide_out, 2, 1.0);
  CHECK_GRAD_AND_DOT(streambuf_calls, 2, 1.0);

  double x[2] = {0.4, -0.9};
#define EXACT(fn, e0, e1)                                                      \
  do {                                                                         \
    double exact[2] = {(e0), (e1)}, g[2] = {0, 0};                             \
    __enzyme_autodiff((void *)fn, x, g);                                       \
    CHECK_GRAD(fn, x, 2, g, exact);                                            \
  } while (0)
  EXACT(cin_count, x[1] * (std::cos(x[0]) + 3 * std::cos(3 * x[0])),
        std::sin(x[0]) + std::sin(2 * x[1]) + std::sin(3 * x[0]) +
            2 * x[1] * std::cos(2 * x[1]));
  EXACT(stream_double, 3 * x[0], -0.25 - std::sin(x[1]));
  EXACT(wide_out, x[1] + std::exp(x[0]), x[0]);
  EXACT(streambuf_calls, 2 * x[1], 2 * x[0] + 1);
  std::remove(path);
  return check_finish();
}
