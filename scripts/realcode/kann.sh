#!/usr/bin/env bash
# kann.sh: differentiate KANN (Heng Li's neural network library in C,
# github.com/attractivechaos/kann; kautodiff.c and kann.c unchanged) with
# adcc: kann_cost of a batch with respect to the model's parameters and
# inputs, the graph built, evaluated and deleted inside the differentiated
# function; reverse mode against KANN's own backpropagation, central
# differences and forward mode (docs/testing.md, "Real programs"). Per
# level, two builds of each of two drivers: the files compiled each on its
# own (the derivatives made at link time, "files") and included into the
# driver ("onefile"); feed-forward models, and recurrent ones (kann_unroll,
# -DKANN_RNN). Not part of ctest: KANN is not in this repository.
#
#   scripts/realcode/kann.sh KANN_DIR [ADCC] [OPT ...]
#
# ADCC defaults to build/bin/adcc; the levels to -O0 -O1 -O2 -O3.
# KANN_BUILDS (default "files onefile") and KANN_MODELS (default "ff rnn")
# choose the builds. Exit status 0 when every check of every build passes.
set -uo pipefail
if [[ $# -lt 1 || ! -f $1/kautodiff.c || ! -f $1/kann.c ]]; then
  echo "usage: ${0##*/} KANN_DIR [ADCC] [OPT ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
. "$here/probe-lib.sh"
rc_init "$@"
builds=(${KANN_BUILDS:-files onefile})
models=(${KANN_MODELS:-ff rnn})
printf '#include "%s"\n' "$src/kautodiff.c" "$src/kann.c" >"$work/all.c"
for opt in "${levels[@]}"; do
  for build in "${builds[@]}"; do
    for model in "${models[@]}"; do
      name="$model $build $opt"
      dir=$work/$model-$build$opt
      mkdir -p "$dir"
      flags=("$opt" -I"$src")
      [[ $model == rnn ]] && flags+=(-DKANN_RNN)
      ok=1
      objs=()
      if [[ $build == onefile ]]; then
        flags+=(-DKANN_ONE_FILE="\"$work/all.c\"")
      else
        for f in kautodiff kann; do
          if ! "$cc" "${flags[@]}" -c "$src/$f.c" -o "$dir/$f.o"; then
            ok=0
            break
          fi
          objs+=("$dir/$f.o")
        done
      fi
      built=0
      [[ $ok == 1 ]] && "$cc" "${flags[@]}" "$here/kann_gradient.c" \
        "${objs[@]}" -o "$dir/kann_gradient" -lm && built=1
      rc_record "$name" $built rc_tail "$dir/kann_gradient"
    done
  done
done
rc_finish
