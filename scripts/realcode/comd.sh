#!/usr/bin/env bash
# comd.sh: differentiate CoMD's molecular dynamics (github.com/ECP-copa/CoMD,
# src-mpi/ built serial, unchanged) with adcc: the potential energy's
# gradient against CoMD's forces, and three time steps against central
# differences and forward mode (docs/testing.md, "Real programs"). Not
# part of ctest: CoMD is not in this repository.
#
#   scripts/realcode/comd.sh COMD_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/src-mpi/CoMD.c ]]; then
  echo "usage: ${0##*/} COMD_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/src-mpi" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# CoMD_info.h is made by CoMD's Makefile; yamlOutput.c reads its macros.
cat >"$work/CoMD_info.h" <<'INFO'
#define CoMD_VARIANT "CoMD-serial"
#define CoMD_HOSTNAME "adcc"
#define CoMD_KERNEL_NAME "adcc"
#define CoMD_KERNEL_RELEASE "adcc"
#define CoMD_PROCESSOR "adcc"
#define CoMD_COMPILER "adcc"
#define CoMD_COMPILER_VERSION "adcc"
#define CoMD_CFLAGS ""
#define CoMD_LDFLAGS ""
INFO
flags=("$opt" -std=gnu99 -DDOUBLE -I"$work" -I"$src")
"$cc" "${flags[@]}" -w "$here/comd_gradient.c" -o "$work/comd_gradient" -lm
cd "$work" && ./comd_gradient
