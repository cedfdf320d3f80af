#!/usr/bin/env python3
"""Random stencil kernels for the rewrites of their reverse loops.

`gen.py SEED` prints a C program whose kernel runs one to three loops of a
1-D stencil (radius 1 to 3) or a 2-D five-point stencil over two arrays,
walking up or down, with linear, square, product, sine and quotient terms,
and prints the gradient (reverse mode, `__enzyme_autodiff`) at several sizes,
the smallest included (loops too short for the rewrites). Compiled with the
rewrites of adcore (GatheredUpdates.cpp, AccumulationWindows.cpp) and
without them, the two programs must print the same gradients up to rounding:
`gen.py --compare A B` (relative 1e-11). tests/integration/stencil-rewrites.sh
runs both on fixed seeds. Python 3 standard library only.
"""
import random
import sys


def term(r, arr, idx, offsets):
    o = r.choice(offsets)
    c = round(r.uniform(-1, 1), 3)
    a = "%s[%s]" % (arr, idx(o))
    kind = r.choice(["lin", "lin", "sq", "prod", "sin", "div"])
    if kind == "lin":
        return "%s * %s" % (c, a)
    if kind == "sq":
        return "%s * %s * %s" % (c, a, a)
    if kind == "prod":
        return "%s * %s * %s[%s]" % (c, a, arr, idx(r.choice(offsets)))
    if kind == "sin":
        return "%s * sin(%s)" % (c, a)
    b = "%s[%s]" % (arr, idx(r.choice(offsets)))
    return "%s * %s / (1.5 + %s * %s)" % (c, a, b, b)


def kernel_1d(r, loops):
    reach = r.choice([1, 1, 2, 3])
    offsets = list(range(-reach, reach + 1))

    def idx(o):
        return "i + %d" % o if o >= 0 else "i - %d" % -o
    lines = ["  for (int i = 0; i < n; i++)", "    u[i] = w[i] = x[i];"]
    for k in range(loops):
        src, dst = ("u", "w") if k % 2 == 0 else ("w", "u")
        if r.random() < 0.3:
            head = "for (int i = n - 1 - %d; i >= %d; i--)" % (reach, reach)
        else:
            head = "for (int i = %d; i < n - %d; i++)" % (reach, reach)
        body = " + ".join(term(r, src, idx, offsets)
                          for _ in range(r.randint(1, 4)))
        lines += ["  " + head, "    %s[i] = %s;" % (dst, body)]
    sizes = [2 * reach + 1, 2 * reach + 2, 2 * reach + 3, 2 * reach + 5, 17, 40]
    return lines, sizes


def kernel_2d(r, loops):
    offsets = [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)]

    def idx(o):
        di, dj = o
        return "c" + {1: " + m", -1: " - m", 0: ""}[di] + \
            {1: " + 1", -1: " - 1", 0: ""}[dj]
    lines = ["  int m = 1;", "  while ((m + 1) * (m + 1) <= n)", "    m++;",
             "  for (int i = 0; i < n; i++)", "    u[i] = w[i] = x[i];"]
    for k in range(loops):
        src, dst = ("u", "w") if k % 2 == 0 else ("w", "u")
        if r.random() < 0.3:
            lines += ["  for (int i = m - 2; i >= 1; i--)",
                      "    for (int j = m - 2; j >= 1; j--) {"]
        else:
            lines += ["  for (int i = 1; i < m - 1; i++)",
                      "    for (int j = 1; j < m - 1; j++) {"]
        body = " + ".join(term(r, src, idx, offsets)
                          for _ in range(r.randint(1, 5)))
        lines += ["      long c = (long)i * m + j;",
                  "      %s[c] = %s;" % (dst, body), "    }"]
    return lines, [9, 16, 25, 36, 64]


def program(seed):
    r = random.Random(seed)
    loops = r.choice([1, 2, 2, 3])
    lines, sizes = (kernel_2d if r.random() < 1 / 3 else kernel_1d)(r, loops)
    return "\n".join([
        "/* tools/stencilfuzz/gen.py %d */" % seed,
        "#include <math.h>",
        "#include <stdio.h>",
        "extern void __enzyme_autodiff(void *, ...);",
        "extern int enzyme_dup, enzyme_const;",
        "static void kern(const double *restrict x, double *restrict u,",
        "                 double *restrict w, int n) {"] + lines + [
        "}",
        "int main(void) {",
        "  static const int sizes[] = {%s};" % ", ".join(map(str, sizes)),
        "  for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {",
        "    int n = sizes[s];",
        "    double x[80], dx[80] = {0}, u[80], du[80], w[80], dw[80];",
        "    for (int i = 0; i < n; i++) {",
        "      x[i] = 0.3 + 0.37 * ((i * 7) % 11) / 11.0;",
        "      du[i] = 1.0 - 0.013 * i;",
        "      dw[i] = 0.5 + 0.01 * ((i * 5) % 13);",
        "    }",
        "    __enzyme_autodiff((void *)kern, enzyme_dup, x, dx, enzyme_dup, u,",
        "                      du, enzyme_dup, w, dw, enzyme_const, n);",
        "    printf(\"n=%d\", n);",
        "    for (int i = 0; i < n; i++)",
        "      printf(\" %.17g\", dx[i]);",
        "    printf(\"\\n\");",
        "  }",
        "  return 0;",
        "}", ""])


def compare(a_path, b_path):
    a = open(a_path).read().split()
    b = open(b_path).read().split()
    if len(a) != len(b):
        print("different lengths: %d and %d tokens" % (len(a), len(b)))
        return 1
    for x, y in zip(a, b):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            print("different: %s and %s" % (x, y))
            return 1
        if not abs(fx - fy) <= 1e-11 * max(1.0, abs(fx), abs(fy)):
            print("different: %s and %s" % (x, y))
            return 1
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "--compare":
        return compare(argv[1], argv[2])
    if len(argv) == 1 and argv[0].isdigit():
        sys.stdout.write(program(int(argv[0])))
        return 0
    sys.stderr.write("usage: gen.py SEED | gen.py --compare A B\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
