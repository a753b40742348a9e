"""tests/integration/test_cxx_passive.py: passive-target progress in a pure
C++ program (issue 28 item 2): lumpi-c++ builds tests/exec/cxx_passive.cpp
(lumpi::Init and the C++ API's lumpi::Win, no mpi.h) without warnings and
`lumpi exec` runs it at 2, 3 and 4 ranks; rank 0 computes for 2 s without
an MPI call (three times) while the others' lock/get/accumulate/
fetch_and_op/unlock epochs, exclusive and shared, and a lock_all
(MODE_NOCHECK) fetch_and_op with flush, must each finish in under 1 s.
Without passive progress (lumpi::Init not enabling it) every epoch takes
the target's full 2 s and the program fails.

usage: python3 test_cxx_passive.py /path/to/build/lumpi
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
CXX = os.path.join(os.path.dirname(LUMPI), "lumpi-c++")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "cxx_passive.cpp")

with tempfile.TemporaryDirectory(prefix="lumpi-cxx-passive-") as tmp:
    exe = os.path.join(tmp, "cxx_passive")
    r = subprocess.run([CXX, "-Wall", "-Werror", "-o", exe, SRC], capture_output=True, text=True, timeout=300)
    check("lumpi-c++ builds cxx_passive.cpp without warnings", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        for n in (2, 3, 4):
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
            check(f"cxx_passive passes at {n} ranks and leaves no rank",
                  rc == 0 and "cxx_passive ok" in out and no_leftovers(tag), f"{rc}\n{out}\n{err}")
finish()
