#!/usr/bin/env bash
# llama2.sh: differentiate llama2.c (github.com/karpathy/llama2.c, run.c
# unchanged) with adcc: the mean cross-entropy of a token sequence over
# several positions of forward() (the key/value cache carried between
# them) on a tiny random model made in memory, with respect to the whole
# mmap-style weight block and to an input embedding table, reverse mode
# against central differences and forward mode, without OpenMP and with it
# at 1, 2, 3 and 4 threads (docs/testing.md, "Real programs"). Not part of
# ctest: llama2.c is not in this repository.
#
#   scripts/realcode/llama2.sh LLAMA2_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2 (several words are several
# flags: "-O3 -ffast-math -march=native", llama2.c's own `make runomp`).
# Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/run.c ]]; then
  echo "usage: ${0##*/} LLAMA2_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -ra optv <<<"$opt"
flags=("${optv[@]}" -I"$src" -Dmain=llama2_main)
"$cc" "${flags[@]}" "$here/llama2_gradient.c" -o "$work/serial" -lm
"$cc" "${flags[@]}" -fopenmp "$here/llama2_gradient.c" -o "$work/omp" -lm
status=0
"$work/serial" || status=1
"$work/omp" || status=1
exit $status
