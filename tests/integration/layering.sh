#!/usr/bin/env bash
# layering.sh: the dependency check of issue 32 (scripts/layering/check.py).
#
#  1. The source tree follows its table, scripts/layering/stages.txt.
#  2. On a small tree made here that breaks each rule once, the check fails
#     and names each crossing: the include, the two sides, the table row.
#
# Environment (set by adcc_script_test): ADCC_SOURCE_DIR.

set -euo pipefail

if [[ -z ${ADCC_SOURCE_DIR:-} ]]; then
  echo "layering: error: ADCC_SOURCE_DIR is not set (run this test through ctest)" >&2
  exit 1
fi
CHECK="$ADCC_SOURCE_DIR/scripts/layering/check.py"
TABLE="$ADCC_SOURCE_DIR/scripts/layering/stages.txt"

echo "== the source tree"
python3 "$CHECK" --root "$ADCC_SOURCE_DIR"

echo "== a tree that breaks each rule"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/scripts/layering" "$WORK/adcore/include/adcore" \
  "$WORK/frontend/lib" "$WORK/driver" "$WORK/runtime/lib" \
  "$WORK/tools/adcc-opt" "$WORK/tests/unit"
cp "$TABLE" "$WORK/scripts/layering/stages.txt"
for d in support crossfile rules requests analysis prepare forward reverse \
         optimize; do
  mkdir -p "$WORK/adcore/lib/$d"
done
add() { mkdir -p "$(dirname "$WORK/$1")"; printf '%s\n' "${@:2}" >"$WORK/$1"; }
add adcore/include/adcore/Derivative.h '#include "llvm/ADT/ArrayRef.h"'
add adcore/lib/reverse/ReverseEmitter.h '#include "adcore/Derivative.h"'
add adcore/lib/forward/ForwardNew.cpp '#include "reverse/ReverseEmitter.h"'
add adcore/lib/support/Helper.cpp '#include "Synthesis.h"' '#include "ADPass.h"'
add adcore/lib/Synthesis.h '#include "reverse/ReverseEmitter.h"'
add adcore/lib/ADPass.h ''
add adcore/lib/NewRewrite.cpp '#include "support/Helper.h"'
add adcore/lib/support/Helper.h ''
add adcore/lib/newstage/Thing.cpp ''
add adcore/lib/rules/Clang.cpp '#include "clang/AST/Decl.h"'
add frontend/lib/Reach.cpp '#include "../../adcore/lib/support/Helper.h"' \
  '#include "driver/Paths.h"'
add runtime/lib/tape.c '#include "llvm/Support/Compiler.h"'
add tests/unit/HelperTest.cpp '#include "../../adcore/lib/support/Helper.h"'

set +e
python3 "$CHECK" --root "$WORK" >"$WORK/out.txt" 2>&1
status=$?
set -e
cat "$WORK/out.txt"
if [[ $status -ne 1 ]]; then
  echo "layering: FAIL: the check exited with $status on a tree that breaks the rules (expected 1)"
  exit 1
fi

expect() {
  if ! grep -qF -- "$1" "$WORK/out.txt"; then
    echo "layering: FAIL: no line says: $1"
    exit 1
  fi
}
expect 'adcore/lib/forward/ForwardNew.cpp:1: forward/ includes reverse/ReverseEmitter.h (reverse/), a later stage'
expect 'adcore/lib/support/Helper.cpp:2: support/ includes ADPass.h (the top of adcore/lib), a later stage'
expect 'adcore/lib/NewRewrite.cpp: not in a stage folder: move it into one of adcore/lib/{support,'
expect 'or add a `top NewRewrite.cpp` row to scripts/layering/stages.txt'
expect 'adcore/lib/newstage/Thing.cpp: not in a stage folder'
expect 'adcore/lib/rules/Clang.cpp:1: adcore includes clang/AST/Decl.h: adcore must not depend on clang'
expect 'frontend/lib/Reach.cpp:1: frontend reaches into a private header of adcore: adcore/lib/support/Helper.h'
expect 'frontend/lib/Reach.cpp:2: frontend includes driver/Paths.h: frontend must not depend on driver'
expect 'runtime/lib/tape.c:1: runtime includes llvm/Support/Compiler.h: runtime must not depend on llvm'
# Allowed: the shared Synthesis.h from support/, and the unit tests' reach
# into adcore's private headers (a `private` row).
if grep -qF 'Helper.cpp:1:' "$WORK/out.txt" || grep -qF 'HelperTest.cpp' "$WORK/out.txt"; then
  echo "layering: FAIL: an include the table allows was reported"
  exit 1
fi
echo "layering: PASS"
