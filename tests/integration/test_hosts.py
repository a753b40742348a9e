# tests/integration/test_hosts.py: worlds started by a launcher, over tcp
# with CURVE (issue 14; docs/hosts.md), all on this machine.
#
# T1: the ssh launcher with --rsh pointing at fake_rsh.sh, which runs the
#     command here in a UTS namespace named after the "host", on loopback
#     addresses 127.0.0.2 and 127.0.0.3 (the ranks bind their data sockets
#     there): results, host names in :ranks, split_type("shared") by host;
#     a stranger with a wrong key or none is refused at the coordinator and at
#     a rank (tests/exec/curve_probe.cpp), the job's key is admitted; the job
#     file is 0600; duplicate, out-of-range and missing ranks are clear errors;
#     :hw draws each host's tree with its own ranks, --bind counts per host.
# T2: Debian's Open MPI mpirun and MPICH mpiexec as launchers for -e,
#     scripts, piped REPL input, lumpi test and lumpi exec; a rank killed is
#     reported within 5 s and its peers get MPI_ERR_PROC_FAILED; the
#     coordinator SIGKILLed leaves no rank (nor launcher) after 10 s.
# Every run is bounded and every process it starts is found by its tag and
# killed by pid. A launcher that is not installed is a skip with its reason.
#
# Usage: python3 test_hosts.py /path/to/build/lumpi
import functools, os, re, shutil, signal, stat, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import (HERE, RSH, SSH, check, curve_probe, finish, kill_tagged, marker_env,  # noqa: E402
                       no_leftovers, pids_with_tag, run)
from ptyrun import Failure, Lumpi  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
BUILD = os.path.dirname(LUMPI)
PROBE = os.path.join(BUILD, "lumpi-curve-probe")
probe = functools.partial(curve_probe, PROBE)


def run_ok(name, args, stdin=None, want=None, timeout=90):
    code, out, err, tag = run(LUMPI, args, stdin=stdin, timeout=timeout)
    good = code == 0 and (want is None or re.search(want, out))
    check(name, good, f"exit {code}\nstdout:\n{out[-2000:]}\nstderr:\n{err[-2000:]}")
    check(name + ": nothing left", no_leftovers(tag, 10))
    return out, err


def listening_on(addr):
    """Ports of tcp sockets listening on `addr` (dotted IPv4), from /proc/net/tcp."""
    want = "".join("%02X" % int(b) for b in reversed(addr.split(".")))
    ports = []
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, st = line.split()[1], line.split()[3]
            ip, port = local.split(":")
            if ip == want and st == "0A":
                ports.append(int(port, 16))
    return ports


# ---- T1: ssh launcher over loopback addresses -----------------------------------------

def t1_results_hosts_and_shared():
    out, _ = run_ok("T1 ssh launcher: allreduce over 4 ranks on 2 hosts",
                    SSH + ["-n", "4", "-e", "return mpi.COMM_WORLD:allreduce(mpi.COMM_WORLD:rank() + 1, mpi.SUM)"],
                    want=r"\[0-3\] 10")
    out, _ = run_ok("T1 ssh launcher: each rank on its host, split_type shared groups by host",
                    SSH + ["-n", "4", "-e",
                           "local s = mpi.COMM_WORLD:split_type(mpi.COMM_TYPE_SHARED) "
                           "return mpi.get_processor_name(), s:size(), s:allreduce(mpi.COMM_WORLD:rank(), mpi.SUM)"])
    check("T1 ranks 0-1 on host-127.0.0.2, shared size 2 (ranks 0+1)",
          re.search(r"\[0-1\] host-127\.0\.0\.2\s+2\s+1", out) is not None, out)
    check("T1 ranks 2-3 on host-127.0.0.3, shared size 2 (ranks 2+3)",
          re.search(r"\[2-3\] host-127\.0\.0\.3\s+2\s+5", out) is not None, out)


def t1_repl_ranks_and_security():
    tag, env = marker_env()
    with Lumpi(LUMPI, SSH + ["-n", "4"], env=env) as l:
        l.prompt(60)
        out = l.command(":ranks")
        check("T1 :ranks shows each rank's host",
              len(re.findall(r"host-127\.0\.0\.2", out)) == 2 and len(re.findall(r"host-127\.0\.0\.3", out)) == 2, out)
        out = l.command("return os.getenv('LUMPI_JOIN')")
        m = re.search(r"\] (/\S+)", out)
        if not m:
            raise Failure("no job file path:\n" + out)
        job = m.group(1)
        mode = stat.S_IMODE(os.stat(job).st_mode)
        check("T1 the job file is mode 0600", mode == 0o600, oct(mode))
        fields = dict(line.split("=", 1) for line in open(job).read().splitlines() if "=" in line)
        control = fields["control"]
        check("T1 the coordinator listens on tcp", control.startswith("tcp://"), control)
        data_ports = listening_on("127.0.0.2")
        check("T1 ranks listen on their host's address 127.0.0.2", len(data_ports) >= 2, str(data_ports))
        if os.path.exists(PROBE):
            for mode_ in ("wrong", "plain"):
                check(f"T1 a peer with {mode_} key is refused by the coordinator",
                      probe(control, mode_, job) == "refused")
                if data_ports:
                    check(f"T1 a peer with {mode_} key is refused by a rank",
                          probe(f"tcp://127.0.0.2:{data_ports[0]}", mode_, job) == "refused")
            check("T1 the job's own key is admitted (the probe can tell)",
                  probe(control, "job", job) == "admitted")
            l.expect(r"lumpi: refused a connection from .*not the job's key", 10, "refusal logged")
            check("T1 a refusal is logged by the coordinator", True)
        else:
            check("T1 lumpi-curve-probe is built", False, PROBE)
        out = l.command("return mpi.COMM_WORLD:allreduce(1, mpi.SUM)")
        check("T1 the world still works after the strangers", re.search(r"\[0-3\] 4", out) is not None, out)
    check("T1 REPL: nothing left", no_leftovers(tag, 10))


def t1_hw_and_bind_per_host():
    """Item 6: :hw draws every host's tree with its own ranks; --bind counts a
    rank's objects on its own host (1 rank on .2, 2 on .3: by world rank,
    rank 1 would take PU 1; by its rank on its host it takes PU 0)."""
    tag, env = marker_env()
    args = ["--launcher", "ssh", "--hosts", "127.0.0.2:1,127.0.0.3:2", "--rsh", RSH, "-n", "3", "--bind", "pu"]
    with Lumpi(LUMPI, args, env=env) as l:
        l.prompt(60)
        out = l.command(":hw")
        a = out.find("host host-127.0.0.2 (ranks 0):")
        b = out.find("host host-127.0.0.3 (ranks 1-2):")
        check("T1 :hw has one tree per host, in rank order", 0 <= a < b, out)
        first, second = out[a:b], out[b:]
        placed = lambda text: sorted(int(x) for m in re.findall(r"<- ranks? ([\d,]+)", text) for x in m.split(","))
        check("T1 :hw places each rank on its own host's tree",
              "Machine" in first and "Machine" in second and placed(first) == [0] and placed(second) == [1, 2], out)
        out = l.command(":ranks")
        if os.cpu_count() >= 2:
            binding = {int(m.group(1)): m.group(2) for m in re.finditer(r"^(\d+)\s+host-\S+\s+\d+\s+\S+ \((pu \d+)\)",
                                                                        out, re.M)}
            check("T1 --bind pu counts per host: ranks 0 and 1 (first on their hosts) on PU 0, rank 2 on PU 1",
                  binding == {0: "pu 0", 1: "pu 0", 2: "pu 1"}, out)
        else:
            print("skip T1 --bind per host: one CPU here")
    check("T1 :hw and --bind per host: nothing left", no_leftovers(tag, 10))


def rsh_variant(tmp, name, sed):
    """A copy of fake_rsh.sh that rewrites the command with `sed` first."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write('#!/bin/sh\nh="$1"; shift\nexec %s "$h" "$(printf %%s "$*" | sed %s)"\n'
                % (RSH, "'" + sed + "'"))
    os.chmod(path, 0o755)
    return path


def t1_join_errors(tmp):
    cases = [
        ("duplicate rank", rsh_variant(tmp, "dup.sh", "s/LUMPI_RANK=1 /LUMPI_RANK=0 /"), {"LUMPI_START_TIMEOUT": "40"},
         r"two processes joined as rank 0"),
        ("out-of-range rank", rsh_variant(tmp, "oor.sh", "s/LUMPI_RANK=3 /LUMPI_RANK=9 /"), {"LUMPI_START_TIMEOUT": "40"},
         r"joined as rank 9 but the world has 4 ranks"),
        ("missing rank", rsh_variant(tmp, "miss.sh", "s/LUMPI_RANK=3 [^&]*&//"), {"LUMPI_START_TIMEOUT": "5"},
         r"ranks 3 never joined"),
    ]
    for name, rsh, extra, want in cases:
        tag, env = marker_env()
        env.update(extra)
        t0 = time.time()
        try:
            p = subprocess.run([LUMPI, "--launcher", "ssh", "--hosts", "127.0.0.2:2,127.0.0.3:2", "--rsh", rsh,
                                "-n", "4", "-e", "return 1"], capture_output=True, text=True, timeout=60, env=env)
            code, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            code, err = None, "timed out"
        took = time.time() - t0
        check(f"T1 {name}: a clear error, exit 1, in {took:.1f} s", code == 1 and re.search(want, err) is not None,
              f"exit {code}\n{err[-1500:]}")
        check(f"T1 {name}: nothing left", no_leftovers(tag, 10))


# ---- T2: Open MPI and MPICH as launchers -----------------------------------------------

def t2_launcher(launcher, binary, package):
    if not shutil.which(binary):
        print(f"skip T2 {launcher}: {binary} is not installed ({package})")
        return
    L = ["--launcher", launcher]
    run_ok(f"T2 {launcher}: -e on 3 ranks", L + ["-n", "3", "-e", "return mpi.COMM_WORLD:allreduce(1, mpi.SUM)"],
           want=r"\[0-2\] 3")
    script = os.path.join(TMP, "hosts_script.lua")
    with open(script, "w") as f:
        f.write("local w = mpi.COMM_WORLD\nlocal v = w:bcast(w:rank() == 0 and ... or nil, 0)\n"
                "if w:rank() == 1 then print('got ' .. v) end\n")
    run_ok(f"T2 {launcher}: a script with arguments", L + ["-n", "2", script, "hello"], want=r"\[1\] got hello")
    run_ok(f"T2 {launcher}: piped REPL input", L + ["-n", "2"],
           stdin="x = mpi.COMM_WORLD:rank() * 10\nreturn x\n", want=r"\[0\] 0\n\[1\] 10|\[1\] 10")
    run_ok(f"T2 {launcher}: lumpi test", ["test"] + L + ["-n", "2", os.path.join(HERE, "..", "scenarios", "p2p.lua")])
    ring = os.path.join(BUILD, "lumpi-exec-ring")
    if os.path.exists(ring):
        code, out, err, tag = run(LUMPI, ["exec"] + L + ["-n", "3", ring], timeout=90)
        check(f"T2 {launcher}: lumpi exec of a C++ program", code == 0, f"exit {code}\n{out}\n{err}")
        check(f"T2 {launcher}: lumpi exec: nothing left", no_leftovers(tag, 10))
    t2_failures(launcher, peers_survive=launcher != "mpiexec")


def t2_failures(launcher, args=None, peers_survive=True):
    """A rank SIGKILLed while a peer waits for it, then the coordinator SIGKILLed.
    MPICH's hydra (4.0) ends the whole job when one process is killed, even
    with -disable-auto-cleanup: there the peers are reported dead instead."""
    tag, env = marker_env()
    l = Lumpi(LUMPI, (args or ["--launcher", launcher]) + ["-n", "3"], env=env)
    try:
        l.prompt(60)
        out = l.command(":ranks")
        pids = [int(p) for p in re.findall(r"^\s*\d+\s+\S+\s+(\d+)", out, re.M)]
        if len(pids) != 3:
            raise Failure(":ranks gave no pids:\n" + out)
        l.line("if mpi.COMM_WORLD:rank() == 0 then return mpi.COMM_WORLD:recv(1) end")
        time.sleep(0.5)
        t0 = time.time()
        os.kill(pids[1], signal.SIGKILL)
        l.expect(r"rank %s died" % (1 if peers_survive else r"\d"), 10)
        took = time.time() - t0
        check(f"T2 {launcher}: a killed rank is reported within 5 s ({took:.1f} s)", took <= 5.0)
        if peers_survive:
            l.expect(r"MPI_ERR_PROC_FAILED", 10)
            check(f"T2 {launcher}: its peer's recv fails with MPI_ERR_PROC_FAILED", True)
        else:  # the command ends with rank 0's death; deaths found after it show at the next command
            check(f"T2 {launcher}: the launcher ended the job; the command ends, the REPL lives", True)
        l.prompt(20)
        if not peers_survive:
            out = l.command(":restart", 60)
            check(f"T2 {launcher}: :restart starts a fresh world", "started a world of 3 ranks" in out, out)
            out = l.command("return mpi.COMM_WORLD:allreduce(1, mpi.SUM)", 30)
            check(f"T2 {launcher}: the fresh world works", re.search(r"\[0-2\] 3", out) is not None, out)
        t0 = time.time()
        os.kill(l.pid, signal.SIGKILL)
        l.wait(5)
        gone = False
        while time.time() - t0 < 10.0:
            if not pids_with_tag(tag):
                gone = True
                break
            time.sleep(0.1)
        took = time.time() - t0
        check(f"T2 {launcher}: coordinator SIGKILLed, every rank and launcher gone within 10 s ({took:.1f} s)", gone,
              str(pids_with_tag(tag)))
    except Failure as e:
        check(f"T2 {launcher}: failures", False, str(e))
    finally:
        kill_tagged(tag)
        try:
            os.close(l.fd)
        except OSError:
            pass


def t1_coordinator_sigkill():
    tag, env = marker_env()
    l = Lumpi(LUMPI, SSH + ["-n", "4"], env=env)
    try:
        l.prompt(60)
        l.line("mpi.COMM_WORLD:barrier() while true do end")
        time.sleep(0.5)
        t0 = time.time()
        os.kill(l.pid, signal.SIGKILL)
        l.wait(5)
        while time.time() - t0 < 10.0 and pids_with_tag(tag):
            time.sleep(0.1)
        took = time.time() - t0
        check(f"T1 coordinator SIGKILLed, ranks busy in Lua: all gone within 10 s ({took:.1f} s)",
              not pids_with_tag(tag), str(pids_with_tag(tag)))
    except Failure as e:
        check("T1 coordinator SIGKILL", False, str(e))
    finally:
        kill_tagged(tag)


TMP = None

if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        jobs = os.path.join(tmp, "jobs")
        os.environ["LUMPI_JOBDIR"] = jobs  # job files here, not in ~/.lumpi/jobs
        only = os.environ.get("TEST_HOSTS_ONLY", "")  # "t1" or "t2" while iterating
        if only != "t2":
            t1_results_hosts_and_shared()
            t1_repl_ranks_and_security()
            t1_hw_and_bind_per_host()
            t1_join_errors(tmp)
            t1_coordinator_sigkill()
            t2_failures("ssh", SSH)
        if only != "t1":
            t2_launcher("mpirun", "mpirun.openmpi", "Debian: openmpi-bin")
            t2_launcher("mpiexec", "mpiexec.mpich", "Debian: mpich")
        left = os.listdir(jobs) if os.path.isdir(jobs) else []
        check("every job directory is removed (also after a coordinator's SIGKILL)", not left, str(left))
    finish()
