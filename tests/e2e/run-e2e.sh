#!/usr/bin/env bash
# Compiles one end-to-end program with adcc at one optimization level, runs
# it, and requires exit status 0 and a final line that ends in "ok".
#   run-e2e.sh SOURCE LEVEL      (ADCC / ADCCXX, E2E_CFLAGS and E2E_TAG
#                                 from the environment)
# E2E_TAG names the binary of one build of a source among several (the
# same test built for other instruction sets). A program that exits with
# 77 (its processor lacks what it was built for) is reported as skipped.
set -euo pipefail
src=$1
level=$2
name=$(basename "${src%.*}")${E2E_TAG:-}
out="$PWD/${name}${level}"
case "$src" in
  *.cpp) cc=${ADCCXX:?} ;;
  *) cc=${ADCC:?} ;;
esac
extra=()
[[ $level == -O0 ]] && extra+=(-g)
# E2E_CFLAGS: flags a test needs (the include directory of a library);
# E2E_LIBS: libraries it links (-lblas), after the source.
read -ra cflags <<<"${E2E_CFLAGS:-}"
extra+=("${cflags[@]}")
read -ra libs <<<"${E2E_LIBS:-}"

echo "+ $cc $level ${extra[*]} $src -o $out -lm ${libs[*]}"
"$cc" "$level" "${extra[@]}" -Wall -Werror "$src" -o "$out" -lm "${libs[@]}"
echo "+ $out"
status=0
output=$("$out") || status=$?
if [[ $status == 77 ]]; then
  echo "$output"
  exit 77
fi
[[ $status == 0 ]] || {
  echo "$output"
  echo "FAIL: $name at $level exited with status $status" >&2
  exit 1
}
echo "$output"
[[ $(tail -n 1 <<<"$output") == *ok ]] || {
  echo "FAIL: $name at $level did not print ok" >&2
  exit 1
}
