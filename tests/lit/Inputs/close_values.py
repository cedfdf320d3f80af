#!/usr/bin/env python3
"""close_values.py TOLERANCE FILE_A FILE_B

Compares two outputs made of lines "LABEL: V1 V2 ...", the values printed
with %a (hexadecimal floating point) or %g. The labels must be the same,
line by line, and each pair of values equal to within TOLERANCE relative to
the larger magnitude (absolute below 1). Prints the first difference and
exits with 1; prints "same" and exits with 0 otherwise.
"""
import sys


def parse(path):
    rows = []
    with open(path) as f:
        for line in f:
            label, _, values = line.rstrip("\n").partition(":")
            nums = [float.fromhex(v) if "0x" in v else float(v)
                    for v in values.split()]
            rows.append((label, nums))
    return rows


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: close_values.py TOLERANCE FILE_A FILE_B\n")
        return 2
    tol = float(sys.argv[1])
    a, b = parse(sys.argv[2]), parse(sys.argv[3])
    if len(a) != len(b) or not a:
        print("different line counts: %d and %d" % (len(a), len(b)))
        return 1
    for (la, va), (lb, vb) in zip(a, b):
        if la != lb or len(va) != len(vb):
            print("different lines: %r and %r" % (la, lb))
            return 1
        for i, (x, y) in enumerate(zip(va, vb)):
            if abs(x - y) > tol * max(1.0, abs(x), abs(y)):
                print("%s [%d]: %r and %r" % (la, i, x, y))
                return 1
    print("same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
