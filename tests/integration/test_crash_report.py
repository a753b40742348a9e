"""tests/integration/test_crash_report.py: a C rank that dies of a signal
is explained, and nothing it printed is lost (issue 27, item 2).

lumpi-cc -g builds tests/exec/capi_crash.c; under `lumpi exec` at 3, 4
and 7 ranks one rank dereferences NULL in main ("outside") or hands
MPI_Send an unmapped buffer ("inside"). Expected: every rank's line
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
CC = os.path.join(os.path.dirname(os.path.abspath(LUMPI)), "lumpi-cc")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_crash.c")
LINES = {m: n for n, line in enumerate(open(SRC), 1) for m in ("OUTSIDE", "INSIDE") if f"CRASH_LINE_{m}" in line}
if sanitized(os.path.dirname(os.path.abspath(LUMPI))):
    # AddressSanitizer takes the deadly signal itself (libmpi leaves it its
    # handler) and writes its report, which the sanitized run counts as a
    # failure: a deliberate crash has no place there.
    print("skip: a sanitized build (LUMPI_SANITIZE=ON): the sanitizer reports crashes itself")
    finish()

with tempfile.TemporaryDirectory(prefix="lumpi-crash-") as tmp:
    exe = os.path.join(tmp, "capi_crash")
    r = subprocess.run([CC, "-g", "-O0", "-o", exe, SRC], capture_output=True, text=True, timeout=120)
    check("lumpi-cc -g builds capi_crash.c", r.returncode == 0, r.stderr)
    for n in (3, 4, 7):
        for where, victim_arg in (("outside", "first"), ("inside", "last")):
            victim = n - 1 if victim_arg == "last" else 1
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, where, victim_arg], timeout=60)
            ready = sorted(l for l in out.splitlines() if l.endswith(" ready"))
            check(f"{where}, {n} ranks: every rank's line before the crash is shown",
                  ready == sorted(f"rank {r} ready" for r in range(n)), f"out={out!r}")
            said = (f"lumpi-rank {victim}: SIGSEGV in MPI_Send" if where == "inside" else
                    f"lumpi-rank {victim}: SIGSEGV outside MPI (the last MPI call was MPI_Comm_size)")
            check(f"{where}, {n} ranks: the rank says the signal and the MPI call", said in err, f"err={err!r}")
            check(f"{where}, {n} ranks: and the source line",
                  re.search(r"  at main at \S*capi_crash\.c:%d\b" % LINES[where.upper()], err) is not None,
                  f"err={err!r}")
            check(f"{where}, {n} ranks: lumpi exec reports the death with the signal's name",
                  f"rank {victim} died: signal 11 (SIGSEGV)" in err, f"err={err!r}")
            check(f"{where}, {n} ranks: the exit status is the signal's", rc == 139, f"rc={rc}")
            check(f"{where}, {n} ranks: no process left", no_leftovers(tag))
finish()
