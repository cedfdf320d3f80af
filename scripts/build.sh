#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), then configures and builds adcc
# in build/ (or $ADCC_BUILD_DIR) with CMake + Ninja, 2 jobs, ccache.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ADCC_BUILD_DIR:-$root/build}

bash "$root/scripts/setup.sh"
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j "${ADCC_JOBS:-2}"
