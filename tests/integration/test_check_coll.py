"""tests/integration/test_check_coll.py: the checks of --check that need
its own messages (docs/checking.md): collective mismatches that need not
hang (roots, reduction ops, type signatures, blocking and nonblocking, a
collective only some ranks made, met by MPI_Finalize) and
standard sends made synchronous. lumpi-cc builds tests/exec/check_cases.c;
each buggy case under `lumpi exec --check` is reported once, naming both
ranks' calls and the MPI section, exit 1, one JSON finding; its correct
twin is silent (status 0, nothing on stderr, an empty report), at 2 to 5
ranks. Without --check the non-hanging mismatches pass silently, as before.

usage: python3 test_check_coll.py /path/to/lumpi
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
CC = os.path.join(os.path.dirname(os.path.abspath(LUMPI)), "lumpi-cc")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "check_cases.c")
tmp = scratch_dir("lumpi-check-coll-")
exe = os.path.join(tmp, "cases")
r = subprocess.run([CC, "-g", "-Wall", "-Werror", "-o", exe, SRC], capture_output=True, text=True, timeout=120)
check("lumpi-cc builds the checker's cases", r.returncode == 0, r.stderr)

# buggy case -> (correct twin, class, what the report must say)
CASES = {
    "bcast_roots": ("bcast_ok", "collective-mismatch", "the roots differ"),
    "reduce_ops": ("reduce_ok", "collective-mismatch", "rank 0 calls MPI_Reduce(count=1, datatype=MPI_INT, root=0, "
                   "op=MPI_MAX), rank 1 calls MPI_Reduce(count=1, datatype=MPI_INT, root=0, op=MPI_SUM)"),
    "coll_types": ("types_ok", "collective-mismatch", "sends 1 x MPI_FLOAT"),
    "iallreduce_ops": ("iallreduce_ok", "collective-mismatch", "MPI_Iallreduce"),
    "igather_odd": ("igather_ok", "collective-mismatch", "rank 0 calls MPI_Finalize(), rank 1 calls MPI_Igather("),
    "send_eager": ("sendrecv_ok", "deadlock", "standard sends (MPI_Send, MPI_Isend) are synchronous"),
}

for n in [2, 3, 4, 5]:
    for bug, (ok, cls, says) in CASES.items():
        report = os.path.join(tmp, f"{bug}-{n}.json")
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", "--check-report", report, exe, bug],
                                timeout=30)
        found = json.load(open(report))["findings"] if os.path.exists(report) else None
        check(f"{bug} at {n} ranks: reported, exit 1",
              rc == 1 and says in err and "MPI-3.1 §" in err, f"rc={rc} err={err!r}")
        check(f"{bug} at {n} ranks: one finding of class {cls}",
              found is not None and len(found) == 1 and found[0]["class"] == cls, repr(found))
        check(f"{bug} at {n} ranks: nothing left behind", no_leftovers(tag))
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", "--check-report", report, exe, ok],
                                timeout=30)
        found = json.load(open(report))["findings"] if os.path.exists(report) else None
        check(f"{ok} at {n} ranks: silent, exit 0, empty report",
              rc == 0 and err == "" and out.endswith("done\n") and found == [],
              f"rc={rc} out={out!r} err={err!r} found={found!r}")
        check(f"{ok} at {n} ranks: nothing left behind", no_leftovers(tag))

# Without --check a mismatch that does not hang is not looked for (no cost).
rc, out, err, tag = run(LUMPI, ["exec", "-n", "2", exe, "coll_types"], timeout=30)
check("coll_types without --check: runs as before", rc == 0 and err == "", f"rc={rc} err={err!r}")

finish()
