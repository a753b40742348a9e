# tests/integration/test_hosts_netns.py: T3 of issue 14: "hosts" that are
# Linux network namespaces, joined by veth pairs to a bridge in a hub
# namespace (10.77.0.0/24: the coordinator's namespace .1, hosts .2 and .3;
# the machine's own network is never touched), ranks started by lumpi's ssh
# launcher, then by Open MPI's mpirun (its plm_rsh_agent, from --rsh), with
# a remote shell that enters the host's namespace. For each launcher:
# - an allreduce over 4 ranks on the 2 hosts, each on its host's address;
# - a process in another namespace with a wrong key or none is refused;
# - a host's link cut in the middle of a loop of collectives: the cut-off
#   ranks are reported lost within 5 s, their peers get MPI_ERR_PROC_FAILED
#   instead of hanging, the REPL goes on with the ranks left, and the
#   cut-off ranks exit by themselves (an orted cut off from mpirun would
#   wait for minutes: the test kills it, by pid).
# The benchmark knob LUMPI_INSECURE_NO_CURVE: warned, works, refused unless 1.
# The stranger probes run once (with the ssh launcher): CURVE does not
# depend on the launcher.
# Needs root and `ip netns`; skips with the reason otherwise. Every
# namespace it makes is deleted and every process it starts killed by pid.
#
# Usage: python3 test_hosts_netns.py /path/to/build/lumpi
import os, re, shutil, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, kill_tagged, marker_env, pids_with_tag  # noqa: E402
from ptyrun import Failure, Lumpi  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
BUILD = os.path.dirname(LUMPI)
PROBE = os.path.join(BUILD, "lumpi-curve-probe")
TAG = "lt3%d" % os.getpid()  # namespace and link names of this run
NS = {"hub": TAG + "hub", "c": TAG + "c", "10.77.0.2": TAG + "h2", "10.77.0.3": TAG + "h3"}
ADDR = {"c": "10.77.0.1", "10.77.0.2": "10.77.0.2", "10.77.0.3": "10.77.0.3"}


def sh(*cmd, check_rc=True):
    p = subprocess.run(list(cmd), capture_output=True, text=True, timeout=30)
    if check_rc and p.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + p.stderr.strip())
    return p.stdout


def link_name(key):
    return TAG + {"c": "c", "10.77.0.2": "2", "10.77.0.3": "3"}[key]


def setup():
    sh("ip", "netns", "add", NS["hub"])
    sh("ip", "-n", NS["hub"], "link", "add", "br0", "type", "bridge")
    sh("ip", "-n", NS["hub"], "link", "set", "br0", "up")
    for key in ("c", "10.77.0.2", "10.77.0.3"):
        ns, hub_end, host_end = NS[key], link_name(key), link_name(key) + "p"
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "add", hub_end, "netns", NS["hub"], "type", "veth", "peer", "name", host_end, "netns", ns)
        sh("ip", "-n", NS["hub"], "link", "set", hub_end, "master", "br0", "up")
        sh("ip", "-n", ns, "addr", "add", ADDR[key] + "/24", "dev", host_end)
        sh("ip", "-n", ns, "link", "set", host_end, "up")
        sh("ip", "-n", ns, "link", "set", "lo", "up")


def teardown():
    for ns in NS.values():
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def write_rsh(tmp):
    """The remote shell: HOST COMMAND -> COMMAND in HOST's namespace, named after it."""
    path = os.path.join(tmp, "netns_rsh.sh")
    cases = "".join(f"  {h}) ns={NS[h]} ;;\n" for h in ("10.77.0.2", "10.77.0.3"))
    with open(path, "w") as f:
        f.write("#!/bin/sh\nwhile [ $# -gt 0 ]; do case \"$1\" in -*) shift ;; *) break ;; esac; done\n"
                "h=\"$1\"; shift\ncase \"$h\" in\n" + cases + "  *) echo \"no such host $h\" >&2; exit 255 ;;\nesac\n"
                "exec ip netns exec \"$ns\" unshare --uts sh -c 'hostname \"$0\" && exec sh -c \"$1\"' \"host-$h\" \"$*\"\n")
    os.chmod(path, 0o755)
    return path


def lumpi_in_ns(args, env):
    """lumpi in the coordinator's namespace (ip netns exec execs: same pid)."""
    return Lumpi("/usr/sbin/ip" if os.path.exists("/usr/sbin/ip") else shutil.which("ip"),
                 ["netns", "exec", NS["c"], LUMPI] + args, env=env)


def main(tmp):
    rsh = write_rsh(tmp)
    hosts = ["--hosts", "10.77.0.2:2,10.77.0.3:2", "--rsh", rsh, "-n", "4"]
    world(["--launcher", "ssh"] + hosts, "T3 ssh", strangers=True)
    no_curve_knob(["--launcher", "ssh"] + hosts)
    if not shutil.which("mpirun.openmpi"):
        print("skip T3 mpirun: mpirun.openmpi (Debian: openmpi-bin) is not installed")
        return
    world(["--launcher", "mpirun"] + hosts, "T3 mpirun", strangers=False)


def world(args, name, strangers):
    """A world of 4 ranks on the 2 namespaces started with `args`: allreduce,
    (strangers refused,) a link cut in a loop of collectives."""
    tag, env = marker_env()
    l = lumpi_in_ns(args, env)
    try:
        l.prompt(90)
        out = l.command("return mpi.get_processor_name(), mpi.COMM_WORLD:allreduce(mpi.COMM_WORLD:rank(), mpi.SUM)")
        check(f"{name}: allreduce over 2 namespaces",
              "[0-1] host-10.77.0.2\t6" in out and "[2-3] host-10.77.0.3\t6" in out, out)
        out = l.command("return os.getenv('LUMPI_JOIN')")
        job = re.search(r"\] (/\S+)", out).group(1)
        control = dict(x.split("=", 1) for x in open(job).read().splitlines())["control"]
        check(f"{name}: the coordinator listens on its namespace's address", control.startswith("tcp://10.77.0.1:"),
              control)
        if strangers:
            refuse_strangers(name, control, job)
        l.line("local w = mpi.COMM_WORLD for i = 1, 1e9 do w:allreduce(i, mpi.SUM) end")
        time.sleep(1.0)
        t0 = time.time()
        sh("ip", "-n", NS["hub"], "link", "set", link_name("10.77.0.3"), "down")
        l.expect(r"rank [23] died: lost", 10, "cut-off ranks reported")
        took = time.time() - t0
        check(f"{name}: a cut link: its ranks reported lost within 5 s ({took:.1f} s)", took <= 5.0)
        l.expect(r"\[0-1\] error: MPI_ERR_PROC_FAILED", 10, "peers fail instead of hanging")
        check(f"{name}: a cut link in a collective: the peers get MPI_ERR_PROC_FAILED, no hang", True)
        l.prompt(20)
        out = l.command("return mpi.COMM_WORLD:rank()")
        check(f"{name}: the REPL lives on with the ranks left", "[0] 0" in out and "[1] 1" in out, out)
        deadline = time.time() + 12
        cut_off = []
        while time.time() < deadline:
            cut_off = [p for p in pids_with_tag(tag) if "lumpi-rank" in _cmd(p) and _in_ns(p, NS["10.77.0.3"])]
            if not cut_off:
                break
            time.sleep(0.2)
        check(f"{name}: the cut-off ranks exit by themselves (no coordinator heard)", not cut_off, str(cut_off))
    except (Failure, AttributeError) as e:
        check(name, False, str(e))
    finally:
        try:
            os.kill(l.pid, signal.SIGKILL)
        except OSError:
            pass
        l.wait(5)
        kill_tagged(tag)  # also an orted cut off from its mpirun, which would wait for it for minutes
        sh("ip", "-n", NS["hub"], "link", "set", link_name("10.77.0.3"), "up")  # for the next part
        try:
            os.close(l.fd)
        except OSError:
            pass


def no_curve_knob(args):
    """The benchmark knob LUMPI_INSECURE_NO_CURVE=1 (docs/hosts.md): a warning
    every time, a working world; any other value is refused."""
    code = "return mpi.COMM_WORLD:allreduce(1, mpi.SUM)"
    for value, want_rc in (("1", 0), ("yes", 1)):
        tag, env = marker_env()
        env["LUMPI_INSECURE_NO_CURVE"] = value
        try:
            p = subprocess.run(["ip", "netns", "exec", NS["c"], LUMPI] + args + ["-e", code], env=env,
                               capture_output=True, text=True, timeout=120)
            out, err, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, err, rc = "", "timed out", None
        finally:
            kill_tagged(tag)
        if value == "1":
            check("T3 LUMPI_INSECURE_NO_CURVE=1: a warning, and the world works without CURVE on data",
                  rc == 0 and "[0-3] 4" in out and "warning: LUMPI_INSECURE_NO_CURVE=1" in err, out + err)
        else:
            check("T3 LUMPI_INSECURE_NO_CURVE=yes is refused (only 1 turns CURVE off)",
                  rc == 1 and "LUMPI_INSECURE_NO_CURVE must be 1 or unset" in err, out + err)


def refuse_strangers(name, control, job):
    for mode in ("wrong", "plain"):
        p = subprocess.run(["ip", "netns", "exec", NS["10.77.0.3"], PROBE, control, mode, job],
                           capture_output=True, text=True, timeout=30)
        check(f"{name}: a process in another namespace with a {mode} key is refused", p.stdout.strip() == "refused",
              p.stdout + p.stderr)
    p = subprocess.run(["ip", "netns", "exec", NS["10.77.0.3"], PROBE, control, "job", job],
                       capture_output=True, text=True, timeout=30)
    check(f"{name}: ... and the job's key is admitted from there", p.stdout.strip() == "admitted", p.stdout + p.stderr)


def _cmd(pid):
    try:
        return open(f"/proc/{pid}/cmdline").read()
    except OSError:
        return ""


def _in_ns(pid, ns):
    try:
        return os.stat(f"/proc/{pid}/ns/net").st_ino == os.stat(f"/run/netns/{ns}").st_ino
    except OSError:
        return False


if __name__ == "__main__":
    if os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("unshare"):
        print("skip T3: needs root, ip (iproute2) and unshare (util-linux)")
        sys.exit(0)
    try:
        setup()
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        teardown()
        print(f"skip T3: network namespaces are not available here: {e}")
        sys.exit(0)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["LUMPI_JOBDIR"] = os.path.join(tmp, "jobs")
            # Open MPI's session directories (mpirun's and each orted's) go
            # here and are deleted with it: an orted this test kills leaves
            # its own behind, and /tmp/ompi.* would grow from run to run.
            os.environ["OMPI_MCA_orte_tmpdir_base"] = os.path.join(tmp, "ompi")
            os.makedirs(os.environ["OMPI_MCA_orte_tmpdir_base"])
            main(tmp)
    finally:
        teardown()
    left = [ns for ns in sh("ip", "netns", "list").split() if ns.startswith(TAG)]
    check("T3 every namespace it made is deleted", not left, str(left))
    finish()
