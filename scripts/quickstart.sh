#!/usr/bin/env bash
# The main job: install, build, then compile and run the quickstart example
# with adcc.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ADCC_BUILD_DIR:-$root/build}

bash "$root/scripts/build.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "+ adcc -O2 examples/quickstart/rosenbrock.c -o rosenbrock -lm"
"$build/bin/adcc" -O2 "$root/examples/quickstart/rosenbrock.c" \
  -o "$out/rosenbrock" -lm
"$out/rosenbrock"
