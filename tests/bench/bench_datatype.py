"""tests/bench/bench_datatype.py: bench.py's `datatype` suite (issue 24's
targets): tests/bench/c_datatype.c, the same source built with lumpi-cc,
MPICH's mpicc and Open MPI's mpicc, run at 2 ranks one system after the
other, rep by rep:

- a 1 MiB column of a row-major matrix (MPI_Type_vector) against the same
  bytes sent contiguously: at most 1.5 x on lumpi, and lumpi's ratio at
  most 2 x MPICH's and Open MPI's own ratio;
- MPI_MAXLOC over 10^6 MPI_DOUBLE_INT pairs against MPI_MAX over 10^6
  doubles (MPI_Allreduce): at most 2 x.

With `--before DIR`, the other build's lumpi-cc and lumpi run the same
program too.
"""
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "c_datatype.c")


def build(bench, cc, name, options=()):
    os.makedirs(bench.ANCHOR_BUILD, exist_ok=True)
    out = os.path.join(bench.ANCHOR_BUILD, name)
    p = subprocess.run([cc, "-O2", *options, "-o", out, SOURCE], capture_output=True, text=True)
    if p.returncode != 0:
        bench.note(f"cannot build c_datatype.c with {cc}: {p.stderr.strip()[-300:]}")
        return None
    return out


def parse(text):
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(\w+)\s+\d+\s+([\d.]+)$", text, re.M)}


def systems_to_run(a, lumpi, bench):
    out = {}  # label: command
    exe = build(bench, os.path.join(os.path.dirname(lumpi), "lumpi-cc"), "c_datatype_lumpi")
    if exe:
        out["lumpi"] = [lumpi, "exec", "-n", "2", exe]
    if bench.BEFORE:
        b = bench.BEFORE["lumpi"]
        exe = build(bench, os.path.join(os.path.dirname(b), "lumpi-cc"), "c_datatype_before")
        if exe:
            out["before"] = [b, "exec", "-n", "2", exe]
    if os.path.exists(bench.MPICC_MPICH):
        exe = build(bench, bench.MPICC_MPICH, "c_datatype_mpich")
        if exe:
            out["MPICH"] = [bench.MPIEXEC_MPICH, "-n", "2", exe]
    if bench.have_openmpi():
        exe = build(bench, bench.MPICC, "c_datatype_ompi")
        if exe:
            out["Open MPI"] = [bench.MPIRUN, "-np", "2", exe]
    return out


def suite_datatype(a, anchors, lumpi, bench_exe, bench):
    systems = systems_to_run(a, lumpi, bench)
    got = {s: {} for s in systems}  # label: {figure: [us ...]}
    for rep in range(a.reps):
        for label, cmd in systems.items():
            for k, v in parse(bench.run(cmd, env=bench.RANK_ENV)).items():
                got[label].setdefault(k, []).append(v)
        print(f"datatype rep {rep + 1}/{a.reps}", flush=True)
    labels = list(systems)
    m = {s: {k: bench.med(v) for k, v in got[s].items()} for s in labels}
    print(f"\n### Datatypes (issue 24): c_datatype.c at 2 ranks, µs (median of {a.reps})\n")
    print("| figure | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for k in ("CONT1M", "VEC1M", "MAX1M", "MAXLOC1M"):
        for s in labels:
            bench.record("datatype", s, k, 2, m[s].get(k), "us")
        print(f"| {k} | " + " | ".join(bench.fmt(m[s].get(k)) for s in labels) + " |")
    for num, den in (("VEC1M", "CONT1M"), ("MAXLOC1M", "MAX1M")):
        print(f"| {num} / {den} | " + " | ".join(bench.ratio(m[s].get(num), m[s].get(den)) for s in labels) + " |")
    print("\nTargets: VEC1M / CONT1M at most 1.5 on lumpi and at most 2 x the same ratio of MPICH and Open MPI; "
          "MAXLOC1M / MAX1M at most 2.")
