# tests/integration/test_deadlock_error.py: a deadlock report names the MPI
# error that sent a rank elsewhere (docs/checking.md, docs/errors.md). One
# rank gives MPI_Allreduce a bad op: it raises before it communicates (a local
# error), its partners wait in the collective, and the live watch's report
# says of the rank they wait for "; its last MPI error: MPI_ERR_OP in
# MPI_Allreduce: ...", whether that rank went idle (the error ended its
# command), or went on to another call (it caught the error). At 3 and 4
# ranks, in Lua (a script) and in C (lumpi exec of a program lumpi-cc
# builds). The correct twins (a valid op) end normally with no such clause,
# and neither a deadlock without an error nor an error of an earlier REPL
# command adds one.
# Usage: python3 test_deadlock_error.py /path/to/build/lumpi  (exit status 1 on failure)
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
CC = os.path.join(os.path.dirname(os.path.abspath(LUMPI)), "lumpi-cc")
TMP = scratch_dir("lumpi-deadlock-error-")
W = "'MPI_COMM_WORLD'"
CLAUSE = "; its last MPI error: "
LUA_ERROR = 'MPI_ERR_OP in MPI_Allreduce: unknown op "nope"'
C_ERROR = "MPI_ERR_OP in MPI_Allreduce: op is MPI_OP_NULL"


def lua(name, n, body, wants, absent=(), deadlock=True, says="the report names the error"):
    """Runs body (the last rank is `last`) on n ranks; the output holds wants and none of absent."""
    path = os.path.join(TMP, name + ".lua")
    with open(path, "w") as f:
        f.write("local w, r = mpi.COMM_WORLD, mpi.rank()\nlocal last = w:size() - 1\n" + body + "\n")
    rc, out, err, tag = run(LUMPI, ["-n", str(n), "--timeout", "3.5", path], timeout=40)
    text = out + err
    missing = [x for x in wants if x not in text] + [x for x in absent if x in text]
    found = "deadlock found:\n" in text and "timeout after" not in text
    check(f"Lua {name} at {n} ranks: {says}",
          not missing and found == deadlock and (deadlock or rc == 0) and no_leftovers(tag),
          f"rc={rc} missing or unwanted: {missing}\n{text}")


for n in (3, 4):
    last, others = n - 1, f"0-{n - 2}"
    # the error ends the bad rank's command: it is idle
    lua("bad-op", n, "w:allreduce(r, r == last and 'nope' or mpi.SUM)",
        [f"deadlock: ranks {others} in MPI_Allreduce on {W} wait for {last}: rank {last} is idle "
         f"(finished the command){CLAUSE}{LUA_ERROR}"])
    # the bad rank catches the error and goes on to a barrier: a cycle through it
    lua("bad-op-caught", n, "if not pcall(w.allreduce, w, r, r == last and 'nope' or mpi.SUM) and r == last then "
        "w:barrier() end",
        [f"rank {last} in MPI_Barrier on {W} waits for {others}{CLAUSE}{LUA_ERROR}",
         f"collective mismatch: ranks {others} in MPI_Allreduce on {W}, rank {last} in MPI_Barrier on {W}"])
    # the correct twin: no deadlock, no clause
    lua("good-op", n, "print(w:allreduce(r, mpi.SUM))", [f"{n * (n - 1) // 2}"], absent=["deadlock", CLAUSE],
        deadlock=False, says="no deadlock, no clause")
    # a deadlock without an MPI error: the report as before, no clause
    lua("skipped", n, "if r ~= last then w:allreduce(r, mpi.SUM) end",
        [f"deadlock: ranks {others} in MPI_Allreduce on {W} wait for {last}: rank {last} is idle "
         "(finished the command)\n"], absent=[CLAUSE], says="the report as before, no clause")

# an error of an earlier command at the REPL is not this command's
rc, out, err, tag = run(LUMPI, ["-n", "3", "--timeout", "3.5"],
                        stdin="w = mpi.COMM_WORLD\nif mpi.rank() == 2 then w:allreduce(1, 'nope') end\n"
                        "if mpi.rank() ~= 2 then w:barrier() end\n", timeout=40)
text = out + err
check("REPL: the deadlock of a later command does not name an earlier command's error",
      f"[2] error: {LUA_ERROR}" in text
      and f"deadlock: ranks 0-1 in MPI_Barrier on {W} wait for 2: rank 2 is idle (finished the command)\n" in text
      and CLAUSE not in text and no_leftovers(tag), text)

# C: under MPI_ERRORS_RETURN the last rank's MPI_Allreduce returns MPI_ERR_OP;
# "barrier": it goes on to MPI_Barrier, "good": every rank gives MPI_SUM.
BAD_OP = r"""
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int bad = argc > 1 && strcmp(argv[1], "barrier") == 0 && rank == size - 1;
  int rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, bad ? MPI_OP_NULL : MPI_SUM, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) MPI_Barrier(MPI_COMM_WORLD);
  else printf("rank %d: sum %d\n", rank, sum);
  MPI_Finalize();
  return 0;
}
"""
src, exe = os.path.join(TMP, "bad_op.c"), os.path.join(TMP, "bad_op")
with open(src, "w") as f:
    f.write(BAD_OP)
r = subprocess.run([CC, "-Wall", "-Werror", "-o", exe, src], capture_output=True, text=True, timeout=120)
check("lumpi-cc builds the bad-op program", r.returncode == 0, r.stderr)

for n in (3, 4):
    last, others = n - 1, f"0-{n - 2}"
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "20", exe, "barrier"], timeout=40)
    check(f"C bad op at {n} ranks: the cycle names the error of the rank in the other call",
          rc == 1 and "lumpi exec: deadlock found" in err
          and f"rank 0 in MPI_Allreduce on {W} waits for {last}, rank {last} in MPI_Barrier on {W} waits for "
              f"{others}{CLAUSE}{C_ERROR}\n" in err and "timeout" not in err and no_leftovers(tag),
          f"rc={rc} out={out!r}\n{err}")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "20", exe, "good"], timeout=40)
    check(f"C correct twin at {n} ranks: every rank sums, no deadlock, no clause",
          rc == 0 and out.count(f": sum {n * (n - 1) // 2}\n") == n and "deadlock" not in err
          and CLAUSE not in out + err and no_leftovers(tag), f"rc={rc} out={out!r}\n{err}")

finish()
