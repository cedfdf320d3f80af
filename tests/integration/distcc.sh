#!/usr/bin/env bash
# distcc.sh - adcc under distcc (docs/build-systems.md#distcc).
#
# Starts a private distccd on the loopback interface (a free port, this
# user, no whitelist: --enable-tcp-insecure) and checks, with distcc's
# local fallback off so that a compile that does not go to the server
# fails:
#   1. `distcc $ADCC -c`: distcc preprocesses with `adcc -E` here and the
#      server compiles the preprocessed file; the derivatives that the file
#      asks for (ADCC_REVERSE and __enzyme_autodiff) are made there and the
#      program's gradient is right;
#   2. a derivative asked for in one file of a function defined in another
#      (made at link time from the IR the objects carry) works from objects
#      compiled by the server;
#   3. the masquerade way: a directory where `adcc` is a link to distcc,
#      first on PATH, then the directory of the real adcc;
#   4. an AD error found on the server names the file, line and column of
#      the source, with exit status 1.
# Skipped (77) where distcc or distccd is not installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC
require_exe "$ADCC"
for tool in distcc distccd; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "SKIP: $tool not found (Debian: distcc)"
    exit 77
  }
done
clean_build_env

new_workdir distcc
work=$WORKDIR
cd "$work"
chmod 755 "$work"

# A free port, then the daemon in the foreground of a background job, so
# that this script knows its pid and stops it on exit.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
user_opt=()
[[ $(id -u) == 0 ]] && user_opt=(--user nobody)
# (The server finds a bare `adcc`, what the masquerade sends, on
# DISTCCD_PATH.)
DISTCCD_PATH="$(dirname "$ADCC"):/usr/bin:/bin" distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 \
  --port "$port" --enable-tcp-insecure --jobs 2 --log-stderr \
  --log-level info "${user_opt[@]}" 2>"$work/distccd.log" &
daemon=$!
trap 'pkill -P "$daemon" 2>/dev/null; kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; [[ -n "${ADCC_KEEP_TMP:-}" ]] || rm -rf "$work"' EXIT
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
export DISTCC_HOSTS="127.0.0.1:$port/2" DISTCC_FALLBACK=0
export DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_DIR="$work/distcc-state"
mkdir -p "$DISTCC_DIR"
export DISTCC_VERBOSE=1

cat >model.c <<'C'
#include <adcc.h>
#include <math.h>
ADCC_REVERSE(d_model, Duplicated, Const, Active)
double model(const double *x, int n);
double model(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * x[i];
  return s;
}
/* a request of a function of another file (cross.c) */
double square_sum(const double *x, int n);
void __enzyme_autodiff(void *, ...);
void d_square_sum(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)square_sum, x, dx, n);
}
C
cat >cross.c <<'C'
double square_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i];
  return s;
}
C
cat >main.c <<'C'
#include <math.h>
#include <stdio.h>
double d_model(const double *x, double *d_x, int n, double seed);
void d_square_sum(const double *x, double *dx, int n);
int main(void) {
  double x[3] = {0.5, 1.0, 2.0}, dx[3] = {0}, dy[3] = {0};
  d_model(x, dx, 3, 1.0);
  d_square_sum(x, dy, 3);
  int bad = 0;
  for (int i = 0; i < 3; ++i) {
    bad |= fabs(dx[i] - (cos(x[i]) * x[i] + sin(x[i]))) > 1e-12;
    bad |= fabs(dy[i] - 3 * x[i] * x[i]) > 1e-12;
  }
  puts(bad ? "wrong gradient" : "ok");
  return bad;
}
C

# compiled_remotely LOG : distcc's log says the server compiled the file.
compiled_remotely() {
  grep -q "compile .* on 127.0.0.1:$port.* completed ok" "$1" ||
    fail "not compiled by the server: $(tail -n 5 "$1")"
}

# build_and_run WHAT COMPILER... : compiles the three files with COMPILER
# (each by the server), links them with adcc and runs the program.
build_and_run() {
  local what=$1
  shift
  rm -f ./*.o prog
  for f in model cross main; do
    run_logged "$f.log" "$@" -c "$f.c" -o "$f.o"
    compiled_remotely "$f.log"
  done
  run_logged link.log "$ADCC" model.o cross.o main.o -o prog -lm
  [[ $(./prog) == ok ]] || fail "the gradients of the program built $what"
}

step "distcc \$ADCC -c: preprocessed here, compiled by the server"
build_and_run "under distcc" distcc "$ADCC" -O2
pass "derivatives requested in the file and across files (link time) are right"

step "masquerade: adcc a link to distcc, first on PATH"
mkdir masq
ln -s "$(command -v distcc)" masq/adcc
PATH="$work/masq:$(dirname "$ADCC"):$PATH" build_and_run "by the masquerade" \
  adcc -O0
pass "the masquerade way compiles on the server, gradients right at -O0"

step "an AD error found on the server names the source line"
cat >bad.c <<'C'
void __enzyme_autodiff(void *, ...);
double opaque(double);
double f(double x) { return opaque(x) * x; }
void g(double x) { __enzyme_autodiff((void *)f, x); }
C
status=0
DISTCC_VERBOSE=0 distcc "$ADCC" -O2 -fno-adcc-cross-tu -c bad.c -o bad.o \
  2>bad.err || status=$?
[[ $status == 1 ]] || fail "exit status $status, expected 1: $(cat bad.err)"
# (The server has the preprocessed file, not bad.c: Clang cannot show the
# line's text, and names the place in a note; docs/build-systems.md.)
grep -q "error: cannot differentiate 'f' in reverse mode: the external function 'opaque'" bad.err ||
  fail "the error does not name what cannot be differentiated: $(cat bad.err)"
grep -q "bad.c:3:29" bad.err || fail "the error does not name bad.c:3:29: $(cat bad.err)"
pass "exit status 1, error naming bad.c:3:29"
