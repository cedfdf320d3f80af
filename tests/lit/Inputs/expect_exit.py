#!/usr/bin/env python3
"""expect_exit.py STATUS COMMAND [ARGS...]

Runs COMMAND and succeeds only if it exits with exactly STATUS and printed
no crash signature ("Stack dump:", "PLEASE submit a bug report", an LLVM
assertion). COMMAND's standard output and error pass through unchanged, so
the result can be piped into FileCheck. `not` accepts any non-zero status;
the expected-error tests need exactly 1.
"""
import subprocess
import sys

CRASH_SIGNATURES = (b"Stack dump:", b"PLEASE submit a bug report",
                    b"Assertion `", b"LLVM ERROR:")


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: expect_exit.py STATUS COMMAND [ARGS...]\n")
        return 2
    want = int(sys.argv[1])
    proc = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    sys.stdout.buffer.write(proc.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(proc.stderr)
    sys.stderr.flush()
    failed = False
    if proc.returncode != want:
        sys.stderr.write("expect_exit: '%s' exited with status %d, expected "
                         "%d\n" % (sys.argv[2], proc.returncode, want))
        failed = True
    for signature in CRASH_SIGNATURES:
        if signature in proc.stdout or signature in proc.stderr:
            sys.stderr.write("expect_exit: the output contains '%s'\n" %
                             signature.decode())
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
