"""tests/bench/bench_check.py: bench.py's `check` suite (issue 25): what the
checker costs a C program (docs/checking.md). The C ping-pong
(c_pingpong.c, 2 ranks) and the 1000-double MPI_Allreduce
(mpi_allreduce1000.c, 4 ranks), both built with lumpi-cc, run interleaved
rep by rep: with `--before`, the other build's lumpi as the program was
before the checks (the always-on part's cost: target at most 1.10 x); this
build without `--check`; this build with `lumpi exec --check` (target at
most 2 x).
"""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def build(bench, lumpi, name, src):
    cc = os.path.join(os.path.dirname(lumpi), "lumpi-cc")
    os.makedirs(bench.ANCHOR_BUILD, exist_ok=True)
    out = os.path.join(bench.ANCHOR_BUILD, name)
    p = subprocess.run([cc, "-O2", "-o", out, os.path.join(HERE, src)], capture_output=True, text=True)
    if p.returncode != 0:
        bench.note(f"cannot build {src} with {cc}: {p.stderr.strip()[-300:]}")
        return None
    return out


def suite_check(a, anchors, lumpi, bench_exe, bench):
    systems = {}  # label: (lumpi, extra exec options, ping-pong exe, allreduce exe)
    if bench.BEFORE:
        b = bench.BEFORE["lumpi"]
        systems["before"] = (b, [], build(bench, b, "before_check_pp", "c_pingpong.c"),
                             build(bench, b, "before_check_ar", "mpi_allreduce1000.c"))
    pp, ar = build(bench, lumpi, "check_pp", "c_pingpong.c"), build(bench, lumpi, "check_ar", "mpi_allreduce1000.c")
    systems["now"] = (lumpi, [], pp, ar)
    systems["now --check"] = (lumpi, ["--check"], pp, ar)
    got = {s: {} for s in systems}  # label: {what: [us ...]}
    for rep in range(a.reps):
        for label, (exe_lumpi, opts, pp_exe, ar_exe) in systems.items():
            if pp_exe:
                for size, (half, _) in bench.parse_pp(bench.run([exe_lumpi, "exec", *opts, "-n", "2", pp_exe, "4"],
                                                               env=bench.RANK_ENV)).items():
                    got[label].setdefault(f"ping-pong {size} B", []).append(half)
            if ar_exe:
                for op, us in bench.parse_coll(bench.run([exe_lumpi, "exec", *opts, "-n", "4", ar_exe,
                                                          str(a.target)], env=bench.RANK_ENV)).items():
                    got[label].setdefault(f"{op}, 4 ranks", []).append(us)
        print(f"check rep {rep + 1}/{a.reps}", flush=True)
    print(f"\n### The checker's cost (issue 25): C programs, µs (median of {a.reps})\n")
    labels = list(systems)
    print("| what | " + " | ".join(labels) + " | now / before | --check / now |")
    print("|---|" + "---|" * (len(labels) + 2))
    for what in got["now"]:
        v = {s: bench.med(got[s].get(what, [])) for s in labels}
        for s in labels:
            bench.record("check", s, what, 1, v[s], "us")
        print(f"| {what} | " + " | ".join(bench.fmt(v[s], 2) for s in labels) +
              f" | {bench.ratio(v['now'], v.get('before'))} | {bench.ratio(v['now --check'], v['now'])} |")
    print("\nTargets: now / before at most 1.10 (the always-on checks); --check / now at most 2.")
