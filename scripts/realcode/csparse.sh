#!/usr/bin/env bash
# csparse.sh: differentiate CSparse (Tim Davis's Concise Sparse package,
# SuiteSparse's CSparse/; its Source/cs_*.c unchanged) with adcc: x = A\b by
# cs_cholsol, cs_lusol (from CSC and from triplets), cs_qrsol and the normal
# equations, and log det A by cs_chol, with respect to A's values and b;
# reverse mode against analytic values, central differences and forward
# mode (docs/testing.md, "Real programs"). Built, per level, three ways:
# CSparse's files compiled each on its own (the derivatives made at link
# time) with its default int64_t indices ("files") and with -Dcsi=int
# ("files-int"), and its files included into the driver ("onefile"); the
# solvers on CSC matrices and, apart, the triplet case ("csc", "triplet"). Not
# part of ctest: CSparse is not in this repository.
#
#   scripts/realcode/csparse.sh CSPARSE_DIR [ADCC] [OPT ...]
#
# CSPARSE_DIR holds Include/cs.h and Source/ (SuiteSparse's CSparse/, e.g.
# github.com/DrTimothyAldenDavis/SuiteSparse). ADCC defaults to
# build/bin/adcc; the levels to -O0 -O1 -O2 -O3. CSPARSE_BUILDS (default
# "files files-int onefile") chooses the builds. Exit status 0 when every
# check of every build passes.
set -uo pipefail
if [[ $# -lt 1 || ! -f $1/Include/cs.h || ! -f $1/Source/cs_lusol.c ]]; then
  echo "usage: ${0##*/} CSPARSE_DIR [ADCC] [OPT ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/Source" && pwd)
inc=$(cd "$1/Include" && pwd)
. "$here/probe-lib.sh"
rc_init "$@"
builds=(${CSPARSE_BUILDS:-files files-int onefile})
files=()
for f in "$src"/cs_*.c; do
  files+=("$f")
done
{
  for f in "${files[@]}"; do
    echo "#include \"$f\""
  done
} >"$work/all.c"
for opt in "${levels[@]}"; do
  for build in "${builds[@]}"; do
   for part in csc triplet; do
    name="$part $build $opt"
    dir=$work/$part-$build$opt
    mkdir -p "$dir"
    flags=("$opt" -I"$inc")
    [[ $part == triplet ]] && flags+=(-DCSPARSE_TRIPLET)
    [[ $build == files-int ]] && flags+=(-Dcsi=int)
    ok=1
    objs=()
    if [[ $build == onefile ]]; then
      flags+=(-DCSPARSE_ONE_FILE="\"$work/all.c\"")
    else
      for f in "${files[@]}"; do
        o=$dir/$(basename "$f" .c).o
        if ! "$cc" "${flags[@]}" -c "$f" -o "$o"; then
          ok=0
          break
        fi
        objs+=("$o")
      done
    fi
    built=0
    [[ $ok == 1 ]] && "$cc" "${flags[@]}" "$here/csparse_gradient.c" \
      "${objs[@]}" -o "$dir/csparse_gradient" -lm && built=1
    rc_record "$name" $built rc_tail "$dir/csparse_gradient"
   done
  done
done
rc_finish
