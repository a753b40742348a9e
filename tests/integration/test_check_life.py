"""tests/integration/test_check_life.py: the checker's reports on objects,
requests and buffers (docs/checking.md; issue 25 items 5 to 7) under
`lumpi exec --check`: lumpi-cc -g builds tests/exec/check_life.c (and
lumpi-c++ its C++ twin check_life.cpp; the Lua door's typed receives:
check_life.lua); each
buggy case is reported once per finding with its class, the creating call
and source line and the MPI section, exit status 1; its correct twin is
silent (status 0, nothing on stderr, an empty report), at 2, 3 and 5 ranks.
Without --check the buggy cases run silently too (these checks cost).

usage: python3 test_check_life.py /path/to/lumpi
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir, sanitized  # noqa: E402

LUMPI = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "check_life.c")
tmp = scratch_dir("lumpi-check-life-")
exe = os.path.join(tmp, "life")
compile_program(LUMPI, SRC, exe, ("-g", "-Wall", "-Werror"))

# buggy case -> (correct twin, {class: number of findings}, what the text must say);
# PER_RANK: one finding from each rank, their texts differ (each names its sender).
PER_RANK = "per rank"
CASES = {
    "leak": ("leak_ok", {"resource-leak": 8},
             ["a communicator created by MPI_Comm_split at check_life.c:", "MPI_Comm_free, MPI-3.1 §6.4.3",
              "a group created by MPI_Comm_group", "a datatype created by MPI_Type_contiguous",
              "an op created by MPI_Op_create", "an info object created by MPI_Info_create",
              "an error handler created by MPI_Comm_create_errhandler", "MPI_Errhandler_free, MPI-3.1 §8.3.4",
              "an attribute keyval created by MPI_Comm_create_keyval",
              "an attribute keyval created by MPI_Type_create_keyval"]),
    "missing_wait": ("wait_ok", {"request-lifecycle": 1},
                     ["the operation of MPI_Isend at check_life.c:", "never completed", "§3.7.3"]),
    "persistent_leak": ("persistent_ok", {"resource-leak": 1},
                        ["persistent request made by MPI_Send_init", "never freed", "§3.9"]),
    "free_active": ("free_ok", {"request-lifecycle": 1},
                    ["MPI_Request_free: the request of MPI_Irecv at check_life.c:", "§3.7.3"]),
    "send_race": ("send_ok", {"local-concurrency": 1},
                  ["the send buffer of MPI_Isend at check_life.c:", "before the operation completed", "§3.7.2"]),
    "recv_race": ("recv_ok", {"local-concurrency": 1},
                  ["the receive buffer of MPI_Irecv at check_life.c:", "before its message arrived", "§3.7.2"]),
    "testall_race": ("testall_ok", {"local-concurrency": 1},
                     ["the receive buffer of MPI_Irecv at check_life.c:", "before its message arrived", "§3.7.2"]),
    "reduce_race": ("reduce_ok", {"local-concurrency": 1},
                    ["the receive buffer of MPI_Iallreduce at check_life.c:"]),
    "shared_send": ("shared_ok", {"local-concurrency": 1},
                    ["the receive buffer of MPI_Irecv at check_life.c:", "is also the send buffer of MPI_Sendrecv",
                     "§3.7.2"]),
    "shared_reduce": ("shared_ok", {"local-concurrency": 1},
                      ["the receive buffer of MPI_Irecv at check_life.c:",
                       "is also the receive buffer of MPI_Allreduce"]),
    "bsend_lost": ("bsend_ok", {"request-lifecycle": PER_RANK},
                   ["MPI_Finalize: 1 message sent to this rank was never received: from world rank ",
                    "with tag 3 on 'MPI_COMM_WORLD' (4 bytes)", "§8.7"]),
    "overlap_recv": ("overlap_ok", {"local-concurrency": 1},
                     ["MPI_Allgatherv: the receive blocks of peers 0 and 1 overlap", "§5.5"]),
    "column_race": ("column_ok", {"local-concurrency": 1},
                    ["the send buffer of MPI_Isend at check_life.c:", "before the operation completed"]),
    "free_send": ("free_send_ok", {"request-lifecycle": 1},
                  ["MPI_Request_free: the request of MPI_Isend at check_life.c:", "nor of an error in it", "§3.7.3"]),
    "start_race": ("start_ok", {"local-concurrency": 1},
                   ["the send buffer of MPI_Send_init at check_life.c:", "before the operation completed"]),
    "no_finalize": ("finalize_ok", {"call-ordering": 1},
                    ["call-ordering (ranks ", "the program ended (exit 0) without calling MPI_Finalize", "§8.7"]),
}


# The same rules from the C++ door (tests/exec/check_life.cpp), where a
# request whose last handle is assigned over while active is seen too; its
# buffers are watched for its point-to-point calls.
CXX_SRC = os.path.join(os.path.dirname(SRC), "check_life.cpp")
cxx = os.path.join(tmp, "life_cxx")
compile_program(LUMPI, CXX_SRC, cxx, ("-g", "-Wall", "-Werror"), cxx=True)
CXX_CASES = {
    "leak": ("leak_ok", {"resource-leak": 8},
             ["a communicator created by MPI_Comm_split at check_life.cpp:", "MPI_Comm_free, MPI-3.1 §6.4.3",
              "a datatype created by MPI_Type_contiguous", "an op created by MPI_Op_create",
              "an info object created by MPI_Info_create", "an error handler created by MPI_Comm_create_errhandler",
              "an attribute keyval created by MPI_Comm_create_keyval",
              "an attribute keyval created by MPI_Type_create_keyval",
              "a window created by MPI_Win_create at check_life.cpp:", "MPI_Win_free, MPI-3.1 §11.2.5"]),
    "missing_wait": ("wait_ok", {"request-lifecycle": 1},
                     ["the operation of MPI_Isend at check_life.cpp:", "never completed", "§3.7.3"]),
    "overwrite": ("overwrite_ok", {"request-lifecycle": 1},
                  ["the operation of MPI_Isend at check_life.cpp:", "never completed", "§3.7.3"]),
    "persistent_leak": ("persistent_ok", {"resource-leak": 1},
                        ["persistent request made by MPI_Send_init at check_life.cpp:", "never freed", "§3.9"]),
    "persistent_started": ("persistent_ok", {"request-lifecycle": 1},
                           ["persistent request made by MPI_Send_init", "started and never completed", "§3.9"]),
    "free_active": ("free_ok", {"request-lifecycle": 1},
                    ["MPI_Request_free: the request of MPI_Irecv at check_life.cpp:", "§3.7.3"]),
    "free_send": ("free_send_ok", {"request-lifecycle": 1},
                  ["MPI_Request_free: the request of MPI_Isend at check_life.cpp:", "nor of an error in it"]),
    "send_race": ("send_ok", {"local-concurrency": 1},
                  ["the send buffer of MPI_Isend at check_life.cpp:", "before the operation completed", "§3.7.2"]),
    "recv_race": ("recv_ok", {"local-concurrency": 1},
                  ["the receive buffer of MPI_Irecv at check_life.cpp:", "before its message arrived", "§3.7.2"]),
    "shared_send": ("shared_ok", {"local-concurrency": 1},
                    ["the receive buffer of MPI_Irecv at check_life.cpp:", "is also the send buffer of MPI_Sendrecv",
                     "§3.7.2"]),
    "start_race": ("start_ok", {"local-concurrency": 1},
                   ["the send buffer of MPI_Send_init at check_life.cpp:", "before the operation completed"]),
    "reduce_race": ("reduce_ok", {"local-concurrency": 1},
                    ["the receive buffer of MPI_Iallreduce at check_life.cpp:", "was written by the program"]),
    "shared_reduce": ("shared_reduce_ok", {"local-concurrency": 1},
                      ["the receive buffer of MPI_Irecv at check_life.cpp:",
                       "is also the receive buffer of MPI_Allreduce"]),
}
CXX_MORE_CORRECT = ["get_status_free_ok", "cancel_free_ok"]

# The sanitized build's reports carry no source line (addr2line does not
# place its frames; a known limit): there the texts are checked without it.
if sanitized(os.path.dirname(os.path.abspath(LUMPI))):
    def no_line(cases):
        return {bug: (ok, want, [re.sub(r" at check_life\.c(pp)?:", "", w) for w in says])
                for bug, (ok, want, says) in cases.items()}
    CASES, CXX_CASES = no_line(CASES), no_line(CXX_CASES)


def classes(found):
    out = {}
    for f in found:
        out[f["class"]] = out.get(f["class"], 0) + 1
    return out


# Correct programs near the buggy ones without a bug of their own to pair with.
MORE_CORRECT = [
    "self_cleanup_ok",  # a library's objects freed by a COMM_SELF delete callback in MPI_Finalize (§8.7.1)
    "get_status_free_ok",  # a receive freed once MPI_Request_get_status found it complete (§3.7.3)
    "cancel_free_ok",  # a cancelled receive freed (§3.8.4)
    "null_shared_ok",  # MPI_PROC_NULL's sends and receives share a pending send's buffer (§3.11)
    "bsend_init_ok",  # a ring of MPI_Bsend_init sends, each completed before its receive (§3.4, §3.9)
]


def silent(prog, ok, n):
    report = os.path.join(tmp, f"{ok}-{n}.json")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", "--check-report", report, prog, ok],
                            timeout=60)
    found = json.load(open(report))["findings"] if os.path.exists(report) else None
    check(f"{os.path.basename(prog)} {ok} at {n} ranks: silent, exit 0, empty report",
          rc == 0 and err == "" and out.endswith("done\n") and found == [],
          f"rc={rc} out={out!r} err={err!r} found={found!r}")


def reported(prog, cases, more_correct, n):
    for ok in more_correct:
        silent(prog, ok, n)
    for bug, (ok, want, says) in cases.items():
        report = os.path.join(tmp, f"{bug}-{n}.json")
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", "--check-report", report, prog, bug],
                                timeout=60)
        found = json.load(open(report))["findings"] if os.path.exists(report) else []
        name = f"{os.path.basename(prog)} {bug} at {n} ranks"
        check(f"{name}: reported, exit 1", rc == 1 and all(s in err for s in says),
              f"rc={rc} err={err!r}")
        if PER_RANK in want.values():
            check(f"{name}: the findings {want}", classes(found) == {c: n for c in want} and sorted(
                f["ranks"] for f in found) == [[r] for r in range(n)], repr(found))
        else:
            check(f"{name}: the findings {want}, each from every rank", classes(found) == want and all(
                f["ranks"] == list(range(n)) for f in found), repr(found))
        check(f"{name}: nothing left behind", no_leftovers(tag))
        silent(prog, ok, n)
        if n == 3:
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), prog, bug], timeout=60)
            check(f"{name} without --check: silent, exit 0", rc == 0 and err == "", f"rc={rc} err={err!r}")


# The Lua door (tests/exec/check_life.lua): a typed irecv's buffer written
# before its wait, named with the script's line; the twin writes it after.
LUA = os.path.join(os.path.dirname(SRC), "check_life.lua")


def lua_cases(n):
    report = os.path.join(tmp, f"lua-{n}.json")
    rc, out, err, tag = run(LUMPI, ["--check", "--check-report", report, "-n", str(n), LUA, "race"], timeout=60)
    found = json.load(open(report))["findings"] if os.path.exists(report) else []
    said = out + err  # lumpi running a script says a finding where the rank's output goes
    check(f"check_life.lua race at {n} ranks: reported once from every rank, exit 1",
          rc == 1 and "local-concurrency: the receive buffer of MPI_Irecv at " in said and "check_life.lua:9 was "
          "written by the program before its message arrived" in said and "§3.7.2" in said and
          classes(found) == {"local-concurrency": 1} and found[0]["ranks"] == list(range(n)),
          f"rc={rc} out={out!r} err={err!r} found={found!r}")
    check(f"check_life.lua race at {n} ranks: nothing left behind", no_leftovers(tag))
    rc, out, err, tag = run(LUMPI, ["--check", "--check-report", report, "-n", str(n), LUA, "ok"], timeout=60)
    found = json.load(open(report))["findings"] if os.path.exists(report) else None
    check(f"check_life.lua ok at {n} ranks: silent, exit 0", rc == 0 and found == [] and out == "[0] done\n",
          f"rc={rc} out={out!r} err={err!r} found={found!r}")
    if n == 3:
        rc, out, err, tag = run(LUMPI, ["-n", str(n), LUA, "race"], timeout=60)
        check("check_life.lua race without --check: silent, exit 0",
              rc == 0 and "local-concurrency" not in out + err, f"rc={rc} out={out!r} err={err!r}")


for n in [2, 3, 5]:
    reported(exe, CASES, MORE_CORRECT, n)
    reported(cxx, CXX_CASES, CXX_MORE_CORRECT, n)
    lua_cases(n)

finish()
