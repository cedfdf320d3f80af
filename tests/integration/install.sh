#!/usr/bin/env bash
# install.sh - an installed adcc works on its own.
#
# Installs the adcc build tree with `cmake --install --prefix` into a scratch
# prefix and checks:
#   1. the install layout: bin/adcc, bin/adcc++, bin/adcc-clang(++), links to
#      LLVM 22's tools (bin/llvm-ar ...), lib/adcc/include/{adcc.h,
#      adcc.hpp, adcc_request.hpp, adcc_runtime.h}, lib/adcc/lib/libadcc_rt.a,
#      share/adcc/cmake/adcc-toolchain.cmake;
#   2. the installed files do not refer to the build tree: no RPATH/RUNPATH
#      into it, no build-tree path in the adcc binary, every shared library
#      resolves, and `adcc -v` takes <adcc.h> and libadcc_rt.a from the prefix;
#   3. from another directory, with a clean environment
#      (env -i PATH=/usr/bin:/bin), the installed adcc prints its version,
#      and adcc / adcc++ compile and link C and C++ programs that include
#      <adcc.h> and call the tape runtime (in one call, and as separate
#      compile and link steps); the programs run correctly;
#   4. the same again with the build tree and the source tree hidden (empty
#      directories mounted over them in a private mount namespace), where the
#      system allows `unshare -m`; otherwise a note says it was not done;
#   5. examples/cmake-project builds and passes its tests with the installed
#      toolchain file, and examples/make-project with the installed adcc;
#   6. the prefix is relocatable: moved elsewhere, adcc still works.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC_BUILD_DIR ADCC_SOURCE_DIR
require_tool cmake "install cmake"
require_tool ninja "install ninja-build"
require_tool make "install GNU make"
require_tool readelf "install binutils"
require_tool objcopy "install binutils"
clean_build_env

new_workdir install
work=$WORKDIR
prefix=$work/prefix
elsewhere=$work/elsewhere # an unrelated working directory
mkdir -p "$elsewhere"
build_real=$(realpath "$ADCC_BUILD_DIR")
source_real=$(realpath "$ADCC_SOURCE_DIR")

# isolated CMD... : runs CMD in $elsewhere with a minimal environment.
isolated() {
  (cd "$elsewhere" && env -i PATH=/usr/bin:/bin HOME="$work" LC_ALL=C "$@")
}

# refers_to_tree FILE : true if FILE mentions the build or source tree.
refers_to_tree() {
  grep -a -q -F -e "$build_real" -e "$ADCC_BUILD_DIR" \
    -e "$source_real" -e "$ADCC_SOURCE_DIR" "$1"
}

step "cmake --install $ADCC_BUILD_DIR --prefix $prefix"
run_logged "$work/install.log" cmake --install "$ADCC_BUILD_DIR" --prefix "$prefix"
for f in bin/adcc bin/adcc++ bin/adcc-clang bin/adcc-clang++; do
  require_exe "$prefix/$f"
done
for f in lib/adcc/include/adcc.h lib/adcc/include/adcc.hpp \
  lib/adcc/include/adcc_request.hpp lib/adcc/include/adcc_runtime.h \
  lib/adcc/lib/libadcc_rt.a share/adcc/cmake/adcc-toolchain.cmake; do
  [[ -s "$prefix/$f" ]] || fail "the install lacks $f"
done
pass "install layout is complete"
# adcc++ (and adcc-clang, adcc-clang++ for build watchers, see bear.sh) may
# be symbolic links to adcc; they must stay inside the prefix.
for f in adcc++ adcc-clang adcc-clang++; do
  case "$(realpath "$prefix/bin/$f")" in
    "$(realpath "$prefix")"/*) pass "bin/$f resolves inside the prefix" ;;
    *) fail "bin/$f resolves outside the prefix: $(realpath "$prefix/bin/$f")" ;;
  esac
done
# Links to LLVM 22's binary tools, where CMake looks for them (see
# cmake-binutils.sh): each resolves to the tool adcc itself would run.
for tool in llvm-ar llvm-ranlib llvm-nm ld.lld; do
  [[ -L "$prefix/bin/$tool" ]] || fail "the install lacks the link bin/$tool"
  [[ $(realpath "$prefix/bin/$tool") == \
    $(realpath "$("$prefix/bin/adcc" -print-prog-name="$tool")") ]] ||
    fail "bin/$tool resolves to $(realpath "$prefix/bin/$tool"), not LLVM 22's $tool"
done
pass "bin/llvm-ar, llvm-ranlib, llvm-nm and ld.lld are LLVM 22's"

step "no references to the build or source tree"
if readelf -d "$prefix/bin/adcc" | grep -E 'RPATH|RUNPATH' >"$work/rpath.txt"; then
  cat "$work/rpath.txt"
  refers_to_tree "$work/rpath.txt" && fail "bin/adcc has an RPATH/RUNPATH into the build or source tree"
fi
pass "no RPATH/RUNPATH into the build or source tree"
if isolated ldd "$prefix/bin/adcc" | grep 'not found'; then
  fail "shared libraries of the installed adcc are not found"
fi
pass "every shared library of bin/adcc resolves"
# Debug information legitimately records source paths; the rest must not.
objcopy --strip-debug "$prefix/bin/adcc" "$work/adcc.stripped"
refers_to_tree "$work/adcc.stripped" &&
  fail "bin/adcc contains the path of the build or source tree: $(grep -a -o -F -e "$build_real" -e "$source_real" "$work/adcc.stripped" | sort -u)"
refers_to_tree "$prefix/share/adcc/cmake/adcc-toolchain.cmake" &&
  fail "the installed toolchain file refers to the build or source tree"
pass "bin/adcc and the toolchain file contain no build- or source-tree path"

# Test programs: C and C++, each including <adcc.h> (no -I) and using the
# tape runtime (linked by adcc without -l).
mkdir -p "$work/programs"
cat >"$work/programs/tape.c" <<'EOF'
#include <adcc.h>
#include <stdio.h>

int main(void) {
  adcc_tape *tape = adcc_tape_thread();
  adcc_tape_mark mark = adcc_tape_get_mark(tape);
  for (int i = 1; i <= 3; ++i)
    adcc_tape_push_f64(tape, i + 0.5);
  double a = adcc_tape_pop_f64(tape);
  double b = adcc_tape_pop_f64(tape);
  double c = adcc_tape_pop_f64(tape);
  adcc_tape_release(tape, mark);
  printf("C: popped %g %g %g\n", a, b, c);
  return a == 3.5 && b == 2.5 && c == 1.5 ? 0 : 1;
}
EOF
cat >"$work/programs/tape.cpp" <<'EOF'
#include <adcc.h>
#include <cstdio>
#include <vector>

int main() {
  const std::vector<double> pushed{0.25, 0.5, 0.75};
  std::vector<double> popped;
  {
    adcc::TapeScope scope;
    for (double x : pushed)
      adcc_tape_push_f64(scope.tape(), x);
    for (std::size_t i = 0; i < pushed.size(); ++i)
      popped.push_back(adcc_tape_pop_f64(scope.tape()));
  }
  adcc_tape_stats stats;
  adcc_tape_get_stats(adcc_tape_thread(), &stats);
  std::printf("C++: popped %g %g %g, %zu live bytes\n", popped[0], popped[1],
              popped[2], stats.live_bytes);
  return popped == std::vector<double>{0.75, 0.5, 0.25} && stats.live_bytes == 0
             ? 0 : 1;
}
EOF
# The commands that use the installed adcc, as a script of their own so that
# they can also run where the build and source trees are hidden.
cat >"$work/use-installed.sh" <<'EOF'
# use-installed.sh PREFIX PROGRAMS OUT : compiles, links and runs the test
# programs with the adcc installed in PREFIX. Generated by install.sh.
set -eu
prefix=$1 programs=$2 out=$3
mkdir -p "$out"
cd "$out"
"$prefix/bin/adcc" --version >version.txt
head -n 1 version.txt
grep -q '^adcc clang version 22.* (adcc version [0-9.]*)$' version.txt
# C: compile and link in one call, then as two steps.
"$prefix/bin/adcc" -O2 -o tape-c "$programs/tape.c"
./tape-c
"$prefix/bin/adcc" -O2 -c -o tape-c.o "$programs/tape.c"
"$prefix/bin/adcc" -o tape-c2 tape-c.o
./tape-c2
# C++: the same with adcc++.
"$prefix/bin/adcc++" -O2 -o tape-cpp "$programs/tape.cpp"
./tape-cpp
"$prefix/bin/adcc++" -O2 -c -o tape-cpp.o "$programs/tape.cpp"
"$prefix/bin/adcc++" -o tape-cpp2 tape-cpp.o
./tape-cpp2
echo "use-installed: all programs built and ran"
EOF

step "installed adcc in a clean environment, from another directory"
run_logged "$work/use.log" isolated bash "$work/use-installed.sh" \
  "$prefix" "$work/programs" "$work/out-plain"
cat "$work/use.log"
refers_to_tree "$work/out-plain/version.txt" &&
  fail "adcc --version mentions the build or source tree: $(cat "$work/out-plain/version.txt")"
pass "adcc --version; C and C++ programs compile, link (runtime included) and run"

step "adcc -v: header and runtime come from the prefix"
isolated "$prefix/bin/adcc" -v -o "$work/tape-v" "$work/programs/tape.c" \
  >"$work/verbose.log" 2>&1 || fail "adcc -v failed: $(tail -n 20 "$work/verbose.log")"
sed -n '/search starts here/,/End of search list/p' "$work/verbose.log" |
  grep -q -x " $prefix/lib/adcc/include" ||
  fail "the include search list lacks $prefix/lib/adcc/include"
grep -q -F "$prefix/lib/adcc/lib/libadcc_rt.a" "$work/verbose.log" ||
  fail "the link command does not use $prefix/lib/adcc/lib/libadcc_rt.a"
if refers_to_tree "$work/verbose.log"; then
  grep -n -F -e "$build_real" -e "$source_real" "$work/verbose.log" >&2 || true
  fail "adcc -v shows paths into the build or source tree"
fi
pass "include directory and runtime archive are the prefix's; no build-tree path"

step "installed adcc with the build and source trees hidden"
hide=()
if unshare -m --propagation private true 2>/dev/null; then
  hide=(unshare -m --propagation private)
elif unshare -r -m --propagation private true 2>/dev/null; then
  hide=(unshare -r -m --propagation private)
fi
case "$work/" in
  "$build_real"/* | "$source_real"/*) hide=() ;; # would hide the test itself
esac
if [[ ${#hide[@]} -gt 0 ]]; then
  # In a private mount namespace, mount empty file systems over the trees
  # (the build tree may lie inside the source tree: then it is gone already)
  # and check that they look empty before using adcc.
  # shellcheck disable=SC2016  # the inner script expands its own arguments
  run_logged "$work/hidden.log" "${hide[@]}" bash -c '
    set -eu
    for tree in "$1" "$2"; do
      if [ -d "$tree" ]; then mount -t tmpfs adcc-hidden "$tree"; fi
      if [ -d "$tree" ] && [ -n "$(ls -A "$tree")" ]; then
        echo "could not hide $tree"; exit 1
      fi
    done
    shift 2
    exec "$@"' hide "$source_real" "$build_real" \
    env -i PATH=/usr/bin:/bin HOME="$work" LC_ALL=C \
    bash "$work/use-installed.sh" "$prefix" "$work/programs" "$work/out-hidden"
  cat "$work/hidden.log"
  pass "the installed adcc works while the build and source trees are hidden"
else
  echo "note: no private mount namespace here (unshare -m is not permitted);" \
    "the hidden-tree run was not done. The path and RPATH checks above and" \
    "the clean-environment run still cover build-tree references."
fi

step "examples/cmake-project with the installed toolchain file"
cp -R "$ADCC_SOURCE_DIR/examples/cmake-project" "$work/cmake-project"
run_logged "$work/cmake-configure.log" isolated cmake -S "$work/cmake-project" \
  -B "$work/cmake-build" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$prefix/share/adcc/cmake/adcc-toolchain.cmake"
for lang in C CXX; do
  if [[ $lang == C ]]; then exe=$prefix/bin/adcc; else exe=$prefix/bin/adcc++; fi
  grep -q -F -- "-- example: $lang compiler $exe (id Clang," "$work/cmake-configure.log" ||
    fail "CMake did not select the installed $exe as the Clang $lang compiler: $(grep 'example:' "$work/cmake-configure.log")"
done
pass "CMake identifies the installed adcc and adcc++ as Clang"
run_logged "$work/cmake-build.log" isolated cmake --build "$work/cmake-build"
run_logged "$work/cmake-ctest.log" isolated ctest --test-dir "$work/cmake-build" --output-on-failure
refers_to_tree "$work/cmake-build/compile_commands.json" &&
  fail "compile_commands.json of the example refers to the build or source tree"
pass "the example builds with the installed toolchain and its tests pass"

step "examples/make-project with the installed adcc"
cp -R "$ADCC_SOURCE_DIR/examples/make-project" "$work/make-project"
rm -rf "$work/make-project/build"
run_logged "$work/make.log" isolated make -C "$work/make-project" -j4 \
  CC="$prefix/bin/adcc" check
grep -E '^(PASS|FAIL)' "$work/make.log"
pass "make CC=<prefix>/bin/adcc check passes"

step "the installed tree is relocatable"
mv "$prefix" "$work/moved-prefix"
run_logged "$work/moved.log" isolated bash "$work/use-installed.sh" \
  "$work/moved-prefix" "$work/programs" "$work/out-moved"
pass "after moving the prefix, adcc still finds its headers and runtime"

echo
echo "install: all checks passed"
