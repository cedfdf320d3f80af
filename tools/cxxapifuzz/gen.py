#!/usr/bin/env python3
"""Random programs of adcc's C++ API (<adcc.hpp>).

`gen.py SEED` prints a C++17 program with a random function of one to four
arguments, each a double or a std::array of one to four doubles, some of
them Const, made of products, squares, sines, cosines and exponentials of
their elements. The program checks, and prints "ok" or the failures:

* adcc::gradient against central differences of the function;
* adcc::forward in a random direction against the gradient's dot product
  with it (forward against reverse);
* adcc::hvp in that direction against central differences of gradients;
* adcc::jacobian of {f, f^2 / 2} against the gradient (rows g and f g).

std::arrays of more than two doubles travel through pointers in the API,
those of one and two as well (every class type does): the mix exercises the
request convention, the closure and the storage of the header.
tests/integration/cxx-api-random.sh runs fixed seeds at -O0 and -O2.
Python 3 standard library only.
"""
import random
import sys

STEP = "1e-6"
HVP_STEP = "1e-5"
TERMS = [
    "{a} * {b}",
    "std::sin({a}) * {b}",
    "std::exp(0.3 * {a}) * {b}",
    "{a} * {a} * {b}",
    "std::cos({a} * {b})",
]


def elements(i, kind, size):
    if kind == "d":
        return ["x%d" % i]
    return ["x%d[%d]" % (i, j) for j in range(size)]


def literal(r, kind, size):
    if kind == "d":
        return repr(round(r.uniform(-1, 1), 3))
    return "{" + ", ".join(repr(round(r.uniform(-1, 1), 3))
                           for _ in range(size)) + "}"


def wrapped(args, const, active_wrapper, value):
    return ", ".join("adcc::Const(x%d)" % i if const[i] else
                     active_wrapper(i, value(i)) for i in range(len(args)))


def program(seed):
    r = random.Random(seed)
    n = r.randint(1, 4)
    args = [("d", 1) if r.random() < 0.45 else ("a", r.randint(1, 4))
            for _ in range(n)]
    const = [r.random() < 0.25 for _ in range(n)]
    if all(const):
        const[0] = False
    active = [i for i in range(n) if not const[i]]
    names = [e for i, (k, s) in enumerate(args) for e in elements(i, k, s)]
    body = " + ".join(
        "%s * " % round(r.uniform(-2, 2), 3) +
        r.choice(TERMS).format(a=r.choice(names), b=r.choice(names))
        for _ in range(r.randint(2, 5)))
    types = ["double" if k == "d" else "std::array<double, %d>" % s
             for k, s in args]
    params = ", ".join("%s x%d" % (t, i) for i, t in enumerate(types))
    xs = ", ".join("x%d" % i for i in range(n))

    out = ["// gen.py %d (tools/cxxapifuzz)" % seed,
           "#include <adcc.hpp>", "#include <array>", "#include <cmath>",
           "#include <cstdio>", "", "static int bad = 0;",
           "static void check(double got, double want, const char *what) {",
           "  double s = std::fabs(want) > 1 ? std::fabs(want) : 1;",
           "  if (!(std::fabs(got - want) <= 1e-6 * s)) {",
           '    std::printf("FAIL %s: %.17g, expected %.17g\\n", what, got, '
           "want);", "    ++bad;", "  }", "}",
           "static double plus(double x, double v, double e) "
           "{ return x + e * v; }",
           "template <std::size_t K>",
           "static std::array<double, K> plus(std::array<double, K> x,",
           "                                  std::array<double, K> v, "
           "double e) {",
           "  for (std::size_t j = 0; j < K; ++j)", "    x[j] += e * v[j];",
           "  return x;", "}",
           "static double f(%s) {" % params, "  return %s;" % body, "}", "",
           "int main() {"]
    for i, t in enumerate(types):
        k, s = args[i]
        out.append("  %s x%d = %s, v%d = %s;" % (t, i, literal(r, k, s), i,
                                                 literal(r, k, s)))
    out.append("  auto G = adcc::gradient(f, %s);" % wrapped(
        args, const, lambda i, v: "adcc::Active(%s)" % v, lambda i: "x%d" % i))
    # The gradient against central differences, element by element.
    for slot, i in enumerate(active):
        k, s = args[i]
        for j in ([None] if k == "d" else range(s)):
            sub = "" if j is None else "[%d]" % j
            plus_args = ", ".join("p" if q == i else "x%d" % q
                                  for q in range(n))
            minus_args = ", ".join("m" if q == i else "x%d" % q
                                   for q in range(n))
            out.append("  {")
            out.append("    auto p = x%d, m = x%d;" % (i, i))
            out.append("    p%s += %s;" % (sub, STEP))
            out.append("    m%s -= %s;" % (sub, STEP))
            out.append('    check(std::get<%d>(G)%s, (f(%s) - f(%s)) / (2 * %s),'
                       ' "gradient of x%d%s");' % (slot, sub, plus_args,
                                                    minus_args, STEP, i, sub))
            out.append("  }")
    # Forward mode against the gradient, in the direction v.
    dual = wrapped(args, const, lambda i, v: "adcc::Dual(x%d, v%d)" % (i, i),
                   lambda i: "")
    out.append("  double T = adcc::forward(f, %s);" % dual)
    out.append("  double D = 0;")
    for slot, i in enumerate(active):
        k, s = args[i]
        if k == "d":
            out.append("  D += std::get<%d>(G) * v%d;" % (slot, i))
        else:
            out.append("  for (int j = 0; j < %d; ++j)" % s)
            out.append("    D += std::get<%d>(G)[j] * v%d[j];" % (slot, i))
    out.append('  check(T, D, "forward against reverse");')
    # The Hessian times v against central differences of gradients.
    out.append("  auto H = adcc::hvp(f, %s);" % dual)
    for sign, name in ((1, "Gp"), (-1, "Gm")):
        out.append("  auto %s = adcc::gradient(f, %s);" % (name, wrapped(
            args, const, lambda i, v: "adcc::Active(%s)" % v,
            lambda i, sign=sign: "plus(x%d, v%d, %s%s)" % (
                i, i, "" if sign > 0 else "-", HVP_STEP))))
    for slot, i in enumerate(active):
        k, s = args[i]
        if k == "d":
            out.append('  check(std::get<%d>(H), (std::get<%d>(Gp) - '
                       'std::get<%d>(Gm)) / (2 * %s), "hvp of x%d");'
                       % (slot, slot, slot, HVP_STEP, i))
        else:
            out.append("  for (int j = 0; j < %d; ++j)" % s)
            out.append('    check(std::get<%d>(H)[j], (std::get<%d>(Gp)[j] - '
                       'std::get<%d>(Gm)[j]) / (2 * %s), "hvp of x%d");'
                       % (slot, slot, slot, HVP_STEP, i))
    # The Jacobian of {f, f^2 / 2}: rows g and f g.
    out.append("  auto g2 = [](%s) {" % params)
    out.append("    double v = f(%s);" % xs)
    out.append("    return std::array<double, 2>{v, 0.5 * v * v};")
    out.append("  };")
    out.append("  auto J = adcc::jacobian(g2, %s);" % wrapped(
        args, const, lambda i, v: "adcc::Active(%s)" % v, lambda i: "x%d" % i))
    out.append("  double F = f(%s);" % xs)
    out.append("  int col = 0;")
    for slot, i in enumerate(active):
        k, s = args[i]
        g = "std::get<%d>(G)" % slot + ("" if k == "d" else "[j]")
        out.append("  for (int j = 0; j < %d; ++j, ++col) {" % s)
        out.append('    check(J[0][col], %s, "jacobian row 0");' % g)
        out.append('    check(J[1][col], F * %s, "jacobian row 1");' % g)
        out.append("  }")
    out += ['  if (!bad)', '    std::printf("ok\\n");', "  return bad != 0;",
            "}"]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: gen.py SEED\n")
        return 2
    sys.stdout.write(program(int(sys.argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
