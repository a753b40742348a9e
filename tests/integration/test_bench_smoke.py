"""tests/integration/test_bench_smoke.py: the benchmark programs still run
and print what tests/bench/bench.py parses.

Not a timed test: every program runs a few iterations only and nothing is
compared against a time. It keeps the benchmarks from rotting between the
runs that produce tests/bench/README.md. Usage: test_bench_smoke.py LUMPI
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(HERE), "bench")
sys.path.insert(0, HERE)
sys.path.insert(0, BENCH)
import bench  # noqa: E402  (the parsers the benchmark driver uses)
from lumpitest import check, finish, kill_tagged, marker_env, no_leftovers, run  # noqa: E402

OPS = set(bench.OPS)
SIZES = {size for size, _ in bench.SIZES} - {1} | {8}  # lumpi sends an 8-byte integer


def lua_bench(lumpi, n, script, *args):
    code, out, err, tag = run(lumpi, ["-n", str(n), os.path.join(BENCH, script)] + list(args),
                              timeout=120)
    check(f"{script} -n {n} exits 0", code == 0, err[-500:])
    check(f"{script} -n {n} leaves no process", no_leftovers(tag))
    return out


def core_bench(exe, *args):
    tag, env = marker_env()
    try:
        p = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=120, env=env)
        check(f"lumpi-bench {' '.join(args)} exits 0", p.returncode == 0, p.stderr[-500:])
        return p.stdout
    except subprocess.TimeoutExpired:
        check(f"lumpi-bench {' '.join(args)} finishes", False)
        return ""
    finally:
        kill_tagged(tag)


def check_pp(name, text):
    pp = bench.parse_pp(text)
    check(f"{name} ping-pong prints every size", set(pp) == SIZES, text)
    check(f"{name} ping-pong figures are positive", all(t > 0 and bw >= 0 for t, bw in pp.values()), text)


def check_coll(name, text):
    coll = bench.parse_coll(text)
    check(f"{name} collectives print every op", set(coll) == OPS, text)
    check(f"{name} collective figures are positive", all(v > 0 for v in coll.values()), text)


def check_mem(name, text, ranks, batches):
    mem = bench.parse_mem(text)
    phases = ["idle", "after"] + [f"after{i}" for i in range(2, batches + 1)]
    check(f"{name} memory prints each phase", sorted(mem) == sorted(phases), text)
    check(f"{name} memory has one figure per rank", all(len(v) == ranks for v in mem.values()), text)


def check_typed(text):
    """typed.lua (issue 12): typed ping-pong, allreduce typed and as values, put/get."""
    check_pp("Lua typed", text)
    coll = bench.parse_coll(text)
    want = {f"allreduce{c}{s}" for c in (1000, 131072) for s in ("", "_values")}
    check("typed.lua prints every allreduce", set(coll) == want and all(v > 0 for v in coll.values()), text)
    import typed_bench
    rma = typed_bench.parse_rma(text)
    check("typed.lua prints put and get at every size", set(rma) == {(op, b) for op in ("put", "get") for b in SIZES},
          text)


def kernel_bench(lumpi):
    """kernel_bench.py's lumpi half: 3 cells on a kernel of 2 ranks (the
    ipyparallel half needs minutes to start a cluster; not run here)."""
    if subprocess.run(["/usr/bin/python3", "-c", "import jupyter_client"], capture_output=True).returncode:
        return print("skip kernel_bench.py: python3-jupyter-client not installed")
    tag, env = marker_env()
    try:
        p = subprocess.run(["/usr/bin/python3", os.path.join(BENCH, "kernel_bench.py"), "--lumpi", lumpi,
                            "--np", "2", "--cells", "3", "--rounds", "1", "--no-ipp"],
                           capture_output=True, text=True, timeout=180, env=env)
        rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
        check("kernel_bench.py exits 0", p.returncode == 0, p.stderr[-800:])
        check("kernel_bench.py times 3 cells of lumpi at 2 ranks",
              len(rows) == 1 and rows[0]["n"] == 2 and len(rows[0]["lumpi_ms"]) == 3
              and all(t > 0 for t in rows[0]["lumpi_ms"]), p.stdout[-500:])
    except subprocess.TimeoutExpired:
        check("kernel_bench.py finishes", False)
    finally:
        check("kernel_bench.py leaves no process", no_leftovers(tag, within=10))
        kill_tagged(tag)


def main():
    lumpi = sys.argv[1]
    check_pp("Lua", lua_bench(lumpi, 2, "pingpong.lua", "1000"))
    check_coll("Lua", lua_bench(lumpi, 3, "coll.lua", "0.002"))
    check_mem("Lua", lua_bench(lumpi, 3, "mem.lua", "20", "2"), 3, 2)
    check_typed(lua_bench(lumpi, 2, "typed.lua", "1000", "0.002"))
    exe = os.path.join(os.path.dirname(lumpi), "tests", "bench", "lumpi-bench")
    if os.path.exists(exe):
        check_pp("C++", core_bench(exe, "pingpong", "1000"))
        check_coll("C++", core_bench(exe, "coll", "3", "0.002"))
        check_mem("C++", core_bench(exe, "commfree", "3", "20", "2"), 3, 2)
    else:
        print(f"skip lumpi-bench: {exe} not built")
    kernel_bench(lumpi)
    zmq = os.path.join(os.path.dirname(lumpi), "tests", "bench", "zmq-tcp-pingpong")
    for i, mode in enumerate(("plain", "curve")):
        pp = bench.parse_pp(zmq_pair(zmq, mode, str(20000 + (os.getpid() * 2 + i) % 20000)))
        check(f"zmq-tcp-pingpong {mode} prints every size", set(pp) == {size for size, _ in bench.SIZES}, str(pp))
    finish()


def zmq_pair(exe, mode, port):
    """The hosts suite's raw ZeroMQ yardstick, here on two loopback addresses."""
    tag, env = marker_env()
    pong = subprocess.Popen([exe, "pong", "127.0.0.3", "127.0.0.2", port, mode, "1000"], env=env,
                            stdout=subprocess.DEVNULL)
    try:
        p = subprocess.run([exe, "ping", "127.0.0.2", "127.0.0.3", port, mode, "1000"], capture_output=True,
                           text=True, timeout=120, env=env)
        check(f"zmq-tcp-pingpong {mode} exits 0", p.returncode == 0 and pong.wait(30) == 0, p.stderr[-500:])
        return p.stdout
    except subprocess.TimeoutExpired:
        check(f"zmq-tcp-pingpong {mode} finishes", False)
        return ""
    finally:
        kill_tagged(tag)
        pong.wait()


if __name__ == "__main__":
    main()
