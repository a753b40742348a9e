"""tests/integration/test_cxx_crash.py: a pure C++ rank (lumpi::Init, no
mpi.h) that dies of a signal is explained as a C rank is (issue 27 item 2;
test_crash_report.py is the C twin).

lumpi-c++ -g builds tests/exec/cxx_crash.cpp; under `lumpi exec` at 3
ranks one rank dereferences NULL in main ("outside", after its last C++
call, Comm::Get_size) or hands Comm::Send an unmapped buffer ("inside").
Expected: every rank's line printed before the crash; the victim's own
report, `lumpi-rank R: SIGSEGV in MPI_Send` or `... outside MPI (the last
MPI call was MPI_Comm_size)` (the C++ API's calls are named as its errors
name them), with the program's source line from -g; lumpi exec's `rank R
died: signal 11 (SIGSEGV)`; the signal's exit status (139); no process
left behind.

usage: python3 test_cxx_crash.py /path/to/lumpi
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, sanitized  # noqa: E402

LUMPI = sys.argv[1]
CXX = os.path.join(os.path.dirname(os.path.abspath(LUMPI)), "lumpi-c++")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "cxx_crash.cpp")
LINES = {m: n for n, line in enumerate(open(SRC), 1) for m in ("OUTSIDE", "INSIDE") if f"CRASH_LINE_{m}" in line}
if sanitized(os.path.dirname(os.path.abspath(LUMPI))):
    # The sanitizer takes the deadly signal itself (test_crash_report.py).
    print("skip: a sanitized build (LUMPI_SANITIZE=ON): the sanitizer reports crashes itself")
    finish()

with tempfile.TemporaryDirectory(prefix="lumpi-cxx-crash-") as tmp:
    exe = os.path.join(tmp, "cxx_crash")
    r = subprocess.run([CXX, "-g", "-O0", "-o", exe, SRC], capture_output=True, text=True, timeout=300)
    check("lumpi-c++ -g builds cxx_crash.cpp", r.returncode == 0, r.stderr)
    n = 3
    for where, victim_arg in (("outside", "first"), ("inside", "last")):
        victim = n - 1 if victim_arg == "last" else 1
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, where, victim_arg], timeout=60)
        ready = sorted(l for l in out.splitlines() if l.endswith(" ready"))
        check(f"{where}: every rank's line before the crash is shown",
              ready == sorted(f"rank {r} ready" for r in range(n)), f"out={out!r}")
        said = (f"lumpi-rank {victim}: SIGSEGV in MPI_Send" if where == "inside" else
                f"lumpi-rank {victim}: SIGSEGV outside MPI (the last MPI call was MPI_Comm_size)")
        check(f"{where}: the rank says the signal and the C++ call", said in err, f"err={err!r}")
        check(f"{where}: and the source line",
              re.search(r"  at main at \S*cxx_crash\.cpp:%d\b" % LINES[where.upper()], err) is not None,
              f"err={err!r}")
        check(f"{where}: lumpi exec reports the death with the signal's name",
              f"rank {victim} died: signal 11 (SIGSEGV)" in err, f"err={err!r}")
        check(f"{where}: the exit status is the signal's", rc == 139, f"rc={rc}")
        check(f"{where}: no process left", no_leftovers(tag))
finish()
