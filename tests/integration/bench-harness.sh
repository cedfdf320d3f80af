#!/usr/bin/env bash
# bench-harness.sh - smoke test of the benchmark harness bench/run.
#
# Runs `bench/run --quick --only dot` with one short sample (a few seconds:
# it checks the harness, it times nothing) and checks what it writes:
#   1. exit status 0, and `bench/run --help` works;
#   2. the JSON output is a list with the dot kernel's record(s), each with
#      the fields of the report (benchmark, size, primal_s, gradient_s,
#      gradient_ratio, forward_ratio, tape_bytes, compile_s,
#      clang_compile_s, target_ratio, target_met), numbers where adcc fills
#      them, and verified = true (the gradient and tangent were checked);
#   3. the markdown table has a row for dot, and the chart is a PNG when
#      gnuplot is installed;
#   4. an unknown benchmark name in --only is a usage error (status 2);
#   5. built with -ffast-math (which lets a compiler fold NaN tests to
#      false), the JSON still holds no NaN or infinity: a value that was
#      not measured is null (BA's batched and compressed Jacobians, when
#      the ADBench data is there);
#   6. --compare with a second compiler (adcc again, under another name)
#      gives every record that compiler's times and the ratios, and the
#      markdown its side-by-side table; a plugin that does not exist makes
#      the report say the second compiler was not measured.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCC_SOURCE_DIR CLANG
require_exe "$ADCC"
require_tool python3 "install python3 (scripts/setup.sh)"
new_workdir bench-harness
work=$WORKDIR
run=$ADCC_SOURCE_DIR/bench/run

step "bench/run --help"
"$run" --help >"$work/help.txt" || fail "bench/run --help failed"
grep -q -- '--quick' "$work/help.txt" || fail "--help does not list --quick"
pass "help"

step "bench/run --quick --only dot"
# (With a second compiler whose plugin does not exist: the report says it
# was not measured, and nothing else changes.)
if ! "$run" --quick --only dot --samples 1 --min-time 0.001 \
    --cc "$ADCC" --clang "$CLANG" --out "$work/r.json" \
    --compare "$ADCC -fplugin=$work/NoSuchPlugin.so" \
    --keep "$work/build" >"$work/run.log" 2>&1; then
  tail -n 30 "$work/run.log" >&2
  fail "bench/run exited with an error"
fi
pass "exit status 0"

python3 - "$work/r.json" <<'PY' || fail "JSON output is not as expected"
import json, sys
recs = json.load(open(sys.argv[1]))
assert isinstance(recs, list) and recs, "not a non-empty list"
assert {r["benchmark"] for r in recs} == {"dot"}, "records other than dot"
need = ["benchmark", "size", "primal_s", "gradient_s", "gradient_ratio",
        "forward_ratio", "tape_bytes", "compile_s", "clang_compile_s",
        "target_ratio", "target_met", "verified"]
for r in recs:
    missing = [k for k in need if k not in r]
    assert not missing, f"{r['size']}: missing fields {missing}"
    assert r["verified"] is True, f"{r['size']}: not verified"
    for k in ("primal_s", "gradient_s", "gradient_ratio", "forward_ratio",
              "compile_s", "clang_compile_s"):
        assert isinstance(r[k], (int, float)) and r[k] > 0, f"{k} = {r[k]}"
    assert isinstance(r["tape_bytes"], int) and r["tape_bytes"] >= 0
    assert r["target_ratio"] == 3
    assert r["target_met"] == (r["gradient_ratio"] <= 3)
print(f"{len(recs)} record(s) ok")
PY
pass "JSON records"

grep -qF "| \`dot\` |" "$work/r.md" || fail "no dot row in the markdown table"
pass "markdown table"
grep -qF "was not measured: no plugin at NoSuchPlugin.so" "$work/r.md" ||
  fail "the report does not say that the second compiler was not measured"
pass "no plugin"
if command -v gnuplot >/dev/null 2>&1; then
  [[ $(head -c 4 "$work/r.png" | od -An -c | tr -d ' ') == 211PNG ]] ||
    fail "the chart is not a PNG file"
  pass "PNG chart"
else
  echo "gnuplot not installed: chart not checked"
fi

step "unknown benchmark"
set +e
"$run" --only nosuchbench --out "$work/x.json" >"$work/bad.log" 2>&1
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "--only nosuchbench: exit status $rc, expected 2"
pass "usage error"

step "bench/run -ffast-math"
only=dot
data=${ADCC_BENCH_DATA:-$ADCC_SOURCE_DIR/../shared/data/adbench}
[[ -f $data/ba/ba1_n49_m7776_p31843.txt ]] && only=dot,ba
if ! "$run" --quick --only "$only" --samples 1 --min-time 0.001 \
    --cflags=-ffast-math --cc "$ADCC" --clang "$CLANG" \
    --out "$work/fm.json" --keep "$work/build-fm" >"$work/fm.log" 2>&1; then
  tail -n 30 "$work/fm.log" >&2
  fail "bench/run --cflags=-ffast-math exited with an error"
fi
python3 - "$work/fm.json" "$work/build-fm" <<'PY' || fail "-ffast-math: JSON"
import glob, json, os, sys
def no_constant(c):
    raise ValueError(f"{c} in JSON")
# The report and every program's own JSON: strict JSON, no NaN, Infinity.
for path in [sys.argv[1]] + glob.glob(os.path.join(sys.argv[2], "*.json")):
    json.loads(open(path).read(), parse_constant=no_constant)
recs = json.load(open(sys.argv[1]))
assert recs and all(r["verified"] is True for r in recs), "not verified"
for r in recs:
    if r["benchmark"] == "ba":
        assert r.get("compressed_jacobian_s") is None, r["size"]
print(f"{len(recs)} record(s), no NaN")
PY
pass "no NaN with -ffast-math"

step "bench/run --compare"
if ! "$run" --quick --only dot --samples 1 --min-time 0.001 \
    --cc "$ADCC" --clang "$CLANG" --out "$work/c.json" \
    --compare "$ADCC" --compare-name "second adcc" \
    --keep "$work/build-compare" >"$work/compare.log" 2>&1; then
  tail -n 30 "$work/compare.log" >&2
  fail "bench/run --compare exited with an error"
fi
python3 - "$work/c.json" <<'PY' || fail "--compare: JSON not as expected"
import json, sys
recs = json.load(open(sys.argv[1]))
assert recs, "no records"
for r in recs:
    assert r["peer"] == "second adcc", r.get("peer")
    for k in ("peer_primal_s", "peer_gradient_s", "peer_forward_s",
              "gradient_vs_peer", "forward_vs_peer"):
        assert isinstance(r[k], (int, float)) and r[k] > 0, f"{k} = {r[k]}"
    assert abs(r["gradient_vs_peer"] - r["gradient_s"] /
               r["peer_gradient_s"]) < 1e-9 * r["gradient_vs_peer"]
print(f"{len(recs)} record(s) compared")
PY
grep -qF "### Side by side with second adcc" "$work/c.md" ||
  fail "no side-by-side table in the markdown report"
grep -qF "| \`dot\` |" "$work/c.md" || fail "no dot row"
pass "side by side"

