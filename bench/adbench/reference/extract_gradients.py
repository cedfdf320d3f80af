#!/usr/bin/env python3
"""Writes the upstream reference gradients of the GMM and LSTM test inputs
as plain text files (one number per line) for gmm/lstm --expect-grad.

Source: ../shared/data/adbench/reference/upstream_test_expected_values.json
(relative to the repository root), numbers transcribed from ADBench's unit
tests (MIT, see that directory's LICENSE.ADBench.txt).  Python's repr() of a
float round-trips exactly, so the files hold the same doubles as the JSON.

Usage (from the repository root): python3 bench/adbench/reference/extract_gradients.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SRC = os.path.join(ROOT, "..", "shared", "data", "adbench", "reference",
                   "upstream_test_expected_values.json")

OUTPUTS = {
    "gmm/test.txt": "gmm_test_gradient.txt",
    "lstm/lstm_l2_c1024.txt": "lstm_l2_c1024_gradient.txt",
}


def main():
    with open(SRC) as f:
        ref = json.load(f)
    for key, name in OUTPUTS.items():
        grad = ref[key]["gradient"]
        with open(os.path.join(HERE, name), "w") as out:
            out.write("".join(repr(float(g)) + "\n" for g in grad))
        print("%s: %d numbers from %s" % (name, len(grad), key))


if __name__ == "__main__":
    main()
