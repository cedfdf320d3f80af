#!/usr/bin/env bash
# llmc.sh: differentiate llm.c's GPT-2 (github.com/karpathy/llm.c,
# train_gpt2.c unchanged, included as its test_gpt2.c does) with adcc: the
# mean loss of gpt2_forward on a tiny random model made in memory, and the
# loss after two AdamW steps of llm.c's own training, with respect to every
# parameter, reverse mode against llm.c's hand-written gpt2_backward,
# central differences and forward mode, without OpenMP and with it at 1, 2
# and 4 threads (docs/testing.md, "Real programs"). Not part of ctest:
# llm.c is not in this repository.
#
#   scripts/realcode/llmc.sh LLMC_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2 (several words are several
# flags: "-O3 -ffast-math", close to llm.c's own -Ofast). Exit status 0
# when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/train_gpt2.c ]]; then
  echo "usage: ${0##*/} LLMC_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -ra optv <<<"$opt"
flags=("${optv[@]}" -I"$src" -DTESTING -Wno-unused-result)
"$cc" "${flags[@]}" "$here/llmc_gradient.c" -o "$work/serial" -lm
"$cc" "${flags[@]}" -fopenmp -DOMP "$here/llmc_gradient.c" -o "$work/omp" \
  -lm
# (gpt2_forward prints the activations' count when it allocates them.)
status=0
for build in serial omp; do
  "$work/$build" | grep -v '^num_activations' || status=1
done
exit $status
