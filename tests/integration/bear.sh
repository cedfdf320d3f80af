#!/usr/bin/env bash
# bear.sh - build watchers record adcc's compiles in compile_commands.json.
#
# Bear and intercept-build record the programs a build executes and keep
# those whose name looks like a compiler's; under them adcc runs itself again
# as adcc-clang / adcc-clang++ (links beside adcc) so that its compiles are
# kept. Checks:
#   1. with a watcher's environment variable set, adcc runs as adcc-clang and
#      adcc++ as adcc-clang++ (their diagnostics carry that name); without
#      it, adcc runs as itself;
#   2. `bear -- make CC=adcc CXX=adcc++` on a project of a C and a C++ file
#      writes exactly their two compiles, named adcc-clang and adcc-clang++
#      (links to the adcc under test), not the link; every recorded command
#      reproduces its object from its directory; the program runs;
#   3. intercept-build (from clang-tools-22), where installed, records the
#      same two compiles.
# Exits with 77 (reported by ctest as skipped) after step 1 when bear is not
# installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCCXX
require_tool make "install GNU make"
require_tool python3 "install python3"
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env
unset INTERCEPT_REPORT_DESTINATION INTERCEPT_BUILD_TARGET_DIR

new_workdir bear
work=$WORKDIR
cd "$work"

step "adcc's name with and without a watcher"
# error_prefix CC [ENV...] : the program name in CC's error for a missing file.
error_prefix() {
  local cc=$1
  shift
  env "$@" "$cc" -c "$work/missing.c" 2>&1 |
    sed -n -E '/^[^:]*: error:/{s/^([^:]*): error:.*$/\1/p;q;}'
}
for var in INTERCEPT_REPORT_DESTINATION INTERCEPT_BUILD_TARGET_DIR; do
  [[ $(error_prefix "$ADCC" "$var=x") == adcc-clang ]] ||
    fail "with $var set, adcc does not run as adcc-clang: $(error_prefix "$ADCC" "$var=x")"
  [[ $(error_prefix "$ADCCXX" "$var=x") == adcc-clang++ ]] ||
    fail "with $var set, adcc++ does not run as adcc-clang++"
done
[[ $(error_prefix "$ADCC") == adcc ]] ||
  fail "without a watcher, adcc runs as '$(error_prefix "$ADCC")'"
pass "with a watcher's variable adcc runs as adcc-clang (adcc++ as adcc-clang++), without one as adcc"

if ! command -v bear >/dev/null 2>&1; then
  echo "SKIP: bear is not installed (Debian package bear); steps 2 and 3 not run"
  exit 77
fi

mkdir -p "$work/src"
cat >"$work/src/Makefile" <<'EOF'
all: sum
sum: sum.o main.o
	$(CXX) -o $@ sum.o main.o
sum.o: sum.c
	$(CC) -O1 -c -o $@ sum.c
main.o: main.cpp
	$(CXX) -O1 -c -o $@ main.cpp
EOF
printf 'double sum(double a, double b) { return a + b; }\n' >"$work/src/sum.c"
cat >"$work/src/main.cpp" <<'EOF'
#include <cstdio>
extern "C" double sum(double, double);
int main() { std::printf("%g\n", sum(1.5, 2.0)); }
EOF

# check_database DB LOG : DB lists the compiles of sum.c by adcc-clang and
# main.cpp by adcc-clang++ and nothing else; each command reproduces its
# object. LOG names the tool.
check_database() {
  python3 - "$1" "$ADCC" "$work/src" "$2" <<'EOF' || fail "$2: compile_commands.json check failed"
import json, os, shlex, subprocess, sys

db, adcc, src, tool = sys.argv[1:5]
entries = json.load(open(db))
want = {"sum.c": "adcc-clang", "main.cpp": "adcc-clang++"}
files = sorted(os.path.basename(e["file"]) for e in entries)
if files != sorted(want):
    sys.exit(f"{tool} recorded {files}, expected {sorted(want)}")
for e in entries:
    argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    name = os.path.basename(e["file"])
    # intercept-build names the compiler cc or c++ in its database.
    if tool == "bear":
        if os.path.basename(argv[0]) != want[name]:
            sys.exit(f"{name} is compiled by {argv[0]}, expected {want[name]}")
        if os.path.realpath(argv[0]) != os.path.realpath(adcc):
            sys.exit(f"{argv[0]} is not a link to the adcc under test")
    if "-c" not in argv:
        sys.exit(f"the command for {name} does not compile: {argv}")
    argv[argv.index("-o") + 1] = os.path.join(os.path.dirname(db), "rerun-" + name + ".o")
    if tool != "bear":
        argv[0] = os.path.join(os.path.dirname(adcc), want[name])
    run = subprocess.run(argv, cwd=e["directory"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"re-running the command for {name} failed:\n{run.stderr}")
    print(f"  {name}: {os.path.basename(argv[0])} ... -c {name}")
EOF
}

step "bear -- make CC=adcc CXX=adcc++"
echo "$(bear --version 2>&1 | head -n 1)"
run_logged "$work/bear.log" bash -c \
  "cd '$work/src' && bear --output '$work/bear.json' -- make CC='$ADCC' CXX='$ADCCXX'"
check_database "$work/bear.json" bear
[[ $("$work/src/sum") == 3.5 ]] || fail "the program built under bear prints '$("$work/src/sum")'"
pass "bear recorded the two compiles (not the link) as adcc-clang / adcc-clang++; they reproduce; the program runs"

step "intercept-build"
intercept=$(dirname "${CLANG:-/usr/lib/llvm-22/bin/clang}")/intercept-build
if [[ -x $intercept ]]; then
  rm -f "$work/src"/*.o "$work/src/sum"
  run_logged "$work/intercept.log" bash -c \
    "cd '$work/src' && '$intercept' --cdb '$work/intercept.json' make CC='$ADCC' CXX='$ADCCXX'"
  check_database "$work/intercept.json" intercept-build
  pass "intercept-build recorded the two compiles"
else
  echo "note: $intercept is not installed (clang-tools-22); not checked"
fi
