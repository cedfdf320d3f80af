#!/usr/bin/env bash
# libm.sh: differentiate math functions compiled from the C sources of
# openlibm (github.com/JuliaMath/openlibm: fdlibm's exp, log, sin, pow,
# erf, lgamma_r, expm1, log1p, sqrt, tanh, tan, atan, atan2, asin, acos,
# sinh, cosh, cbrt, hypot, ... written on the words of
# doubles) and, when its directory is given, Cephes (e.g.
# github.com/jeremybarnes/cephes: gamma, incbet, ndtr, j0, pow, and the
# frexp/ldexp/floor it writes itself), unchanged, with adcc: reverse and
# forward mode against the analytic derivatives and central differences
# (docs/testing.md, "Real programs"). Each library's names get a prefix
# (olm_, cph_: a header given by -include) so that the derivatives go
# through their code, not glibc's functions. Not part of ctest: neither
# library is in this repository.
#
#   scripts/realcode/libm.sh LIBM_DIR [ADCC] [OPT] [CEPHES_DIR] [CASE...]
#
# LIBM_DIR is openlibm's checkout; ADCC defaults to build/bin/adcc; OPT to
# -O2; CEPHES_DIR to none (- for none); CASEs (olm_exp, cph_gamma, ...:
# the LIBM_ONLY_ names in libm_gradient.c) choose the functions to check
# (all by default). Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/src/e_exp.c ]]; then
  echo "usage: ${0##*/} LIBM_DIR [ADCC] [OPT] [CEPHES_DIR|-] [CASE...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
olm=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
cephes=${4:--}
shift $(($# < 4 ? $# : 4))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Names defined by the files compiled below, each given a prefix.
prefix() { # PREFIX NAME...
  local p=$1
  shift
  for n; do echo "#define $n $p$n"; done
}
{
  prefix olm_ exp log sin cos pow erf erfc lgamma_r expm1 log1p tanh \
    floor scalbn copysign frexp ldexp __kernel_sin __kernel_cos \
    __ieee754_rem_pio2 __kernel_rem_pio2 tan __kernel_tan atan atan2 asin \
    acos sinh cosh cbrt hypot __ldexp_exp __frexp_exp __ldexp_cexp
  # (s_scalbn.c makes ldexp an alias of scalbn by the name in a string.)
  echo '#define __strong_reference(sym, alias)'
} >"$work/olm_names.h"
olm_files=(e_exp e_log s_sin s_cos k_sin k_cos e_rem_pio2 k_rem_pio2 e_pow
  s_erf e_lgamma_r s_expm1 s_log1p e_sqrt s_tanh s_fabs s_floor s_scalbn
  s_copysign s_frexp s_tan k_tan s_atan e_atan2 e_asin e_acos e_sinh e_cosh
  k_exp s_cbrt e_hypot)
# (fabs and sqrt are the compiler's builtins in the other files, as in a
# build without -fno-builtin: pow's calls of them; openlibm's own, on the
# words, are olm_fabs and olm_sqrt, checked alone.)
for f in "${olm_files[@]}"; do
  own=()
  [[ $f != s_fabs ]] || own=(-Dfabs=olm_fabs)
  [[ $f != e_sqrt ]] || own=(-Dsqrt=olm_sqrt)
  "$cc" "$opt" -std=gnu99 -include "$work/olm_names.h" "${own[@]}" \
    -I"$olm/src" -I"$olm/include" -w -c "$olm/src/$f.c" -o "$work/olm_$f.o"
done

cases=("$@")
defs=()
if [[ $cephes != - ]]; then
  cph=$(cd "$cephes" && pwd)
  prefix cph_ exp log sin cos sqrt pow powi floor ceil frexp ldexp fabs \
    polevl p1evl isnan isfinite signbit gamma lgam incbet ndtr erf erfc \
    expx2 j0 y0 mtherr >"$work/cph_names.h"
  # (Cephes' floor clears the fraction's bits through a pointer stepped
  # over the double's words: an error. Marked as computing floor, in every
  # file that calls it, as a user would mark it, its calls take floor's
  # rule and its callers (exp, sin, pow, gamma, ...) are checked.)
  echo '__attribute__((enzyme_function_like("floor"))) double floor(double);' \
    >>"$work/cph_names.h"
  for f in cmath/{exp,log,sin,sqrt,pow,powi,floor,fabs,polevl,isnan,const,mtherr} \
    cprob/{gamma,incbet,ndtr,expx2} bessel/j0; do
    "$cc" "$opt" -std=gnu89 -include "$work/cph_names.h" -I"$cph/cmath" -w \
      -c "$cph/$f.c" -o "$work/cph_${f##*/}.o"
  done
  defs=(-DLIBM_CEPHES)
fi
# All cases in one program; where adcc refuses one, each case in a program
# of its own, the refused ones reported with adcc's errors.
build() { # OUTPUT DEFINE...
  local out=$1
  shift
  "$cc" "$opt" -Wno-unused-function "${defs[@]}" "$@" \
    "$here/libm_gradient.c" "$work"/*.o -o "$out" -lm
}
if [[ ${#cases[@]} -eq 0 ]] && build "$work/libm_gradient" 2>"$work/errors"; then
  exec "$work/libm_gradient"
fi
if [[ ${#cases[@]} -eq 0 ]]; then
  mapfile -t cases < <(grep -o 'LIBM_ONLY_[a-z0-9_]*' "$here/libm_gradient.c" |
    sed 's/LIBM_ONLY_//' | grep -v '^$')
  [[ $cephes != - ]] || mapfile -t cases < <(printf '%s\n' "${cases[@]}" | grep '^olm')
fi
status=0
for c in "${cases[@]}"; do
  if build "$work/$c" -DLIBM_ONLY "-DLIBM_ONLY_$c" 2>"$work/errors"; then
    "$work/$c" | grep -v ' checks failed' || status=1
  else
    echo "$c: REFUSED"
    grep 'error:' "$work/errors" | sort -u | sed 's/^/  /'
    status=1
  fi
done
exit $status
