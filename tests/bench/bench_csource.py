"""tests/bench/bench_csource.py: one C benchmark source run on lumpi, MPICH
and Open MPI, the way bench.py's `datatype` and `rma` suites compare them.

The source prints one line per figure, `<NAME> <iters> <value>`; each
system runs it in turn, rep after rep, at 2 ranks, so every system sees the
same machine within a rep. With `--before DIR`, the other build's lumpi-cc
and lumpi run it too. A system whose compiler is absent is left out with a
note.
"""
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def build(bench, cc, source, name):
    os.makedirs(bench.ANCHOR_BUILD, exist_ok=True)
    out = os.path.join(bench.ANCHOR_BUILD, name)
    p = subprocess.run([cc, "-O2", "-o", out, source], capture_output=True, text=True)
    if p.returncode != 0:
        bench.note(f"cannot build {os.path.basename(source)} with {cc}: {p.stderr.strip()[-300:]}")
        return None
    return out


def parse(text):
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(\w+)\s+\d+\s+([\d.]+)$", text, re.M)}


def systems(bench, lumpi, source, args=()):
    """label: the command that runs `source` at 2 ranks on that system."""
    stem = os.path.splitext(os.path.basename(source))[0]
    wanted = [("lumpi", os.path.join(os.path.dirname(lumpi), "lumpi-cc"), [lumpi, "exec", "-n", "2"])]
    if bench.BEFORE:
        b = bench.BEFORE["lumpi"]
        wanted.append(("before", os.path.join(os.path.dirname(b), "lumpi-cc"), [b, "exec", "-n", "2"]))
    if os.path.exists(bench.MPICC_MPICH):
        wanted.append(("MPICH", bench.MPICC_MPICH, [bench.MPIEXEC_MPICH, "-n", "2"]))
    if bench.have_openmpi():
        wanted.append(("Open MPI", bench.MPICC, [bench.MPIRUN, "-np", "2"]))
    out = {}
    for label, cc, launch in wanted:
        exe = build(bench, cc, source, f"{stem}_{label.replace(' ', '_').lower()}")
        if exe:
            out[label] = launch + [exe, *args]
    return out


def measure(a, bench, commands, title):
    """Run every command once per rep; median of each figure per system."""
    got = {s: {} for s in commands}  # label: {figure: [values ...]}
    for rep in range(a.reps):
        for label, cmd in commands.items():
            for k, v in parse(bench.run(cmd, env=bench.RANK_ENV)).items():
                got[label].setdefault(k, []).append(v)
        print(f"{title} rep {rep + 1}/{a.reps}", flush=True)
    return {s: {k: bench.med(v) for k, v in got[s].items()} for s in commands}


def table(bench, suite, m, figures, ratios, unit="us"):
    labels = list(m)
    print("| figure | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for k in figures:
        for s in labels:
            bench.record(suite, s, k, 2, m[s].get(k), unit)
        print(f"| {k} | " + " | ".join(bench.fmt(m[s].get(k)) for s in labels) + " |")
    for num, den in ratios:
        print(f"| {num} / {den} | " + " | ".join(bench.ratio(m[s].get(num), m[s].get(den)) for s in labels) + " |")


def suite(a, bench, lumpi, source_name, suite_name, title, figures, ratios, targets):
    """The whole suite: `source_name` (in tests/bench) on every system, its
    figures and ratios as a table under `title`, then the targets."""
    source = os.path.join(HERE, source_name)
    m = measure(a, bench, systems(bench, lumpi, source), suite_name)
    print(f"\n### {title} (median of {a.reps})\n")
    table(bench, suite_name, m, figures, ratios)
    print("\nTargets: " + targets)
