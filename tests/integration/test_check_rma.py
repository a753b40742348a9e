"""tests/integration/test_check_rma.py: the checker's one-sided cases
(docs/checking.md) under `lumpi exec`: lumpi-cc builds tests/exec/check_rma.c;
under --check each buggy case exits 1 with one finding of class
rma-conflict (local-concurrency for a point-to-point call on a pending
get's buffer) in --check-report, its correct twin runs silently (status 0,
nothing on stderr, an empty report), at 2, 3, 4 and 5 ranks. A start
without its post is reported as a deadlock naming the missing
MPI_Win_post and §11.5.2, with or without --check. The Lua case
(tests/exec/check_rma.lua) runs at 3 ranks.

usage: python3 test_check_rma.py /path/to/lumpi
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "exec", "check_rma.c")
LUA = os.path.join(HERE, "..", "exec", "check_rma.lua")
tmp = scratch_dir("lumpi-check-rma-")
exe = os.path.join(tmp, "cases")
compile_program(LUMPI, SRC, exe, ("-g", "-Wall", "-Werror"))

# buggy case -> (correct twin, what the finding must say, smallest world it
# needs[, its class when not rma-conflict])
CASES = {
    "put_put": ("put_put_ok", "MPI_Put from rank", 3),
    "put_get": ("put_get_ok", "MPI_Put from rank 0 and MPI_Get from rank 0", 2),
    "target_store": ("target_store_ok", "a local store at this rank", 2),
    "origin_store": ("origin_store_ok", "origin buffer of MPI_Put", 2),
    "get_store": ("get_store_ok", "result buffer of MPI_Get", 2),
    "shared_puts": ("shared_puts_ok", "in concurrent lock epochs", 3),
    "window_origin": ("window_origin_ok", "the origin buffer of MPI_Put at rank 1", 2),
    "window_result": ("window_result_ok", "the result buffer of MPI_Get at rank 1", 2),
    "passive_store": ("passive_store_ok", "a local store at this rank", 2),
    "free_store": ("free_store_ok", "a local store at this rank", 2),
    "get_send": ("get_send_ok", "the send buffer of MPI_Send is the result buffer of MPI_Get", 2,
                 "local-concurrency"),
}
ALSO_OK = ["acc_ok", "lock_flush_ok", "start_ok", "exclusive_puts_ok", "shared_after_exclusive_ok"]


def findings(report):
    return json.load(open(report))["findings"] if os.path.exists(report) else None


def silent(args, name, n):
    report = os.path.join(tmp, "ok.json")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", "--check-report", report] + args, timeout=30)
    found = findings(report)
    check(f"{name} at {n} ranks --check: silent, exit 0, empty report",
          rc == 0 and err == "" and out.endswith("done\n") and found == [],
          f"rc={rc} out={out!r} err={err!r} found={found!r}")
    check(f"{name} at {n} ranks: nothing left behind", no_leftovers(tag))


for n in [2, 3, 4, 5]:
    for bug, (ok, says, least, *cls) in CASES.items():
        cls = cls[0] if cls else "rma-conflict"
        if n < least:
            continue
        report = os.path.join(tmp, f"{bug}-{n}.json")
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", "--check-report", report, exe, bug],
                                timeout=30)
        found = findings(report)
        check(f"{bug} at {n} ranks --check: exit 1, one {cls} finding naming the calls and §11.7",
              rc == 1 and found is not None and len(found) == 1 and found[0]["class"] == cls and
              says in found[0]["text"] and "MPI-3.1 §11.7" in found[0]["text"],
              f"rc={rc} err={err!r} found={found!r}")
        check(f"{bug} at {n} ranks: nothing left behind", no_leftovers(tag))
        silent([exe, ok], ok, n)
    for ok in ALSO_OK:
        silent([exe, ok], ok, n)
    for flags in ([], ["--check"]):
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + flags + [exe, "start_nopost"], timeout=30)
        check(f"start_nopost at {n} ranks {' '.join(flags)}: a deadlock naming the missing post and §11.5.2",
              rc == 1 and "missing MPI_Win_post: rank 0 in MPI_Win_start waits for MPI_Win_post by rank 1" in err and
              "MPI-3.1 §11.5.2" in err, f"rc={rc} err={err!r}")
        check(f"start_nopost at {n} ranks: nothing left behind", no_leftovers(tag))

report = os.path.join(tmp, "lua.json")
rc, out, err, tag = run(LUMPI, ["--check", "--check-report", report, "-n", "3", LUA], timeout=60)
found = findings(report)
check("Lua: two puts to one location in one fence epoch reported",
      rc == 1 and found is not None and len(found) == 1 and found[0]["class"] == "rma-conflict",
      f"rc={rc} err={err!r} found={found!r}")
rc, out, err, tag = run(LUMPI, ["--check", "--check-report", report, "-n", "3", LUA, "ok"], timeout=60)
check("Lua: puts to different locations silent", rc == 0 and findings(report) == [], f"rc={rc} err={err!r}")
check("Lua: nothing left behind", no_leftovers(tag))

finish()
