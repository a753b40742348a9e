#!/usr/bin/env python3
"""tests/bench/typed_bench.py: issue 12's benchmarks in one interleaved run:
typed buffers against the Lua-value path, the C++ core and Open MPI, and
one-sided put/get against Open MPI's MPI_Put.

    tests/bench/typed_bench.py [--build DIR] [--reps N] [--divisor D] [--only SYSTEMS]

Per repetition, one after another: `lumpi-bench pingpong` (C++ core),
`lumpi -n 2 pingpong.lua` (Lua values), `lumpi -n 2 typed.lua` (typed
ping-pong, typed and value allreduce of 1000 and 131072 doubles, win:put /
win:get + flush), `mpi_pingpong` under Open MPI (TCP), `lumpi-bench coll 2`
with LUMPI_BENCH_1MIB (core allreduce of 1000 and 131072 doubles),
`mpi_allreduce1000` at 1000 and 131072 doubles (Open MPI TCP),
`lumpi-bench rma` and `mpi_put` (Open MPI). Prints medians, the ratios the
issue asks for (goal: Lua typed 1 MiB within 1.2x of the C++ core) and the
load average before and after.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (run, med, fmt, build_anchors, parse_pp, parse_coll, MPIRUN, ...)


def parse_rma(text):
    return {(m.group(1), int(m.group(2))): float(m.group(3))
            for m in re.finditer(r"RMA (put|get) (\d+) \d+ ([\d.]+)", text)}


def loadavg():
    return open("/proc/loadavg").read().split()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(bench.ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--divisor", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated system names to run (default: all)")
    a = ap.parse_args()
    lumpi = os.path.join(os.path.abspath(a.build), "lumpi")
    bexe = os.path.join(os.path.abspath(a.build), "tests", "bench", "lumpi-bench")
    if not os.path.exists(bexe):
        bexe = os.path.join(os.path.abspath(a.build), "lumpi-bench")
    anchors = bench.build_anchors()
    # This repository's own anchors are built here, into a directory of this
    # run: the shared ANCHOR_BUILD may hold another checkout's older build.
    own = tempfile.mkdtemp(prefix="lumpi-typed-bench-")
    put_exe = None
    if bench.have_openmpi():
        for name in ("mpi_put", "mpi_allreduce1000"):
            out = os.path.join(own, name)
            if subprocess.run([bench.MPICC, "-O2", os.path.join(HERE, name + ".c"), "-o", out]).returncode == 0:
                anchors[name] = out
        put_exe = anchors.get("mpi_put")
    d = str(a.divisor)
    tcp = [bench.MPIRUN, "-np", "2"] + bench.OMPI_TCP
    systems = {
        "core pp": [bexe, "pingpong", d],
        "lua values pp": [lumpi, "-n", "2", os.path.join(HERE, "pingpong.lua"), d],
        "lua typed": [lumpi, "-n", "2", os.path.join(HERE, "typed.lua"), d],
        "core coll": [bexe, "coll", "2"],
        "core rma": [bexe, "rma", d],
    }
    if "mpi_pingpong" in anchors:
        systems["ompi pp"] = tcp + [anchors["mpi_pingpong"]]
    if "mpi_allreduce1000" in anchors:
        systems["ompi ar1000"] = tcp + [anchors["mpi_allreduce1000"], "0.3", "1000"]
        systems["ompi ar131072"] = tcp + [anchors["mpi_allreduce1000"], "0.3", "131072"]
    if put_exe and os.path.exists(put_exe):
        systems["ompi rma"] = tcp + [put_exe, d]
    if a.only == "allreduce":  # the 1.2x goal's figures only
        systems["lua typed"] = systems["lua typed"] + ["0.3", "coll"]
        a.only = "lua typed,core coll,ompi ar1000,ompi ar131072"
    if a.only:
        systems = {k: v for k, v in systems.items() if k in a.only.split(",")}
    env = dict(bench.OMPI_ENV, LUMPI_BENCH_1MIB="1")
    pp, coll, rma = {}, {}, {}
    loads = [loadavg()]
    for rep in range(a.reps):
        for s, cmd in systems.items():
            out = bench.run(cmd, env=env)
            for b, v in bench.parse_pp(out).items():
                pp.setdefault((s, 1 if b == 8 else b), []).append(v)
            for k, v in bench.parse_coll(out).items():
                coll.setdefault((s, k), []).append(v)
            for k, v in parse_rma(out).items():
                rma.setdefault((s, k), []).append(v)
        loads.append(loadavg())
        print(f"rep {rep + 1}/{a.reps} done, load {loads[-1]}", flush=True)

    def m(table, key, big=False):
        v = table.get(key)
        if not v:
            return None
        return bench.med([x[1] if big else x[0] for x in v] if isinstance(v[0], tuple) else v)

    print(f"\nload average (1 min) before and after each repetition: {' '.join(loads)}")
    print(f"\n### Ping-pong, 2 ranks (median of {a.reps}; half round trip µs, or MB/s from 1 MiB)\n")
    print("| value | C++ core | Lua typed | Lua values | Open MPI tcp | typed / core | values / core |")
    print("|---|---|---|---|---|---|---|")
    for b, label in bench.SIZES:
        big = b >= (1 << 20)
        c, t, v, o = (m(pp, (s, b), big) for s in ("core pp", "lua typed", "lua values pp", "ompi pp"))
        r1 = bench.ratio(c, t) if big else bench.ratio(t, c)  # > 1: Lua slower
        r2 = bench.ratio(c, v) if big else bench.ratio(v, c)
        print(f"| {label} | {bench.fmt(c)} | {bench.fmt(t)} | {bench.fmt(v)} | {bench.fmt(o)} | {r1} | {r2} |")
    print(f"\n### Allreduce of doubles, 2 ranks, µs per call (median of {a.reps})\n")
    print("| count | C++ core | Lua typed | Lua values | Open MPI tcp | typed / core | values / core |")
    print("|---|---|---|---|---|---|---|")
    for count in (1000, 131072):
        k = f"allreduce{count}"
        c = m(coll, ("core coll", k))
        t = m(coll, ("lua typed", k))
        v = m(coll, ("lua typed", k + "_values"))
        o = m(coll, (f"ompi ar{count}", k))
        print(f"| {count} | {bench.fmt(c)} | {bench.fmt(t)} | {bench.fmt(v)} | {bench.fmt(o)} | "
              f"{bench.ratio(t, c)} | {bench.ratio(v, c)} |")
    print(f"\n### put / get + flush, µs per operation (median of {a.reps})\n")
    print("| op | bytes | C++ core | Lua win:put/get | Open MPI (osc) | Lua / core |")
    print("|---|---|---|---|---|---|")
    for op in ("put", "get"):
        for b, _ in bench.SIZES:
            b = 8 if b == 1 else b
            c, lv, o = (m(rma, (s, (op, b))) for s in ("core rma", "lua typed", "ompi rma"))
            print(f"| {op} | {b} | {bench.fmt(c)} | {bench.fmt(lv)} | {bench.fmt(o, 2)} | {bench.ratio(lv, c)} |")
    for n in bench.NOTES:
        print(f"note: {n}")


if __name__ == "__main__":
    main()
