"""tests/integration/test_exec.py: `lumpi exec` runs a plain C++ program
(tests/exec/ring.cpp, built as lumpi-exec-ring next to lumpi: the core and
the rank host, no Lua) as a world, like mpiexec: a ring of sends at sizes
1, 3, 4 and 7, the program's own output with nothing added, exit statuses,
MPI_Abort, a dead peer, stdin to rank 0, MPIEXEC_TIMEOUT, --timeout and
Ctrl-C with the report of where every rank waits (on a world that hangs
without a deadlock: its last rank computes), a deadlock found as it happens
(no timeout needed), and no process left behind.
Also checks that the coordinator executable links neither Lua nor the core.

usage: python3 test_exec.py /path/to/lumpi
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, marker_env, no_leftovers, run, kill_tagged  # noqa: E402

LUMPI = sys.argv[1]
RING = os.path.join(os.path.dirname(os.path.abspath(LUMPI)), "lumpi-exec-ring")


def exec_run(args, stdin=None, env_extra=None, timeout=60):
    if env_extra:
        saved = {k: os.environ.get(k) for k in env_extra}
        os.environ.update(env_extra)
    try:
        return run(LUMPI, ["exec"] + args, stdin=stdin, timeout=timeout)
    finally:
        if env_extra:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


# ---- a ring at several sizes: the program's own output, exactly ----------------------

for n in [1, 3, 4, 7]:
    rc, out, err, tag = exec_run(["-n", str(n), RING, "ring", "3"])
    token = " ".join(str(r) for r in range(n))
    want = "".join(f"round {i}: {token}\n" for i in range(3))
    check(f"ring of {n} ranks prints only the program's output", rc == 0 and out == want and err == "",
          f"rc={rc} out={out!r} err={err!r}")
    check(f"ring of {n} ranks leaves no process", no_leftovers(tag))

rc, out, err, tag = exec_run(["-np", "4", RING])
check("-np is accepted, the program's default arguments apply", rc == 0 and out.count("0 1 2 3\n") == 3, out + err)

rc, out, err, tag = exec_run(["-n", "3", RING, "late", "1"])
check("a rank may join late (ranks wait for it without a limit of their own)",
      rc == 0 and out == "round 0: 0 1 2\n", f"rc={rc} {out!r} {err!r}")
rc, out, err, tag = exec_run(["-n", "2", "--bind", "core", RING, "ring", "1"])
check("--bind passes to the ranks", rc == 0 and out == "round 0: 0 1\n", f"rc={rc} {out!r} {err!r}")

# ---- exit status as MPI prescribes -----------------------------------------------------

rc, out, err, tag = exec_run(["-n", "3", RING, "exit", "3"])
check("the worst exit code is the job's", rc == 3, f"rc={rc} {err}")
rc, out, err, tag = exec_run(["-n", "3", RING, "crash"])
check("a rank killed by a signal gives 128+signal", rc == 128 + signal.SIGKILL, f"rc={rc} {err}")
check("a crash leaves no process", no_leftovers(tag))
rc, out, err, tag = exec_run(["-n", "3", RING, "abort"])
check("MPI_Abort's code is the job's exit status", rc == 5, f"rc={rc} {err}")
check("MPI_Abort is reported on stderr", "rank 1 called MPI_Abort(5): rank 1 gives up" in err, err)
check("MPI_Abort stops the other ranks", no_leftovers(tag))
rc, out, err, tag = exec_run(["-n", "3", RING, "dead"])
check("a peer blocked on a rank that died gets MPI_ERR_PROC_FAILED",
      out == "rank 0: MPI_ERR_PROC_FAILED\n" and rc == 4, f"rc={rc} out={out!r} err={err!r}")

# ---- stdin, programs that never join, bad programs ---------------------------------------

rc, out, err, tag = exec_run(["-n", "3", RING, "stdin"], stdin="hello there\n")
check("rank 0 reads lumpi's stdin", rc == 0 and out == "rank 0 read: hello there\n", f"rc={rc} {out!r} {err!r}")
rc, out, err, tag = exec_run(["-n", "2", "echo", "plain"])
check("a program that never joins runs like under mpiexec", rc == 0 and out == "plain\nplain\n", out + err)
rc, out, err, tag = exec_run(["-n", "2", "no-such-program-lumpi"])
check("a missing program is named, status 127", rc == 127 and "no-such-program-lumpi" in err, f"rc={rc} {err}")
rc, out, err, tag = exec_run(["-n", "2"])
check("exec without a program is a usage error", rc == 2 and "needs a program" in err, err)

# ---- timeouts and Ctrl-C print where every rank waits, then stop the world -------------------
# `hang`: rank 0 waits for the last rank, which computes outside MPI (no deadlock, so
# only the timeout or Ctrl-C ends it; a computing rank does not answer).

rc, out, err, tag = exec_run(["-n", "3", "--timeout", "1", RING, "hang"])
check("--timeout stops a hung world with status 124", rc == 124, f"rc={rc} {err}")
check("--timeout first shows where every rank waits",
      "timeout after 1 s" in err and "[0] waiting in MPI_Recv(source=2, tag=99)" in err and
      "[1] finished (exit 0)" in err and "[2] not answering" in err and "deadlock" not in err, err)
check("--timeout leaves no process", no_leftovers(tag))

rc, out, err, tag = exec_run(["-n", "2", RING, "hang"], env_extra={"MPIEXEC_TIMEOUT": "1"})
check("MPIEXEC_TIMEOUT is honoured", rc == 124 and "[0] waiting in MPI_Recv(source=1, tag=99)" in err
      and "deadlock" not in err,
      f"rc={rc} {err}")
rc, out, err, tag = exec_run(["-n", "2", RING, "hang"], env_extra={"MPIEXEC_TIMEOUT": "soon"})
check("a bad MPIEXEC_TIMEOUT is an error naming it", rc == 1 and "MPIEXEC_TIMEOUT" in err, f"rc={rc} {err}")

tag, env = marker_env()
p = subprocess.Popen([LUMPI, "exec", "-n", "4", RING, "hang"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True, env=env)
time.sleep(1.5)
p.send_signal(signal.SIGINT)
try:
    out, err = p.communicate(timeout=20)
    check("Ctrl-C stops the world with status 130", p.returncode == 130, f"rc={p.returncode} {err}")
    check("Ctrl-C first shows where every rank waits",
          "interrupted (Ctrl-C)" in err and "[0] waiting in MPI_Recv(source=3, tag=99)" in err, err)
except subprocess.TimeoutExpired:
    p.kill()
    check("Ctrl-C stops the world", False, "lumpi exec did not end")
check("Ctrl-C leaves no process", no_leftovers(tag))
kill_tagged(tag)

# ---- a deadlock (rank 0 waits for a rank that finished) is found as it happens ------------

t0 = time.time()
rc, out, err, tag = exec_run(["-n", "3", "--timeout", "20", RING, "orphan"])
took = time.time() - t0
check("a deadlock ends the run at once with status 1, no timeout needed",
      rc == 1 and took < 5 and "deadlock: rank 0 in MPI_Recv(source=2, tag=99)" in err and
      "rank 2 is finished" in err and "MPI-3.1 §3.5" in err and "timeout" not in err,
      f"rc={rc} took={took:.2f} {err}")
print(f"     deadlock reported after {took:.2f} s (whole run)")
check("the deadlock leaves no process", no_leftovers(tag))

# ---- the coordinator links neither Lua nor the MPI core ----------------------------------------

nm = subprocess.run(["nm", "-C", "--defined-only", LUMPI], capture_output=True, text=True)
bad = [l for l in nm.stdout.splitlines()
       if " lua_" in l or " luaL_" in l or "lumpi::core::" in l or " hwloc_" in l or "lumpi::lua::" in l]
check("lumpi defines no Lua, core or hwloc symbol", nm.returncode == 0 and not bad, "\n".join(bad[:5]))

finish()
