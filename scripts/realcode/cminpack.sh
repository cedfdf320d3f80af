#!/usr/bin/env bash
# cminpack.sh: differentiate cminpack (Frederic Devernay's C translation of
# MINPACK, github.com/devernay/cminpack; src/*.c unchanged) with adcc: enorm,
# qrfac, qrsolv, lmpar, dogleg, fdjac1/2 and covar on their own; lmder,
# lmstr and hybrj given Jacobians computed by __enzyme_fwddiff and
# __enzyme_autodiff inside their callbacks; and the solutions of fits and
# of a system of equations differentiated with respect to the data through
# lmdif, lmder, lmstr, hybrd and hybrj. Reverse mode against forward mode,
# central differences and analytic values (docs/testing.md, "Real
# programs"). Built two ways: each of cminpack's files compiled on its own,
# the derivatives made at link time ("files"), and cminpack's sources
# included into the driver ("onefile"); in double and, with
# -D__cminpack_float__, in float (the s-prefixed functions). Not part of
# ctest: cminpack is not in this repository.
#
#   scripts/realcode/cminpack.sh CMINPACK_DIR [ADCC] [OPT ...]
#
# ADCC defaults to build/bin/adcc; the levels to -O0 -O1 -O2 -O3.
# CMINPACK_VARIANTS (default "double float") and CMINPACK_BUILDS (default
# "files onefile") choose the builds; CMINPACK_ONLY=name runs the cases of
# the solver part whose name contains it. Exit status 0 when every check of
# every build passes.
set -uo pipefail
if [[ $# -lt 1 || ! -f $1/src/lmdif.c ]]; then
  echo "usage: ${0##*/} CMINPACK_DIR [ADCC] [OPT ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/src" && pwd)
inc=$(cd "$1/include" && pwd)
. "$here/probe-lib.sh"
rc_init "$@"
variants=(${CMINPACK_VARIANTS:-double float})
builds=(${CMINPACK_BUILDS:-files onefile})
files=(enorm dpmpar qrfac qrsolv lmpar dogleg fdjac1 fdjac2 covar covar1
  qform r1updt r1mpyq rwupdt lmdif lmder lmstr hybrd hybrj)
for opt in "${levels[@]}"; do
  for variant in "${variants[@]}"; do
    defs=(-D__cminpack_"$variant"__)
    for build in "${builds[@]}"; do
      name="$variant $build $opt"
      dir=$work/$variant-$build$opt
      mkdir -p "$dir"
      flags=("$opt" "${defs[@]}" -I"$inc" -I"$src")
      ok=1
      objs=()
      if [[ $build == files ]]; then
        for f in "${files[@]}"; do
          if ! "$cc" "${flags[@]}" -c "$src/$f.c" -o "$dir/$f.o"; then
            ok=0
            break
          fi
          objs+=("$dir/$f.o")
        done
      else
        # (cminpack's files redefine each other's constants; enorm.c writes
        # "src/*.c" in a comment.)
        flags+=(-DCMINPACK_ONE_FILE -Wno-macro-redefined -Wno-comment)
      fi
      built=0
      [[ $ok == 1 ]] && "$cc" "${flags[@]}" "$here/cminpack_gradient.c" \
        "${objs[@]}" -o "$dir/cminpack_gradient" -lm && built=1
      rc_record "$name" $built "$dir/cminpack_gradient" all
    done
  done
done
rc_finish
