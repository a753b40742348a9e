#!/usr/bin/env python3
"""tests/mpich/run_mpich.py: MPICH 4.0.2's own test programs judge lumpi's C API.

It obtains MPICH's source through Debian's source package (`apt-get source`
with a private apt configuration that adds deb-src entries for the archives
this machine already uses; nothing on the machine is changed), keeps the
unpacked test tree under the work directory so reruns do not download again,
builds MPICH's MTest library and the programs of test/mpi/{group,comm,topo,attr}
and test/mpi/errors/{group,comm,topo,attr}, and the reduce-scatter,
reduce_local and neighbourhood-collective programs of test/mpi/coll (ONLY),
with lumpi-cc, runs every testlist entry with its process count through
`lumpi exec -n N`, and applies MPICH's pass rule (test/mpi/runtests): exit
status 0, one line " No Errors", and no other output.

Programs that cannot pass yet are listed in tests/mpich/expected-failures.txt
with the reason; a reason starting "not run:" names a program that would
only run into its time limit, so it is counted as failed without running. An unexpected failure fails this driver; an unexpected pass
is reported (and also fails it, so the list stays honest). Prints one line per
test, writes JUnit XML, and ends with "N passed, N failed".

usage: run_mpich.py --lumpi build/lumpi --cc build/lumpi-cc --work build/mpich
                    [--junit FILE] [--dirs group,comm] [--only NAME ...]
Exit: 0 all as expected, 1 otherwise, 77 when the source cannot be fetched (skip).
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.sax.saxutils as sax
from concurrent.futures import ThreadPoolExecutor

VERSION = "4.0.2"
DIRS = ["group", "comm", "topo", "attr",
        "errors/group", "errors/comm", "errors/topo", "errors/attr", "coll"]
# Directories of which only some programs are run: the reduce-scatter,
# reduce_local and neighbourhood-collective tests of coll/ (issue 13).
ONLY = {"coll": re.compile(r"^(red_scat|redscat|reduce_local$|neighb_)")}
SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))


# ---- fetching MPICH's source ---------------------------------------------------------

def archive_entries():
    """(uri, suite, components, signed_by) for every enabled binary source of apt."""
    entries = []
    files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list"))
    for f in files:
        if not os.path.exists(f):
            continue
        for line in open(f, encoding="utf-8", errors="replace"):
            line = line.split("#", 1)[0].strip()
            m = re.match(r"deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s*(.*)", line)
            if m:
                opts = m.group(1) or ""
                sb = re.search(r"signed-by=(\S+?)[\s\]]", opts)
                entries.append((m.group(2), m.group(3), m.group(4).split(), sb.group(1) if sb else None))
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        text = open(f, encoding="utf-8", errors="replace").read()
        for stanza in re.split(r"\n\s*\n", text):
            fields = {}
            for line in stanza.splitlines():
                if line.startswith("#") or ":" not in line:
                    continue
                k, v = line.split(":", 1)
                fields[k.strip().lower()] = v.strip()
            if "deb" not in fields.get("types", "").split() or fields.get("enabled", "yes") == "no":
                continue
            for uri in fields.get("uris", "").split():
                for suite in fields.get("suites", "").split():
                    entries.append((uri, suite, fields.get("components", "").split(), fields.get("signed-by")))
    return entries


def fetch_source(work):
    """The path of MPICH's test/mpi, unpacked under work; raises RuntimeError."""
    tree = os.path.join(work, "src", "mpich-" + VERSION, "test", "mpi")
    if os.path.exists(os.path.join(tree, ".complete-tree")):
        return tree
    entries = [e for e in archive_entries() if "debian" in e[0]]
    if not entries:
        raise RuntimeError("no Debian archive is configured in /etc/apt/sources.list{,.d}")
    if not shutil.which("apt-get"):
        raise RuntimeError("apt-get is not available")
    with tempfile.TemporaryDirectory(prefix="lumpi-apt-") as apt:
        for d in ("lists/partial", "cache/archives/partial", "parts", "dl"):
            os.makedirs(os.path.join(apt, d))
        with open(os.path.join(apt, "sources.list"), "w") as out:
            for uri, suite, comps, signed in entries:
                opt = f"[signed-by={signed}] " if signed and signed.startswith("/") else ""
                out.write(f"deb-src {opt}{uri} {suite} {' '.join(comps)}\n")
        opts = ["-o", f"Dir::Etc::SourceList={apt}/sources.list",
                "-o", f"Dir::Etc::SourceParts={apt}/parts",
                "-o", f"Dir::State::Lists={apt}/lists",
                "-o", f"Dir::Cache={apt}/cache",
                "-o", "APT::Sandbox::User=root", "-q"]
        r = subprocess.run(["apt-get"] + opts + ["update"], capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError("apt-get update failed: " + r.stderr.strip()[-300:])
        r = subprocess.run(["apt-get"] + opts + ["source", "--download-only", "mpich"],
                           cwd=os.path.join(apt, "dl"), capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise RuntimeError("apt-get source mpich failed: " + r.stderr.strip()[-300:])
        orig = glob.glob(os.path.join(apt, "dl", f"mpich_{VERSION}.orig.tar.*"))
        if not orig:
            got = ", ".join(os.listdir(os.path.join(apt, "dl")))
            raise RuntimeError(f"the archive's mpich source is not {VERSION} (got: {got})")
        dest = os.path.join(work, "src")
        os.makedirs(dest, exist_ok=True)
        # Only the test tree is needed: test/mpi of MPICH's own tarball.
        members = [f"mpich-{VERSION}/test/mpi"]
        r = subprocess.run(["tar", "xf", orig[0], "-C", dest] + members, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("unpacking failed: " + r.stderr.strip()[-300:])
    open(os.path.join(tree, ".complete-tree"), "w").close()
    return tree


# ---- building ------------------------------------------------------------------------

# Our answers to MPICH's configure for its test tree (mpitestconf.h.in).
CONF = """/* written by lumpi's tests/mpich/run_mpich.py: MPICH's test configuration for lumpi */
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_STDARG_H 1
#define HAVE_USLEEP 1
#define HAVE_STRDUP 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_DOUBLE 1
#define STDC_HEADERS 1
#define SIZEOF_INT 4
#define SIZEOF_LONG 8
#define SIZEOF_LONG_LONG 8
#define SIZEOF_SHORT 2
#define SIZEOF_VOID_P 8
#define POINTERINT_t long
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
"""


def newest_input(cc):
    """The newest mtime among lumpi-cc and the libraries and header it uses, so
    programs are rebuilt exactly when lumpi's C API changed."""
    text = open(cc).read()
    paths = [cc] + re.findall(r"(/\S+\.(?:a|so))\b", text)
    inc = re.search(r'-I(/\S+?)"', text)
    if inc:
        paths.append(os.path.join(inc.group(1), "mpi.h"))
    return max(os.path.getmtime(p) for p in paths if os.path.exists(p))


def up_to_date(target, sources, stamp):
    return os.path.exists(target) and os.path.getmtime(target) > max(
        [stamp] + [os.path.getmtime(p) for p in sources])


def build_mtest(tree, out, cc, stamp):
    inc = os.path.join(out, "include")
    os.makedirs(inc, exist_ok=True)
    conf = os.path.join(inc, "mpitestconf.h")
    if not os.path.exists(conf) or open(conf).read() != CONF:
        with open(conf, "w") as f:
            f.write(CONF)
    flags = ["-I" + inc, "-I" + os.path.join(tree, "include"), "-O1", "-w"]
    objs = []
    # libmtest_single (Makefile_single.mtest): MTest without a thread package.
    for src in ("mtest.c", "mtest_common.c", "mtest_single.c"):
        obj = os.path.join(out, src[:-2] + ".o")
        objs.append(obj)
        if up_to_date(obj, [os.path.join(tree, "util", src), conf], stamp):
            continue
        r = subprocess.run([cc, "-c", "-o", obj, os.path.join(tree, "util", src)] + flags,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"building MTest's {src} failed:\n{r.stderr[-2000:]}")
    return flags, objs


def first_error(text):
    for line in text.splitlines():
        if "error" in line or "undefined reference" in line:
            return line.strip()
    return text.strip().splitlines()[-1] if text.strip() else "no output"


def build_program(tree, out, cc, flags, objs, stamp, d, name):
    """(path, None) or (None, reason)."""
    os.makedirs(os.path.join(out, d), exist_ok=True)
    exe = os.path.join(out, d, name)
    src = os.path.join(tree, d, name + ".c")
    if up_to_date(exe, [src] + objs, stamp):
        return exe, None
    r = subprocess.run([cc, "-o", exe, src] + objs + flags, capture_output=True, text=True)
    if r.returncode != 0:
        undefined = sorted(set(re.findall(r"undefined reference to `(\w+)'", r.stderr)))
        if undefined:
            return None, "does not link: needs " + " ".join(undefined)
        return None, "does not compile: " + first_error(r.stderr)
    return exe, None


# ---- testlists -----------------------------------------------------------------------

def read_testlist(tree, d):
    """[(name, np, {key: value}, [args])] in file order."""
    path = os.path.join(tree, d, "testlist")
    if not os.path.exists(path):
        path += ".in"
    tests = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) < 2 or "@" in line:
            continue
        opts, args = {}, []
        for f in fields[2:]:
            k, _, v = f.partition("=")
            if k == "arg":
                args.append(v)
            else:
                opts[k] = v
        tests.append((fields[0], int(fields[1]), opts, args))
    return tests


def read_expected(path):
    """{'dir/name np': reason}; a key without np covers every np."""
    exp = {}
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, reason = line.partition(":")
        if not sep or not reason.strip():
            sys.exit(f"{path}:{n}: expected 'dir/name [np]: reason'")
        exp[" ".join(key.split())] = reason.strip()
    return exp


def expected_reason(exp, d, name, np):
    return exp.get(f"{d}/{name} {np}") or exp.get(f"{d}/{name}")


# ---- running -------------------------------------------------------------------------

def passes(rc, output):
    """MPICH's rule (runtests RunMPIProgram): exit 0, one ' No Errors' line and
    nothing else but 'Test Passed' lines."""
    if rc != 0:
        return False, f"exit status {rc}"
    found = False
    for line in output.splitlines():
        if re.match(r"^\s*No [Ee]rrors\s*$", line) and not found:
            found = True
        elif not re.match(r"^\s*Test Passed\s*$", line):
            return False, "unexpected output: " + line.strip()[:200]
    return (True, "") if found else (False, "no ' No Errors' line")


def run_test(lumpi, exe, np, args, limit, cwd):
    env = dict(os.environ, MPIEXEC_TIMEOUT=str(limit))
    start = time.monotonic()
    p = subprocess.Popen([lumpi, "exec", "-n", str(np), exe] + args, cwd=cwd, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", start_new_session=True)
    try:
        out, _ = p.communicate(timeout=limit + 30)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = -9
        out += f"\n(killed after {limit + 30} s)"
    return rc, out, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lumpi", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--junit")
    ap.add_argument("--dirs", default=",".join(DIRS))
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--expected", default=os.path.join(HERE, "expected-failures.txt"))
    # MPICH's runtests reads the same two variables: MPITEST_TIMEOUT replaces
    # the default limit, MPITEST_TIMEOUT_MULTIPLIER scales every limit (slow
    # builds: the sanitized run sets it, see scripts/dev).
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("MPITEST_TIMEOUT", "60")),
                    help="default per-test limit, s (MPITEST_TIMEOUT)")
    ap.add_argument("--timeout-multiplier", type=float,
                    default=float(os.environ.get("MPITEST_TIMEOUT_MULTIPLIER", "1")),
                    help="scales every limit (MPITEST_TIMEOUT_MULTIPLIER)")
    ap.add_argument("--jobs", type=int, default=2, help="programs built or run at once")
    a = ap.parse_args()
    lumpi, cc, work = (os.path.abspath(p) for p in (a.lumpi, a.cc, a.work))
    t0 = time.monotonic()
    try:
        tree = fetch_source(work)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"SKIP: MPICH {VERSION}'s source package cannot be fetched: {e}")
        return SKIP
    out = os.path.join(work, "build")
    stamp = newest_input(cc)
    try:
        flags, objs = build_mtest(tree, out, cc, stamp)
    except RuntimeError as e:
        print(f"FAIL: {e}")
        return 1
    exp = read_expected(a.expected)
    used = set()
    entries = []  # (dir, name, np, opts, args, reason)
    for d in a.dirs.split(","):
        for name, np, opts, args in read_testlist(tree, d):
            if a.only and name not in a.only:
                continue
            if d in ONLY and not ONLY[d].match(name):
                continue
            reason = expected_reason(exp, d, name, np)
            if reason:
                used.add(f"{d}/{name} {np}" if f"{d}/{name} {np}" in exp else f"{d}/{name}")
            entries.append((d, name, np, opts, args, reason))
    # Build every program once (in parallel), then run the entries, at most
    # --jobs at a time, reporting in testlist order.
    programs = sorted({(e[0], e[1]) for e in entries})
    with ThreadPoolExecutor(a.jobs) as pool:
        built = dict(zip(programs, pool.map(
            lambda p: build_program(tree, out, cc, flags, objs, stamp, *p), programs)))

    def one(e):
        d, name, np, opts, args, reason = e
        if reason and reason.startswith("not run:"):
            return False, "not run", 0.0, reason
        exe, why = built[(d, name)]
        if exe is None:
            return False, why, 0.0, why
        limit = int(int(opts.get("timeLimit", a.timeout)) * a.timeout_multiplier)
        rc, output, secs = run_test(lumpi, exe, np, args, limit, os.path.join(tree, d))
        rule = opts.get("resultTest")
        if rule == "TestStatus":
            # runtests' TestStatus: the program must end with a non-zero
            # status (an MPI_Abort); mpiexecarg (MPICH's -disable-auto-cleanup)
            # has no lumpi equivalent: lumpi exec always stops the world.
            ok = rc not in (0, -9)
            detail = "" if ok else f"exit status {rc}, wanted non-zero"
        elif rule:
            ok, detail = False, f"runtests' resultTest={rule} is not supported by this driver"
        else:
            ok, detail = passes(rc, output)
        return ok, detail, secs, output

    results = []  # (dir, name, np, ok, expected, detail, seconds, output)
    with ThreadPoolExecutor(a.jobs) as pool:
        for e, (ok, detail, secs, output) in zip(entries, pool.map(one, entries)):
            d, name, np, _, _, reason = e
            results.append((d, name, np, ok, reason, detail, secs, output))
            if ok and not reason:
                tag = "pass"
            elif ok:
                tag = "UNEXPECTED PASS"
            elif reason:
                tag = "expected failure"
            else:
                tag = "FAIL"
            print(f"{tag:16} {d}/{name} -n {np}  {secs:.1f}s" + ("" if ok else f"  ({detail})"), flush=True)
            if tag == "FAIL":
                print("    " + "\n    ".join(output.strip().splitlines()[-15:]), flush=True)
    stale = sorted(k for k in exp if k not in used and k.split("/")[0] in a.dirs.split(",") and not a.only)
    for k in stale:
        print(f"STALE ENTRY      {k}: not in any testlist")
    if a.junit:
        write_junit(a.junit, results)
    passed = sum(1 for r in results if r[3])
    failed = len(results) - passed
    unexpected_fail = [r for r in results if not r[3] and not r[4]]
    unexpected_pass = [r for r in results if r[3] and r[4]]
    for d in a.dirs.split(","):
        rs = [r for r in results if r[0] == d]
        print(f"{d}: {sum(1 for r in rs if r[3])} passed, {sum(1 for r in rs if not r[3])} failed")
    for r in unexpected_fail:
        print(f"unexpected failure: {r[0]}/{r[1]} -n {r[2]} ({r[5]})")
    for r in unexpected_pass:
        print(f"unexpected pass: {r[0]}/{r[1]} -n {r[2]} (remove its expected-failures entry)")
    print(f"{passed} passed, {failed} failed ({len(unexpected_fail)} unexpected failures, "
          f"{len(unexpected_pass)} unexpected passes) in {time.monotonic() - t0:.0f} s")
    return 0 if not unexpected_fail and not unexpected_pass and not stale else 1


def write_junit(path, results):
    failures = sum(1 for r in results if not r[3] and not r[4])
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f'<testsuite name="mpich-{VERSION}" tests="{len(results)}" failures="{failures}" '
                f'skipped="{sum(1 for r in results if not r[3] and r[4])}">\n')
        for d, name, np, ok, reason, detail, secs, output in results:
            f.write(f'  <testcase classname="mpich.{d}" name="{name} -n {np}" time="{secs:.2f}">\n')
            if not ok and reason:
                f.write(f'    <skipped message={sax.quoteattr("expected failure: " + reason)}/>\n')
            elif not ok:
                f.write(f'    <failure message={sax.quoteattr(detail)}>{sax.escape(output[-4000:])}</failure>\n')
            elif reason:
                f.write(f'    <system-out>{sax.escape("unexpected pass; listed: " + reason)}</system-out>\n')
            f.write("  </testcase>\n")
        f.write("</testsuite>\n")


if __name__ == "__main__":
    sys.exit(main())
