#!/usr/bin/env bash
# osqp.sh: differentiate OSQP 1.0 (github.com/osqp/osqp, the ADMM solver of
# quadratic programs, builtin algebra, QDLDL as its linear system solver;
# sources unchanged, configured as its CMake build does by default: 64-bit
# indices, doubles, printing, timers, the interrupt handler and OSQP's own
# derivative code compiled in) with adcc: the objective value of a small
# QP's solution after a fixed number of ADMM iterations with respect to q
# and P's values, reverse mode against central differences and forward
# mode, and after convergence against the envelope theorem
# (docs/testing.md, "Real programs"). Each source is compiled on its own,
# the derivatives made at link time. Not part of ctest: OSQP is not in this
# repository.
#
#   scripts/realcode/osqp.sh OSQP_DIR QDLDL_DIR [ADCC] [OPT]
#
# OSQP_DIR holds src/osqp_api.c; QDLDL_DIR src/qdldl.c (OSQP's CMake
# fetches QDLDL v0.1.8). ADCC defaults to build/bin/adcc; OPT to -O2. Exit
# status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 2 || ! -f $1/src/osqp_api.c || ! -f $2/src/qdldl.c ]]; then
  echo "usage: ${0##*/} OSQP_DIR QDLDL_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
osqp=$(cd "$1" && pwd)
qdldl=$(cd "$2" && pwd)
cc=${3:-$here/../../build/bin/adcc}
opt=${4:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The headers the two CMake builds configure.
mkdir -p "$work/include"
sed -e 's/#cmakedefine \(IS_LINUX\|OSQP_ALGEBRA_BUILTIN\)$/#define \1/' \
  -e 's/#cmakedefine \(OSQP_ENABLE_DERIVATIVES\|OSQP_ENABLE_PRINTING\)$/#define \1/' \
  -e 's/#cmakedefine \(OSQP_ENABLE_PROFILING\|OSQP_ENABLE_INTERRUPT\)$/#define \1/' \
  -e 's/#cmakedefine \(OSQP_USE_LONG\)$/#define \1/' \
  -e '/#cmakedefine/d' \
  "$osqp/configure/osqp_configure.h.in" >"$work/include/osqp_configure.h"
sed -e 's/@QDLDL_INT_TYPE@/long long/' -e 's/@QDLDL_FLOAT_TYPE@/double/' \
  -e 's/@QDLDL_BOOL_TYPE@/unsigned char/' -e 's/@QDLDL_INT_TYPE_MAX@/LLONG_MAX/' \
  -e 's/#cmakedefine QDLDL_FLOAT//' -e 's/#cmakedefine QDLDL_LONG/#define QDLDL_LONG/' \
  "$qdldl/configure/qdldl_types.h.in" >"$work/include/qdldl_types.h"
sed -e 's/@QDLDL_VERSION_MAJOR@/0/' -e 's/@QDLDL_VERSION_MINOR@/1/' \
  -e 's/@QDLDL_VERSION_PATCH@/8/' \
  "$qdldl/configure/qdldl_version.h.in" >"$work/include/qdldl_version.h"

common=$osqp/algebra/_common
flags=("$opt" -I"$work/include" -I"$osqp/include/public"
  -I"$osqp/include/private" -I"$osqp/algebra/builtin" -I"$common"
  -I"$common/lin_sys/qdldl" -I"$common/lin_sys/qdldl/amd/include"
  -I"$qdldl/include")
sources=("$osqp"/src/{auxil,error,scaling,util,polish,osqp_api,derivative}.c
  "$osqp/src/interrupt_unix.c" "$osqp/src/timing_linux.c"
  "$osqp"/algebra/builtin/{algebra_libs,vector,matrix}.c
  "$common"/{csc_math,csc_utils,kkt,reduced_kkt}.c
  "$common/lin_sys/qdldl/qdldl_interface.c"
  "$common"/lin_sys/qdldl/amd/src/*.c "$qdldl/src/qdldl.c")
objs=()
for f in "${sources[@]}"; do
  o=$work/$(basename "${f%.c}").o
  "$cc" "${flags[@]}" -c "$f" -o "$o"
  objs+=("$o")
done
"$cc" "${flags[@]}" "$here/osqp_gradient.c" "${objs[@]}" \
  -o "$work/osqp_gradient" -lm
"$work/osqp_gradient"
