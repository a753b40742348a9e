#!/usr/bin/env python3
"""tests/mpich/run_mpich.py: MPICH 4.0.2's own test programs judge lumpi's C API.

It obtains MPICH's source through Debian's source package (tests/debsrc.py:
`apt-get source` with a private apt configuration; nothing on the machine
is changed), keeps the unpacked test tree under the work directory so reruns
do not download again, builds MPICH's MTest library, its dtpools (datatype
pools) and the programs of test/mpi/{group,comm,topo,attr}, test/mpi/errors/{group,comm,topo,attr},
test/mpi/{pt2pt,coll,datatype,init,info,errhan,rma} with lumpi-cc, as each directory's Makefile.am
says (a program's _SOURCES, _CPPFLAGS and _LDADD), at most 2 compilers at a
time. It runs every testlist entry (with its arg= and env= options) through
`lumpi exec -n N`, and applies MPICH's pass rule (test/mpi/runtests): exit
status 0, one line " No Errors", and no other output; for
resultTest=TestStatus and TestErrFatal, a non-zero exit status.

A program that does not compile or link fails its entries ("does not build:
<first error>"). One whose preprocessed source uses a name MPI-4.0 added
(big-count _c functions, MPI_Isendrecv, MPI_Info_get_string, sessions, ...)
that the compiler's mpi.h does not declare is skipped ("needs MPI-4.0:
...") while lumpi's mpi.h declares MPI 3.1, and counted as skipped.

Programs that cannot pass yet are listed in tests/mpich/expected-failures.txt
with the reason; a reason starting "not run:" names a program that would
only run into its time limit, so it is counted as failed without running.
An unexpected failure fails this driver; an unexpected pass is reported (and
also fails it, so the list stays honest). Prints one line per entry, writes
JUnit XML, compares with tests/mpich/mpich-passes.txt ("MPICH passes N of
these; lumpi fails M of them") and ends with "N passed, N failed, N skipped".

--sample K runs every K-th entry of each directory (the sanitized build's
CTest entry does, see CMakeLists.txt). --build-only fetches and builds
without running (a program is rebuilt only when lumpi's C API changed, so
the run that follows finds every program built). --baseline FILE measures MPICH
itself: with --cc mpicc.mpich --mpiexec mpiexec.mpich it builds into
WORK/build-mpiexec, runs every entry with mpiexec.mpich, reruns the failures
once when the machine is quieter (MPICH's ranks busy-poll, so load makes
them time out), and writes the entries that pass to FILE.

usage: run_mpich.py --lumpi build/lumpi --cc build/lumpi-cc --work build/mpich
                    [--junit FILE] [--dirs group,comm] [--only NAME ...] [--sample K] [--build-only]
       run_mpich.py --mpiexec /usr/bin/mpiexec.mpich --cc /usr/bin/mpicc.mpich
                    --work build/mpich --jobs 1 --baseline tests/mpich/mpich-passes.txt
Exit: 0 all as expected, 1 otherwise, 77 when the source cannot be fetched (skip).
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import xml.sax.saxutils as sax
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import debsrc  # noqa: E402

VERSION = "4.0.2"
DIRS = ["group", "comm", "topo", "attr", "errors/group", "errors/comm", "errors/topo", "errors/attr",
        "pt2pt", "coll", "datatype", "init", "info", "errhan", "rma"]
SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))


# ---- fetching MPICH's source ---------------------------------------------------------

def fetch_source(work):
    """The path of MPICH's test/mpi, unpacked under work; raises RuntimeError."""
    tree = os.path.join(work, "src", "mpich-" + VERSION, "test", "mpi")
    if os.path.exists(os.path.join(tree, ".complete-tree")):
        return tree
    with tempfile.TemporaryDirectory(prefix="lumpi-mpich-") as dl:
        orig = debsrc.orig_tarball("mpich", VERSION, dl)
        dest = os.path.join(work, "src")
        os.makedirs(dest, exist_ok=True)
        # Only the test tree is needed: test/mpi of MPICH's own tarball.
        members = [f"mpich-{VERSION}/test/mpi"]
        r = subprocess.run(["tar", "xf", orig, "-C", dest] + members, capture_output=True, text=True)
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
#define HAVE_MPI_WIN_CREATE 1
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


# dtpools' configuration header (dtpoolsconf.h.in): nothing in it is used
# but the include guard.
DTPOOLS_CONF = """/* written by lumpi's tests/mpich/run_mpich.py */
#ifndef DTPOOLSCONF_H_INCLUDED
#define DTPOOLSCONF_H_INCLUDED
#endif
"""
MTEST_SOURCES = ["util/mtest.c", "util/mtest_common.c", "util/mtest_single.c"]
DTPOOLS_SOURCES = ["dtpools/src/" + f + ".c" for f in
                   ("dtpools", "dtpools_misc", "dtpools_init_verify", "dtpools_desc", "dtpools_attr", "dtpools_custom")]


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    return path


def compile_objects(cc, tree, sources, out, flags, deps, stamp):
    """The objects of sources (paths in the test tree), compiled into out when
    older than their source, deps or stamp; raises RuntimeError."""
    objs = []
    for src in sources:
        obj = os.path.join(out, os.path.basename(src)[:-2] + ".o")
        objs.append(obj)
        if up_to_date(obj, [os.path.join(tree, src)] + deps, stamp):
            continue
        r = subprocess.run([cc, "-c", "-o", obj, os.path.join(tree, src)] + flags, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"building {src} failed: {build_error(r.stderr)}")
    return objs


def build_libraries(tree, out, cc, stamp, declared):
    """(flags, libraries, why dtpools did not build) every program is built with, as MPICH's
    Makefile_common.mtest and Makefile_single.mtest give them: MTest without a
    thread package, and dtpools (the datatype pools that some programs draw
    their buffers' types from) as a static archive, so that only programs
    using it need what it calls. dtpools that does not build is left out,
    and the programs that need it fail to build."""
    inc = os.path.join(out, "include")
    # configure's own check: HAVE_MPI_INTEGER16 when mpi.h has MPI_INTEGER16
    conf = write_if_changed(os.path.join(inc, "mpitestconf.h"),
                            CONF + ("#define HAVE_MPI_INTEGER16 1\n" if "MPI_INTEGER16" in declared else ""))
    # dtpools_internal.h includes "../dtpoolsconf.h": found through out/dtpools/include/..
    dtconf = write_if_changed(os.path.join(out, "dtpools", "dtpoolsconf.h"), DTPOOLS_CONF)
    os.makedirs(os.path.join(out, "dtpools", "include"), exist_ok=True)
    flags = ["-I" + inc, "-I" + os.path.join(tree, "include"), "-I" + os.path.join(tree, "dtpools", "include"),
             "-O1", "-w"]
    libs = compile_objects(cc, tree, MTEST_SOURCES, out, flags, [conf], stamp)
    archive = os.path.join(out, "libdtpools.a")
    try:
        dtp = compile_objects(cc, tree, DTPOOLS_SOURCES, os.path.join(out, "dtpools"),
                              ["-I" + os.path.join(out, "dtpools", "include")] + flags, [dtconf], stamp)
    except RuntimeError as e:
        return flags, libs, str(e)
    if not up_to_date(archive, dtp, 0):
        if os.path.exists(archive):
            os.remove(archive)
        subprocess.run(["ar", "rcs", archive] + dtp, check=True)
    return flags, libs + [archive], None


def read_makefile(tree, d):
    """{variable: value} of d/Makefile.am, continuation lines joined: where a
    program's sources, preprocessor flags and libraries differ from name.c."""
    path = os.path.join(tree, d, "Makefile.am")
    if not os.path.exists(path):
        return {}
    text = open(path).read().replace("\\\n", " ")
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r"^(\w+)\s*=\s*(.*)$", text, re.M)}


def program_recipe(tree, d, name, makefile):
    """(sources, extra flags) of one program, as automake would build it: the
    program's _SOURCES (default name.c), the -D/-I of its _CPPFLAGS, and its
    _LDADD: -l options, and MTest's util/libX.la built from util/X.c."""
    var = re.sub(r"\W", "_", name)
    sources = [os.path.join(tree, d, f) for f in makefile.get(var + "_SOURCES", name + ".c").split()]
    flags = [f for f in makefile.get(var + "_CPPFLAGS", "").split() if f.startswith(("-D", "-I"))]
    ldadd = makefile.get(var + "_LDADD", "")
    ldadd = re.sub(r"\$\((\w+)\)", lambda m: "" if m.group(1) == "LDADD" else makefile.get(m.group(1), ""), ldadd)
    for f in ldadd.split():
        lib = re.search(r"util/lib(\w+)\.la$", f)
        if lib:
            sources.append(os.path.join(tree, "util", lib.group(1) + ".c"))
        elif f.startswith("-l"):
            flags.append(f)
    return sources, flags


def build_error(stderr):
    """What a failed compile or link says first, for 'does not build: ...'."""
    undefined = sorted(set(re.findall(r"undefined reference to `(\w+)'", stderr)))
    if undefined:
        return "undefined reference to " + ", ".join(undefined)
    for line in stderr.splitlines():
        if "error" in line:
            return re.sub(r"^\S*/", "", line.strip())
    return stderr.strip().splitlines()[-1] if stderr.strip() else "no output"


# Names MPI-4.0 added (MPI-4.0 Annex B.1's list of new functions and
# constants, as patterns): the big-count _c functions, sessions, partitioned
# and persistent-collective operations, MPI_Isendrecv[_replace], the
# MPI_Info_get_string family, the tools' events. An entry whose program uses
# one the compiler's mpi.h does not declare is skipped, not failed, while
# lumpi's mpi.h declares MPI 3.1 (issue 24).
MPI40_NAMES = re.compile(
    r"\bMPI_(?:[A-Z][a-z0-9_]*_c|Session_\w+|Group_from_session_pset|Comm_create_from_group"
    r"|Intercomm_create_from_groups|Psend_init|Precv_init|Pready(?:_range|_list)?|Parrived"
    r"|(?:Allgatherv?|Allreduce|Alltoall[vw]?|Barrier|Bcast|Exscan|Gatherv?|Reduce(?:_scatter(?:_block)?)?"
    r"|Scan|Scatterv?|Neighbor_(?:allgatherv?|alltoall[vw]?))_init|Isendrecv(?:_replace)?"
    r"|Info_get_string|Info_create_env|Comm_idup_with_info|T_event_\w+|T_source_\w+"
    r"|T_category_get_(?:num_)?events|SESSION_NULL|ERR_SESSION|ERR_PROC_ABORTED|ERR_VALUE_TOO_LARGE"
    r"|ERRORS_ABORT|COMM_TYPE_HW_(?:UN)?GUIDED|INFO_ENV)\b")


def header_names(cc):
    """Every identifier mpi.h declares or defines, as the compiler sees it."""
    r = subprocess.run([cc, "-E", "-dD", "-x", "c", "-"], input="#include <mpi.h>\n",
                       capture_output=True, text=True)
    return set(re.findall(r"\bMPI\w*", r.stdout))


def missing_mpi40(cc, sources, flags, declared):
    """The MPI-4.0 names that the preprocessed sources use and mpi.h lacks."""
    used = set()
    for src in sources:
        r = subprocess.run([cc, "-E", src] + flags, capture_output=True, text=True)
        used |= set(MPI40_NAMES.findall(r.stdout if r.returncode == 0 else open(src).read()))
    return sorted(used - declared)


class Toolchain:
    """What every program of one run is built with: the compiler, MTest and
    dtpools, the names its mpi.h declares, and the directories' Makefile.am."""

    def __init__(self, tree, out, cc, dirs):
        self.tree, self.out, self.cc = tree, out, cc
        self.stamp = newest_input(cc)
        self.declared = header_names(cc)
        self.flags, self.libs, self.dtpools_error = build_libraries(tree, out, cc, self.stamp, self.declared)
        self.makefiles = {d: read_makefile(tree, d) for d in dirs}


def build_program(tc, d, name):
    """(path, None), (None, 'does not build: ...') or (None, 'needs MPI-4.0: ...')."""
    os.makedirs(os.path.join(tc.out, d), exist_ok=True)
    exe = os.path.join(tc.out, d, name)
    sources, extra = program_recipe(tc.tree, d, name, tc.makefiles[d])
    if up_to_date(exe, sources + tc.libs, tc.stamp):
        return exe, None
    r = subprocess.run([tc.cc, "-o", exe] + sources + tc.libs + tc.flags + extra, capture_output=True, text=True)
    if r.returncode == 0:
        return exe, None
    missing = missing_mpi40(tc.cc, [s for s in sources if os.path.exists(s)], tc.flags + extra, tc.declared)
    if missing:
        return None, "needs MPI-4.0: " + " ".join(missing)
    if tc.dtpools_error and "undefined reference to `DTP_" in r.stderr:
        return None, "does not build: needs MPICH's dtpools, and " + tc.dtpools_error
    return None, "does not build: " + build_error(r.stderr)


# ---- testlists -----------------------------------------------------------------------

def read_testlist(tree, d):
    """[(name, np, {key: value}, [args], [envs])] in file order; lines that
    configure would fill in (@...@) are left out as MPICH's default does."""
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
        opts, args, envs = {}, [], []
        for f in fields[2:]:
            k, eq, v = f.partition("=")
            if not eq:
                continue  # runtests ignores a word without '='
            if k == "arg":
                args.append(v)
            elif k == "env":
                envs.append(v)
            else:
                opts[k] = v
        tests.append((fields[0], int(fields[1]), opts, args, envs))
    return tests


def label(d, name, np, args, envs):
    """One testlist entry, as mpich-passes.txt names it."""
    return " ".join([f"{d}/{name} {np}"] + ["arg=" + a for a in args] + ["env=" + e for e in envs])


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


def judge(rule, rc, output):
    """(passed, why not) by the entry's resultTest."""
    if rule in ("TestStatus", "TestErrFatal"):
        # runtests' TestStatus and TestErrFatal: the program must end with a
        # non-zero status (an MPI_Abort, an error handler's abort, mpiexec's
        # time limit); any output is allowed. mpiexecarg (MPICH's
        # -disable-auto-cleanup) has no lumpi equivalent: lumpi exec always
        # stops the world.
        ok = rc not in (0, -9)
        return ok, "" if ok else f"exit status {rc}, wanted non-zero"
    if rule:
        return False, f"runtests' resultTest={rule} is not supported by this driver"
    return passes(rc, output)


def run_test(launcher, exe, np, args, envs, limit, cwd):
    """(exit status, output, seconds) of `launcher -n np exe args`, killed
    30 s after the time limit it is given (MPIEXEC_TIMEOUT) if still running."""
    env = dict(os.environ, MPIEXEC_TIMEOUT=str(limit))
    # Huge pages for glibc's malloc: pt2pt/large_message moves messages over
    # 2 GiB, and with 4 KiB pages its page faults took 241 s of a CI run on a
    # virtual machine (tests/integration/test_capi_big.py measured the same)
    env.setdefault("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1")
    env.update(e.split("=", 1) for e in envs)
    start = time.monotonic()
    p = subprocess.Popen(launcher + ["-n", str(np), exe] + args, cwd=cwd, env=env,
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
    try:
        os.killpg(p.pid, signal.SIGKILL)  # what the launcher may have left behind
    except ProcessLookupError:
        pass
    return rc, out, time.monotonic() - start


class Entry:
    """One testlist line: its program, process count, options, and the
    expected-failures reason if listed."""

    def __init__(self, d, name, np, opts, args, envs, reason):
        self.d, self.name, self.np, self.opts, self.args, self.envs = d, name, np, opts, args, envs
        self.reason = reason
        self.label = label(d, name, np, args, envs)
        self.ok, self.skip, self.detail, self.secs, self.output = False, None, "", 0.0, ""


def select_entries(tree, dirs, only, sample, exp):
    """The entries to run, and the expected-failures keys they use. --sample K
    keeps every K-th entry of each directory (the first, the K+1-th, ...), so
    a sample is the same on every run and covers every directory."""
    entries, used = [], set()
    for d in dirs:
        chosen = [t for t in read_testlist(tree, d) if not only or t[0] in only]
        for name, np, opts, args, envs in chosen[::sample]:
            key = f"{d}/{name} {np}" if f"{d}/{name} {np}" in exp else f"{d}/{name}"
            if key in exp:
                used.add(key)
            entries.append(Entry(d, name, np, opts, args, envs, exp.get(key)))
    return entries, used


def build_all(tree, out, cc, entries, jobs):
    """{(dir, name): (path or None, why)}: MTest and dtpools once, then every
    program, at most `jobs` compilers at a time."""
    tc = Toolchain(tree, out, cc, {e.d for e in entries})
    programs = sorted({(e.d, e.name) for e in entries})
    with ThreadPoolExecutor(jobs) as pool:
        return dict(zip(programs, pool.map(lambda p: build_program(tc, *p), programs)))


def run_entry(e, built, launcher, tree, a):
    """Runs one entry (unless it cannot build or is 'not run:') and records the result."""
    exe, why = built[(e.d, e.name)]
    if why and why.startswith("needs MPI-4.0"):
        e.skip = e.detail = why
        return e
    if e.reason and e.reason.startswith("not run:"):
        e.detail = "not run"
        return e
    if exe is None:
        e.detail = e.output = why
        return e
    limit = int(int(e.opts.get("timeLimit", a.timeout)) * a.timeout_multiplier * oversubscription(e.np))
    rc, e.output, e.secs = run_test(launcher, exe, e.np, e.args, e.envs, limit, os.path.join(tree, e.d))
    e.ok, e.detail = judge(e.opts.get("resultTest"), rc, e.output)
    return e


def oversubscription(np):
    """MPICH's time limits assume a core per rank (its runtests runs on
    clusters); with more ranks than cores each rank gets a share of one, so
    the limit grows by ranks / cores, at most 3 times (a hang stays bounded)."""
    return min(3.0, max(1.0, np / (os.cpu_count() or 1)))


def verdict(e, baseline):
    if e.skip:
        return "skip"
    if baseline or not e.reason:
        return "pass" if e.ok else "FAIL"
    return "UNEXPECTED PASS" if e.ok else "expected failure"


def report(e, baseline):
    tag = verdict(e, baseline)
    print(f"{tag:16} {e.label}  {e.secs:.1f}s" + ("" if e.ok else f"  ({e.detail})"), flush=True)
    if tag == "FAIL":
        print("    " + "\n    ".join(e.output.strip().splitlines()[-15:]), flush=True)


def load():
    return open("/proc/loadavg").read().split()[0]


def rerun_failures(entries, built, launcher, tree, a):
    """Baseline: MPICH's ranks busy-poll, so a failure under load is run once
    more, after waiting (up to 10 min) for the 1-minute load to fall below 2."""
    failed = [e for e in entries if not e.ok and not e.skip and e.detail.startswith(("exit status", "no ' No", "unexpected"))]
    if not failed:
        return
    deadline = time.monotonic() + 600
    while float(load()) >= 2 and time.monotonic() < deadline:
        time.sleep(15)
    print(f"rerunning {len(failed)} failures once (load {load()})", flush=True)
    for e in failed:
        run_entry(e, built, launcher, tree, a)
        report(e, True)


def compare_with_mpich(entries, path):
    """'MPICH passes N of these; lumpi fails M of them and skips S' from mpich-passes.txt."""
    if not os.path.exists(path):
        return
    mpich = {line.strip() for line in open(path) if line.strip() and not line.startswith("#")}
    theirs = [e for e in entries if e.label in mpich]
    fails = [e for e in theirs if not e.ok and not e.skip]
    skips = [e for e in theirs if e.skip]
    print(f"MPICH passes {len(theirs)} of these; lumpi fails {len(fails)} of them and skips {len(skips)}"
          + "".join(f"\n    {e.label}: {e.reason or e.detail}" for e in fails + skips))


def summarize(entries, dirs, baseline):
    for d in dirs:
        rs = [e for e in entries if e.d == d]
        print(f"{d}: {sum(e.ok for e in rs)} passed, {sum(not e.ok and not e.skip for e in rs)} failed, "
              f"{sum(bool(e.skip) for e in rs)} skipped")
    if baseline:
        return []
    wrong = [e for e in entries if verdict(e, False) in ("FAIL", "UNEXPECTED PASS")]
    for e in wrong:
        if e.ok:
            print(f"unexpected pass: {e.label} (remove its expected-failures entry)")
        else:
            print(f"unexpected failure: {e.label} ({e.detail})")
    return wrong


def arguments():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lumpi", help="lumpi's launcher: entries run as `LUMPI exec -n N`")
    ap.add_argument("--mpiexec", help="run entries as `MPIEXEC -n N` instead (the baseline: mpiexec.mpich)")
    ap.add_argument("--cc", required=True, help="lumpi-cc, or mpicc.mpich for the baseline")
    ap.add_argument("--work", required=True)
    ap.add_argument("--junit")
    ap.add_argument("--dirs", default=",".join(DIRS), help=f"any of {','.join(DIRS)}")
    ap.add_argument("--only", nargs="*", default=None, help="program names")
    ap.add_argument("--sample", type=int, default=1, help="every K-th entry of each directory")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected-failures.txt"))
    ap.add_argument("--expected-also", default=None,
                    help="more entries of the same form (the sanitized build's: expected-failures-sanitized.txt)")
    ap.add_argument("--mpich-passes", default=os.path.join(HERE, "mpich-passes.txt"))
    ap.add_argument("--baseline", metavar="FILE",
                    help="measure MPICH itself: no expected failures, failures rerun once when the "
                         "machine is quieter, the entries that pass written to FILE")
    # MPICH's runtests reads the same two variables: MPITEST_TIMEOUT replaces
    # the default limit (180 s, runtests' $defaultTimeLimit: rma/rma_contig's
    # 10000 iterations take 40-60 s on 2 busy cores beside another entry),
    # MPITEST_TIMEOUT_MULTIPLIER scales every limit (slow builds: the
    # sanitized run sets it, see scripts/dev).
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("MPITEST_TIMEOUT", "180")),
                    help="default per-test limit, s (MPITEST_TIMEOUT)")
    ap.add_argument("--timeout-multiplier", type=float,
                    default=float(os.environ.get("MPITEST_TIMEOUT_MULTIPLIER", "1")),
                    help="scales every limit (MPITEST_TIMEOUT_MULTIPLIER)")
    ap.add_argument("--jobs", type=int, default=2, help="entries run at once (builds: at most 2)")
    ap.add_argument("--build-only", action="store_true",
                    help="fetch and build, run nothing (CTest's mpich.build fixture)")
    a = ap.parse_args()
    if not a.lumpi and not a.mpiexec:
        ap.error("one of --lumpi and --mpiexec is required")
    return a


def main():
    a = arguments()
    cc, work = os.path.abspath(a.cc), os.path.abspath(a.work)
    launcher = [os.path.abspath(a.lumpi), "exec"] if not a.mpiexec else [a.mpiexec]
    dirs = a.dirs.split(",")
    t0 = time.monotonic()
    print(f"load {load()}", flush=True)
    try:
        tree = fetch_source(work)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"SKIP: MPICH {VERSION}'s source package cannot be fetched: {e}")
        return SKIP
    exp = {} if a.baseline else read_expected(a.expected)
    if a.expected_also and not a.baseline:
        exp.update(read_expected(a.expected_also))
    entries, used = select_entries(tree, dirs, a.only, a.sample, exp)
    out = os.path.join(work, "build-mpiexec" if a.mpiexec else "build")
    try:
        built = build_all(tree, out, cc, entries, min(a.jobs, 2))
    except RuntimeError as e:
        print(f"FAIL: {e}")
        return 1
    print(f"built in {time.monotonic() - t0:.0f} s (load {load()})", flush=True)
    if a.build_only:
        return 0
    # The entries run at most --jobs at a time, reported in testlist order.
    with ThreadPoolExecutor(a.jobs) as pool:
        for e in pool.map(lambda e: run_entry(e, built, launcher, tree, a), entries):
            report(e, a.baseline)
    if a.baseline:
        rerun_failures(entries, built, launcher, tree, a)
        write_passes(a.baseline, entries, dirs)
    stale = [] if a.only or a.sample > 1 else sorted(k for k in exp if k not in used and k.split("/")[0] in dirs)
    for k in stale:
        print(f"STALE ENTRY      {k}: not in any testlist")
    if a.junit:
        write_junit(a.junit, entries, a.baseline)
    wrong = summarize(entries, dirs, a.baseline)
    if not a.baseline:
        compare_with_mpich(entries, a.mpich_passes)
    print(f"{sum(e.ok for e in entries)} passed, {sum(not e.ok and not e.skip for e in entries)} failed, "
          f"{sum(bool(e.skip) for e in entries)} skipped ({len(wrong)} not as expected) "
          f"in {time.monotonic() - t0:.0f} s, load {load()}")
    return 0 if not wrong and not stale else 1


def write_passes(path, entries, dirs):
    with open(path, "w") as f:
        f.write(f"# The testlist entries of test/mpi/{{{','.join(dirs)}}} that MPICH {VERSION} itself passes\n"
                "# on this machine (mpicc.mpich, mpiexec.mpich), written by\n"
                "# `run_mpich.py --baseline`; see tests/bench/README.md, \"Issue 24\".\n")
        for e in entries:
            if e.ok:
                f.write(e.label + "\n")


def write_junit(path, entries, baseline):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        wrong = sum(1 for e in entries if verdict(e, baseline) in ("FAIL", "UNEXPECTED PASS"))
        quiet = sum(1 for e in entries if verdict(e, baseline) in ("skip", "expected failure"))
        f.write(f'<testsuite name="mpich-{VERSION}" tests="{len(entries)}" failures="{wrong}" '
                f'skipped="{quiet}">\n')
        for e in entries:
            tag = verdict(e, baseline)
            f.write(f'  <testcase classname="mpich.{e.d}" name={sax.quoteattr(e.label)} time="{e.secs:.2f}">\n')
            if tag == "skip":
                f.write(f'    <skipped message={sax.quoteattr(e.skip)}/>\n')
            elif tag == "expected failure":
                f.write(f'    <skipped message={sax.quoteattr("expected failure: " + e.reason)}/>\n')
            elif tag == "FAIL":
                f.write(f'    <failure message={sax.quoteattr(e.detail)}>{sax.escape(e.output[-4000:])}</failure>\n')
            elif tag == "UNEXPECTED PASS":
                f.write(f'    <failure message={sax.quoteattr("unexpected pass; listed: " + e.reason)}/>\n')
            f.write("  </testcase>\n")
        f.write("</testsuite>\n")


if __name__ == "__main__":
    sys.exit(main())
