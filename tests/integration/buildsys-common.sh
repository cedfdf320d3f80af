# buildsys-common.sh - helpers shared by the build-system integration tests
# (make-example.sh, cmake-example.sh, ccache.sh, install.sh).
#
# Sourced by those scripts, never run on its own. The scripts get the adcc
# build through the environment that tests/integration/CMakeLists.txt sets:
#   ADCC, ADCCXX      the adcc and adcc++ executables under test
#   ADCC_BUILD_DIR    the adcc build tree (same layout as an install)
#   ADCC_SOURCE_DIR   the adcc source tree (examples/ lives there)
#   CLANG             clang-22, for comparisons
# Set ADCC_KEEP_TMP=1 to keep the scratch directory of a run for debugging.
# shellcheck shell=bash

# Progress output: "==" starts a step, "ok:" reports a passed check.
step() { printf '\n== %s\n' "$*"; }
pass() { printf 'ok: %s\n' "$*"; }

# Reports a failed check and ends the test with status 1.
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

# require_env VAR... : each variable must be set and non-empty.
require_env() {
  local var
  for var in "$@"; do
    [[ -n "${!var:-}" ]] ||
      fail "environment variable $var is not set (run this test through ctest, or export it)"
  done
}

# require_tool NAME WHY : NAME must be on PATH; WHY says what to do if not.
require_tool() {
  command -v "$1" >/dev/null 2>&1 || fail "'$1' not found on PATH: $2"
}

# require_exe PATH : PATH must be an executable file.
require_exe() {
  [[ -f "$1" && -x "$1" ]] || fail "'$1' is not an executable file (is adcc built?)"
}

# new_workdir NAME : creates a fresh scratch directory, prints its path and
# arranges for it to be removed when the script exits (unless ADCC_KEEP_TMP
# is set). Call it in the main shell, not in $(...), so the trap is set for
# the script: new_workdir NAME; work=$WORKDIR
new_workdir() {
  WORKDIR=$(mktemp -d -t "adcc-$1.XXXXXX")
  # shellcheck disable=SC2064  # expand WORKDIR now: the path is fixed
  if [[ -n "${ADCC_KEEP_TMP:-}" ]]; then
    trap "echo 'kept scratch directory $WORKDIR'" EXIT
  else
    trap "rm -rf '$WORKDIR'" EXIT
  fi
  echo "scratch directory: $WORKDIR"
}

# run_logged LOG CMD... : runs CMD with stdout and stderr in LOG; on failure
# prints the end of LOG and fails the test.
run_logged() {
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    printf -- '--- last lines of %s:\n' "$log" >&2
    tail -n 40 "$log" >&2
    fail "command failed: $*"
  fi
}

# expect_same FILE1 FILE2 WHAT : the two files must have identical contents.
expect_same() {
  if ! cmp -s "$1" "$2"; then
    diff -u "$1" "$2" | head -n 40 >&2 || true
    fail "$3: '$1' and '$2' differ"
  fi
}

# clean_build_env : removes variables of the calling environment that would
# change how the examples build (flags for Make, jobserver of an outer make,
# a compiler launcher), so that every run starts from the same state.
clean_build_env() {
  unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS LDLIBS CC CXX
  unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
  unset CMAKE_GENERATOR CMAKE_BUILD_TYPE CMAKE_TOOLCHAIN_FILE
  unset CMAKE_C_COMPILER_LAUNCHER CMAKE_CXX_COMPILER_LAUNCHER
  unset CMAKE_EXPORT_COMPILE_COMMANDS ADCC_ROOT
}
