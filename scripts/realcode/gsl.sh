#!/usr/bin/env bash
# gsl.sh: differentiate routines of the GNU Scientific Library (any public
# copy of its sources, e.g. github.com/ampl/gsl), unchanged, with adcc:
# gsl_odeiv2's rk4, rkf45 and rk8pd with its driver, gsl_integration_qag
# and qags, special functions (gamma, lngamma, J0, J1, erf, erfc, E1, Ei,
# psi), LU, Cholesky and QR solves on strided views, and a cubic spline;
# reverse mode against central differences and the exact derivatives, and
# forward mode against reverse mode (docs/testing.md, "Real programs").
# The files below are compiled each on its own, the derivatives of their
# functions made at link time; config.h is made from GSL's config.h.in and
# the headers are copied into a gsl/ folder, as GSL's own build does. Not
# part of ctest: GSL is not in this repository.
#
#   scripts/realcode/gsl.sh GSL_DIR [ADCC] [OPT] [JOBS]
#
# GSL_DIR holds ode-initval2/driver.c; ADCC defaults to build/bin/adcc; OPT
# to -O2; JOBS (compiles at once) to 2. GSL_ONLY=name runs the cases whose
# names contain it (gsl_gradient.c). Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/ode-initval2/driver.c ]]; then
  echo "usage: ${0##*/} GSL_DIR [ADCC] [OPT] [JOBS]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gsl=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
jobs=${4:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# config.h: what configure finds on a Linux system with C99 inline and the
# C library's math functions.
yes=(HAVE_C99_INLINE HAVE_INLINE HAVE_IEEE_COMPARISONS HAVE_IEEE_DENORMALS
  HAVE_LIBM HAVE_MEMCPY HAVE_MEMMOVE HAVE_STDLIB_H HAVE_STRING_H
  HAVE_VPRINTF HAVE_EXIT_SUCCESS_AND_FAILURE STDC_HEADERS)
for f in ACOSH ASINH ATANH EXPM1 FINITE FREXP HYPOT ISFINITE ISINF ISNAN \
  LDEXP LOG1P; do
  yes+=("HAVE_DECL_$f")
done
edits=()
for n in "${yes[@]}"; do edits+=(-e "s/^#undef $n\$/#define $n 1/"); done
for n in FEENABLEEXCEPT FESETTRAPENABLE FPRND_T; do
  edits+=(-e "s/^#undef HAVE_DECL_$n\$/#define HAVE_DECL_$n 0/")
done
sed "${edits[@]}" "$gsl/config.h.in" >"$work/config.h"
mkdir "$work/gsl"
cp "$gsl"/gsl_*.h "$gsl"/*/gsl_*.h "$work/gsl/"

# The files the checks call, and what they call (gsl_blas's one file calls
# every CBLAS routine).
files=(err/{error,stream} sys/{fdiv,infnan} complex/math
  block/init vector/{copy,init,oper,subvector,vector,view}
  matrix/{copy,init,rowcol,submatrix,swap,view} permutation/{init,permute}
  blas/blas linalg/{cholesky,condest,householder,invtri,lu,qr,tridiag,trimult}
  ode-initval2/{control,cscal,cstd,driver,evolve,rk4,rk8pd,rkf45,step}
  integration/{qag,qags,qk,qk15,qk21,qk31,qk41,qk51,qk61,workspace}
  interpolation/{accel,cspline,interp,spline}
  specfunc/{bessel,bessel_J0,bessel_J1,bessel_amp_phase,bessel_temme}
  specfunc/{elementary,erfc,exp,expint,gamma,gamma_inc,log,poch,pow_int}
  specfunc/{psi,trig,zeta})
for f in "$gsl"/cblas/*.c; do
  b=${f##*/}
  [[ $b == test* ]] || files+=("cblas/${b%.c}")
done
export cc opt gsl work
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} sh -c \
  '"$cc" "$opt" -w -I"$work" -I"$gsl" -c "$gsl/{}.c" \
     -o "$work/$(echo {} | tr / _).o"'
"$cc" "$opt" -I"$work" "$here/gsl_gradient.c" "$work"/*.o \
  -o "$work/gsl_gradient" -lm
"$work/gsl_gradient"
