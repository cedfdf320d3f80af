#!/usr/bin/env bash
# cmake-example.sh - adcc through its CMake toolchain file.
#
# Configures a copy of examples/cmake-project (a C library and a C++ program
# that include <adcc.h> and use the tape runtime) with
# $ADCC_BUILD_DIR/share/adcc/cmake/adcc-toolchain.cmake, once with the Ninja
# generator and once with Unix Makefiles, and checks for each:
#   1. CMake identifies adcc and adcc++ as "Clang" and uses them;
#   2. the project's check_c_source_compiles / check_cxx_source_compiles
#      (try_compile projects, which re-read the toolchain file) succeed;
#   3. compile_commands.json lists exactly the two sources, compiled by adcc
#      (C) and adcc++ (C++), and every command in it works when re-run; a
#      Clang tool (clang-check) can read it;
#   4. the build works, the program and the project's ctest tests pass;
#   5. compiler dependency files drive rebuilds: touching a header rebuilds
#      exactly its dependents (for Ninja also `ninja -n -d explain`), and a
#      build right after a build has nothing to do.
# Then checks how the toolchain file finds adcc: from the CMake variable
# ADCC_ROOT (also inside try_compile), from the environment variable
# ADCC_ROOT (kept in the cache for later re-runs), and that it stops with a
# clear message when adcc cannot be found or ADCC_ROOT is not absolute.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCCXX ADCC_BUILD_DIR ADCC_SOURCE_DIR
require_tool cmake "install cmake"
require_tool ctest "install cmake"
require_tool ninja "install ninja-build"
require_tool make "install GNU make"
require_tool python3 "install python3"
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env

toolchain=$ADCC_BUILD_DIR/share/adcc/cmake/adcc-toolchain.cmake
[[ -f "$toolchain" ]] || fail "toolchain file '$toolchain' is missing from the build tree"

new_workdir cmake-example
work=$WORKDIR
src=$work/src
cp -R "$ADCC_SOURCE_DIR/examples/cmake-project" "$src"

# same_exe A B : true if A and B name the same program: the same directory
# (after resolving symbolic links) and the same file name. The file name is
# compared as is, since adcc++ may be a link to adcc that selects C++ mode.
same_exe() {
  [[ "$(basename "$1")" == "$(basename "$2")" &&
    "$(realpath "$(dirname "$1")")" == "$(realpath "$(dirname "$2")")" ]]
}

# check_identification LOG : the project prints the compilers CMake found.
check_identification() {
  local log=$1 lang exe id expected line
  for lang in C CXX; do
    if [[ $lang == C ]]; then expected=$ADCC; else expected=$ADCCXX; fi
    line=$(grep -E "^-- example: $lang compiler " "$log") ||
      fail "the configure log has no '$lang compiler' line"
    exe=$(sed -E "s/^-- example: $lang compiler (.*) \(id .*$/\1/" <<<"$line")
    id=$(sed -E 's/^.*\(id ([^,]*),.*$/\1/' <<<"$line")
    [[ "$id" == Clang ]] || fail "CMAKE_${lang}_COMPILER_ID is '$id', expected Clang"
    same_exe "$exe" "$expected" ||
      fail "CMAKE_${lang}_COMPILER is '$exe', expected '$expected'"
    pass "CMAKE_${lang}_COMPILER_ID is Clang, compiler $exe"
  done
}

# check_try_compile BUILD : the project's configure-time checks succeeded.
check_try_compile() {
  local var
  for var in EXAMPLE_HAVE_ADCC_C EXAMPLE_HAVE_ADCC_CXX; do
    grep -q "^$var:INTERNAL=1$" "$1/CMakeCache.txt" ||
      fail "try_compile check $var did not succeed (see $1/CMakeFiles/CMakeError.log)"
  done
  pass "check_c_source_compiles and check_cxx_source_compiles with <adcc.h> and the runtime succeed"
}

# check_compile_commands BUILD : validates compile_commands.json and re-runs
# every command in it.
check_compile_commands() {
  local db=$1/compile_commands.json
  [[ -s "$db" ]] || fail "$db is missing"
  python3 - "$db" "$ADCC" "$ADCCXX" "$src" <<'EOF' || fail "compile_commands.json check failed"
import json, os, shlex, subprocess, sys

db_path, adcc, adccxx, src = sys.argv[1:5]
def same_exe(a, b):
    return (os.path.basename(a) == os.path.basename(b) and
            os.path.realpath(os.path.dirname(a)) ==
            os.path.realpath(os.path.dirname(b)))

entries = json.load(open(db_path))
expected = {os.path.join(src, "numlib", "numlib.c"): adcc,
            os.path.join(src, "app", "main.cpp"): adccxx}
files = sorted(os.path.realpath(e["file"]) for e in entries)
want = sorted(os.path.realpath(f) for f in expected)
if files != want:
    sys.exit(f"compile_commands.json lists {files}, expected {want}")
for e in entries:
    argv = shlex.split(e["command"]) if "command" in e else e["arguments"]
    compiler = expected[[f for f in expected
                         if os.path.realpath(f) == os.path.realpath(e["file"])][0]]
    if not same_exe(argv[0], compiler):
        sys.exit(f"{e['file']} is compiled by {argv[0]}, expected {compiler}")
    if "-c" not in argv or e["file"] not in argv:
        sys.exit(f"command for {e['file']} does not compile it: {argv}")
    print(f"  {os.path.basename(e['file'])}: {os.path.basename(argv[0])} ... -c {e['file']}")
    # The command must reproduce the compilation from its directory; its
    # object goes to a scratch file so that the build is left untouched.
    if "-o" not in argv:
        sys.exit(f"command for {e['file']} has no -o: {argv}")
    argv[argv.index("-o") + 1] = os.path.join(
        os.path.dirname(db_path), "rerun-" + os.path.basename(e["file"]) + ".o")
    run = subprocess.run(argv, cwd=e["directory"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"re-running the command for {e['file']} failed:\n{run.stderr}")
EOF
  pass "compile_commands.json names adcc/adcc++ for the right files; its commands work"

  # A Clang tool reads the database. Tools do not know adcc's predefined
  # macro or its header directory; docs/build-systems.md gives these flags.
  local clang_check
  clang_check=$(dirname "${CLANG:-/usr/lib/llvm-22/bin/clang}")/clang-check
  if [[ -x "$clang_check" ]]; then
    run_logged "$work/clang-check.log" "$clang_check" -p "$1" \
      --extra-arg=-D__ADCC__=1 \
      "--extra-arg=-isystem$ADCC_BUILD_DIR/lib/adcc/include" \
      "$src/numlib/numlib.c" "$src/app/main.cpp"
    pass "clang-check reads compile_commands.json"
  else
    echo "note: $clang_check not found (Debian package clang-tools-22);" \
      "the clang-check step of this test was not run"
  fi
}

# built_objects LOG : prints the objects a build log says it compiled,
# sorted, one line ("numlib.c.o main.cpp.o"). Both generators print
# "Building <LANG> object <path>".
built_objects() {
  { grep -oE 'Building (C|CXX) object [^ ]+' "$1" || true; } |
    sed -E 's#.*/##' | sort | tr '\n' ' '
}

# touch_and_build BUILD HEADER EXPECTED : touches HEADER (relative to the
# source copy), builds and checks that exactly EXPECTED objects were built.
touch_and_build() {
  local build=$1 header=$2 expected=$3 log got
  log=$work/touch-$(basename "$build")-$(basename "$header").log
  sleep 1 # keep timestamps apart on file systems with coarse clocks
  touch "$src/$header"
  run_logged "$log" cmake --build "$build"
  got=$(built_objects "$log")
  [[ "$got" == "$expected" ]] ||
    fail "after touching $header the build compiled '$got', expected '$expected'"
  pass "touching $header rebuilt exactly: $expected"
}

# build_is_noop BUILD : a build right after a build compiles nothing.
build_is_noop() {
  local log
  log=$work/noop-$(basename "$1").log
  run_logged "$log" cmake --build "$1"
  [[ -z "$(built_objects "$log")" ]] ||
    fail "a build right after a build compiled: $(built_objects "$log")"
}

# check_generator GENERATOR : the whole sequence for one generator.
check_generator() {
  local gen=$1 build log
  build=$work/build-${gen// /-}
  log=$work/configure-${gen// /-}.log

  step "[$gen] configure with $toolchain"
  run_logged "$log" cmake -S "$src" -B "$build" -G "$gen" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain"
  check_identification "$log"
  check_try_compile "$build"

  step "[$gen] build, run, ctest"
  run_logged "$work/build-${gen// /-}.log" cmake --build "$build"
  check_compile_commands "$build"
  "$build/fitdemo" >"$work/fitdemo.out" || {
    cat "$work/fitdemo.out"
    fail "fitdemo failed"
  }
  cat "$work/fitdemo.out"
  run_logged "$work/ctest-${gen// /-}.log" ctest --test-dir "$build" --output-on-failure
  pass "fitdemo runs; the project's ctest tests pass"

  step "[$gen] dependency files"
  # Ninja moves the compiler's .d files into its own database; the Makefile
  # generator keeps them beside the objects.
  local obj deps
  for obj in CMakeFiles/numlib.dir/numlib/numlib.c.o \
    CMakeFiles/fitdemo.dir/app/main.cpp.o; do
    if [[ $gen == Ninja ]]; then
      deps=$(ninja -C "$build" -t deps "$obj")
    else
      deps=$(cat "$build/$obj.d")
    fi
    grep -q 'numlib\.h' <<<"$deps" || fail "the dependencies of $obj do not list numlib.h: $deps"
    grep -q 'adcc\.h' <<<"$deps" || fail "the dependencies of $obj do not list adcc.h: $deps"
    if [[ $obj == *main.cpp.o ]]; then
      grep -q 'series\.hpp' <<<"$deps" || fail "the dependencies of $obj do not list series.hpp"
    fi
  done
  pass "compiler-written dependencies list the project headers and <adcc.h>"

  if [[ $gen == Ninja ]]; then
    sleep 1
    touch "$src/app/series.hpp"
    ninja -C "$build" -n -d explain >"$work/explain.out" 2>&1 ||
      fail "ninja -n -d explain failed"
    grep -q "older than most recent input .*series\.hpp" "$work/explain.out" ||
      fail "ninja does not explain the rebuild by series.hpp: $(cat "$work/explain.out")"
    grep -q 'main\.cpp\.o is dirty' "$work/explain.out" ||
      fail "ninja does not consider main.cpp.o dirty"
    grep -q 'numlib\.c\.o is dirty' "$work/explain.out" &&
      fail "ninja considers numlib.c.o dirty, but series.hpp is not among its inputs"
    pass "ninja -d explain: series.hpp makes main.cpp.o (only) dirty"
  fi
  touch_and_build "$build" app/series.hpp "main.cpp.o "
  touch_and_build "$build" numlib/numlib.h "main.cpp.o numlib.c.o "
  build_is_noop "$build"
  run_logged "$work/ctest2-${gen// /-}.log" ctest --test-dir "$build" --output-on-failure
  pass "an immediate rebuild has nothing to compile; tests still pass"
}

check_generator Ninja
check_generator "Unix Makefiles"

# How the toolchain file finds adcc. A copy of it outside any adcc prefix
# cannot find adcc relative to itself, so only ADCC_ROOT can point to it.
step "toolchain file: ADCC_ROOT"
mkdir -p "$work/elsewhere"
foreign=$work/elsewhere/adcc-toolchain.cmake
cp "$toolchain" "$foreign"

run_logged "$work/root-var.log" cmake -S "$src" -B "$work/root-var" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$foreign" -DADCC_ROOT="$ADCC_BUILD_DIR"
check_identification "$work/root-var.log"
check_try_compile "$work/root-var" # the variable reached the try_compile projects
pass "-DADCC_ROOT=<prefix> selects adcc, also in try_compile"

run_logged "$work/root-env.log" env ADCC_ROOT="$ADCC_BUILD_DIR" \
  cmake -S "$src" -B "$work/root-env" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$foreign"
check_identification "$work/root-env.log"
check_try_compile "$work/root-env"
run_logged "$work/root-env-rerun.log" cmake "$work/root-env"
run_logged "$work/root-env-build.log" cmake --build "$work/root-env"
pass "ADCC_ROOT in the environment selects adcc; a re-run without it keeps it"

if cmake -S "$src" -B "$work/no-root" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$foreign" \
  >"$work/no-root.log" 2>&1; then
  fail "configuring with a toolchain file that cannot find adcc succeeded"
fi
if ! grep -q "cannot find the adcc compiler" "$work/no-root.log" ||
  ! grep -q "ADCC_ROOT" "$work/no-root.log"; then
  fail "no clear message when adcc is not found: $(tail -n 20 "$work/no-root.log")"
fi
pass "without adcc the configure stops with a message that names ADCC_ROOT"

if cmake -S "$src" -B "$work/bad-root" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
  -DADCC_ROOT="$work/elsewhere" >"$work/bad-root.log" 2>&1; then
  fail "configuring with ADCC_ROOT pointing to a directory without adcc succeeded"
fi
# CMake wraps long messages: compare with the whitespace squeezed.
tr -s ' \n' '  ' <"$work/bad-root.log" |
  grep -q "cannot find the adcc compiler '$work/elsewhere/bin/adcc'" ||
  fail "no clear message for a wrong ADCC_ROOT: $(tail -n 20 "$work/bad-root.log")"
pass "a wrong ADCC_ROOT is reported with the path that was searched"

if cmake -S "$src" -B "$work/relative-root" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$foreign" \
  -DADCC_ROOT=relative/prefix >"$work/relative-root.log" 2>&1; then
  fail "configuring with a relative ADCC_ROOT succeeded"
fi
tr -s ' \n' '  ' <"$work/relative-root.log" |
  grep -q "ADCC_ROOT must be an absolute path" ||
  fail "no clear message for a relative ADCC_ROOT: $(tail -n 20 "$work/relative-root.log")"
pass "a relative ADCC_ROOT is refused with a clear message"

echo
echo "cmake-example: all checks passed"
