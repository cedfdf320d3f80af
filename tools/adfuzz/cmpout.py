#!/usr/bin/env python3
"""Compare the outputs of one adfuzz program built at two optimization levels.

    cmpout.py A.out B.out

The programs print "primal NAME = VALUE" and "grad[I] = VALUE" lines. The
primal values must agree to TOL_PRIMAL (relative), the gradients to TOL_GRAD
(relative to 1 + the larger magnitude: forward and reverse code may be
scheduled differently at different levels). Prints the first difference and
exits 1 if they disagree, 0 otherwise.
"""

import sys

TOL_PRIMAL = 1e-12
TOL_GRAD = 1e-9


def values(path):
    vals = {}
    with open(path, errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not (line.startswith("primal ") or line.startswith("grad[")):
                continue
            key, sep, val = line.rpartition(" = ")
            if not sep:
                continue
            try:
                vals[key] = float(val)
            except ValueError:
                vals[key] = val
    return vals


def differ(key, a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a != b
    if a == b:
        return False
    if a != a or b != b:  # NaN
        return True
    m = max(abs(a), abs(b))
    if key.startswith("primal"):
        return abs(a - b) > TOL_PRIMAL * m
    return abs(a - b) > TOL_GRAD * (1 + m)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: cmpout.py A.out B.out\n")
        return 2
    a, b = values(argv[1]), values(argv[2])
    if not a:
        print("no values in %s" % argv[1])
        return 1
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print("%s printed by only one build" % key)
            return 1
        if differ(key, a[key], b[key]):
            print("%s: %r vs %r" % (key, a[key], b[key]))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
