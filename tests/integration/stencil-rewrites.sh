#!/usr/bin/env bash
# stencil-rewrites.sh: random stencil kernels (tools/stencilfuzz/gen.py)
# differentiated by adcc with the rewrites of their reverse loops (gathered
# per element, GatheredUpdates.cpp, or kept in registers,
# AccumulationWindows.cpp) and without them: the gradients must agree to
# rounding (the rewrites add the same values in the same order; later
# passes may reassociate the additions, which carry `reassoc`). Each kernel
# runs at several sizes, the smallest too short for the rewrites (the
# unchanged loop runs). The plain loops' gradients are checked against
# finite differences elsewhere (e2e rev_stencil_windows.c, adfuzz).
#
#   stencil-rewrites.sh [SEED ...]      (default: the fixed seeds below)
#
# Environment (set by adcc_script_test): ADCC, ADCC_SOURCE_DIR. Failing
# cases stay in ./stencil-rewrites-failures, each with its two outputs.

set -euo pipefail

for var in ADCC ADCC_SOURCE_DIR; do
  if [[ -z ${!var:-} ]]; then
    echo "stencil-rewrites: error: $var is not set (run this test through ctest)" >&2
    exit 1
  fi
done

# Of seeds 1-40, these have at least one gathered loop at -O2 (4, 12, 15,
# 20 and 36 are 2-D; 12's runs in rows, as do loops of 129, 180 and 329,
# three of the six seeds of 1-450 with rows); the others keep windows or
# are left alone.
SEEDS=${*:-"4 7 11 12 15 16 20 21 23 25 26 27 32 36 40 129 180 329"}
readonly GEN=$ADCC_SOURCE_DIR/tools/stencilfuzz/gen.py
WORK=$(mktemp -d "${TMPDIR:-/tmp}/stencil-rewrites.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
KEEP=$PWD/stencil-rewrites-failures

fail=0
gathered=0
for seed in $SEEDS; do
  src=$WORK/k$seed.c
  python3 "$GEN" "$seed" > "$src"
  "$ADCC" -O2 "$src" -o "$WORK/on" -lm -Rpass=adcc 2> "$WORK/remarks"
  gathered=$((gathered + $(grep -c "elements gathered" "$WORK/remarks" || true)))
  "$ADCC" -O2 -mllvm -adcc-gathered-updates=false \
    -mllvm -adcc-accumulation-windows=false "$src" -o "$WORK/off" -lm
  "$WORK/on" > "$WORK/on.txt"
  "$WORK/off" > "$WORK/off.txt"
  if ! python3 "$GEN" --compare "$WORK/on.txt" "$WORK/off.txt"; then
    echo "stencil-rewrites: seed $seed: the gradients differ"
    mkdir -p "$KEEP/seed-$seed"
    cp "$src" "$WORK/on.txt" "$WORK/off.txt" "$KEEP/seed-$seed/"
    fail=1
  fi
done
# (Without any gathered loop the test would check nothing of the rewrite.)
if [[ $gathered -eq 0 ]]; then
  echo "stencil-rewrites: no loop was gathered: the generator or the rewrite changed"
  fail=1
fi
echo "stencil-rewrites: $(wc -w <<< "$SEEDS") seeds, $gathered loops gathered," \
  "$([[ $fail -eq 0 ]] && echo "all agree" || echo FAILED)"
exit $fail
