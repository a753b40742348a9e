"""tests/integration/test_crash_report.py: a C rank, and a pure C++ rank
(lumpi::Init, no mpi.h), that dies of a signal is explained, and nothing
it printed is lost (issue 27, item 2).

lumpi-cc -g builds tests/exec/capi_crash.c (run at 3, 4 and 7 ranks) and
lumpi-c++ -g builds tests/exec/cxx_crash.cpp (run at 3 ranks); under
`lumpi exec` one rank dereferences NULL in main ("outside") or hands
MPI_Send (Comm::Send) an unmapped buffer ("inside"). The C++ API's calls
are named as its errors name them. Expected: every rank's line
printed before the crash (stdout is line-buffered under lumpi exec, not
lost in a pipe's buffer); the victim's own report, `lumpi-rank R: SIGSEGV
in MPI_Send` or `... outside MPI (the last MPI call was MPI_Comm_size)`,
with the program's source line from -g; lumpi exec's `rank R died: signal
11 (SIGSEGV)`; the signal's exit status (139); no process left behind.

usage: python3 test_crash_report.py /path/to/lumpi
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, sanitized  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")
if sanitized(BUILD):
    # AddressSanitizer takes the deadly signal itself (libmpi leaves it its
    # handler) and writes its report, which the sanitized run counts as a
    # failure: a deliberate crash has no place there.
    print("skip: a sanitized build (LUMPI_SANITIZE=ON): the sanitizer reports crashes itself")
    finish()


def crashes(compiler, source, sizes, tmp):
    """Builds `source` with `compiler` -g and crashes one rank of it, outside
    and inside an MPI call, at each world size."""
    src = os.path.join(EXEC, source)
    lines = {m: n for n, line in enumerate(open(src), 1) for m in ("OUTSIDE", "INSIDE") if f"CRASH_LINE_{m}" in line}
    exe = os.path.join(tmp, os.path.splitext(source)[0])
    r = subprocess.run([os.path.join(BUILD, compiler), "-g", "-O0", "-o", exe, src], capture_output=True, text=True,
                       timeout=300)
    check(f"{compiler} -g builds {source}", r.returncode == 0, r.stderr)
    for n in sizes:
        for where, victim_arg in (("outside", "first"), ("inside", "last")):
            victim = n - 1 if victim_arg == "last" else 1
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, where, victim_arg], timeout=60)
            case = f"{source}, {where}, {n} ranks"
            ready = sorted(l for l in out.splitlines() if l.endswith(" ready"))
            check(f"{case}: every rank's line before the crash is shown",
                  ready == sorted(f"rank {r} ready" for r in range(n)), f"out={out!r}")
            said = (f"lumpi-rank {victim}: SIGSEGV in MPI_Send" if where == "inside" else
                    f"lumpi-rank {victim}: SIGSEGV outside MPI (the last MPI call was MPI_Comm_size)")
            check(f"{case}: the rank says the signal and the MPI call", said in err, f"err={err!r}")
            check(f"{case}: and the source line",
                  re.search(r"  at main at \S*%s:%d\b" % (re.escape(source), lines[where.upper()]), err) is not None,
                  f"err={err!r}")
            check(f"{case}: lumpi exec reports the death with the signal's name",
                  f"rank {victim} died: signal 11 (SIGSEGV)" in err, f"err={err!r}")
            check(f"{case}: the exit status is the signal's", rc == 139, f"rc={rc}")
            check(f"{case}: no process left", no_leftovers(tag))


def uncaught(tmp):
    """A C++ rank whose MPI error is thrown and never caught: one line with
    the exception's text, then the abort it ends in, named with the call
    (at 3 and 4 ranks, the last rank or rank 1)."""
    exe = os.path.join(tmp, "cxx_crash")
    for n, victim_arg in ((3, "last"), (4, "first")):
        victim = n - 1 if victim_arg == "last" else 1
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, "throw", victim_arg], timeout=60)
        case = f"cxx_crash.cpp, throw, {n} ranks"
        check(f"{case}: the uncaught exception's text in one line, then SIGABRT in MPI_Send",
              f"lumpi-rank {victim}: uncaught exception: MPI_ERR_RANK in MPI_Send: " in err
              and f"lumpi-rank {victim}: SIGABRT in MPI_Send\n" in err and "terminate called" not in err,
              f"err={err!r}")
        check(f"{case}: the exit status is SIGABRT's, nothing left", rc == 134 and no_leftovers(tag), f"rc={rc}")


with tempfile.TemporaryDirectory(prefix="lumpi-crash-") as tmp:
    crashes("lumpi-cc", "capi_crash.c", (3, 4, 7), tmp)
    crashes("lumpi-c++", "cxx_crash.cpp", (3,), tmp)
    uncaught(tmp)
finish()
