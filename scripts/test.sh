#!/usr/bin/env bash
# Installs, builds, and runs the whole test suite with ctest: Catch2 unit
# tests, the lit suite, end-to-end programs, build-system integration and
# csmith differential tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ADCC_BUILD_DIR:-$root/build}

bash "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${ADCC_JOBS:-2}" "$@"
