"""bench/run --compare: a second compiler over the same benchmarks.

`bench/run --compare "CMD"` builds and runs every selected benchmark a
second time with the compiler command CMD (typically clang with Enzyme's
plugin), in the same invocation and on the same sources, sizes and data.
Each record of the report then carries the second compiler's times
(`peer_*` fields) and the ratios of the first compiler's times to them
(`*_vs_peer`: below 1, the compiler under test is faster); the markdown
report gets a side-by-side table and a PNG chart shows the ratios.

The second compiler's failures (a source it cannot build, a program that
crashes, a derivative it gets wrong) are reported in its section and do
not change bench/run's exit status. When the command or a plugin it loads
(`-fplugin=PATH`, `-fpass-plugin=PATH`) does not exist, nothing is run a
second time and the report says why.

Python 3 standard library only.
"""

import argparse
import json
import math
import os
import re
import shlex
import shutil

# Fields compared: (record field, name in the report).
COMPARED = [("primal_s", "primal"), ("gradient_s", "gradient"),
            ("jacobian_s", "Jacobian"), ("forward_s", "forward")]


def _num(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v) if math.isfinite(v) else None


def _ratio(a, b):
    a, b = _num(a), _num(b)
    return a / b if a is not None and b is not None and b > 0 else None


def peer_name(args):
    if args.compare_name:
        return args.compare_name
    if re.search(r"enzyme", args.compare, re.IGNORECASE):
        return "Enzyme"
    return os.path.basename(shlex.split(args.compare)[0])


def cxx_for(cmd):
    """The C++ driver beside a C compiler (clang-N's clang++-N, adcc's
    adcc++, gcc's g++) with the same flags, or None."""
    words = shlex.split(cmd)
    if not words:
        return None
    folder, base = os.path.split(words[0])
    m = re.fullmatch(r"(clang|adcc|gcc)(-\d+)?", base)
    if not m:
        return None
    cxx = {"clang": "clang++", "adcc": "adcc++", "gcc": "g++"}[m.group(1)]
    return shlex.join([os.path.join(folder, cxx + (m.group(2) or ""))]
                      + words[1:])


def missing_plugins(cmd):
    """The plugin files a command loads that do not exist."""
    gone = []
    for w in shlex.split(cmd):
        for flag in ("-fplugin=", "-fpass-plugin="):
            if w.startswith(flag) and not os.path.exists(w[len(flag):]):
                gone.append(w[len(flag):])
    return gone


def _short(word):
    for flag in ("-fplugin=", "-fpass-plugin=", ""):
        if word.startswith(flag) and os.path.isabs(word[len(flag):]):
            return flag + ".../" + os.path.basename(word[len(flag):])
    return word


def make_peer(harness_class, args):
    """The Harness of the second compiler, or (None, why not)."""
    words = shlex.split(args.compare)
    name = peer_name(args)
    if not words or not shutil.which(words[0]):
        return None, (f"{name} was not measured: compiler "
                      f"'{words[0] if words else ''}' not found")
    gone = missing_plugins(args.compare)
    if gone:
        return None, (f"{name} was not measured: no plugin at "
                      f"{', '.join(os.path.basename(g) for g in gone)} "
                      "on this machine")
    pa = argparse.Namespace(**vars(args))
    pa.cc = args.compare
    pa.cxx = args.compare_cxx or cxx_for(args.compare) or args.compare
    if args.keep:
        pa.keep = os.path.join(args.keep, "peer")
    h = harness_class(pa)
    h.peer_name = name
    # (Reports name plugins by their file name, not this machine's paths.)
    h.compiler = " ".join(_short(w) for w in words)
    return h, None


def measure(main):
    """Runs the second compiler's benchmarks and merges its times into the
    records of `main`."""
    other = main.peer
    print(f"== {other.peer_name}: the same benchmarks built by "
          f"{other.compiler} [{other.compiler_version}]", flush=True)
    other.host = main.host
    other.measure()
    theirs = {(r.get("benchmark"), str(r.get("size"))): r
              for r in other.records}
    for rec in main.records:
        r = theirs.get((rec.get("benchmark"), str(rec.get("size"))))
        rec["peer"] = other.peer_name
        rec["peer_compiler"] = other.compiler
        if r is None:
            rec["peer_status"] = "not run"
            for field, _ in COMPARED:
                rec["peer_" + field] = None
                rec[field[:-2] + "_vs_peer"] = None
            continue
        rec["peer_status"] = r.get("status")
        rec["peer_verified"] = r.get("verified")
        ok = r.get("status") == "ok" and r.get("verified") is True
        for field, _ in COMPARED:
            v = _num(r.get(field)) if ok else None
            rec["peer_" + field] = v
            rec[field[:-2] + "_vs_peer"] = _ratio(rec.get(field), v)
        rec["peer_tape_bytes"] = r.get("tape_bytes")
    src = {s["source"]: s for s in other.sources}
    for s in main.sources:
        o = src.get(s["source"])
        s["peer_compile_s"] = o.get("compile_s") if o else None
        s["compile_vs_peer"] = _ratio(s.get("compile_s"),
                                      s["peer_compile_s"])
    main.peer_problems = sorted(set(other.problems))
    main.peer_missing = other.missing


def _fmt_time(v):
    v = _num(v)
    if v is None:
        return "–"
    if v < 1e-6:
        return f"{v * 1e9:.3g} ns"
    if v < 1e-3:
        return f"{v * 1e6:.3g} µs"
    if v < 1:
        return f"{v * 1e3:.3g} ms"
    return f"{v:.3g} s"


def _fmt_ratio(v):
    v = _num(v)
    return "–" if v is None else f"{v:.2f}"


def _geomean(values):
    vals = [v for v in (_num(x) for x in values) if v and v > 0]
    if not vals:
        return None, 0
    return math.exp(sum(math.log(v) for v in vals) / len(vals)), len(vals)


def markdown(main):
    """The side-by-side section of the report (nothing without --compare)."""
    if not main.args.compare:
        return []
    if main.peer is None:
        return ["", "### Side by side", "", f"{main.peer_note}."]
    other = main.peer
    name = other.peer_name
    lines = [
        "", f"### Side by side with {name}", "",
        f"The same sources, sizes and data built by `{other.compiler}` "
        f"({other.compiler_version}) with the same flags, run in the same "
        "invocation after the compiler under test. \"ratio\" is the "
        f"compiler under test's time over {name}'s (below 1: faster than "
        f"{name}); a dash where {name} did not build, run or verify the "
        "benchmark.", "",
        f"| benchmark | size | primal | {name} primal | gradient | "
        f"{name} gradient | ratio | Jacobian | {name} Jacobian | ratio | "
        f"forward | {name} forward | ratio |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in main.records:
        lines.append("| " + " | ".join([
            f"`{r['benchmark']}`", str(r["size"]),
            _fmt_time(r.get("primal_s")), _fmt_time(r.get("peer_primal_s")),
            _fmt_time(r.get("gradient_s")),
            _fmt_time(r.get("peer_gradient_s")),
            _fmt_ratio(r.get("gradient_vs_peer")),
            _fmt_time(r.get("jacobian_s")),
            _fmt_time(r.get("peer_jacobian_s")),
            _fmt_ratio(r.get("jacobian_vs_peer")),
            _fmt_time(r.get("forward_s")), _fmt_time(r.get("peer_forward_s")),
            _fmt_ratio(r.get("forward_vs_peer"))]) + " |")
    summary = []
    for key, what in (("gradient_vs_peer", "gradient"),
                      ("forward_vs_peer", "forward")):
        g, n = _geomean(r.get(key) for r in main.records)
        if g is not None:
            summary.append(f"{what} {g:.2f} over {n} rows")
    if summary:
        lines += ["", "Geometric mean of the ratios: " + "; ".join(summary)
                  + "."]
    lines += ["", f"Compile time, `-c`, against {name}:", "",
              f"| source | compiler [s] | {name} [s] | ratio |",
              "|---|--:|--:|--:|"]
    for s in main.sources:
        lines.append(f"| `{s['source']}` | "
                     + " | ".join("–" if _num(v) is None else f"{v:.2f}"
                                  for v in (s.get("compile_s"),
                                            s.get("peer_compile_s"),
                                            s.get("compile_vs_peer")))
                     + " |")
    if getattr(main, "peer_problems", None):
        lines += ["", f"**{name}'s problems:** "
                  + "; ".join(main.peer_problems) + "."]
    if getattr(main, "peer_missing", None):
        lines += ["", f"**Not run for {name} (missing):** "
                  + ", ".join(main.peer_missing) + "."]
    return lines


def chart(main):
    """A PNG chart of the ratios to the second compiler (gnuplot)."""
    if main.peer is None:
        return
    gp = shutil.which("gnuplot")
    if not gp:
        return
    rows = [r for r in main.records
            if any(_num(r.get(k)) for k in ("gradient_vs_peer",
                                            "jacobian_vs_peer",
                                            "forward_vs_peer"))]
    path = os.path.abspath(main.args.compare_chart)
    if not rows:
        print(f"bench/run: nothing measured by both compilers; no "
              f"{os.path.basename(path)}", flush=True)
        return
    dat = os.path.join(main.work, "compare.dat")
    with open(dat, "w") as f:
        for i, r in enumerate(rows):
            label = f"{r['benchmark']} {r['size']}".replace('"', "'")
            f.write(f'{i} "{label}" ' + " ".join(
                "NaN" if _num(r.get(k)) is None else f"{r[k]:.6g}"
                for k in ("gradient_vs_peer", "jacobian_vs_peer",
                          "forward_vs_peer")) + "\n")
    name = main.peer.peer_name
    width = max(800, 26 * len(rows) + 160)
    script = f"""
set terminal pngcairo noenhanced size {width},640 font ",9"
set output {json.dumps(path)}
set datafile missing "NaN"
set logscale y
set ylabel "time / {name}'s time (below 1: faster)"
set xrange [-0.7:{len(rows) - 0.3}]
set xtics rotate by 60 right nomirror
set grid ytics
set key outside top center horizontal samplen 2
set title "{main.compiler} against {name} ({' '.join(main.opt)})"
plot 1 with lines dt 2 lc rgb "#888888" title "{name}", \\
     {json.dumps(dat)} using 1:3:xtic(2) with points pt 7 ps 1.3 lc rgb "#1f5fbf" title "gradient", \\
     '' using 1:4 with points pt 5 ps 1.2 lc rgb "#8a2be2" title "Jacobian (best mode)", \\
     '' using 1:5 with points pt 9 ps 1.3 lc rgb "#d08000" title "forward, 1 direction"
"""
    gpath = os.path.join(main.work, "compare.gp")
    with open(gpath, "w") as f:
        f.write(script)
    rc, _, _ = main.run_cmd([gp, gpath], "gnuplot-compare.log", timeout=60)
    if rc == 0:
        print(f"bench/run: chart of the ratios to {name} written to "
              f"{main.args.compare_chart}", flush=True)
