#!/usr/bin/env bash
# qdldl.sh: differentiate QDLDL (github.com/osqp/qdldl, the sparse LDL^T
# factorization of quasi-definite matrices under OSQP; src/qdldl.c
# unchanged) with adcc: the solution of K x = b and log|det K| with respect
# to K's values and b, reverse mode against analytic values, central
# differences and forward mode, and x's full Jacobian by forward mode
# (docs/testing.md, "Real programs"). Three builds: qdldl.c compiled on its
# own with QDLDL's default 64-bit indices (the derivatives made at link
# time), the same with 32-bit indices, and qdldl.c included into the
# driver. Not part of ctest: QDLDL is not in this repository.
#
#   scripts/realcode/qdldl.sh QDLDL_DIR [ADCC] [OPT]
#
# QDLDL_DIR holds src/qdldl.c. ADCC defaults to build/bin/adcc; OPT to -O2.
# Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/src/qdldl.c ]]; then
  echo "usage: ${0##*/} QDLDL_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The headers QDLDL's CMake configures, for an index type.
configure() { # DIR INT_TYPE INT_MAX LONG_DEFINE
  mkdir -p "$1"
  sed -e "s/@QDLDL_INT_TYPE@/$2/" -e "s/@QDLDL_FLOAT_TYPE@/double/" \
    -e "s/@QDLDL_BOOL_TYPE@/unsigned char/" \
    -e "s/@QDLDL_INT_TYPE_MAX@/$3/" -e "s/#cmakedefine QDLDL_FLOAT//" \
    -e "s/#cmakedefine QDLDL_LONG/$4/" \
    "$src/configure/qdldl_types.h.in" >"$1/qdldl_types.h"
  sed -e "s/@QDLDL_VERSION_MAJOR@/0/" -e "s/@QDLDL_VERSION_MINOR@/1/" \
    -e "s/@QDLDL_VERSION_PATCH@/8/" \
    "$src/configure/qdldl_version.h.in" >"$1/qdldl_version.h"
}
configure "$work/long" "long long" LLONG_MAX "#define QDLDL_LONG"
configure "$work/int" int INT_MAX ""

status=0
for variant in long int included; do
  inc=$work/${variant/included/long}
  flags=("$opt" -I"$src/include" -I"$inc")
  if [[ $variant == included ]]; then
    "$cc" "${flags[@]}" -DQDLDL_SOURCE="\"$src/src/qdldl.c\"" \
      "$here/qdldl_gradient.c" -o "$work/qdldl_$variant" -lm
  else
    "$cc" "${flags[@]}" -c "$src/src/qdldl.c" -o "$work/qdldl_$variant.o"
    "$cc" "${flags[@]}" "$here/qdldl_gradient.c" "$work/qdldl_$variant.o" \
      -o "$work/qdldl_$variant" -lm
  fi
  echo "== $variant $opt"
  "$work/qdldl_$variant" | tail -12 || status=1
done
exit $status
