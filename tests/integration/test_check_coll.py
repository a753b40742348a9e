"""tests/integration/test_check_coll.py: the checks of --check that need
its own messages (docs/checking.md): collective mismatches that need not
hang (roots, reduction ops, type signatures, blocking and nonblocking, a
collective only some ranks made, met by MPI_Finalize) and
standard sends made synchronous. lumpi-cc builds tests/exec/check_cases.c;
each buggy case under `lumpi exec --check` is reported once, naming both
ranks' calls and the MPI section, exit 1, one JSON finding; its correct
twin is silent (status 0, nothing on stderr, an empty report), at 2 to 5
ranks. Without --check the non-hanging mismatches pass silently, as before.
The Lua door (tests/exec/check_coll.lua, a script at 3, 4 and 5 ranks):
every rank raises the class of the argument that differs (MPI_ERR_ROOT,
MPI_ERR_OP, MPI_ERR_TYPE, and MPI_ERR_OP from a nonblocking request's
wait), the collectives after each are unharmed; its twin is silent. The
C++ door (tests/exec/check_coll.cpp, lumpi-c++) at 3 and 5 ranks.

usage: python3 test_check_coll.py /path/to/lumpi
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "check_cases.c")
tmp = scratch_dir("lumpi-check-coll-")
exe = os.path.join(tmp, "cases")
compile_program(LUMPI, SRC, exe, ("-g", "-Wall", "-Werror"))

# buggy case -> (correct twin, class, what the report must say)
CASES = {
    "bcast_roots": ("bcast_ok", "collective-mismatch", "the roots differ"),
    "reduce_ops": ("reduce_ok", "collective-mismatch", "rank 0 calls MPI_Reduce(count=1, datatype=MPI_INT, root=0, "
                   "op=MPI_MAX), rank 1 calls MPI_Reduce(count=1, datatype=MPI_INT, root=0, op=MPI_SUM)"),
    "coll_types": ("types_ok", "collective-mismatch", "sends 1 x MPI_FLOAT"),
    "iallreduce_ops": ("iallreduce_ok", "collective-mismatch", "MPI_Iallreduce"),
    "igather_odd": ("igather_ok", "collective-mismatch", "rank 0 calls MPI_Finalize(), rank 1 calls MPI_Igather("),
    "send_eager": ("sendrecv_ok", "deadlock", "standard sends (MPI_Send, MPI_Isend) are synchronous"),
    "inplace_one": ("inplace_ok", "collective-mismatch", "rank 0 passes MPI_IN_PLACE as sendbuf and rank 1 does not"),
    "gatherv_counts": ("gatherv_ok", "collective-mismatch", "sends 2 x MPI_INT to rank 0, which receives 3 x MPI_INT"),
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

# The Lua door: each mistake fails every rank with one class, and the run goes on.
LUA = os.path.join(os.path.dirname(SRC), "check_coll.lua")
WANT = {"bcast": "MPI_ERR_ROOT", "allreduce": "MPI_ERR_OP", "typed allreduce": "MPI_ERR_TYPE",
        "iallreduce": "MPI_ERR_OP"}
for n in [3, 4, 5]:
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n), LUA], timeout=60)
    lines = out.splitlines()
    every = all(f"[{r}] {what}: {cls}" in lines for what, cls in WANT.items() for r in range(n))
    check(f"Lua at {n} ranks: every rank raises each mismatch's class, then goes on, exit 1",
          rc == 1 and every and all(f"[{r}] done" in lines for r in range(n))
          and out.count("collective-mismatch: ") == len(WANT) and f"rank {n - 1} calls MPI_Bcast(root=1)" in out,
          f"rc={rc} out={out!r} err={err!r}")
    check(f"Lua at {n} ranks: nothing left behind", no_leftovers(tag))
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n), LUA, "ok"], timeout=60)
    lines = out.splitlines()
    check(f"Lua twin at {n} ranks: silent, exit 0",
          rc == 0 and "mismatch" not in out + err
          and all(f"[{r}] {what}: ok" in lines for what in WANT for r in range(n)), f"rc={rc} out={out!r} err={err!r}")

# The C++ door (lumpi.hpp): each mistake is reported naming the C++ call.
CXX_SRC = os.path.join(os.path.dirname(SRC), "check_coll.cpp")
cxx = os.path.join(tmp, "cxx_cases")
compile_program(LUMPI, CXX_SRC, cxx, cxx=True)
CXX_CASES = {
    "roots": "calls MPI_Bcast(count=1, datatype=MPI_INT, root=1): the roots differ",
    "ops": "calls MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_MAX): the reduction ops differ",
    "types": "sends 1 x MPI_FLOAT",
    "iops": "calls MPI_Iallreduce(count=1, datatype=MPI_INT, op=MPI_MIN): the reduction ops differ",
    "vcounts": "sends 2 x MPI_INT to rank 0, which receives 1 x MPI_INT",
    "ivcounts": "sends 2 x MPI_INT to rank 0, which receives 1 x MPI_INT",
}
for n in [3, 5]:
    for mode, says in CXX_CASES.items():
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", cxx, mode], timeout=60)
        check(f"C++ {mode} at {n} ranks: reported once, naming rank {n - 1}'s call, exit 1",
              rc == 1 and err.count("collective mismatch on") == 1 and f"rank {n - 1} {says}" in err
              and "MPI-3.1 §5.1" in err and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", cxx, "ok"], timeout=60)
    check(f"C++ twin at {n} ranks: silent, exit 0", rc == 0 and out == "done\n" and err == "" and no_leftovers(tag),
          f"rc={rc} out={out!r} err={err!r}")

# Without --check a mismatch that does not hang is not looked for (no cost).
rc, out, err, tag = run(LUMPI, ["exec", "-n", "2", exe, "coll_types"], timeout=30)
check("coll_types without --check: runs as before", rc == 0 and err == "", f"rc={rc} err={err!r}")

finish()
