"""tests/bench/bench_hosts.py: bench.py's `hosts` suite (issue 14): lumpi
across "hosts" that are Linux network namespaces, next to raw ZeroMQ tcp and
Open MPI's TCP transport in the same namespaces, and the start-up of a world
under mpirun next to mpirun's own hello.

1. Ping-pong between two namespaces joined by veth pairs to a bridge (as
   tests/integration/test_hosts_netns.py builds them; 10.79.0.0/24, the
   machine's own network untouched), one rank in each:
   - zmq tcp, zmq tcp+CURVE: tests/bench/zmq_tcp_pingpong.cpp (PUSH/PULL as
     lumpi's data plane), plain and with CURVE;
   - lumpi C tcp+CURVE: tests/bench/c_pingpong.c under `lumpi exec
     --launcher ssh` with a remote shell that enters the namespace;
   - lumpi C tcp: the same with LUMPI_INSECURE_NO_CURVE=1 (the benchmark
     knob: the data plane without CURVE);
   - ompi tcp: the anchors' mpi_pingpong under mpirun.openmpi with the same
     remote shell as plm_rsh_agent, `--mca btl tcp,self`, IPv4 only, and
     yielding when idle (all "hosts" share this machine's cores: a spinning
     rank under load makes each round trip a scheduler tick).
2. Start-up of N ranks (default 64) on this machine: `lumpi --launcher mpirun
   -n N -e 'return 1'` against `mpirun -n N --oversubscribe mpi_hello`.

Needs root, iproute2 and util-linux (unshare); skips with a note otherwise.
Every namespace is deleted at the end (also on SIGTERM), and each run's
process group killed.
"""
import os
import shutil
import signal
import subprocess
import tempfile

PREFIX = "lb%d" % os.getpid()
NET = "10.79.0."
HOSTS = {"c": NET + "1", "a": NET + "2", "b": NET + "3"}


def ns(key):
    return PREFIX + key


def ip(*args):
    subprocess.run(["ip"] + list(args), check=True, capture_output=True, timeout=30)


def setup():
    ip("netns", "add", ns("hub"))
    ip("-n", ns("hub"), "link", "add", "br0", "type", "bridge")
    ip("-n", ns("hub"), "link", "set", "br0", "up")
    for key, addr in HOSTS.items():
        ip("netns", "add", ns(key))
        ip("link", "add", PREFIX + key + "v", "netns", ns("hub"), "type", "veth", "peer", "name", PREFIX + key + "p",
           "netns", ns(key))
        ip("-n", ns("hub"), "link", "set", PREFIX + key + "v", "master", "br0", "up")
        ip("-n", ns(key), "addr", "add", addr + "/24", "dev", PREFIX + key + "p")
        ip("-n", ns(key), "link", "set", PREFIX + key + "p", "up")
        ip("-n", ns(key), "link", "set", "lo", "up")


def teardown():
    for key in ["hub"] + list(HOSTS):
        subprocess.run(["ip", "netns", "del", ns(key)], capture_output=True, timeout=30)


def write_rsh(tmp):
    """ssh's calling convention ([options] HOST COMMAND) -> COMMAND in HOST's
    network namespace and a UTS namespace named after it (Open MPI's daemons
    need distinct host names)."""
    path = os.path.join(tmp, "netns_rsh.sh")
    cases = "".join(f"  {HOSTS[k]}) ns={ns(k)} ;;\n" for k in ("a", "b"))
    with open(path, "w") as f:
        f.write("#!/bin/sh\nwhile [ $# -gt 0 ]; do case \"$1\" in -*) shift ;; *) break ;; esac; done\n"
                "h=\"$1\"; shift\ncase \"$h\" in\n" + cases + "  *) echo \"no such host $h\" >&2; exit 255 ;;\n"
                "esac\nexec ip netns exec \"$ns\" unshare --uts sh -c 'hostname \"$0\" && exec sh -c \"$1\"' "
                "\"host-$h\" \"$*\"\n")
    os.chmod(path, 0o755)
    return path


def in_ns(key, cmd):
    return ["ip", "netns", "exec", ns(key)] + cmd


def zmq_pair(B, exe, mode, port):
    """The raw ZeroMQ ping-pong: pong in namespace b, ping in a; ping's stdout."""
    pong = subprocess.Popen(in_ns("b", [exe, "pong", HOSTS["b"], HOSTS["a"], str(port), mode]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        return B.run(in_ns("a", [exe, "ping", HOSTS["a"], HOSTS["b"], str(port), mode]), timeout=300)
    finally:
        try:
            pong.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(pong.pid, 9)
            pong.wait()


SIZES = [(1, "int"), (1024, "1 KiB"), (65536, "64 KiB"), (1 << 20, "1 MiB"), (4 << 20, "4 MiB")]


def pingpong(a, anchors, lumpi, B, tmp):
    rsh = write_rsh(tmp)
    zexe = os.path.join(a.build, "tests", "bench", "zmq-tcp-pingpong")
    two = f"{HOSTS['a']}:1,{HOSTS['b']}:1"
    systems = {}
    if os.access(zexe, os.X_OK):
        systems["zmq tcp"] = lambda port: zmq_pair(B, zexe, "plain", port)
        systems["zmq tcp+CURVE"] = lambda port: zmq_pair(B, zexe, "curve", port)
    else:
        B.note(f"no {zexe}: raw ZeroMQ tcp skipped")
    c_exe = B.build_c_pingpong(lumpi)
    jobdir = os.path.join(tmp, "jobs")
    lumpi_env = dict(os.environ, LUMPI_JOBDIR=jobdir)
    if c_exe:
        cmd = in_ns("c", [lumpi, "exec", "--launcher", "ssh", "--hosts", two, "--rsh", rsh, "-n", "2", c_exe])
        systems["lumpi C tcp+CURVE"] = lambda port: B.run(cmd, env=lumpi_env, timeout=300)
        plain_env = dict(lumpi_env, LUMPI_INSECURE_NO_CURVE="1")
        systems["lumpi C tcp"] = lambda port: B.run(cmd, env=plain_env, timeout=300)
    if "mpi_pingpong" in anchors:
        ompi = in_ns("c", [B.MPIRUN, "-n", "2", "--host", two, "--mca", "plm_rsh_agent", rsh, "--mca", "btl",
                           "tcp,self", "--mca", "btl_tcp_if_include", NET + "0/24", "--mca", "oob_tcp_if_include",
                           NET + "0/24", "--mca", "btl_tcp_disable_family", "6", "--mca", "mpi_yield_when_idle", "1",
                           anchors["mpi_pingpong"]])
        systems["ompi tcp"] = lambda port: B.run(ompi, env=B.OMPI_ENV, timeout=300)
    got = {s: {} for s in systems}
    for rep in range(a.reps):
        for i, (s, fn) in enumerate(systems.items()):
            for b, v in B.parse_pp(fn(5700 + rep * 10 + i)).items():
                got[s].setdefault(1 if b == 8 else b, []).append(v)
        print(f"hosts p2p rep {rep + 1}/{a.reps} done", flush=True)
    names = list(systems)
    print("\n### Hosts 1. Ping-pong between two network namespaces (veth + bridge): half round trip (µs) "
          "for small values, bandwidth (MB/s) for large (median of %d)\n" % a.reps)
    print("| value | " + " | ".join(names) + " | lumpi tcp / zmq tcp | lumpi CURVE / zmq CURVE | "
          "lumpi CURVE / lumpi tcp |")
    print("|---" * (len(names) + 4) + "|")
    for b, label in SIZES:
        big = b >= (1 << 20)
        row = {}
        for s in names:
            v = got[s].get(b)
            row[s] = B.med([x[1] if big else x[0] for x in v]) if v else None
            if row[s] is not None:
                B.record("hosts", s, label, 2, row[s], "MB/s" if big else "us")

        def r(x, y):  # > 1: x is worse than y
            return B.ratio(row.get(y), row.get(x)) if big else B.ratio(row.get(x), row.get(y))

        print(f"| {label} ({'MB/s' if big else 'µs'}) | " + " | ".join(B.fmt(row[s]) for s in names) +
              f" | {r('lumpi C tcp', 'zmq tcp')} | {r('lumpi C tcp+CURVE', 'zmq tcp+CURVE')} | "
              f"{r('lumpi C tcp+CURVE', 'lumpi C tcp')} |")
    print("\nRatios: > 1 means the first is slower (time ratio for small values, inverse bandwidth ratio "
          "for large). Target: lumpi within 1.5 x of raw ZeroMQ tcp.")


def startup(a, anchors, lumpi, B):
    nps = [int(x) for x in a.hosts_startup_np.split(",")]
    got = {}
    for rep in range(a.reps + 1):  # rep 0 warms the page cache and is dropped
        for n in nps:
            systems = {"lumpi": [lumpi, "--launcher", "mpirun", "-n", str(n), "-e", "return 1"]}
            if "mpi_hello" in anchors:
                systems["mpirun"] = [B.MPIRUN, "-np", str(n), "--oversubscribe", anchors["mpi_hello"]]
            for s, cmd in systems.items():
                t = B.wall(cmd, env=B.OMPI_ENV, timeout=300)
                if rep > 0 and t is not None:
                    got.setdefault((s, n), []).append(t)
        print(f"hosts startup rep {rep}/{a.reps} done", flush=True)
    print("\n### Hosts 2. Start-up under mpirun to first answer and tear-down, wall time in s "
          "(median of %d)\n" % a.reps)
    print("| ranks | lumpi --launcher mpirun -e 'return 1' | mpirun mpi_hello | lumpi / mpirun |")
    print("|---|---|---|---|")
    for n in nps:
        l, m = B.med(got.get(("lumpi", n), [])), B.med(got.get(("mpirun", n), []))
        if l is not None:
            B.record("hosts", "lumpi", "start-up under mpirun", n, l, "s")
        if m is not None:
            B.record("hosts", "ompi", "mpirun mpi_hello", n, m, "s")
        print(f"| {n} | {B.fmt(l, 3)} | {B.fmt(m, 3)} | {B.ratio(l, m)} |")
    print("\nTarget: lumpi ≤ 1.2 × mpirun's own hello.")


def suite_hosts(a, anchors, lumpi, bench_exe, B):
    if os.geteuid() != 0 or not shutil.which("ip"):
        B.note("hosts suite skipped: needs root and ip (iproute2) for network namespaces")
    else:
        # SIGTERM (a timeout around bench.py) ends through the finally below, which deletes the namespaces.
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(SystemExit("hosts suite: terminated")))
        try:
            setup()
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            B.note(f"hosts ping-pong skipped: network namespaces unavailable: {e}")
            teardown()
        else:
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    pingpong(a, anchors, lumpi, B, tmp)
            finally:
                teardown()
    if os.path.exists(B.MPIRUN):
        startup(a, anchors, lumpi, B)
    else:
        B.note("hosts start-up skipped: mpirun.openmpi (openmpi-bin) not installed")
