# tests/integration/test_attach.py: a world that waits for a REPL (`lumpi
# world`) and the REPLs that attach to it (`lumpi attach FILE`), issue 14
# item 3 (docs/hosts.md, "A world that waits for a REPL").
#
# Local (forked ranks, the attach socket on ipc in the private directory):
#   the connection file is 0600 at --jobfile; -e and a script attach, run
#   and leave the world running with its globals; a REPL on a pty attaches,
#   a second attach meanwhile is refused with a clear message and the first
#   goes on; :detach leaves the world; a REPL killed by SIGKILL in the middle
#   of an endless loop frees the world for the next, the loop interrupted; a stranger's key is refused; `lumpi world --stop`
#   ends it (exit 0, file and ranks gone); a world SIGKILLed leaves nothing.
# Over tcp with CURVE (the ssh launcher through fake_rsh.sh on 127.0.0.2/3):
#   the ranks stay while no REPL is attached for longer than a rank waits
#   for a silent coordinator (the world keeps beating), :quit of an attached
#   REPL ends the world, a stranger is refused at the attach socket, and a
#   world SIGKILLed leaves no rank after 10 s.
# Every process is found by its tag and killed by pid at the end.
#
# Usage: python3 test_attach.py /path/to/build/lumpi
import functools, os, re, signal, stat, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import (SSH, check, curve_probe, finish, kill_tagged, marker_env, no_leftovers,  # noqa: E402
                       pids_with_tag, scratch_dir)
from ptyrun import Lumpi  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
PROBE = os.path.join(os.path.dirname(LUMPI), "lumpi-curve-probe")
probe = functools.partial(curve_probe, PROBE)
SCRATCH = scratch_dir("lumpi-attach-")


class World:
    """`lumpi world ARGS --jobfile FILE` in the background, its output in files."""

    def __init__(self, name, args, ready_within=60):
        self.tag, self.env = marker_env()
        self.file = os.path.join(SCRATCH, name + ".job")
        self.out_path = os.path.join(SCRATCH, name + ".out")
        self.err_path = os.path.join(SCRATCH, name + ".err")
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.p = subprocess.Popen([LUMPI, "world"] + args + ["--jobfile", self.file],
                                      stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=self.env)
        deadline = time.time() + ready_within
        while time.time() < deadline and "wait for a REPL" not in self.out() and self.p.poll() is None:
            time.sleep(0.05)

    def out(self):
        with open(self.out_path) as f:
            return f.read()

    def err(self):
        with open(self.err_path) as f:
            return f.read()

    def ready(self):
        return "wait for a REPL" in self.out() and self.p.poll() is None

    def attach(self, args, stdin=None, timeout=60):
        p = subprocess.run([LUMPI, "attach", self.file] + args, input=stdin, capture_output=True, text=True,
                           timeout=timeout, env=self.env)
        return p.returncode, p.stdout, p.stderr

    def wait(self, timeout):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(10)
        kill_tagged(self.tag)


def attach_ok(w, name, args, want, stdin=None):
    """Runs lumpi attach; every pattern of `want` (a string or a list) must be in its output."""
    code, out, err = w.attach(args, stdin=stdin)
    wants = [want] if isinstance(want, str) else want
    check(name, code == 0 and all(re.search(x, out, re.M) for x in wants),
          f"exit {code}\nstdout:\n{out}\nstderr:\n{err}")
    return out


def attach_endpoint(path):
    with open(path) as f:
        return re.search(r"^attach=(.*)$", f.read(), re.M).group(1)


# ---- local ------------------------------------------------------------------------------

def local_world():
    w = World("local", ["-n", "3"])
    try:
        check("local: lumpi world says where to attach", w.ready(), w.out() + w.err())
        if not w.ready():
            return
        mode = stat.S_IMODE(os.stat(w.file).st_mode)
        check("local: the connection file is 0600", mode == 0o600, oct(mode))
        check("local: it names the attach socket on ipc", attach_endpoint(w.file).startswith("ipc://"))
        attach_ok(w, "local: -e runs on every rank", ["-e", "x = mpi.COMM_WORLD:rank() * 10 return x"],
                  [r"^\[0\] 0$", r"^\[1\] 10$", r"^\[2\] 20$"])
        check("local: the world runs on after -e", w.p.poll() is None)
        script = os.path.join(SCRATCH, "s.lua")
        with open(script, "w") as f:
            f.write("local a = ... print(x + tonumber(a))\n")
        attach_ok(w, "local: a script with an argument sees the globals -e left", [script, "5"],
                  [r"^\[0\] 5$", r"^\[1\] 15$", r"^\[2\] 25$"])
        with Lumpi(LUMPI, ["attach", w.file], env=w.env) as repl:
            repl.prompt(30)
            out = repl.command("return x + 1")
            check("local: the REPL attaches and sees the globals", re.search(r"\[0\] 1\b", out) is not None, out)
            code, out, err = w.attach(["-e", "return 1"])
            check("local: a second attach meanwhile is refused clearly", code == 1 and
                  "another REPL is attached" in err, f"exit {code}\n{out}\n{err}")
            out = repl.command("return mpi.COMM_WORLD:allreduce(x, mpi.SUM)")
            check("local: the first REPL goes on", re.search(r"\[0-2\] 30", out) is not None, out)
            out = repl.command(":ranks")
            check("local: :ranks lists the 3 ranks", len(re.findall(r"^\s*[0-2]\s", out, re.M)) == 3, out)
            repl.line(":detach")
            st = repl.wait(15)
            check("local: :detach ends the REPL with status 0", st is not None and os.waitstatus_to_exitcode(st) == 0,
                  repl.text()[-500:])
        check("local: the world runs on after :detach", w.p.poll() is None)
        # a REPL killed while attached, in the middle of an endless command, frees the
        # world, and that command is interrupted
        with Lumpi(LUMPI, ["attach", w.file], env=w.env) as repl:
            repl.prompt(30)
            repl.line("while true do end")
            time.sleep(0.5)
            os.kill(repl.pid, signal.SIGKILL)
            repl.wait(5)
        deadline, out = time.time() + 30, ""
        while time.time() < deadline:
            code, out, err = w.attach(["-e", "return x"])
            if code == 0:
                break
            time.sleep(0.3)
        check("local: after a REPL is SIGKILLed mid-command the next attaches and runs (globals kept)",
              re.search(r"\[0\] 0\s.*\[2\] 20", out, re.S) is not None, out + err)
        check("local: a stranger's key is refused at the attach socket",
              probe(attach_endpoint(w.file), "wrong") == "refused")
        check("local: the job's key is admitted", probe(attach_endpoint(w.file), "job", w.file) == "admitted")
        p = subprocess.run([LUMPI, "world", "--stop", w.file], capture_output=True, text=True, timeout=60, env=w.env)
        check("local: lumpi world --stop ends it", p.returncode == 0, p.stdout + p.stderr)
        check("local: the world exits 0", w.wait(20) == 0, w.err())
        check("local: the connection file is gone", not os.path.exists(w.file))
        check("local: no process is left", no_leftovers(w.tag, 10))
    finally:
        w.close()


def local_world_killed():
    w = World("killed", ["-n", "2"])
    try:
        check("local kill: ready", w.ready(), w.out() + w.err())
        os.kill(w.p.pid, signal.SIGKILL)
        w.wait(10)
        check("local kill: ranks and watchdog gone within 10 s", no_leftovers(w.tag, 10))
        deadline = time.time() + 10
        while os.path.exists(w.file) and time.time() < deadline:
            time.sleep(0.05)
        check("local kill: the connection file is removed", not os.path.exists(w.file))
    finally:
        w.close()


def usage_errors():
    p = subprocess.run([LUMPI, "attach"], capture_output=True, text=True, timeout=20)
    check("usage: lumpi attach without a file", p.returncode == 2 and "connection file" in p.stderr, p.stderr)
    missing = os.path.join(SCRATCH, "none.job")
    p = subprocess.run([LUMPI, "attach", missing, "-e", "return 1"], capture_output=True, text=True, timeout=20)
    check("usage: lumpi attach of a missing file names it", p.returncode == 1 and missing in p.stderr, p.stderr)
    p = subprocess.run([LUMPI, "attach", missing, "-n", "2"], capture_output=True, text=True, timeout=20)
    check("usage: lumpi attach takes no -n", p.returncode == 2 and "no -n" in p.stderr, p.stderr)
    p = subprocess.run([LUMPI, "world", "-n", "2", "-e", "return 1"], capture_output=True, text=True, timeout=20)
    check("usage: lumpi world runs no code", p.returncode == 2 and "runs no script" in p.stderr, p.stderr)


# ---- over tcp with CURVE ----------------------------------------------------------------

def tcp_world():
    w = World("tcp", SSH + ["-n", "4"])
    try:
        check("tcp: lumpi world with the ssh launcher is ready", w.ready(), w.out() + w.err())
        if not w.ready():
            return
        ep = attach_endpoint(w.file)
        check("tcp: the attach socket is tcp", ep.startswith("tcp://"), ep)
        attach_ok(w, "tcp: allreduce over 4 ranks on 2 hosts",
                  ["-e", "y = mpi.COMM_WORLD:allreduce(mpi.COMM_WORLD:rank() + 1, mpi.SUM) return y"], r"\[0-3\] 10")
        check("tcp: a stranger's key is refused at the attach socket", probe(ep, "wrong") == "refused")
        check("tcp: no key at all is refused", probe(ep, "plain") == "refused")
        time.sleep(7.5)  # longer than a rank waits for a silent coordinator (6 s)
        attach_ok(w, "tcp: detached for 7.5 s, every rank is still there with its globals",
                  ["-e", "return y, mpi.get_processor_name()"], r"\[0-1\] 10\s+host-127\.0\.0\.2")
        code, out, err = w.attach([], stdin="return y * 2\n:quit\n")
        check("tcp: :quit of an attached REPL ends the world", code == 0 and "20" in out, f"{code}\n{out}\n{err}")
        check("tcp: the world exits 0", w.wait(30) == 0, w.err())
        check("tcp: the job file is gone", not os.path.exists(w.file))
        check("tcp: no rank or launcher is left", no_leftovers(w.tag, 10))
    finally:
        w.close()


def tcp_world_killed():
    w = World("tcpkill", SSH + ["-n", "4"])
    try:
        check("tcp kill: ready", w.ready(), w.out() + w.err())
        os.kill(w.p.pid, signal.SIGKILL)
        w.wait(10)
        check("tcp kill: every rank exits within 10 s of the world's SIGKILL", no_leftovers(w.tag, 10),
              str(pids_with_tag(w.tag)))
        check("tcp kill: the job file is removed", not os.path.exists(w.file))
    finally:
        w.close()


if __name__ == "__main__":
    usage_errors()
    local_world()
    local_world_killed()
    if os.geteuid() != 0:
        print("skip tcp cases: fake_rsh.sh needs root for its UTS namespaces")
    else:
        tcp_world()
        tcp_world_killed()
    finish()
