#!/usr/bin/env python3
"""tests/bench/trace_overhead.py: what tracing (:trace, core/base/trace.hpp) costs
per message: ping-pong half round trips with tracing off and on, through the
C++ core (lumpi-bench, LUMPI_BENCH_TRACE=1 turns every rank's tracer on) and
through Lua (lumpi -n 2 [--trace FILE] tests/bench/pingpong.lua), interleaved
repetition by repetition; with --before DIR also a build of an older commit
(the core before the Lamport clock), with --compiled-out DIR a build of this
tree without the trace hooks (tests/bench/trace_compiled_out.sh): "off
costs nothing measurable" is the off/compiled-out ratio.

    trace_overhead.py [--build DIR] [--before DIR] [--compiled-out DIR] [--reps N] [--divisor D] [--core-only]

Prints a Markdown table of medians (µs per half round trip) and the on/off
ratio. A benchmark, not a test: nothing passes or fails.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SIZES = (8, 1024, 65536, 9, 1025)  # 9 and 1025: selfmsg's 8 B and 1 KiB (µs per message to itself)


def pingpong(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ, **(env or {})),
                         cwd=ROOT).stdout
    return {int(m.group(2)) + (1 if m.group(1) == "SELF" else 0): float(m.group(3)) / (1000 if m.group(1) == "SELF" else 1)
            for m in re.finditer(r"^(?:\[0\] )?(PP|SELF) (\d+) \d+ ([\d.]+)", out, re.M)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--before", help="build dir of an older lumpi-bench (tests/bench/lumpi-bench or lumpi-bench)")
    ap.add_argument("--compiled-out", help="build dir of lumpi-bench without trace hooks (trace_compiled_out.sh)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--core-only", action="store_true", help="skip the Lua runs")
    ap.add_argument("--divisor", type=int, default=2)
    a = ap.parse_args()
    bench = os.path.join(a.build, "tests/bench/lumpi-bench")
    lumpi = os.path.join(a.build, "lumpi")
    trace_file = os.path.join(tempfile.mkdtemp(), "pp.txt")
    runs = {
        "core, off": lambda: {**pingpong([bench, "pingpong", str(a.divisor)]),
                              **pingpong([bench, "selfmsg", str(a.divisor)])},
        "core, on": lambda: {**pingpong([bench, "pingpong", str(a.divisor)], {"LUMPI_BENCH_TRACE": "1"}),
                             **pingpong([bench, "selfmsg", str(a.divisor)], {"LUMPI_BENCH_TRACE": "1"})},
        "Lua, off": lambda: pingpong([lumpi, "-n", "2", "tests/bench/pingpong.lua", str(a.divisor * 4)]),
        "Lua, on": lambda: pingpong([lumpi, "-n", "2", "--trace", trace_file, "tests/bench/pingpong.lua",
                                     str(a.divisor * 4)]),
    }
    if a.before:
        old = next(p for p in (os.path.join(a.before, "tests/bench/lumpi-bench"), os.path.join(a.before, "lumpi-bench"))
                   if os.path.exists(p))
        runs["core, before"] = lambda: pingpong([old, "pingpong", str(a.divisor)])
    if a.compiled_out:
        cut = os.path.join(a.compiled_out, "tests/bench/lumpi-bench")
        runs["core, compiled out"] = lambda: {**pingpong([cut, "pingpong", str(a.divisor)]),
                                              **pingpong([cut, "selfmsg", str(a.divisor)])}
        runs = {k: runs[k] for k in ["core, off", "core, compiled out"] + [k for k in runs if k not in
                                                                          ("core, off", "core, compiled out")]}
    if a.core_only:
        runs = {k: f for k, f in runs.items() if not k.startswith("Lua")}
    got = {k: {s: [] for s in SIZES} for k in runs}
    pairs = {s: [] for s in SIZES}  # off / compiled out, repetition by repetition
    for _ in range(a.reps):
        this = {}
        for k, f in runs.items():
            r = this[k] = f()
            for s in SIZES:
                if s in r:
                    got[k][s].append(r[s])
        if a.compiled_out:
            for s in SIZES:
                if s in this["core, off"] and s in this["core, compiled out"]:
                    pairs[s].append(this["core, off"][s] / this["core, compiled out"][s])
    med = {k: {s: statistics.median(v) if v else float("nan") for s, v in d.items()} for k, d in got.items()}
    print("| half round trip (µs, median of %d) | %s |" % (a.reps, " | ".join(("self %d B" % (s - 1)) if s % 2 else "%d B" % s for s in SIZES)))
    print("|---|" + "---|" * len(SIZES))
    for k in runs:
        print("| %s | %s |" % (k, " | ".join("%.2f" % med[k][s] for s in SIZES)))
    for layer in ("core",) if a.core_only else ("core", "Lua"):
        print("| %s on/off | %s |" % (layer, " | ".join("%.2fx" % (med[layer + ", on"][s] / med[layer + ", off"][s])
                                                    if med[layer + ", off"][s] == med[layer + ", off"][s] else "-"
                                                    for s in SIZES)))
    if a.compiled_out:
        report_pairs(pairs)
    if a.before:
        print("| core off/before | %s |" % " | ".join("%.2fx" % (med["core, off"][s] / med["core, before"][s])
                                                    if med["core, before"][s] == med["core, before"][s] else "-"
                                                    for s in SIZES))


def report_pairs(pairs):
    print("| core off/compiled out, median of pairs (min-max) | %s |" % " | ".join(
        "%.2fx (%.2f-%.2f)" % (statistics.median(v), min(v), max(v)) if v else "-" for v in pairs.values()))


if __name__ == "__main__":
    main()
