#!/usr/bin/env python3
"""tests/mpi4py/run_mpi4py.py: mpi4py 3.1.4, built unmodified on lumpi, judged
by its own test suite (issue 26).

Source: Debian's source package of mpi4py when this machine's archive serves
it (tests/debsrc.py), else mpi4py's own release tarball at
../shared/third_party/mpi4py-3.1.4.tar.gz beside the repository (or
$LUMPI_THIRD_PARTY), else the run is skipped (exit 77) saying why. Cython
and Python's headers come from Debian (cython3, python3-dev; scripts/dev
installs them); without them the run is skipped too.

Build: mpi4py's own `setup.py build --mpicc=<lumpi-cc>` in WORK/src, so
its configuration probes decide what lumpi has (mpi.h names lumpi, not MPICH
or Open MPI, so every function and constant is probed). The build is kept
and redone only when lumpi-cc or mpi.h change (the probes' answers depend on
them; libmpi.so itself is loaded at run time).

Run: for each world size (--np, default 1,2,3,5) `lumpi exec -n N python3
rank_runner.py ... test/runtests.py`, each rank recording every test's
outcome (rank_runner.py). A test's outcome at a size is its worst over the
ranks. It must pass, be skipped by mpi4py itself, or be listed in
tests/mpi4py/expected-failures.txt with a reason ("<test id or prefix>
[np=N,...]: reason"). A rank that ends without finishing the suite (crash,
hang, time limit) fails the size. An expected failure that passes at every
size it names is reported as an unexpected pass and fails the run too, so
the list stays honest. Then instrument.py checks, with the mpi4py just
built, that Python ranks get the hang report, Ctrl-C, the deadlock report
and MPI_ERR_PROC_FAILED as C ranks do.

usage: run_mpi4py.py --lumpi build/lumpi --cc build/lumpi-cc --work build/mpi4py
                     [--np 1,2,3,5] [--only test_comm ...] [--junit FILE]
Exit: 0 all as expected, 1 otherwise, 77 skipped.
"""
import argparse
import fnmatch
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.sax.saxutils as sax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import debsrc  # noqa: E402
import instrument  # noqa: E402

VERSION = "3.1.4"
PYTHON = "/usr/bin/python3"  # Debian's, with cython3's and python3-dev's files
SKIP = 77
WORST = ["ok", "skip", "xfail", "xpass", "FAIL", "ERROR"]  # later is worse


class Skip(Exception):
    pass


# ---- source and build -----------------------------------------------------------

def third_party_tarball():
    root = os.environ.get("LUMPI_THIRD_PARTY") or os.path.join(HERE, "..", "..", "..", "shared", "third_party")
    path = os.path.join(root, f"mpi4py-{VERSION}.tar.gz")
    return path if os.path.exists(path) else None


def fetch_source(work):
    """The unpacked mpi4py tree under work, and where it came from."""
    tree = os.path.join(work, "src", f"mpi4py-{VERSION}")
    if os.path.exists(os.path.join(tree, ".complete-tree")):
        return tree, open(os.path.join(tree, ".complete-tree")).read().strip()
    with tempfile.TemporaryDirectory(prefix="lumpi-mpi4py-") as dl:
        try:
            tarball, origin = debsrc.orig_tarball("mpi4py", VERSION, dl), "Debian's source package"
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            tarball, origin = third_party_tarball(), "../shared/third_party (the archive: " + " ".join(str(e).split())[:160] + ")"
            if not tarball:
                raise Skip(f"mpi4py {VERSION}'s source: not served by the archive ({e}) and no "
                           f"mpi4py-{VERSION}.tar.gz in ../shared/third_party or $LUMPI_THIRD_PARTY")
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(os.path.dirname(tree), exist_ok=True)
        r = subprocess.run(["tar", "xf", tarball, "-C", os.path.dirname(tree)], capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(os.path.join(tree, "setup.py")):
            raise RuntimeError("unpacking failed: " + r.stderr.strip()[-300:])
    with open(os.path.join(tree, ".complete-tree"), "w") as f:
        f.write(origin + "\n")
    return tree, origin


def fingerprint(cc):
    """What the build depends on: lumpi-cc and the mpi.h it compiles with."""
    h = hashlib.sha256(open(cc, "rb").read())
    r = subprocess.run([cc, "-E", "-x", "c", "-"], input="#include <mpi.h>\n", capture_output=True, text=True)
    h.update(r.stdout.encode())
    return h.hexdigest()


def build(tree, cc):
    """The build/lib directory holding mpi4py, built with lumpi-cc."""
    if not shutil.which("cython3") or not os.path.exists(f"/usr/include/python3.{sys.version_info[1]}/Python.h"):
        raise Skip("cython3 and python3-dev are needed to build mpi4py (scripts/dev installs them)")
    stamp = os.path.join(tree, ".lumpi-build")
    lib = os.path.join(tree, "build", "lib")
    want = fingerprint(cc)
    if os.path.exists(stamp) and open(stamp).read() == want and os.path.isdir(os.path.join(lib, "mpi4py")):
        return lib, 0.0
    t0 = time.monotonic()
    shutil.rmtree(os.path.join(tree, "build"), ignore_errors=True)
    r = subprocess.run([PYTHON, "setup.py", "build", "--mpicc=" + cc, "--build-lib", lib], cwd=tree,
                       capture_output=True, text=True)
    if r.returncode != 0:
        log = os.path.join(tree, "build.log")
        open(log, "w").write(r.stdout + r.stderr)
        raise RuntimeError(f"mpi4py does not build (log {log}): " + (r.stdout + r.stderr).strip()[-800:])
    with open(stamp, "w") as f:
        f.write(want)
    return lib, time.monotonic() - t0


# ---- running ----------------------------------------------------------------------

def run_size(a, tree, lib, np, skip):
    """{test id: (outcome, detail)} at np ranks, and a list of problems;
    the modules in skip are not run."""
    results = os.path.join(os.path.abspath(a.work), "results", f"np{np}")
    shutil.rmtree(results, ignore_errors=True)
    cmd = [os.path.abspath(a.lumpi), "exec", "-n", str(np), "--timeout", str(a.timeout), PYTHON,
           os.path.join(HERE, "rank_runner.py"), results, os.path.join(tree, "test"),
           "--no-builddir", "--path", lib] + sum((["-i", m] for m in a.only or []), []) + \
        sum((["-e", m] for m in skip), [])
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", start_new_session=True)
    try:
        out, _ = p.communicate(timeout=a.timeout + 60)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, rc = p.communicate()[0] + f"\n(killed after {a.timeout + 60} s)", -9
    try:
        os.killpg(p.pid, signal.SIGKILL)  # what the launcher may have left behind
    except ProcessLookupError:
        pass
    with open(os.path.join(results, "output.txt") if os.path.isdir(results) else os.devnull, "w") as f:
        f.write(out)
    return collect(results, np, rc, out) + (time.monotonic() - start,)


def collect(results, np, rc, out):
    tests, problems = {}, []
    for r in range(np):
        path = os.path.join(results, f"rank{r}.txt")
        lines = open(path, errors="replace").read().splitlines() if os.path.exists(path) else []
        if not lines or not lines[-1].startswith("end "):
            last = lines[-1] if lines else "nothing"
            problems.append(f"rank {r} did not finish the suite (exit status {rc}; its last record: {last}); "
                            f"output: {out.strip()[-600:]}")
        for line in lines:
            outcome, _, rest = line.partition(" ")
            if outcome == "end":
                continue
            tid, _, detail = rest.partition(" ")
            old = tests.get(tid)
            if old is None or WORST.index(outcome) > WORST.index(old[0]):
                tests[tid] = (outcome, f"rank {r}: {detail}" if detail else "")
    return tests, problems


# ---- judging ----------------------------------------------------------------------

def read_expected(path):
    """[(prefix, nps or None, reason)]."""
    exp = []
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, reason = line.partition(":")
        words = key.split()
        if not sep or not reason.strip() or not words:
            sys.exit(f"{path}:{n}: expected '<test id or prefix> [np=N,...]: reason'")
        nps = None
        if len(words) == 2 and words[1].startswith("np="):
            nps = {int(x) for x in words[1][3:].split(",")}
        elif len(words) != 1:
            sys.exit(f"{path}:{n}: expected '<test id or prefix> [np=N,...]: reason'")
        exp.append((words[0], nps, reason.strip()))
    return exp


def expected_reason(exp, tid, np):
    """The entry covering test tid at np: a test id, a prefix of one (a
    module, a class) or a pattern with * (test_x.*.testY)."""
    for prefix, nps, reason in exp:
        hit = fnmatch.fnmatchcase(tid, prefix) or tid == prefix or tid.startswith(prefix + ".")
        if hit and (nps is None or np in nps):
            return prefix, reason
    return None, None


def not_run(exp):
    """Modules listed 'not run: ...': mpi4py's tests of what lumpi lacks that
    would hang rather than fail (one rank raises NotImplementedError, its
    peer waits for it), left out with runtests.py -e."""
    return [prefix for prefix, _, reason in exp if reason.startswith("not run:") and "." not in prefix]


def judge(exp, by_size):
    """(lines to print, wrong count, junit cases)."""
    lines, cases, wrong, used = [], [], 0, {}
    for np, (tests, problems, secs) in by_size.items():
        for p in problems:
            lines.append(f"FAIL np={np}: {p}")
            cases.append((f"np{np}", "suite", "FAIL", p))
            wrong += 1
        for tid in sorted(tests):
            outcome, detail = tests[tid]
            prefix, reason = expected_reason(exp, tid, np)
            bad = outcome in ("FAIL", "ERROR", "xpass")
            if prefix:
                used.setdefault(prefix, []).append(bad)
            if bad and not prefix:
                lines.append(f"FAIL np={np} {tid}: {outcome} {detail}")
                cases.append((f"np{np}", tid, "FAIL", f"{outcome} {detail}"))
                wrong += 1
            else:
                tag = "expected failure" if bad else ("skip" if outcome == "skip" else "ok")
                cases.append((f"np{np}", tid, tag, reason if bad else detail))
    for prefix, nps, reason in exp:
        if prefix in used and not any(used[prefix]):
            lines.append(f"UNEXPECTED PASS {prefix}: listed as '{reason}'")
            wrong += 1
        elif prefix not in used and (nps is None or nps & set(by_size)):
            lines.append(f"STALE ENTRY {prefix}: no such test ran")
            wrong += 1
    return lines, wrong, cases


def write_junit(path, cases):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        fails = sum(1 for c in cases if c[2] == "FAIL")
        f.write(f'<testsuite name="mpi4py-{VERSION}" tests="{len(cases)}" failures="{fails}">\n')
        for size, tid, tag, detail in cases:
            f.write(f'  <testcase classname="mpi4py.{size}" name={sax.quoteattr(tid)}>')
            if tag == "FAIL":
                f.write(f'<failure message={sax.quoteattr(detail[:500])}/>')
            elif tag in ("skip", "expected failure"):
                f.write(f'<skipped message={sax.quoteattr((tag + ": " + detail)[:500])}/>')
            f.write("</testcase>\n")
        f.write("</testsuite>\n")


def arguments():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lumpi", required=True)
    ap.add_argument("--cc", required=True, help="lumpi-cc")
    ap.add_argument("--work", required=True)
    ap.add_argument("--np", default="1,2,3,5")
    ap.add_argument("--only", nargs="*", default=None, help="test modules (runtests.py -i)")
    ap.add_argument("--timeout", type=int, default=900, help="limit of one world size's run, s")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected-failures.txt"))
    ap.add_argument("--junit")
    ap.add_argument("--build-only", action="store_true",
                    help="build mpi4py and stop (CTest's mpi4py.build, which the docs test waits for)")
    return ap.parse_args()


def main():
    a = arguments()
    t0 = time.monotonic()
    try:
        tree, origin = fetch_source(os.path.abspath(a.work))
        lib, secs = build(tree, os.path.abspath(a.cc))
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    except RuntimeError as e:
        print(f"FAIL: {e}")
        return 1
    print(f"mpi4py {VERSION} from {origin}; " + (f"built in {secs:.0f} s" if secs else "build up to date"),
          flush=True)
    if a.build_only:
        return 0
    exp = read_expected(a.expected) if not a.only else []
    skip = not_run(read_expected(a.expected))
    by_size = {}
    for np in [int(x) for x in a.np.split(",")]:
        by_size[np] = run_size(a, tree, lib, np, skip)
        tests, problems, secs = by_size[np]
        count = {o: sum(1 for t in tests.values() if t[0] == o) for o in WORST}
        print(f"np={np}: {len(tests)} tests in {secs:.0f} s: " +
              ", ".join(f"{n} {o}" for o, n in count.items() if n) +
              (f"; {len(problems)} rank(s) did not finish" if problems else ""), flush=True)
    lines, wrong, cases = judge([e for e in exp if e[0] not in skip], by_size)
    if not a.only:  # Python ranks get the instrument C ranks get (instrument.py)
        more, failed = instrument.check(a.lumpi, lib)
        lines += more
        wrong += failed
    for m in skip:
        print(f"not run: {m} (tests/mpi4py/expected-failures.txt)")
    for line in lines:
        print(line)
    if a.junit:
        write_junit(a.junit, cases)
    print(f"{wrong} not as expected, in {time.monotonic() - t0:.0f} s")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
