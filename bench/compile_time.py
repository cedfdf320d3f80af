#!/usr/bin/env python3
"""bench/compile_time.py: adcc's compile time against clang-22's.

Compiles every source bench/run builds (with the flags it builds them
with), and a C++ file without derivative requests that includes Eigen, with
`-c` by the compiler under test and by clang-22, and prints a markdown
table: file, clang-22's time, adcc's time and their ratio (issue 34's
target: at most 1.5). Times are user CPU time of the compiler's process
tree (the machine is shared: wall time moves with the load, user time
much less), the fastest of --runs compiles, adcc and clang-22 interleaved
(the order alternating every round) so that drift affects both alike.

    bench/compile_time.py                  # -O2, fastest of 3
    bench/compile_time.py --runs 5 --opt -O3 --only hand,ba
    bench/compile_time.py --sys            # user + system time

This is a benchmark, not a test: it reports and never asserts. Python 3
standard library only.
"""

import argparse
import datetime
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The vectorizers off (bench/run's NOVEC_FLAGS and SMALLCALLS_FLAGS).
NOVEC = ["-fno-vectorize", "-fno-slp-vectorize"]
SMALLCALLS = NOVEC + ["-ffast-math", "-fno-unroll-loops"]


def sources(eigen):
    """(name, path relative to ROOT, extra flags) of bench/run's builds,
    and one C++ file without requests (Eigen's templates, from the
    directory \p eigen)."""
    mpi = None
    if shutil.which("mpicc"):
        out = subprocess.run(["mpicc", "--showme:compile"],
                             capture_output=True, text=True)
        if out.returncode == 0:
            mpi = shlex.split(out.stdout)
    rows = [
        ("reverse_bench", "bench/reverse/reverse_bench.c", []),
        ("forward_bench", "bench/forward/forward_bench.c", []),
        ("forward_bench novec", "bench/forward/forward_bench.c", NOVEC),
        ("gmm", "bench/adbench/gmm.c", []),
        ("lstm", "bench/adbench/lstm.c", []),
        ("ba", "bench/adbench/ba.c", []),
        ("hand", "bench/adbench/hand.c", []),
        ("launches_bench", "bench/launches/launches_bench.cpp", []),
        ("gmm_omp", "bench/parallel/gmm_omp.c", ["-fopenmp"]),
        ("checkpoint_bench", "bench/checkpoint/checkpoint_bench.c", []),
        ("smallcalls_bench", "bench/smallcalls/smallcalls_bench.c",
         SMALLCALLS),
        ("hvp_bench", "bench/nested/hvp_bench.c", []),
        ("eigen (no requests)", "bench/compile/eigen.cpp",
         ["-isystem", eigen]),
    ]
    if mpi is not None:
        rows.insert(9, ("heat_mpi", "bench/mpi/heat_mpi.c", mpi))
    return rows


def user_time(cmd, cwd, with_sys):
    """Runs cmd; returns (exit status, CPU seconds of it and its
    children)."""
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=null, stderr=null)
        _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    t = ru.ru_utime + (ru.ru_stime if with_sys else 0.0)
    return p.returncode, t


def load():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    build = os.path.join(ROOT, "build", "bin")
    p.add_argument("--cc", default=os.path.join(build, "adcc"))
    p.add_argument("--cxx", default=os.path.join(build, "adcc++"))
    p.add_argument("--clang", default="clang-22")
    p.add_argument("--clangxx", default="clang++-22")
    p.add_argument("--opt", default="-O2")
    p.add_argument("--runs", type=int, default=3,
                   help="compiles per compiler and file; the fastest counts")
    p.add_argument("--only", help="comma-separated names (first word)")
    p.add_argument("--eigen", metavar="DIR",
                   default=os.environ.get("ADCC_EIGEN_INCLUDE",
                                          "/usr/include/eigen3"),
                   help="Eigen's include directory (default: "
                   "$ADCC_EIGEN_INCLUDE, else the system's)")
    p.add_argument("--sys", action="store_true",
                   help="user + system time instead of user time")
    args = p.parse_args()

    only = set(args.only.split(",")) if args.only else None
    start = datetime.datetime.now(datetime.timezone.utc)
    print(f"{start:%Y-%m-%d %H:%M} UTC, {args.opt}, fastest of {args.runs}, "
          f"{'user+sys' if args.sys else 'user'} time, load average "
          f"{load()} at the start", flush=True)
    print("\n| file | flags | clang-22 | adcc | ratio |")
    print("|---|---|--:|--:|--:|", flush=True)
    ratios = []
    with tempfile.TemporaryDirectory(prefix="adcc-ctime-") as work:
        obj = os.path.join(work, "out.o")
        for name, rel, extra in sources(args.eigen):
            if only and name.split()[0] not in only:
                continue
            src = os.path.join(ROOT, rel)
            if not os.path.exists(src):
                print(f"| `{rel}` | | missing | | |")
                continue
            cxx = rel.endswith(".cpp")
            mine = shlex.split(args.cxx if cxx else args.cc)
            ref = shlex.split(args.clangxx if cxx else args.clang)
            flags = shlex.split(args.opt) + extra
            times = {"adcc": [], "clang": []}
            failed = None
            for i in range(args.runs):
                order = ("adcc", "clang") if i % 2 == 0 else ("clang", "adcc")
                for who in order:
                    cc = mine if who == "adcc" else ref
                    rc, t = user_time(cc + flags + ["-c", src, "-o", obj],
                                      work, args.sys)
                    if rc != 0:
                        # (<adcc.h> and <adcc/kernels.hpp> are adcc's
                        # own: clang-22 cannot compile their users.)
                        failed = (f"{who} failed ({rc})" if who == "adcc"
                                  else "– (adcc's headers)")
                        break
                    times[who].append(t)
                if failed:
                    break
            # (Include directories are the machine's, not the row's.)
            shown = " ".join(f for f in extra if f != "-isystem" and
                             not f.startswith(("-I", "/")))
            if failed:
                print(f"| `{rel}` | {shown} | {failed} | | |", flush=True)
                continue
            a, c = min(times["adcc"]), min(times["clang"])
            ratios.append(a / c)
            print(f"| `{rel}` | {shown} | {c:.2f} s | {a:.2f} s | "
                  f"{a / c:.2f} |", flush=True)
    print(f"\nload average {load()} at the end; "
          f"{sum(r > 1.5 for r in ratios)} of {len(ratios)} files above 1.5")
    return 0


if __name__ == "__main__":
    sys.exit(main())
