#!/usr/bin/env python3
"""tests/bench/bench.py: lumpi next to the systems a user would otherwise
pick, measured in one run on one machine, interleaved repetition by
repetition so that the load of a shared machine hits every system alike.

    bench.py [--build DIR] [--reps N] [--json FILE] [SUITE ...]

SUITE is any of p2p, coll, repl, kernel, startup, memory, mpich, hosts (default: all;
hosts is in bench_hosts.py). Each suite
prints a Markdown table (median over repetitions, and the ratio to the
anchor the issue names) and one machine-readable line per figure:

    RESULT {"suite": ..., "system": ..., "what": ..., "n": ..., "value": ..., "unit": ...}

Anchors (see /work/shared/anchors, or $ANCHORS) are built on demand into
$ANCHOR_BUILD (default /tmp/lumpi-bench-anchors) and skipped with a note
when their packages (openmpi-bin libopenmpi-dev, python3-ipyparallel) are
not installed. Nothing here is a test: no figure passes or fails.
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANCHORS = os.environ.get("ANCHORS", "/work/shared/anchors")
ANCHOR_BUILD = os.environ.get("ANCHOR_BUILD", "/tmp/lumpi-bench-anchors")
MPIRUN = "/usr/bin/mpirun.openmpi"
MPICC = "/usr/bin/mpicc.openmpi"
OMPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
# What lumpi gives every rank it starts (launcher/coordinator/world.cpp, rank_environment):
# lumpi-bench forks its ranks itself, so it gets the same for a like-for-like
# ping-pong (without it, every 1-4 MiB buffer is mmapped and unmapped).
RANK_ENV = dict(OMPI_ENV)
RANK_ENV.setdefault("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864")
OMPI_TCP = ["--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "lo",
            "--mca", "oob_tcp_if_include", "lo"]

RESULTS = []
BEFORE = {}  # --before: "lumpi" and "bench" of the other build
NOTES = []


def note(text):
    NOTES.append(text)
    print(f"note: {text}", flush=True)


def record(suite, system, what, n, value, unit):
    r = {"suite": suite, "system": system, "what": what, "n": n, "value": value, "unit": unit}
    RESULTS.append(r)
    print("RESULT " + json.dumps(r), flush=True)


QUIET = 0.0  # --quiet: wait up to this many s for an idle machine before each run


def busy_s():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:8]]
    return (v[0] + v[1] + v[2] + v[5] + v[6]) / os.sysconf("SC_CLK_TCK")


def wait_quiet():
    """Waits (at most QUIET s) until the CPUs were < 10 % busy over 0.5 s."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < QUIET:
        b0 = busy_s()
        time.sleep(0.5)
        if (busy_s() - b0) / (0.5 * os.cpu_count()) < 0.10:
            return


def run(cmd, timeout=600, env=None):
    """Runs cmd in a session of its own, returns its stdout ('' on failure,
    with a note). On a timeout the whole process group is killed: the
    anchors fork, and an orphaned spinning rank would skew every later
    figure."""
    wait_quiet()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        note(f"timed out: {' '.join(cmd)}")
        return ""
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # leftovers of a finished run, if any
        except ProcessLookupError:
            pass
    if p.returncode != 0:
        note(f"exit {p.returncode}: {' '.join(cmd)}: {err.strip()[-300:]}")
    return out


def med(v):
    return statistics.median(v) if v else None


def fmt(x, digits=1):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "-"


# ---- anchors -------------------------------------------------------------------------

def have_openmpi():
    return os.path.exists(MPIRUN) and os.path.exists(MPICC)


def build_anchors():
    """Builds what can be built; returns {name: path}."""
    os.makedirs(ANCHOR_BUILD, exist_ok=True)
    built = {}

    def cc(name, cmd):
        out = os.path.join(ANCHOR_BUILD, name)
        sources = [s for s in cmd if s.endswith((".c", ".cpp"))]
        missing = [s for s in sources if not os.path.isfile(s)]
        if missing:
            note(f"anchor {name} skipped: no {missing[0]}")
            return
        src_time = max(os.path.getmtime(s) for s in sources)
        if not os.path.exists(out) or os.path.getmtime(out) < src_time:
            p = subprocess.run(cmd + ["-o", out], capture_output=True, text=True)
            if p.returncode != 0:
                note(f"cannot build anchor {name}: {p.stderr.strip()[-300:]}")
                return
        built[name] = out

    if os.path.exists(os.path.join(ANCHORS, "zmq_pingpong.cpp")):
        cc("zmq_pingpong", ["g++", "-O2", "-std=c++17", os.path.join(ANCHORS, "zmq_pingpong.cpp"),
                            "-lzmq", "-pthread"])
    else:
        note(f"no anchors at {ANCHORS}: raw ZeroMQ skipped")
    if have_openmpi():
        for prog in ("mpi_pingpong", "mpi_coll", "mpi_hello"):
            cc(prog, [MPICC, "-O2", os.path.join(ANCHORS, prog + ".c")])
        cc("mpi_allreduce1000", [MPICC, "-O2", os.path.join(HERE, "mpi_allreduce1000.c")])
    else:
        note("Open MPI (openmpi-bin libopenmpi-dev) not installed: MPI anchors skipped")
    return built


# ---- parsing ---------------------------------------------------------------------------

def parse_pp(text):
    """PP lines -> {bytes: (half_us, MBps)}."""
    out = {}
    for m in re.finditer(r"PP (\d+) \d+ ([\d.]+) ([\d.]+)", text):
        out[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    return out


COLL_ALIASES = {"allreduce_1dbl": "allreduce", "comm_split_free": "split", "cart_create_free": "cart"}


def parse_coll(text):
    return {COLL_ALIASES.get(m.group(1), m.group(1)): float(m.group(2))
            for m in re.finditer(r"COLL (\w+) \d+ \d+ ([\d.]+)", text)}


# ---- 1. point-to-point -----------------------------------------------------------------

def build_c_pingpong(lumpi, name="lumpi_c_pingpong", options=()):
    """tests/bench/c_pingpong.c built with lumpi-cc (next to lumpi), or None.
    lumpi-cc links libmpi.so; options=["-static-mpi"] the static libraries."""
    cc = os.path.join(os.path.dirname(lumpi), "lumpi-cc")
    src = os.path.join(HERE, "c_pingpong.c")
    if not os.path.exists(cc):
        note(f"no lumpi-cc next to {lumpi}: the C ping-pong skipped")
        return None
    os.makedirs(ANCHOR_BUILD, exist_ok=True)
    out = os.path.join(ANCHOR_BUILD, name)
    p = subprocess.run([cc, "-O2", *options, "-o", out, src], capture_output=True, text=True)
    if p.returncode != 0:
        note(f"cannot build the C ping-pong: {p.stderr.strip()[-300:]}")
        return None
    return out


SIZES = [(1, "int"), (1024, "1 KiB"), (65536, "64 KiB"), (1 << 20, "1 MiB"), (4 << 20, "4 MiB")]


def suite_p2p(a, anchors, lumpi, bench_exe):
    systems = {}
    if "zmq_pingpong" in anchors:
        systems["zmq ipc"] = [anchors["zmq_pingpong"], "ipc", "pair", "block"]
    if "mpi_pingpong" in anchors:
        systems["ompi shm"] = [MPIRUN, "-np", "2", anchors["mpi_pingpong"]]
        systems["ompi tcp"] = [MPIRUN, "-np", "2"] + OMPI_TCP + [anchors["mpi_pingpong"]]
    systems["lumpi C++"] = [bench_exe, "pingpong"]
    c_exe = build_c_pingpong(lumpi)
    if c_exe:
        systems["lumpi C"] = [lumpi, "exec", "-n", "2", c_exe]
    static_exe = build_c_pingpong(lumpi, "lumpi_c_pingpong_static", ["-static-mpi"])
    if static_exe:  # the same program on the static libraries (issue 26: shared within 1.05x)
        systems["lumpi C static"] = [lumpi, "exec", "-n", "2", static_exe]
    cxx_exe = os.path.join(os.path.dirname(bench_exe), "lumpi-cxx-pingpong")
    if c_exe and os.path.exists(cxx_exe):  # the same loop through the C++ API, same host
        systems["lumpi C++ exec"] = [lumpi, "exec", "-n", "2", cxx_exe]
    systems["lumpi Lua"] = [lumpi, "-n", "2", os.path.join(HERE, "pingpong.lua")]
    if a.before:
        systems["before C++"] = [BEFORE["bench"], "pingpong"]
        systems["before Lua"] = [BEFORE["lumpi"], "-n", "2", os.path.join(HERE, "pingpong.lua")]
        before_c = build_c_pingpong(BEFORE["lumpi"], "before_c_pingpong")
        if before_c:  # as the other build's lumpi-cc links it
            systems["before C"] = [BEFORE["lumpi"], "exec", "-n", "2", before_c]
    got = {s: {} for s in systems}

    def paired(a, b, size, big):  # median of the per-rep ratios; > 1: a slower
        va, vb = got[a].get(size, []), got[b].get(size, [])
        return med([(y[1] / x[1]) if big else (x[0] / y[0]) for x, y in zip(va, vb)]) or 0.0
    for rep in range(a.reps):
        for s, cmd in systems.items():
            pp = parse_pp(run(cmd, env=RANK_ENV if cmd[0] in (bench_exe, BEFORE.get("bench")) else OMPI_ENV))
            for b, v in pp.items():
                b = 1 if b == 8 else b  # an integer: 1 B for the anchors, 8 B for lumpi
                got[s].setdefault(b, []).append(v)
        print(f"p2p rep {rep + 1}/{a.reps} done", flush=True)
    base = "zmq ipc"
    print("\n### 1. Ping-pong, 2 ranks: half round trip (µs) for small values, "
          "bandwidth (MB/s) for large (median of %d)\n" % a.reps)
    names = list(systems)
    hdr = "| value | " + " | ".join(names) + " | lumpi C++ / zmq | lumpi Lua / zmq |"
    print(hdr)
    print("|---" * (len(names) + 3) + "|")
    for b, label in SIZES:
        big = b >= (1 << 20)
        row = {}
        for s in names:
            v = got[s].get(b)
            row[s] = med([x[1] if big else x[0] for x in v]) if v else None
            if row[s] is not None:
                record("p2p", s, label, 2, row[s], "MB/s" if big else "us")
        cells = [fmt(row[s]) for s in names]
        if big:  # bandwidth: lumpi as a share of zmq
            r1, r2 = ratio(row.get("lumpi C++"), row.get(base)), ratio(row.get("lumpi Lua"), row.get(base))
        else:
            r1, r2 = ratio(row.get("lumpi C++"), row.get(base)), ratio(row.get("lumpi Lua"), row.get(base))
        unit = "MB/s" if big else "µs"
        print(f"| {label} ({unit}) | " + " | ".join(cells) + f" | {r1} | {r2} |")
    print("\nTargets: small values ≤ 1.5 × zmq ipc (ratio ≤ 1.5); 4 MiB bandwidth ≥ 0.8 × zmq ipc.")
    if "lumpi C" in names:
        print("\nC API (mpi.h) against the C++ core (issue 13 target: within 1.1x). Ratios are")
        print("medians of the per-rep ratios (each rep runs every system once, back to back);")
        print("'C++ exec' is the same loop through the C++ API under lumpi exec, the C program's host:\n")
        exe = "lumpi C++ exec" in names
        print("| value | lumpi C | lumpi C++ | C / C++ |" + (" C++ exec | C / C++ exec |" if exe else ""))
        print("|---|---|---|---|" + ("---|---|" if exe else ""))
        for b_, label in SIZES:
            big = b_ >= (1 << 20)
            vc, vx = got["lumpi C"].get(b_), got["lumpi C++"].get(b_)
            if not vc or not vx:
                continue
            c = med([x[1] if big else x[0] for x in vc])
            x = med([x[1] if big else x[0] for x in vx])
            row = f"| {label} ({'MB/s' if big else 'µs'}) | {fmt(c)} | {fmt(x)} | {paired('lumpi C', 'lumpi C++', b_, big):.2f} |"
            if exe and got["lumpi C++ exec"].get(b_):
                e = med([y[1] if big else y[0] for y in got["lumpi C++ exec"][b_]])
                row += f" {fmt(e)} | {paired('lumpi C', 'lumpi C++ exec', b_, big):.2f} |"
            print(row)
    if "lumpi C" in names and "lumpi C static" in names:
        print_shared_static(got, names, paired)


def print_shared_static(got, names, paired):
    """The C ping-pong on libmpi.so against the same program on the static
    libraries (and the other build's, --before), paired per repetition."""
    before = "before C" in names
    print("\nC ping-pong: libmpi.so (lumpi-cc's default) against the static libraries "
          "(-static-mpi); issue 26 target: shared / static <= 1.05. Paired per rep:\n")
    print("| value | shared | static | shared / static |" + (" before (static) | shared / before |" if before else ""))
    print("|---|---|---|---|" + ("---|---|" if before else ""))
    for b, label in SIZES:
        big = b >= (1 << 20)
        v = {s: got[s].get(b) for s in ("lumpi C", "lumpi C static", "before C") if s in names}
        if not v["lumpi C"] or not v["lumpi C static"]:
            continue
        m = {s: med([x[1] if big else x[0] for x in vs]) if vs else None for s, vs in v.items()}
        row = (f"| {label} ({'MB/s' if big else 'µs'}) | {fmt(m['lumpi C'])} | {fmt(m['lumpi C static'])} | "
               f"{paired('lumpi C', 'lumpi C static', b, big):.3f} |")
        if before and v["before C"]:
            row += f" {fmt(m['before C'])} | {paired('lumpi C', 'before C', b, big):.3f} |"
        print(row)


# ---- 2. collectives ---------------------------------------------------------------------

OPS = ["barrier", "allreduce", "allreduce1000", "split", "cart"]


def suite_coll(a, anchors, lumpi, bench_exe):
    nps = [int(x) for x in a.coll_np.split(",")]
    target = str(a.target)
    got = {}

    def add(system, n, res):
        for op, us in res.items():
            got.setdefault((system, n, op), []).append(us)

    for rep in range(a.reps):
        for n in nps:
            add("lumpi C++", n, parse_coll(run([bench_exe, "coll", str(n), target])))
            add("lumpi Lua", n, parse_coll(run([lumpi, "-n", str(n), os.path.join(HERE, "coll.lua"), target])))
            if a.before:
                add("before C++", n, parse_coll(run([BEFORE["bench"], "coll", str(n), target])))
                add("before Lua", n, parse_coll(run([BEFORE["lumpi"], "-n", str(n),
                                                     os.path.join(HERE, "coll.lua"), target])))
            if "mpi_coll" in anchors:
                for sysname, extra in (("ompi shm", []), ("ompi tcp", OMPI_TCP)):
                    base = [MPIRUN, "-np", str(n), "--oversubscribe"] + extra
                    add(sysname, n, parse_coll(run(base + [anchors["mpi_coll"], target], env=OMPI_ENV)))
                    if "mpi_allreduce1000" in anchors:
                        add(sysname, n, parse_coll(run(base + [anchors["mpi_allreduce1000"], target],
                                                       env=OMPI_ENV)))
            print(f"coll rep {rep + 1}/{a.reps} np={n} done", flush=True)
    systems = ["lumpi C++", "lumpi Lua", "ompi shm", "ompi tcp"]
    if a.before:
        systems += ["before C++", "before Lua"]
    print("\n### 2. Collectives and constructors, µs per call (median of %d; "
          "split and cart include the free)\n" % a.reps)
    print("| op | ranks | " + " | ".join(systems) + " | C++ / ompi tcp | Lua / ompi tcp |")
    print("|---" * (len(systems) + 4) + "|")
    for op in OPS:
        for n in nps:
            row = {s: med(got.get((s, n, op), [])) for s in systems}
            for s, v in row.items():
                if v is not None:
                    record("coll", s, op, n, v, "us")
            print(f"| {op} | {n} | " + " | ".join(fmt(row[s]) for s in systems) +
                  f" | {ratio(row['lumpi C++'], row['ompi tcp'])} | {ratio(row['lumpi Lua'], row['ompi tcp'])} |")
    print("\nTarget: barrier, allreduce, split at 16 ranks ≤ 2 × Open MPI over TCP.")


# ---- 3. REPL round trip ----------------------------------------------------------------

def repl_round_trips(lumpi, n, count):
    """Types `return 1` into a REPL of n ranks `count` times; seconds each."""
    wait_quiet()
    p = subprocess.Popen([lumpi, "-n", str(n)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    want = f"[0-{n - 1}] 1" if n > 1 else "[0] 1"
    times = []
    try:
        for i in range(count + 5):  # 5 warm-up commands (the first waits for start-up)
            t0 = time.perf_counter()
            p.stdin.write("return 1\n")
            p.stdin.flush()
            while True:
                line = p.stdout.readline()
                if not line:
                    raise RuntimeError("lumpi REPL ended early")
                if line.strip() == want:
                    break
            if i >= 5:
                times.append(time.perf_counter() - t0)
        p.stdin.write(":quit\n")
        p.stdin.close()
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return times


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def ipp_round_trips(n, reps):
    """ipyparallel execute/apply_sync on n engines: {op: (p50_ms, p90_ms)}."""
    script = os.path.join(ANCHORS, "ipp_bench.py")
    env = dict(os.environ, IPYTHONDIR="/tmp/lumpi-bench-ipython")
    out = run(["/usr/bin/python3", script, "--n", str(n), "--starts", "1", "--max-starts", "1",
               "--reps", str(reps)], timeout=900, env=env)
    res = {}
    for m in re.finditer(r"^(\w+)\s+ms/call: median ([\d.]+)\s+p90 ([\d.]+)", out, re.M):
        res[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    m = re.search(r"startup incl\. [\d.]+s delay, s: median ([\d.]+)", out)
    if m:
        res["startup"] = (float(m.group(1)), None)
    return res


def have_ipp():
    return subprocess.run(["/usr/bin/python3", "-c", "import ipyparallel"],
                          capture_output=True).returncode == 0


def suite_repl(a, anchors, lumpi, bench_exe):
    nps = [int(x) for x in a.repl_np.split(",")]
    ipp_nps = [int(x) for x in a.ipp_np.split(",") if x]
    lumpi_t = {n: [] for n in nps}
    before_t = {n: [] for n in nps}
    ipp = {}
    ok_ipp = have_ipp() and os.path.exists(os.path.join(ANCHORS, "ipp_bench.py"))
    if not ok_ipp:
        note("ipyparallel (python3-ipyparallel) not installed: REPL anchor skipped")
    for rep in range(a.reps):
        for n in nps:
            lumpi_t[n] += repl_round_trips(lumpi, n, a.repl_count)
            if a.before:
                before_t[n] += repl_round_trips(BEFORE["lumpi"], n, a.repl_count)
            if ok_ipp and n in ipp_nps and rep == 0:  # one cluster lifetime per size
                ipp[n] = ipp_round_trips(n, a.ipp_reps)
        print(f"repl rep {rep + 1}/{a.reps} done", flush=True)
    print(f"\n### 3. REPL round trip of `return 1` until the collated answer is printed, ms "
          f"({a.reps}×{a.repl_count} commands per size for lumpi; ipyparallel: {a.ipp_reps} calls)\n")
    extra = " before p50 | before p90 |" if a.before else ""
    print("| ranks | lumpi p50 | lumpi p90 | ipp execute p50 | ipp execute p90 | ipp apply_sync p50 "
          "| ipp apply_sync p90 | ipp p50 / lumpi p50 |" + extra)
    print("|---|---|---|---|---|---|---|---|" + ("---|---|" if a.before else ""))
    for n in nps:
        t = [x * 1e3 for x in lumpi_t[n]]
        p50, p90 = (pct(t, 0.5), pct(t, 0.9)) if t else (None, None)
        if t:
            record("repl", "lumpi", "return 1 p50", n, p50, "ms")
            record("repl", "lumpi", "return 1 p90", n, p90, "ms")
        r = ipp.get(n, {})
        ex = r.get("execute_silent", (None, None))
        ap = r.get("apply_sync", (None, None))
        for name, v in (("execute", ex), ("apply_sync", ap)):
            if v[0] is not None:
                record("repl", "ipyparallel", name + " p50", n, v[0], "ms")
                record("repl", "ipyparallel", name + " p90", n, v[1], "ms")
        if "startup" in r:
            record("startup", "ipyparallel", "cluster start", n, r["startup"][0], "s")
        cells = ""
        if a.before:
            b = [x * 1e3 for x in before_t[n]]
            b50, b90 = (pct(b, 0.5), pct(b, 0.9)) if b else (None, None)
            if b:
                record("repl", "lumpi before", "return 1 p50", n, b50, "ms")
            cells = f" {fmt(b50, 2)} | {fmt(b90, 2)} |"
        print(f"| {n} | {fmt(p50, 2)} | {fmt(p90, 2)} | {fmt(ex[0], 2)} | {fmt(ex[1], 2)} | "
              f"{fmt(ap[0], 2)} | {fmt(ap[1], 2)} | {ratio(ex[0], p50)} |" + cells)
    print("\nTarget: lumpi p50 at 16 ranks ≤ 1 ms.")


# ---- 3b. notebook cell round trip: the lumpi kernel against ipyparallel's %px --------------

def suite_kernel(a, anchors, lumpi, bench_exe):
    """kernel_bench.py (Debian's python3 with jupyter_client, ipykernel,
    ipyparallel): `return 1` in the lumpi kernel and `%px 1` in IPython's
    kernel on a cluster of as many engines, interleaved, both timed from
    execute_request until execute_reply and idle."""
    have = subprocess.run(["/usr/bin/python3", "-c", "import jupyter_client, ipykernel"],
                          capture_output=True).returncode == 0
    if not have:
        return note("kernel suite skipped: python3-jupyter-client / python3-ipykernel not installed")
    cmd = ["/usr/bin/python3", os.path.join(HERE, "kernel_bench.py"), "--lumpi", lumpi,
           "--np", a.kernel_np, "--cells", str(a.kernel_cells), "--rounds", str(a.reps)]
    if not have_ipp():
        note("ipyparallel (python3-ipyparallel) not installed: kernel anchor skipped")
        cmd.append("--no-ipp")
    out = run(cmd, timeout=1800)
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    print(f"\n### 3b. Notebook cell round trip, ms: `return 1` in the lumpi kernel, `%px 1` in IPython's "
          f"kernel on ipyparallel (jupyter_client, execute until reply and idle; {a.reps} interleaved rounds "
          f"of {a.kernel_cells} cells each)\n")
    print("| ranks | lumpi p50 | lumpi p90 | ipp %px p50 | ipp %px p90 | ipp p50 / lumpi p50 "
          "| lumpi CPU/cell | ipp CPU/cell | ipp CPU / lumpi CPU | load (1 min) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        n, lt, it = r["n"], r["lumpi_ms"], r["ipp_ms"]
        l50, l90 = (pct(lt, 0.5), pct(lt, 0.9)) if lt else (None, None)
        i50, i90 = (pct(it, 0.5), pct(it, 0.9)) if it else (None, None)
        for system, what, v in (("lumpi kernel", "return 1 p50", l50), ("lumpi kernel", "return 1 p90", l90),
                                ("ipyparallel %px", "%px 1 p50", i50), ("ipyparallel %px", "%px 1 p90", i90)):
            if v is not None:
                record("kernel", system, what, n, v, "ms")
        lc, ic = med(r.get("lumpi_cpu_ms", [])), med(r.get("ipp_cpu_ms", []))
        for system, v in (("lumpi kernel", lc), ("ipyparallel %px", ic)):
            if v is not None:
                record("kernel", system, "CPU per cell", n, v, "ms")
        load = "-".join(f"{x:.1f}" for x in r["load"])
        print(f"| {n} | {fmt(l50, 2)} | {fmt(l90, 2)} | {fmt(i50, 2)} | {fmt(i90, 2)} | {ratio(i50, l50)} "
              f"| {fmt(lc, 2)} | {fmt(ic, 2)} | {ratio(ic, lc)} | {load} |")
    print("\nCPU/cell: CPU time (ms, user + system, median over rounds) of every process behind the "
          "kernel per cell (lumpi: kernel + ranks; ipp: IPython kernel + controller + engines).")
    print("\nTarget: ipp %px p50 / lumpi p50 >= 20 at 4 and 16 ranks.")


# ---- 4. start-up and tear-down ------------------------------------------------------------

def wall(cmd, env=None, timeout=120):
    wait_quiet()
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                         start_new_session=True)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        note(f"timed out: {' '.join(cmd)}")
        return None
    t = time.perf_counter() - t0
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return t if rc == 0 else None


def suite_startup(a, anchors, lumpi, bench_exe):
    nps = [int(x) for x in a.startup_np.split(",")]
    got = {}
    for rep in range(a.reps + 1):  # rep 0 warms the page cache and is dropped
        for n in nps:
            systems = {"lumpi -e 'return 1'": [lumpi, "-n", str(n), "-e", "return 1"]}
            if a.before:
                systems["before"] = [BEFORE["lumpi"], "-n", str(n), "-e", "return 1"]
            if "mpi_hello" in anchors:
                systems["mpirun mpi_hello"] = [MPIRUN, "-np", str(n), "--oversubscribe",
                                               anchors["mpi_hello"]]
            for s, cmd in systems.items():
                t = wall(cmd, env=OMPI_ENV)
                if rep > 0 and t is not None:
                    got.setdefault((s, n), []).append(t)
        print(f"startup rep {rep}/{a.reps} done", flush=True)
    print("\n### 4. Start-up to first answer and tear-down, wall time in s (median of %d)\n" % a.reps)
    print("| ranks | lumpi -e 'return 1' | mpirun -n N mpi_hello | lumpi / mpirun |" +
          (" before |" if a.before else ""))
    print("|---|---|---|---|" + ("---|" if a.before else ""))
    for n in nps:
        l = med(got.get(("lumpi -e 'return 1'", n), []))
        m = med(got.get(("mpirun mpi_hello", n), []))
        if l is not None:
            record("startup", "lumpi", "-e 'return 1'", n, l, "s")
        if m is not None:
            record("startup", "ompi", "mpirun mpi_hello", n, m, "s")
        b = med(got.get(("before", n), []))
        print(f"| {n} | {fmt(l, 3)} | {fmt(m, 3)} | {ratio(l, m)} |" +
              (f" {fmt(b, 3)} |" if a.before else ""))
    print("\nTarget: at 64 ranks lumpi ≤ 0.5 × mpirun.")


# ---- 5. memory ------------------------------------------------------------------------------

def parse_mem(text):
    out = {}
    for m in re.finditer(r"MEM (\w+) (\d+) (\d+)", text):
        out.setdefault(m.group(1), []).append(int(m.group(3)))
    return out


def suite_memory(a, anchors, lumpi, bench_exe):
    n, cycles, batches = a.mem_np, a.mem_cycles, a.mem_batches
    last = f"after{batches}" if batches > 1 else "after"
    mid = "after" if batches <= 2 else f"after{batches // 2}"
    rows = []
    for system, cmd in (("lumpi Lua (lumpi-rank)", [lumpi, "-n", str(n), os.path.join(HERE, "mem.lua"),
                                                    str(cycles), str(batches)]),
                        ("lumpi C++ core", [bench_exe, "commfree", str(n), str(cycles), str(batches)])):
        m = parse_mem(run(cmd))
        if not m:
            continue
        idle, first, half, end = (med(m.get(k, [])) for k in ("idle", "after", mid, last))
        rows.append((system, idle, first, half, end))
        for k, v in (("idle", idle), (f"after {cycles} cycles", first),
                     (f"after {cycles * batches} cycles", end)):
            record("memory", system, k, n, v, "KiB")
        record("memory", system, "growth over the second half", n, end - half, "KiB")
    print(f"\n### 5. Resident size per rank, KiB (median over {n} ranks; a cycle = dup + split + "
          f"free both; {batches} batches of {cycles} cycles)\n")
    h = cycles * (batches - batches // 2) if batches > 2 else cycles
    print(f"| system | idle | after {cycles} cycles | after {cycles * batches} | "
          f"growth over the last {h} cycles |")
    print("|---|---|---|---|---|")
    for system, idle, first, half, end in rows:
        print(f"| {system} | {fmt(idle)} | {fmt(first)} | {fmt(end)} | {end - half:+.0f} |")
    print("\nTarget: flat (the first batch may raise the allocator's high-water mark; "
          "no growth after it beyond allocator noise).")


# ---- main ------------------------------------------------------------------------------

# ---- 6. MPICH's test programs under three launchers ---------------------------------------

MPICC_MPICH = "/usr/bin/mpicc.mpich"
MPIEXEC_MPICH = "/usr/bin/mpiexec.mpich"


def suite_mpich(a, anchors, lumpi, bench_exe):
    """The programs of test/mpi/{group,comm,topo,attr} that lumpi passes, each
    built with lumpi-cc, MPICH's mpicc and Open MPI's mpicc, run one at a time
    (as MPICH's runtests does) with lumpi exec, mpiexec.mpich and mpirun,
    interleaved entry by entry. Wall time per entry, summed."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "mpich"))
    import run_mpich as rm
    work = os.path.join(a.build, "mpich")
    try:
        tree = rm.fetch_source(work)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        return note(f"mpich suite skipped: MPICH's source cannot be fetched: {e}")
    compilers = {"lumpi": os.path.join(a.build, "lumpi-cc")}
    if os.path.exists(MPICC_MPICH) and os.path.exists(MPIEXEC_MPICH):
        compilers["mpich"] = MPICC_MPICH
    else:
        note("MPICH (package mpich) not installed: its column is empty")
    if have_openmpi():
        compilers["ompi"] = MPICC
    exp = rm.read_expected(os.path.join(ROOT, "tests", "mpich", "expected-failures.txt"))
    selected, _ = rm.select_entries(tree, a.mpich_dirs.split(","), None, 1, exp)
    selected = [e for e in selected if not e.reason]
    entries = [(e.d, e.name, e.np, e.opts, e.args) for e in selected]
    built = {}  # (system, d, name) -> exe
    for system, cc in compilers.items():
        out = os.path.join(ANCHOR_BUILD, "mpich-" + system)
        for (d, name), (exe, why) in rm.build_all(tree, out, cc, selected, 2).items():
            if exe:
                built[(system, d, name)] = exe
            else:
                note(f"{system}: {d}/{name} not built: {why}")

    def command(system, exe, np, args):
        if system == "lumpi":
            return [lumpi, "exec", "-n", str(np), exe] + args
        if system == "mpich":
            return [MPIEXEC_MPICH, "-n", str(np), exe] + args
        return [MPIRUN, "-np", str(np), "--oversubscribe"] + [exe] + args

    totals = {s: [] for s in compilers}
    for rep in range(a.mpich_reps):
        t = {s: 0.0 for s in compilers}
        ran = 0
        for d, name, np, opts, args in entries:
            if not all((s, d, name) in built for s in compilers):
                continue
            times = {}
            for system in compilers:
                limit = int(opts.get("timeLimit", 60)) + 30
                times[system] = wall(command(system, built[(system, d, name)], np, args),
                                     env=OMPI_ENV, timeout=limit)
            if any(v is None for v in times.values()):
                note(f"{d}/{name} -n {np} failed or timed out on " +
                     ", ".join(s for s, v in times.items() if v is None) + ": left out of the sums")
                continue
            ran += 1
            for s, v in times.items():
                t[s] += v
        for s in compilers:
            totals[s].append(t[s])
        print(f"mpich rep {rep + 1}/{a.mpich_reps}: {ran} runs", flush=True)
    print("\n### 6. MPICH's test programs (%s), total wall time in s (median of %d), "
          "%d entries, one at a time\n" % (a.mpich_dirs, a.mpich_reps, ran))
    print("| system | total (s) | lumpi / system |")
    print("|---|---|---|")
    lum = med(totals["lumpi"])
    for s, label in (("lumpi", "lumpi exec"), ("mpich", "MPICH mpiexec (hydra)"), ("ompi", "Open MPI mpirun")):
        if s in totals:
            v = med(totals[s])
            record("mpich", s, "suite total", ran, v, "s")
            print(f"| {label} | {fmt(v, 2)} | {ratio(lum, v)} |")
    print("\nTarget: lumpi ≤ 0.5 × each of the others.")


def suite_hosts(a, anchors, lumpi, bench_exe):
    import bench_hosts  # tests/bench/bench_hosts.py: namespaces, tcp, CURVE, start-up under mpirun
    bench_hosts.suite_hosts(a, anchors, lumpi, bench_exe, sys.modules[__name__])


def suite_check(a, anchors, lumpi, bench_exe):
    import bench_check  # tests/bench/bench_check.py: what the checker costs a C program
    bench_check.suite_check(a, anchors, lumpi, bench_exe, sys.modules[__name__])


def suite_mpi4py(a, anchors, lumpi, bench_exe):
    import bench_mpi4py  # tests/bench/bench_mpi4py.py: mpi4py on lumpi, Open MPI and MPICH
    bench_mpi4py.suite_mpi4py(a, anchors, lumpi, bench_exe, sys.modules[__name__])


def suite_datatype(a, anchors, lumpi, bench_exe):
    import bench_datatype  # tests/bench/bench_datatype.py: derived types and MAXLOC against MPICH and Open MPI
    bench_datatype.suite_datatype(a, anchors, lumpi, bench_exe, sys.modules[__name__])


def suite_rma(a, anchors, lumpi, bench_exe):
    import bench_rma  # tests/bench/bench_rma.py: one-sided figures against MPICH and Open MPI
    bench_rma.suite_rma(a, anchors, lumpi, bench_exe, sys.modules[__name__])


SUITES = {"p2p": suite_p2p, "coll": suite_coll, "repl": suite_repl, "kernel": suite_kernel, "startup": suite_startup,
          "memory": suite_memory, "mpich": suite_mpich, "hosts": suite_hosts,
          "mpi4py": suite_mpi4py, "check": suite_check, "datatype": suite_datatype,
          "rma": suite_rma}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="*", default=list(SUITES))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--reps-mpi4py", type=int, default=5000, help="round trips per batch of the mpi4py suite")
    ap.add_argument("--json", default=None, help="also write every RESULT here")
    ap.add_argument("--quiet", type=float, default=0.0,
                    help="before each run wait up to this many s for an idle machine")
    ap.add_argument("--target", type=float, default=0.3, help="s per timed collective loop")
    ap.add_argument("--before", default=None,
                    help="another build dir (e.g. of an older commit) measured alongside")
    ap.add_argument("--coll-np", default="2,4,8,16")
    ap.add_argument("--repl-np", default="4,16,64")
    ap.add_argument("--repl-count", type=int, default=100)
    ap.add_argument("--ipp-np", default="4,16", help="engine counts for ipyparallel (64 is slow)")
    ap.add_argument("--ipp-reps", type=int, default=50)
    ap.add_argument("--kernel-np", default="4,16")
    ap.add_argument("--kernel-cells", type=int, default=50, help="cells per round and system (kernel suite)")
    ap.add_argument("--startup-np", default="2,8,32,64")
    ap.add_argument("--hosts-startup-np", default="64", help="ranks for the hosts suite's start-up under mpirun")
    ap.add_argument("--mem-np", type=int, default=4)
    ap.add_argument("--mem-cycles", type=int, default=1000)
    ap.add_argument("--mem-batches", type=int, default=4)
    ap.add_argument("--mpich-dirs", default="group,comm,topo,attr")
    ap.add_argument("--mpich-reps", type=int, default=1, help="the suite takes minutes per repetition")
    a = ap.parse_args()
    global QUIET
    QUIET = a.quiet
    if a.before:
        BEFORE["lumpi"] = os.path.join(a.before, "lumpi")
        BEFORE["bench"] = os.path.join(a.before, "tests", "bench", "lumpi-bench")
    lumpi = os.path.join(a.build, "lumpi")
    bench_exe = os.path.join(a.build, "tests", "bench", "lumpi-bench")
    for exe in (lumpi, bench_exe):
        if not os.access(exe, os.X_OK):
            sys.exit(f"{exe} not built (cmake --build {a.build})")
    anchors = build_anchors()
    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; lumpi {lumpi}", flush=True)
    for s in a.suites:
        if s not in SUITES:
            sys.exit(f"unknown suite {s}; one of {', '.join(SUITES)}")
        SUITES[s](a, anchors, lumpi, bench_exe)
    if NOTES:
        print("\nNotes:\n" + "\n".join("- " + n for n in NOTES))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"results": RESULTS, "notes": NOTES, "time": time.time()}, f, indent=1)


if __name__ == "__main__":
    main()
