# tests/integration/ptyrun.py: drive lumpi under a pseudo-terminal like a person.
# Shared by test_repl_pty.py and test_failures.py (python3 standard library only).
import os, pty, re, select, signal, subprocess, sys, time, fcntl, termios, struct

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")


class Failure(Exception):
    pass


class Lumpi:
    """One lumpi process on a pty of 80x24, its own session."""

    def __init__(self, exe, args=(), env=None, cols=80):
        self.exe = exe
        e = dict(os.environ)
        e.update(env or {})
        e.setdefault("TERM", "xterm")
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execve(exe, [exe] + list(args), e)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
        self.raw = b""
        self.pos = 0  # text before pos was consumed by expect()
        self.status = None

    # ---- output ----
    def _read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not r:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            return None
        self.raw += data
        return True

    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def expect(self, pattern, timeout=10.0, what=None):
        """Waits for regex `pattern` after the last match; returns the match."""
        rx = re.compile(pattern, re.M)
        deadline = time.time() + timeout
        while True:
            t = self.text()
            m = rx.search(t, self.pos)
            if m:
                self.pos = m.end()
                return m
            left = deadline - time.time()
            if left <= 0 or self._read(min(left, 0.2)) is None and not rx.search(self.text(), self.pos):
                if left <= 0 or self.exited():
                    raise Failure("expected %r (%s); screen since last match:\n%s"
                                  % (pattern, what or "", t[self.pos:][-3000:]))

    def since(self):
        """Text after the last match (reads what is waiting first)."""
        while self._read(0.05):
            pass
        return self.text()[self.pos:]

    def quiet(self, seconds):
        """Reads for `seconds`; returns what arrived."""
        start = len(self.text())
        end = time.time() + seconds
        while time.time() < end:
            if self._read(end - time.time()) is None:
                break
        return self.text()[start:]

    # ---- input ----
    def send(self, s):
        os.write(self.fd, s.encode())

    def line(self, s):
        self.send(s + "\r")

    def ctrl_c(self):
        self.send("\x03")

    def prompt(self, timeout=20.0):
        return self.expect(r"lumpi\[[^\]]*\]> ", timeout, "prompt")

    def command(self, s, timeout=15.0):
        """Types a command, waits for the next prompt, returns what was printed."""
        self.line(s)
        start = self.pos
        self.prompt(timeout)
        out = self.text()[start:self.pos]
        return out

    # ---- processes ----
    def exited(self):
        if self.status is None:
            p, st = os.waitpid(self.pid, os.WNOHANG)
            if p == self.pid:
                self.status = st
        return self.status is not None

    def wait(self, timeout):
        end = time.time() + timeout
        while time.time() < end:
            self._read(0.05)
            if self.exited():
                return self.status
        return None

    def ranks(self):
        """pids of lumpi-rank processes in this lumpi's session (pty.fork made one)."""
        out = subprocess.run(["pgrep", "-s", str(self.pid), "-f", "lumpi-rank"],
                             capture_output=True, text=True).stdout
        return [int(x) for x in out.split()]

    def close(self):
        """Quits (kills if it must), then checks that no rank is left."""
        if not self.exited():
            try:
                self.line(":quit")
            except OSError:
                pass
            if self.wait(5) is None:
                os.kill(self.pid, signal.SIGKILL)
                self.wait(5)
        left = []
        for _ in range(50):
            left = [p for p in self.ranks() if not zombie(p)]
            if not left:
                break
            time.sleep(0.1)
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.close(self.fd)
        except OSError:
            pass
        if left:
            raise Failure("lumpi-rank processes left behind: %s" % left)


def zombie(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def run_tests(tests, exe, per_test=60):
    """Runs each test(exe) with its own deadline; prints results; returns exit code."""
    failed = 0
    for t in tests:
        name = t.__name__.replace("_", " ")
        start = time.time()

        def on_alarm(sig, frame):
            raise Failure("took longer than %d s" % per_test)
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(per_test)
        try:
            t(exe)
            print("ok   %s (%.1f s)" % (name, time.time() - start), flush=True)
        except Exception as e:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print("FAIL %s (%.1f s)\n  %s" % (name, time.time() - start,
                                              str(e).replace("\n", "\n  ")), flush=True)
        finally:
            signal.alarm(0)
    print("%d passed, %d failed" % (len(tests) - failed, failed))
    return 1 if failed else 0


def _enter(self):
    return self


def _exit(self, et, ev, tb):
    try:
        self.close()
    except Failure:
        if et is None:
            raise
    return False


Lumpi.__enter__ = _enter
Lumpi.__exit__ = _exit
