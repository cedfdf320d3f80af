#!/usr/bin/env bash
# Builds adcc and its runtime with AddressSanitizer and UndefinedBehavior-
# Sanitizer (in build-sanitize/, or $ADCC_SANITIZE_DIR) and runs the whole
# test suite with them: every compile the tests make runs the sanitized
# adcc. One command:  scripts/sanitize.sh [ctest arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ADCC_SANITIZE_DIR:-$root/build-sanitize}

bash "$root/scripts/setup.sh"
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DADCC_SANITIZE=ON >/dev/null
fi
cmake --build "$build" -j "${ADCC_JOBS:-2}"

# LLVM's own objects are deliberately not freed at exit (-disable-free):
# leak checking would report them, so it is off. LLVM's allocators poison
# memory by hand when their header code is compiled with ASan, which the
# uninstrumented Debian libLLVM does not know about: that manual poisoning
# is ignored (allow_user_poisoning=0). Every other error stops the run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
# The install test checks that a release build names no build path; this
# build keeps debug information for the sanitizers' reports.
ctest --output-on-failure -j "${ADCC_JOBS:-2}" -E '^install$' "$@"
