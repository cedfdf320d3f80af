#!/usr/bin/env bash
# determinism.sh [BUILD_DIR] [LEVELS...] - compiles every e2e source under
# several settings of glibc's allocator (GLIBC_TUNABLES) and reports the
# objects that differ from the default's. Objects must not depend on where
# the allocator puts things: a map entry kept for a deleted instruction, or
# output written in the order of a hash table of pointers, shows up here.
# Run by hand (minutes); ctest's 'reproducible' checks two of the sources.
# Exit status 1 when any object differs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
levels=("$@")
[[ ${#levels[@]} -gt 0 ]] || levels=(-O0 -O2)
e2e=$root/tests/e2e
work=$(mktemp -d "${TMPDIR:-/tmp}/adcc-determinism.XXXXXX")
trap 'rm -rf "$work"' EXIT
tunings=("glibc.malloc.tcache_count=0"
  "glibc.malloc.mmap_threshold=4096:glibc.malloc.top_pad=1048576"
  "glibc.malloc.tcache_count=0:glibc.malloc.arena_max=1:glibc.malloc.trim_threshold=0")
differ=0 compared=0
for src in "$e2e"/*.c "$e2e"/*.cpp; do
  name=${src##*/}
  cc=$build/bin/adcc
  [[ $name == *.cpp ]] && cc=$build/bin/adcc++
  flags=(-I"$e2e")
  [[ $name == omp_* ]] && flags+=(-fopenmp)
  for level in "${levels[@]}"; do
    # (Sources that need more than -I to compile are left out.)
    timeout 300 "$cc" "$level" "${flags[@]}" -c "$src" -o "$work/base.o" \
      2>/dev/null || continue
    for tuning in "${tunings[@]}"; do
      GLIBC_TUNABLES=$tuning timeout 300 "$cc" "$level" "${flags[@]}" -c \
        "$src" -o "$work/tuned.o" 2>/dev/null || continue
      compared=$((compared + 1))
      if ! cmp -s "$work/base.o" "$work/tuned.o"; then
        echo "DIFFERS: $name $level with GLIBC_TUNABLES=$tuning"
        differ=$((differ + 1))
      fi
    done
  done
done
echo "$compared compiles compared, $differ differ"
[[ $differ -eq 0 ]]
