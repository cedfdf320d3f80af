#!/usr/bin/env bash
# autoconf.sh - adcc as the C and C++ compiler of an autoconf project.
#
# autoconf's configure identifies the compiler by compiling test programs:
# AC_PROG_CC and AC_PROG_CXX check that it is a GNU-compatible compiler
# (__GNUC__), that it accepts -g, and which option selects the newest C and
# C++ standard it knows (none for a compiler whose default is that
# standard); AC_CHECK_LIB and AC_CHECK_HEADERS compile and link small
# programs. Checks that configure with CC=adcc CXX=adcc++:
#   1. finds a GNU compiler accepting -g for C and C++, as for clang-22, and
#      the same standard options as clang-22 gets;
#   2. finds libm's sin, <math.h>, and writes a Makefile that builds a
#      program whose gradient (__enzyme_autodiff) is checked at run time;
#   3. configures the same with the compiler's version read the way the
#      autoconf-archive macros read it (__clang_major__ ...: AX_COMPILER_VERSION
#      style), equal to the clang version --version names.
# Exits with 77 (reported by ctest as skipped) when autoconf is not
# installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

if ! command -v autoconf >/dev/null 2>&1; then
  echo "SKIP: autoconf is not installed (Debian package autoconf)"
  exit 77
fi
require_env ADCC ADCCXX
require_tool make "install make"
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env

new_workdir autoconf
work=$WORKDIR
src=$work/src
mkdir -p "$src"
cat >"$src/configure.ac" <<'EOF2'
AC_INIT([detect], [1.0])
AC_PROG_CC
AC_PROG_CXX
AC_CHECK_HEADERS([math.h])
AC_CHECK_LIB([m], [sin])
AC_MSG_CHECKING([for the clang version of $CC])
AC_COMPUTE_INT([clang_major], [__clang_major__], [], [clang_major=none])
AC_COMPUTE_INT([clang_minor], [__clang_minor__], [], [clang_minor=none])
AC_COMPUTE_INT([clang_patch], [__clang_patchlevel__], [], [clang_patch=none])
CLANG_VERSION=$clang_major.$clang_minor.$clang_patch
AC_MSG_RESULT([$CLANG_VERSION])
AC_SUBST([CLANG_VERSION])
AC_SUBST([GNU_C], [$ac_cv_c_compiler_gnu])
AC_SUBST([GNU_CXX], [$ac_cv_cxx_compiler_gnu])
AC_SUBST([G_C], [$ac_cv_prog_cc_g])
AC_SUBST([G_CXX], [$ac_cv_prog_cxx_g])
AC_SUBST([STD_C], [$ac_prog_cc_stdc])
AC_SUBST([STD_CXX], [$ac_prog_cxx_stdcxx])
AC_CONFIG_FILES([Makefile summary.txt])
AC_OUTPUT
EOF2
cat >"$src/summary.txt.in" <<'EOF2'
gnu_c=@GNU_C@
gnu_cxx=@GNU_CXX@
g_c=@G_C@
g_cxx=@G_CXX@
std_c=@STD_C@
std_cxx=@STD_CXX@
cc=@CC@
cxx=@CXX@
libs=@LIBS@
clang=@CLANG_VERSION@
EOF2
cat >"$src/Makefile.in" <<'EOF2'
CC = @CC@
CFLAGS = @CFLAGS@
LIBS = @LIBS@
srcdir = @srcdir@
VPATH = @srcdir@
grad: grad.c
	$(CC) $(CFLAGS) -o $@ $(srcdir)/grad.c $(LIBS)
EOF2
cat >"$src/grad.c" <<'EOF2'
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
static double f(double x) { return sin(x) * x; }
int main(void) {
  double x = 0.7, d = __enzyme_autodiff((void *)f, x);
  double want = cos(x) * x + sin(x);
  printf("%.12f %.12f\n", d, want);
  return fabs(d - want) < 1e-12 ? 0 : 1;
}
EOF2
run_logged "$work/autoconf.log" autoconf -o "$src/configure" "$src/configure.ac"

# configure_in DIR VAR=VALUE... : runs configure in DIR with that
# environment; it writes DIR/summary.txt, one key=value a line.
configure_in() {
  local dir=$1
  shift
  mkdir -p "$dir"
  (cd "$dir" && run_logged "$dir/configure.log" env "$@" "$src/configure")
}

step "configure with CC=adcc CXX=adcc++"
configure_in "$work/adcc" CC="$ADCC" CXX="$ADCCXX"
step "configure with clang-22, for comparison"
configure_in "$work/clang" CC=clang-22 CXX=clang++-22
value() { grep "^$2=" "$1/summary.txt" | cut -d= -f2-; }
for key in gnu_c gnu_cxx g_c g_cxx std_c std_cxx libs; do
  got=$(value "$work/adcc" "$key")
  want=$(value "$work/clang" "$key")
  [[ $got == "$want" ]] ||
    fail "configure found $key='$got' for adcc, '$want' for clang-22"
done
[[ $(value "$work/adcc" gnu_c) == yes && $(value "$work/adcc" g_c) == yes ]] ||
  fail "configure does not take adcc for a GNU C compiler accepting -g"
pass "configure: GNU C and C++ compilers accepting -g, standards '$(value "$work/adcc" std_c)' and '$(value "$work/adcc" std_cxx)', LIBS '$(value "$work/adcc" libs)', as for clang-22"

clang=$(value "$work/adcc" clang)
first=$("$ADCC" --version | head -n 1)
[[ $first == *"clang version $clang "* ]] ||
  fail "configure reads clang $clang from the macros, --version says '$first'"
pass "configure reads clang $clang from __clang_major__ ..., as --version names it"

step "make with the configured Makefile"
run_logged "$work/make.log" make -C "$work/adcc"
run_logged "$work/run.log" "$work/adcc/grad"
pass "the configured build compiles and runs a gradient: $(cat "$work/run.log")"
