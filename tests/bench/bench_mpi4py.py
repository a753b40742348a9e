"""tests/bench/bench_mpi4py.py: bench.py's `mpi4py` suite (issue 26, item 5):
the same mpi4py 3.1.4 on lumpi, on Debian's Open MPI (python3-mpi4py) and on
Debian's MPICH (built here from the same source with mpicc.mpich), in the
same run: the ping-pong's half round trip (buffer and pickle forms) and an
8-double Allreduce (tests/bench/mpi4py_bench.py), beside each MPI's own C
ping-pong, so that mpi4py's per-call cost on each MPI shows.

Target: mpi4py's buffer ping-pong on lumpi within 1.2 x (lumpi's C
ping-pong + mpi4py's own cost as measured on Open MPI).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "mpi4py_bench.py")
PYTHON = "/usr/bin/python3"


def built_mpi4py(work, cc, bench):
    """build/lib of mpi4py built with cc under work, or None (with a note)."""
    sys.path.insert(0, os.path.join(HERE, "..", "mpi4py"))
    import run_mpi4py as m
    try:
        tree, _ = m.fetch_source(work)
        return m.build(tree, cc)[0]
    except (m.Skip, RuntimeError, OSError) as e:
        bench.note(f"mpi4py with {cc}: {e}")
        return None


def parse(text):
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"RESULT (\w+) ([\d.]+)", text)}


def suite_mpi4py(a, anchors, lumpi, bench_exe, bench):
    build = os.path.dirname(lumpi)
    lumpi_lib = built_mpi4py(os.path.join(build, "mpi4py"), os.path.join(build, "lumpi-cc"), bench)
    mpich_lib = built_mpi4py(os.path.join(build, "mpi4py-mpich"), "/usr/bin/mpicc.mpich", bench)
    n = str(a.reps_mpi4py)
    systems = {}  # name: (launcher prefix, env)
    if lumpi_lib:
        systems["lumpi"] = ([lumpi, "exec", "-n"], dict(os.environ, PYTHONPATH=lumpi_lib))
    systems["Open MPI"] = ([bench.MPIRUN, "--oversubscribe", "-np"], dict(bench.OMPI_ENV, PYTHONPATH=""))
    if mpich_lib:
        systems["MPICH"] = (["/usr/bin/mpiexec.mpich", "-n"], dict(os.environ, PYTHONPATH=mpich_lib))
    c_pp = {"lumpi": [lumpi, "exec", "-n", "2", bench.build_c_pingpong(lumpi)]}
    if "mpi_pingpong" in anchors:
        c_pp["Open MPI"] = [bench.MPIRUN, "-np", "2", anchors["mpi_pingpong"]]
    got = {}
    for rep in range(a.reps):
        for name, (launch, env) in systems.items():
            for what, np in (("pingpong", "2"), ("allreduce", "4")):
                for k, v in parse(bench.run(launch + [np, PYTHON, PROGRAM, what, n], env=env)).items():
                    got.setdefault((name, k), []).append(v)
        for name, cmd in c_pp.items():
            if cmd[-1]:
                pp = bench.parse_pp(bench.run(cmd, env=bench.OMPI_ENV))
                small = pp.get(8) or pp.get(1)
                if small:
                    got.setdefault((name, "c_pingpong_us"), []).append(small[0])
        print(f"mpi4py rep {rep + 1}/{a.reps} done", flush=True)
    whats = ["pingpong_buffer_us", "pingpong_pickle_us", "allreduce8_us", "c_pingpong_us"]
    print("\n### mpi4py 3.1.4 on three MPIs, µs (median of %d): ping-pong half round trip at 2 ranks, "
          "Allreduce of 8 doubles at 4 ranks, each MPI's own C ping-pong\n" % a.reps)
    names = list(systems)
    print("| what | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    row = {}
    for w in whats:
        for s in names:
            row[(s, w)] = bench.med(got.get((s, w), []))
            if row[(s, w)] is not None:
                bench.record("mpi4py", s, w, 2, row[(s, w)], "us")
        print(f"| {w} | " + " | ".join(bench.fmt(row[(s, w)]) for s in names) + " |")
    overhead = (row.get(("Open MPI", "pingpong_buffer_us")) or 0) - (row.get(("Open MPI", "c_pingpong_us")) or 0)
    lc, lp = row.get(("lumpi", "c_pingpong_us")), row.get(("lumpi", "pingpong_buffer_us"))
    if lc and lp:
        print(f"\nmpi4py's own cost per message on Open MPI: {overhead:.2f} µs. lumpi: mpi4py {lp:.2f} µs "
              f"against C {lc:.2f} + {overhead:.2f} µs: ratio {lp / (lc + overhead):.2f} (target ≤ 1.2).")
