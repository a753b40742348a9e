# tests/integration/test_chaos_coordinator.py: the coordinator ended by
# SIGTERM, SIGHUP (also: its terminal closed) or SIGKILL while ranks are
# blocked: within 5 s no rank process, no other process it started (the run
# directory's watchdog) and no /tmp/lumpi-* run directory is left; SIGTERM
# and SIGHUP exit with 128+signal.
#
# Usage: python3 test_chaos_coordinator.py /path/to/build/lumpi
import os, re, signal, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import Failure, Lumpi, run_tests  # noqa: E402
from lumpitest import kill_tagged, marker_env, pids_with_tag  # noqa: E402


def start(exe, n, blocked):
    tag, env = marker_env()
    l = Lumpi(exe, ["-n", str(n)], env=env)
    l.prompt(30)
    out = l.command("return os.getenv('LUMPI_DIR')")
    m = re.search(r"\] (/\S+)", out)
    if not m or not os.path.isdir(m.group(1)):
        raise Failure("no run directory found:\n" + out)
    if blocked:
        l.line(blocked)
        time.sleep(0.3)
    return l, tag, m.group(1)


def gone_within(tag, rundir, seconds):
    """True once no tagged process but zombies and no run directory remain."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if not pids_with_tag(tag) and not os.path.exists(rundir):
            return True
        time.sleep(0.05)
    return False


def end_coordinator(exe, how, n, blocked, want_status):
    l, tag, rundir = start(exe, n, blocked)
    try:
        t0 = time.time()
        if how == "close-terminal":
            os.close(l.fd)  # the session leader gets SIGHUP, as when a window closes
            l.fd = os.open("/dev/null", os.O_RDONLY)
        else:
            os.kill(l.pid, how)
        clean = gone_within(tag, rundir, 5)
        left = pids_with_tag(tag)
        status = l.wait(1)
        if not clean:
            raise Failure("%s: after 5 s, processes %s, run directory %s"
                          % (how, left, "left" if os.path.exists(rundir) else "gone"))
        print("  %s: clean after %.2f s" % (how, time.time() - t0), flush=True)
        if want_status is not None:
            if status is None or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != want_status:
                raise Failure("%s: wait status %r, want exit %d" % (how, status, want_status))
    finally:
        kill_tagged(tag)
        l.close()


def test_sigterm_during_a_collective(exe):
    end_coordinator(exe, signal.SIGTERM, 4, "mpi.COMM_WORLD:allreduce(mpi.rank() == 3 and "
                    "mpi.COMM_WORLD:recv(0, 1) or 1, mpi.SUM)", 128 + signal.SIGTERM)


def test_sighup_at_the_prompt(exe):
    end_coordinator(exe, signal.SIGHUP, 3, None, 128 + signal.SIGHUP)


def test_sighup_during_a_receive(exe):
    end_coordinator(exe, signal.SIGHUP, 4, "mpi.COMM_WORLD:recv(mpi.ANY_SOURCE, 1)",
                    128 + signal.SIGHUP)


def test_closing_the_terminal(exe):
    end_coordinator(exe, "close-terminal", 3, "mpi.COMM_WORLD:barrier() while true do end", None)


def test_sigkill_at_the_prompt(exe):
    end_coordinator(exe, signal.SIGKILL, 3, None, None)


def test_sigkill_during_a_collective(exe):
    end_coordinator(exe, signal.SIGKILL, 7, "if mpi.rank() > 0 then mpi.COMM_WORLD:barrier() end",
                    None)


def test_sigkill_after_a_restart(exe):
    tag, env = marker_env()
    l = Lumpi(exe, ["-n", "2"], env=env)
    try:
        l.prompt(30)
        out = l.command(":restart 3", 30)
        if "started a world of 3 ranks" not in out:
            raise Failure(":restart failed:\n" + out)
        out = l.command("return os.getenv('LUMPI_DIR')")
        rundir = re.search(r"\] (/\S+)", out).group(1)
        os.kill(l.pid, signal.SIGKILL)
        if not gone_within(tag, rundir, 5):
            raise Failure("after a restart and SIGKILL: processes %s, run directory %s"
                          % (pids_with_tag(tag), os.path.exists(rundir)))
    finally:
        kill_tagged(tag)
        l.close()


TESTS = [test_sigterm_during_a_collective, test_sighup_at_the_prompt, test_sighup_during_a_receive,
         test_closing_the_terminal, test_sigkill_at_the_prompt, test_sigkill_during_a_collective,
         test_sigkill_after_a_restart]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_chaos_coordinator.py /path/to/lumpi")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    sys.exit(run_tests([t for t in TESTS if only in t.__name__], os.path.abspath(sys.argv[1])))
