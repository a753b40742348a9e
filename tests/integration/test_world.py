"""tests/integration/test_world.py: launching worlds of sizes 1, 2, 3, 4, 7
through the real lumpi binary: script mode, -e, the REPL over stdin,
exit statuses, and that no process is ever left behind (also when the
coordinator is killed with SIGKILL).

usage: python3 test_world.py /path/to/lumpi
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, marker_env, no_leftovers, pids_with_tag, run, kill_tagged  # noqa: E402

LUMPI = sys.argv[1]
SIZES = [1, 2, 3, 4, 7]


def script(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    f.write(text)
    f.close()
    return f.name


def expected_ranks(n):
    return "".join(f"[{r}] {r}\n" for r in range(n))


# ---- REPL over stdin ------------------------------------------------------------

for n in SIZES:
    rc, out, err, tag = run(LUMPI, ["-n", str(n)], stdin="return mpi.rank()\n")
    check(f"stdin REPL shows each rank's value, n={n}", rc == 0 and out == expected_ranks(n), out + err)
    check(f"stdin REPL leaves no process, n={n}", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["-n", "4"], stdin="1 + 1\nreturn mpi.size()\n")
check("identical results collate into one line", out == "[0-3] 2\n[0-3] 4\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "4"], stdin="return mpi.rank() % 2\n")
check("different results print one line per value", out == "[0,2] 0\n[1,3] 1\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "7"], stdin="return mpi.rank() == 5 and 'x' or 'y'\n")
check("rank sets fold runs", out == "[0-4,6] y\n[5] x\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin="x = mpi.rank() * 10\nreturn x\n")
check("globals persist between commands", out == "[0] 0\n[1] 10\n[2] 20\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="function f(a)\n  return a * 2\nend\nreturn f(21)\n")
check("multi-line chunks are gathered until complete", out == "[0-1] 42\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="s = [[\nmulti\nline]]\nreturn #s\n")
check("unfinished long strings continue", out == "[0-1] 10\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="print('hello', mpi.rank())\n")
check("print streams as [r] text", sorted(out.splitlines()) == ["[0] hello\t0", "[1] hello\t1"], out)

rc, out, err, tag = run(LUMPI, ["-n", "4"], stdin="mpi.COMM_WORLD:send(1, 9)\n")
check("MPI errors collate with their class",
      out == "[0-3] error: MPI_ERR_RANK in MPI_Send: destination rank 9 is out of range "
             "for a communicator of size 4\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="error('boom')\nreturn 'still here'\n")
check("a Lua error does not end the session",
      out == "[0-1] error: stdin:1: boom\n[0-1] still here\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "4"], stdin=":on 0,2 y = 1\nreturn y\n:target 1-2\nreturn mpi.rank()\n")
check(":on and :target choose the ranks", out == "[0,2] 1\n[1,3] nil\n[1] 1\n[2] 2\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="return {1, 2, x = {y = 'z'}}, nil, 2.5\n")
check("tables render by value", out == '[0-1] {1, 2, x={y="z"}}\tnil\t2.5\n', out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=":frobnicate\n:help\n")
check("unknown meta-commands are reported", "unknown command :frobnicate" in out and ":target" in out, out)

rc, out, err, tag = run(LUMPI, ["-n", "3"],
                        stdin="w = mpi.COMM_WORLD\nif w:rank() == 0 then w:send('hi', 2, 7) end\n"
                              ":on 2 return (w:recv(0, 7))\n")
check("messages sent by one command are received by a later one", out == "[2] hi\n", out)

# ---- script mode, -e, exit statuses ------------------------------------------------

s = script("local w = mpi.COMM_WORLD\nprint(w:rank(), arg[1], select('#', ...))\n")
for n in SIZES:
    rc, out, err, tag = run(LUMPI, ["-n", str(n), s, "alpha", "beta"])
    lines = sorted(out.splitlines())
    check(f"script runs SPMD with arg, n={n}",
          rc == 0 and lines == sorted(f"[{r}] {r}\talpha\t2" for r in range(n)), out + err)
    check(f"script leaves no process, n={n}", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["-n", "3", "-e", "return mpi.rank() * 2"])
check("-e prints collated results and exits 0", rc == 0 and out == "[0] 0\n[1] 2\n[2] 4\n", out + err)

rc, out, err, tag = run(LUMPI, ["-n", "3", script("if mpi.rank() == 1 then error('bad') end\n")])
check("an uncaught error exits 1 and is shown", rc == 1 and "[1] error:" in err and "bad" in err, f"{rc} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "3", script("if mpi.rank() == 2 then os.exit(7) end\n")])
check("the largest rank exit code is the exit status", rc == 7 and "rank 2 died: exit 7" in out, f"{rc} {out} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "2", script(
    "if mpi.rank() == 1 then local f = io.open('/proc/self/stat') local pid = f:read('n') f:close() "
    "os.execute('kill -9 ' .. pid) end\n")])
check("a rank killed by a signal gives 128+signal", rc == 137 and "rank 1 died: signal 9" in out, f"{rc} {out}")
check("after a killed rank nothing is left", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["-n", "3", script(
    "local w = mpi.COMM_WORLD\nif w:rank() == 1 then os.exit(3) end\n"
    "if w:rank() == 0 then local ok, e = pcall(w.recv, w, 1, 0) print(e.class) end\n")])
check("a rank blocked on a dead peer gets MPI_ERR_PROC_FAILED",
      "[0] MPI_ERR_PROC_FAILED" in out and rc == 3, f"{rc} {out} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "2", "/nonexistent.lua"])
check("a missing script is an error", rc == 1 and "nonexistent" in err, f"{rc} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "0"])
check("-n 0 is a usage error", rc == 2 and "-n" in err, f"{rc} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "2", "-i", script("z = 5\n")], stdin="return z\n")
check("-i enters the REPL after the script", rc == 0 and out == "[0-1] 5\n", out + err)

# ---- the coordinator dies ---------------------------------------------------------------

tag, env = marker_env()
p = subprocess.Popen([LUMPI, "-n", "4"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True, env=env)
p.stdin.write("return 1\n")
p.stdin.flush()
line = p.stdout.readline()
ranks_up = len(pids_with_tag(tag)) == 6  # the coordinator, its run directory's watchdog, 4 ranks
p.send_signal(signal.SIGKILL)
p.wait(timeout=10)
check("the world was running before the coordinator was killed", line == "[0-3] 1\n" and ranks_up, line)
check("SIGKILL of the coordinator leaves no rank behind", no_leftovers(tag, within=5.0))

tag, env = marker_env()
p = subprocess.Popen([LUMPI, "-n", "3"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True, env=env)
p.stdin.write("return 1\n")
p.stdin.flush()
p.stdout.readline()
p.stdin.close()  # Ctrl-D
rc = p.wait(timeout=10)
check("end of input ends the session with status 0", rc == 0, str(rc))
check("end of input leaves no process", no_leftovers(tag))

# ---- conformance audit: §11 options and §12 display not covered above ----------------

rc, out, err, tag = run(LUMPI, ["-e", "return mpi.size()"])
check("-n defaults to 4", rc == 0 and out == "[0-3] 4\n", out + err)

rc, out, err, tag = run(LUMPI, ["--np", "2", "-e", "return mpi.rank()"])
check("--np is the long form of -n", rc == 0 and out == "[0] 0\n[1] 1\n", out + err)

rc, out, err, tag = run(LUMPI, ["-n", "2", "--bind", "bogus", "-e", "return 1"])
check("--bind rejects an unknown level with a usage error", rc == 2 and "--bind" in err, f"{rc} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "2", "--bind", "none", "-e", "return mpi.hw.info().bound"])
check("--bind none leaves ranks unbound", rc == 0 and out == "[0-1] nil\n", out + err)

rc, out, err, tag = run(LUMPI, ["-n", "10"],
                        stdin="local r = mpi.rank() return (r == 3 or r == 4 or r == 6) and 1 or 0\n")
check("rank sets separate runs with commas", out == "[0-2,5,7-9] 0\n[3-4,6] 1\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "3", "--no-collate"], stdin="return 1\n")
check("--no-collate prints every rank separately", out == "[0] 1\n[1] 1\n[2] 1\n", out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=(
    "r = mpi.COMM_WORLD:irecv(0, 5)\nreturn r:cancel()\n"
    "return r:test()\nreturn r:wait()\n"))
check("a cancelled request completes (API.md §6: r:test -> done, value, status)",
      out == "[0-1] true\n[0-1] true\tnil\t{cancelled=true, error=0, source=0, tag=0}\n"
             "[0-1] nil\t{cancelled=true, error=0, source=0, tag=0}\n", out + err)

finish()
