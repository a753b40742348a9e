"""tests/integration/lumpitest.py: helpers for driving the real lumpi binary.

Every run is bounded in time and tagged with a unique environment marker,
so a test can find every process it started (ranks included, even after
their parent died) and kill them by pid. Standard library only.
"""
import atexit
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

FAILURES = []


def scratch_dir(prefix):
    """A private temporary directory, removed when the test process exits."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, d, True)
    return d


def cmake_cache(build, name):
    """The value of `name` in the build directory's CMakeCache.txt ("" if unset)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        m = re.search(rf"^{name}:\w+=(.*)$", f.read(), re.M)
    return m.group(1) if m else ""


def sanitized(build):
    """Is `build` a sanitized build (LUMPI_SANITIZE=ON)?"""
    return cmake_cache(build, "LUMPI_SANITIZE") == "ON"


def elf_dynamic(path, tag):
    """The values of one tag of `readelf -d path` (NEEDED, RUNPATH, SONAME)."""
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, timeout=60).stdout
    return re.findall(rf"\({tag}\)\s+.*\[(.*)\]", out)


def marker_env():
    tag = "lumpi-it-" + uuid.uuid4().hex
    env = dict(os.environ, LUMPI_TEST_TAG=tag)
    return tag, env


def pids_with_tag(tag):
    """Pids of live processes whose environment carries `tag`."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if f"LUMPI_TEST_TAG={tag}".encode() in f.read().split(b"\0"):
                    with open(f"/proc/{name}/stat") as st:
                        if st.read().split()[2] != "Z":
                            found.append(int(name))
        except OSError:
            pass
    return found


def kill_tagged(tag):
    for pid in pids_with_tag(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def run(lumpi, args, stdin=None, timeout=60):
    """Runs lumpi to completion; returns (exit code, stdout, stderr, tag)."""
    tag, env = marker_env()
    try:
        p = subprocess.run([lumpi] + args, input=stdin, capture_output=True, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr, tag
    except subprocess.TimeoutExpired as e:
        kill_tagged(tag)
        text = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return None, text(e.stdout), text(e.stderr), tag


def no_leftovers(tag, within=3.0):
    deadline = time.time() + within
    while time.time() < deadline:
        if not pids_with_tag(tag):
            return True
        time.sleep(0.05)
    left = pids_with_tag(tag)
    kill_tagged(tag)
    return not left


def check(name, cond, detail=""):
    status = "ok  " if cond else "FAIL"
    print(f"{status} {name}" + ("" if cond else f"\n     {detail}"))
    sys.stdout.flush()
    if not cond:
        FAILURES.append(name)


def finish():
    print(f"{len(FAILURES)} failed")
    sys.exit(1 if FAILURES else 0)


def compile_program(lumpi, source, out, flags=("-Wall", "-Werror"), cxx=False, timeout=180):
    """Builds `source` into `out` with the lumpi-cc (or, with cxx, lumpi-c++)
    beside the lumpi binary, as one check; True if it built."""
    tool = os.path.join(os.path.dirname(os.path.abspath(lumpi)), "lumpi-c++" if cxx else "lumpi-cc")
    r = subprocess.run([tool, *flags, "-o", out, source], capture_output=True, text=True, timeout=timeout)
    check(f"{os.path.basename(tool)} builds {os.path.basename(source)}", r.returncode == 0, r.stderr)
    return r.returncode == 0


# ---- the two loopback "hosts" of fake_rsh.sh (test_hosts.py, test_attach.py) ----

HERE = os.path.dirname(os.path.abspath(__file__))
RSH = os.path.join(HERE, "fake_rsh.sh")
SSH = ["--launcher", "ssh", "--hosts", "127.0.0.2:2,127.0.0.3:2", "--rsh", RSH]


def curve_probe(probe, endpoint, mode, jobfile=None):
    """What lumpi-curve-probe (the binary `probe`, tests/exec/curve_probe.cpp)
    prints after knocking at endpoint as `mode` (with the keys of jobfile)."""
    args = [probe, endpoint, mode] + ([jobfile] if jobfile else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=20).stdout.strip()
