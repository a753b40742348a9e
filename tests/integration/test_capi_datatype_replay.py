"""tests/integration/test_capi_datatype_replay.py: the datatype fuzzer's inputs
(tests/fuzz/corpus/fuzz_datatype, the seeds, and
tests/fuzz/regressions/fuzz_datatype, every input that ever failed) replayed
through the C API across ranks (tests/exec/capi_datatype_replay.cpp):
lumpi-c++ builds it and `lumpi exec` runs it at 2 and 3 ranks. Each input's
random type is checked against the model's reference
(tests/fuzz/datatype_model.hpp): refusals and their classes, size and
extents, MPI_Pack/MPI_Unpack, and a ring of MPI_Sendrecv that sends with the
type and receives with a struct of the same signature, and back. Every check
passes and no process is left behind.

usage: python3 test_capi_datatype_replay.py /path/to/lumpi
"""
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
CXX = os.path.join(BUILD, "lumpi-c++")
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FUZZ = os.path.join(ROOT, "tests", "fuzz")

inputs = sorted(glob.glob(os.path.join(FUZZ, "corpus", "fuzz_datatype", "*"))
                + glob.glob(os.path.join(FUZZ, "regressions", "fuzz_datatype", "*")))
check("there are inputs to replay", len(inputs) >= 20, f"{len(inputs)} inputs")

with tempfile.TemporaryDirectory(prefix="lumpi-dt-replay-") as tmp:
    exe = os.path.join(tmp, "capi_datatype_replay")
    r = subprocess.run([CXX, "-std=c++20", "-Wall", "-Werror", "-I", ROOT, "-o", exe,
                        os.path.join(ROOT, "tests", "exec", "capi_datatype_replay.cpp")],
                       capture_output=True, text=True, timeout=180)
    check("lumpi-c++ builds capi_datatype_replay.cpp without warnings", r.returncode == 0, r.stderr)
    for n in [2, 3] if r.returncode == 0 else []:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe] + inputs, timeout=180)
        check(f"every input replays as the reference says at {n} ranks",
              rc == 0 and out.splitlines() == ["done"], f"rc={rc} out={out!r} err={err[-2000:]!r}")
        check(f"no process left at {n} ranks", no_leftovers(tag))

finish()
