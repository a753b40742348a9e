"""tests/integration/test_check_p2p.py: under `lumpi exec --check`, a
point-to-point receive whose type signature does not match its message's
(MPI-3.1 §3.3.1; docs/checking.md) is reported once per receiving rank,
naming both calls and signatures, both ranks and the communicator, class
`type-mismatch` in --check-report; every rank runs on to the end and the
run exits 1. The correct twin (a prefix, MPI_BYTE, MPI_INT32_T) is silent
and exits 0; without --check the buggy case is silent too. At 2, 3 and 5
ranks (tests/exec/check_cases.c's p2p_types); the same from the C++ door
(tests/exec/check_p2p.cpp: Send/Recv, Isend/Irecv, Sendrecv) and the Lua
door's buffers (tests/exec/check_p2p.lua, at 2 and 3). Message races the same way
(any_race and its twin any_ok, at 3, 4 and 5 ranks; a Lua script at 3 and
4), class `message-race`, and the replay of the other order (LUMPI_RACE);
the same race through MPI_Probe and MPI_Improbe (probe_race, probe_ok). A
race whose other order deadlocks is said after the deadlock under exec
(strand_race, at 3 and 4). An interrupt that is not a deadlock's
(--timeout) says no race on the messages left unreceived.

usage: python3 test_check_p2p.py /path/to/lumpi
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "check_cases.c")
tmp = scratch_dir("lumpi-check-p2p-")
exe = os.path.join(tmp, "cases")
compile_program(LUMPI, SRC, exe, ("-g", "-Wall", "-Werror"))


def lua_script(name, text):
    """text written to tmp/name; its path."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def exec_case(n, case, flags):
    report = os.path.join(tmp, f"{case}-{n}-{len(flags)}.json")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + flags + ["--check-report", report, exe, case],
                            timeout=30)
    found = json.load(open(report))["findings"] if os.path.exists(report) else None
    check(f"{case} at {n} ranks {' '.join(flags)}: nothing left behind", no_leftovers(tag))
    return rc, out, err, found


for n in [2, 3, 5]:
    rc, out, err, found = exec_case(n, "p2p_types", ["--check"])
    odd = list(range(1, n, 2))
    lines = [l for l in err.splitlines() if "type-mismatch" in l]
    expected = [f"rank {r}'s MPI_Recv of 2 x MPI_FLOAT received rank {r - 1}'s MPI_Isend of 2 x MPI_INT "
                f"(tag 5, MPI_COMM_WORLD): the type signatures do not match (MPI-3.1 §3.3.1)" for r in odd]
    check(f"p2p_types at {n} ranks --check: exit 1, the run went on to the end", rc == 1 and out.endswith("done\n"),
          f"rc={rc} out={out!r} err={err!r}")
    check(f"p2p_types at {n} ranks --check: each odd rank's mismatch said once, with both calls",
          len(lines) == len(odd) and all(sum(e in l for l in lines) == 1 for e in expected), repr(err))
    check(f"p2p_types at {n} ranks --check: one type-mismatch finding per odd rank in the report",
          found is not None and len(found) == len(odd) and all(f.get("class") == "type-mismatch" for f in found),
          repr(found))
    # The same through MPI_Mprobe and MPI_Mrecv (the receive's type is known after the match).
    rc, out, err, found = exec_case(n, "mrecv_types", ["--check"])
    lines = [l for l in err.splitlines() if "type-mismatch" in l]
    expected = [f"rank {r}'s MPI_Mrecv of 2 x MPI_FLOAT received rank {r - 1}'s MPI_Isend of 2 x MPI_INT "
                f"(tag 8, MPI_COMM_WORLD): the type signatures do not match (MPI-3.1 §3.3.1)" for r in odd]
    check(f"mrecv_types at {n} ranks --check: each odd rank's mismatch said once, exit 1",
          rc == 1 and len(lines) == len(odd) and all(sum(e in l for l in lines) == 1 for e in expected), repr(err))
    for flags, case in ((["--check"], "p2p_types_ok"), ([], "p2p_types_ok"), ([], "p2p_types"),
                        (["--check"], "mrecv_ok"), ([], "mrecv_types")):
        rc, out, err, found = exec_case(n, case, flags)
        check(f"{case} at {n} ranks {' '.join(flags)}: silent, exit 0, empty report",
              rc == 0 and err == "" and out.endswith("done\n") and found == [],
              f"rc={rc} out={out!r} err={err!r} found={found!r}")

# The C++ door (lumpi.hpp): Send/Recv, Isend/Irecv and Sendrecv carry and compare the same signatures.
CXX_SRC = os.path.join(os.path.dirname(SRC), "check_p2p.cpp")
cxx = os.path.join(tmp, "cxx_p2p")
compile_program(LUMPI, CXX_SRC, cxx, cxx=True)
for n in [2, 3, 5]:
    odd = list(range(1, n, 2))
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", cxx, "bug"], timeout=60)
    expected = [f"rank {r}'s {call} of {k} x MPI_FLOAT received rank {r - 1}'s {sent} of {k} x MPI_INT (tag {t}, "
                f"MPI_COMM_WORLD): the type signatures do not match (MPI-3.1 §3.3.1)"
                for r in odd for call, sent, k, t in (("MPI_Recv", "MPI_Send", 2, 5), ("MPI_Irecv", "MPI_Isend", 2, 6),
                                                      ("MPI_Recv_init", "MPI_Send_init", 2, 8),
                                                      ("MPI_Sendrecv", "MPI_Sendrecv", 1, 7))]
    check(f"C++ p2p types at {n} ranks --check: each odd rank's four mismatches said, exit 1",
          rc == 1 and out.endswith("done\n") and all(e in err for e in expected) and no_leftovers(tag),
          f"rc={rc} out={out!r} err={err!r}")
    for flags, mode in ((["--check"], "ok"), ([], "ok"), ([], "bug")):
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + flags + [cxx, mode], timeout=60)
        check(f"C++ p2p {mode} at {n} ranks {' '.join(flags)}: silent, exit 0",
              rc == 0 and err == "" and out == "done\n" and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")

# The Lua door's buffers (tests/exec/check_p2p.lua): shown as they happen; Lua values are not compared.
LUA_P2P = os.path.join(os.path.dirname(SRC), "check_p2p.lua")
for n in [2, 3]:
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n), LUA_P2P], timeout=60)
    said = [l for l in out.splitlines() if l.startswith("[1] type-mismatch: ")]
    check(f"Lua p2p types at {n} ranks --check: recv, irecv, recv_init and sendrecv each said once, exit 1",
          rc == 1 and len(said) == 4
          and all(f"rank 1's {c} of" in "".join(said) for c in ("MPI_Recv", "MPI_Irecv", "MPI_Recv_init", "MPI_Sendrecv"))
          and all(f"[{r}] done" in out for r in range(n)) and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n), LUA_P2P, "ok"], timeout=60)
    check(f"Lua p2p twin at {n} ranks --check: silent, exit 0",
          rc == 0 and "mismatch" not in out + err and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")

# Message races (docs/checking.md, MPI-3.1 §3.5): every other rank sends
# rank 0 two messages at once; rank 0 takes one from MPI_ANY_SOURCE, then
# one from each rank by name, then the rest from MPI_ANY_SOURCE. A named
# receive takes a message the wildcard one could have had, whichever order
# the messages came in. The twin's receives are all wildcards: silent.
RACE = "lumpi exec: message-race (rank 0): MPI_Recv(source=ANY_SOURCE, tag=9) on 'MPI_COMM_WORLD' received the message rank "
for n in [3, 4, 5]:
    rc, out, err, found = exec_case(n, "any_race", ["--check"])
    lines = [l for l in err.splitlines() if "message-race" in l]
    check(f"any_race at {n} ranks --check: exit 1, the run went on to the end, the race said with both senders",
          rc == 1 and out.endswith("done\n") and lines and all(l.startswith(RACE) and
                                                                "sent could have matched it as well" in l and
                                                                "MPI-3.1 §3.5" in l for l in lines),
          f"rc={rc} out={out!r} err={err!r}")
    check(f"any_race at {n} ranks --check: message-race findings of rank 0 in the report",
          found and all(f.get("class") == "message-race" and f.get("ranks") == [0] for f in found), repr(found))
    for flags, case in ((["--check"], "any_ok"), ([], "any_ok"), ([], "any_race")):
        rc, out, err, found = exec_case(n, case, flags)
        check(f"{case} at {n} ranks {' '.join(flags)}: silent, exit 0, empty report",
              rc == 0 and err == "" and out.endswith("done\n") and found == [],
              f"rc={rc} out={out!r} err={err!r} found={found!r}")

# The same receives as MPI_Irecvs posted together, then MPI_Waitall: a
# receive's message is matched when it arrives, before MPI_Waitall sees the
# wildcard receive complete.
for n in [3, 4, 5]:
    rc, out, err, found = exec_case(n, "irecv_race", ["--check"])
    lines = [l for l in err.splitlines() if "message-race" in l]
    check(f"irecv_race at {n} ranks --check: exit 1, a receive's race said with both senders and its replay",
          rc == 1 and out.endswith("done\n") and lines
          and all("(source=ANY_SOURCE, tag=9) on 'MPI_COMM_WORLD' received the message rank " in l
                  and "could have matched it as well" in l and "LUMPI_RACE=0:" in l for l in lines),
          f"rc={rc} out={out!r} err={err!r}")
    for flags, case in ((["--check"], "irecv_ok"), ([], "irecv_ok"), ([], "irecv_race")):
        rc, out, err, found = exec_case(n, case, flags)
        check(f"{case} at {n} ranks {' '.join(flags)}: silent, exit 0, empty report",
              rc == 0 and err == "" and out.endswith("done\n") and found == [],
              f"rc={rc} out={out!r} err={err!r} found={found!r}")

# A race whose other order deadlocks (strand_race): lumpi exec --check stops
# the world at the deadlock and, before that, asks its ranks for the races
# their unreceived messages stranded; rank 1's message, never received, is
# said after the deadlock. (Rank 1 sends a second late, so rank 0's wildcard
# receive gets rank 2's message, unless the machine stalls rank 2 that long:
# then the receive from rank 2 takes rank 2's, and the race is said as
# any_race's is.)
# Without --check the race is not said; the twin is silent.
for n in [3, 4]:
    rc, out, err, found = exec_case(n, "strand_race", ["--check"])
    said = [l for l in err.splitlines() if "message-race" in l]
    if "deadlock found" in err:
        check(f"strand_race at {n} ranks --check: the deadlock, then the race that stranded rank 1's message",
              rc == 1 and len(said) == 1
              and "received the message rank 2 sent, and the one rank 1 sent could have matched it as well" in said[0]
              and "rank 1's is still unreceived where the run stopped" in said[0]
              and err.index("deadlock found") < err.index("message-race")
              and [f.get("class") for f in found] == ["deadlock", "message-race"],
              f"rc={rc} err={err!r} found={found!r}")
    else:
        check(f"strand_race at {n} ranks --check (rank 1's message first): the race said",
              rc == 1 and len(said) == 1 and out.endswith("done\n"), f"rc={rc} err={err!r} found={found!r}")
    rc, out, err, found = exec_case(n, "strand_race", [])
    check(f"strand_race at {n} ranks: no race said", rc in (0, 1) and "message-race" not in err, f"rc={rc} err={err!r}")
    rc, out, err, found = exec_case(n, "strand_ok", ["--check"])
    check(f"strand_ok at {n} ranks --check: silent, exit 0, empty report",
          rc == 0 and err == "" and out.endswith("done\n") and found == [], f"rc={rc} out={out!r} err={err!r}")

# The same race through probes: MPI_Probe, then MPI_Improbe from MPI_ANY_SOURCE (replayed below).
for n in [3, 4, 5]:
    rc, out, err, found = exec_case(n, "probe_race", ["--check"])
    lines = [l for l in err.splitlines() if "message-race" in l]
    probes = ("MPI_Probe(source=ANY_SOURCE, tag=9) on 'MPI_COMM_WORLD' found the message rank ",
              "MPI_Improbe(source=ANY_SOURCE, tag=9) on 'MPI_COMM_WORLD' found the message rank ")
    check(f"probe_race at {n} ranks --check: exit 1, the probe's race said with both senders and its replay",
          rc == 1 and out.endswith("done\n") and lines
          and all(any(p in l for p in probes) and "could have matched it as well (neither send comes after the probe "
                  "matched)" in l and "(to run it with the other order: LUMPI_RACE=0:" in l for l in lines),
          f"rc={rc} out={out!r} err={err!r}")
    for flags, case in ((["--check"], "probe_ok"), ([], "probe_ok"), ([], "probe_race")):
        rc, out, err, found = exec_case(n, case, flags)
        check(f"{case} at {n} ranks {' '.join(flags)}: silent, exit 0, empty report",
              rc == 0 and err == "" and out.endswith("done\n") and found == [],
              f"rc={rc} out={out!r} err={err!r} found={found!r}")

# the Lua door at the REPL's script mode: shown as it happens, the run fails; the twin is silent
LUA = ("local w, r = mpi.COMM_WORLD, mpi.rank()\n"
       "if r == 0 then w:recv(mpi.ANY_SOURCE, 9)\n"
       "  for i = 1, w:size() - 1 do w:recv(arg[1] == 'ok' and mpi.ANY_SOURCE or i, 9) end\n"
       "  for i = 2, w:size() - 1 do w:recv(mpi.ANY_SOURCE, 9) end\n"
       "else w:send(r, 0, 9) w:send(r, 0, 9) end\n")
script = lua_script("race.lua", LUA)
for n in [3, 4]:
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n), script], timeout=30)
    check(f"Lua race at {n} ranks --check: [0] message-race shown, exit 1",
          rc == 1 and "[0] message-race: MPI_Recv(source=ANY_SOURCE, tag=9) on 'MPI_COMM_WORLD' received the "
          "message rank " in out + err and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n), script, "ok"], timeout=30)
    check(f"Lua twin at {n} ranks --check: silent, exit 0",
          rc == 0 and "message-race" not in out + err and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")

# An interrupt that is not a deadlock's (here --timeout) says no race: rank
# 0 takes one of ranks 2..n-1's messages by MPI_ANY_SOURCE, then waits for
# rank 1, which computes; it would have taken the others' by MPI_ANY_SOURCE
# after, but the run stops first, with them unreceived.
SLOW = ("local w, r = mpi.COMM_WORLD, mpi.rank()\n"
        "if r == 0 then w:recv(mpi.ANY_SOURCE, 9); w:recv(1, 8)\n"
        "  for i = 3, w:size() - 1 do w:recv(mpi.ANY_SOURCE, 9) end\n"
        "elseif r == 1 then local t = mpi.wtime() while mpi.wtime() - t < 4 do end w:send(r, 0, 8)\n"
        "else w:send(r, 0, 9) end\n")
script = lua_script("slow.lua", SLOW)
for n in [4, 5]:
    rc, out, err, tag = run(LUMPI, ["--check", "--timeout", "1", "-n", str(n), script], timeout=30)
    check(f"a timeout's interrupt at {n} ranks --check: rank 0 interrupted, no race said",
          rc != 0 and "timeout after 1 s" in out + err and "LUMPI_ERR_INTERRUPTED" in out + err
          and "message-race" not in out + err and "deadlock" not in out + err and no_leftovers(tag),
          f"rc={rc} out={out!r} err={err!r}")

# :trace draws the race at the prompt: a row on rank 0's lane naming the
# message (by its number, whose send is drawn too) that could have matched.
for n in [3, 4]:
    script = os.path.join(tmp, "race.lua")
    rc, out, err, tag = run(LUMPI, ["--check", "-n", str(n)],
                            stdin=f"arg = {{}}\n:trace on\ndofile({script!r})\n:trace\n", timeout=30)
    race_rows = [l for l in out.splitlines() if "race: #" in l and "->0 could have matched MPI_R" in l]
    reports = out.count("[0] message-race: ")
    check(f":trace at {n} ranks draws each race reported on rank 0's lane",
          reports >= 1 and len(race_rows) == reports and all(l.split()[1].startswith("!") for l in race_rows)
          and "! a message race" in out and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")

# the replay (LUMPI_RACE=R:N:S, docs/checking.md): rank 0 takes one message
# from MPI_ANY_SOURCE, then one from rank 2. The report names the replay of
# the other order, in both orders: rank 2's message taken by name, or left
# unreceived by the deadlock. Forcing rank 2's message into the wildcard
# receive makes the deadlock appear every time, forcing rank 1's makes the
# run succeed.
REPLAY = ("local w, r = mpi.COMM_WORLD, mpi.rank()\n"
          "if r == 0 then local a = w:recv(mpi.ANY_SOURCE, 9); local b = w:recv(2, 9); print('got', a, b)\n"
          "else w:send(r, 0, 9) end\n")
script = lua_script("replay.lua", REPLAY)
rc, out, err, tag = run(LUMPI, ["--check", "-n", "3", script], timeout=30)
check("replay: the report names how to run the other order",
      rc == 1 and "(to run it with the other order: LUMPI_RACE=0:1:" in out + err and no_leftovers(tag),
      f"rc={rc} out={out!r} err={err!r}")
for forced, wants in (("0:1:2", "deadlock: rank 0 in MPI_Recv(source=2, tag=9) on 'MPI_COMM_WORLD' waits for 2"),
                      ("0:1:1", "[0] got\t1\t2")):
    os.environ["LUMPI_RACE"] = forced
    for _ in range(3):  # the same every time
        rc, out, err, tag = run(LUMPI, ["--check", "-n", "3", script], timeout=30)
        check(f"replay LUMPI_RACE={forced}: {wants!r}", wants in out + err and (rc == 0) == (forced == "0:1:1")
              and "message-race" not in out + err and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")
    del os.environ["LUMPI_RACE"]

# A probe's race replays the same way: rank 0 probes MPI_ANY_SOURCE, receives
# from the source it found, then from rank 2. Forcing rank 2's message into
# the probe makes the deadlock appear every time, rank 1's the success.
PROBE_REPLAY = ("local w, r = mpi.COMM_WORLD, mpi.rank()\n"
                "if r == 0 then local s = w:probe(mpi.ANY_SOURCE, 9); local a = w:recv(s.source, 9); "
                "local b = w:recv(2, 9); print('got', a, b)\n"
                "else w:send(r, 0, 9) end\n")
script = lua_script("probe_replay.lua", PROBE_REPLAY)
rc, out, err, tag = run(LUMPI, ["--check", "-n", "3", script], timeout=30)
check("probe replay: the probe's report names how to run the other order",
      rc == 1 and "MPI_Probe(source=ANY_SOURCE, tag=9) on 'MPI_COMM_WORLD' found the message rank" in out + err
      and "(to run it with the other order: LUMPI_RACE=0:1:" in out + err and no_leftovers(tag),
      f"rc={rc} out={out!r} err={err!r}")
for forced, wants in (("0:1:2", "deadlock: rank 0 in MPI_Recv(source=2, tag=9) on 'MPI_COMM_WORLD' waits for 2"),
                      ("0:1:1", "[0] got\t1\t2")):
    os.environ["LUMPI_RACE"] = forced
    for _ in range(3):
        rc, out, err, tag = run(LUMPI, ["--check", "-n", "3", script], timeout=30)
        check(f"probe replay LUMPI_RACE={forced}: {wants!r}", wants in out + err and (rc == 0) == (forced == "0:1:1")
              and "message-race" not in out + err and no_leftovers(tag), f"rc={rc} out={out!r} err={err!r}")
    del os.environ["LUMPI_RACE"]

finish()
