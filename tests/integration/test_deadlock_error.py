# tests/integration/test_deadlock_error.py: one rank's bad argument fails
# every rank of the call (docs/errors.md, docs/checking.md). One rank gives
# MPI_Allreduce a bad op: it raises before it communicates (a local error),
# its partners wait in the collective, and the live watch's report says of
# the rank they wait for "; its last MPI error: MPI_ERR_OP in MPI_Allreduce:
# ...", whether that rank went idle (the error ended its command), or went
# on to another call (it caught the error); then the partners' waits raise
# the same class, naming that rank, instead of waiting for ever. At 3 and 4
# ranks, in Lua (a script, and the REPL, where the next collective is
# unharmed) and in C (lumpi exec of a program lumpi-cc builds, whose ranks
# then meet in a barrier and a correct MPI_Allreduce). The correct twins (a
# valid op) end normally with no such clause, and neither a deadlock without
# an error nor an error of an earlier REPL command adds one. Different roots
# of MPI_Reduce make the roots left waiting return MPI_ERR_ROOT (C, 3 and 5
# ranks; Lua in test_deadlock). And a C++ program (lumpi.hpp) at 3 and 5.
# Usage: python3 test_deadlock_error.py /path/to/build/lumpi  (exit status 1 on failure)
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
TMP = scratch_dir("lumpi-deadlock-error-")
W = "'MPI_COMM_WORLD'"
CLAUSE = "; its last MPI error: "
LUA_ERROR = 'MPI_ERR_OP in MPI_Allreduce: unknown op "nope"'
C_ERROR = "MPI_ERR_OP in MPI_Allreduce: op is MPI_OP_NULL"


def partner_error(last, why):
    """What the partners of the bad rank `last` raise."""
    return (f"MPI_ERR_OP in MPI_Allreduce: rank {last} of COMM_WORLD will not take part (its MPI_Allreduce raised "
            f"this error: {why})")


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
         f"(finished the command){CLAUSE}{LUA_ERROR}",
         f"deadlock: ranks {others} raise the error of rank {last}\n",
         f"[{others}] error: {partner_error(last, 'unknown op ' + chr(34) + 'nope' + chr(34))}\n",
         f"[{last}] error: {LUA_ERROR}\n"], absent=["LUMPI_ERR_INTERRUPTED"],
        says="the report names the error and every rank raises it")
    # the bad rank catches the error and goes on to a barrier: a cycle through
    # it; its partners raise, catch and end, and the barrier is a deadlock of its own
    lua("bad-op-caught", n, "local ok, e = pcall(w.allreduce, w, r, r == last and 'nope' or mpi.SUM)\n"
        "if r == last then w:barrier() else print('caught: ' .. tostring(e)) end",
        [f"rank {last} in MPI_Barrier on {W} waits for {others}{CLAUSE}{LUA_ERROR}",
         f"collective mismatch: ranks {others} in MPI_Allreduce on {W}, rank {last} in MPI_Barrier on {W}",
         f"caught: {partner_error(last, 'unknown op ' + chr(34) + 'nope' + chr(34))}\n",
         f"deadlock: rank {last} in MPI_Barrier on {W} waits for {others}: rank 0 is idle (finished the command)"])
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

# the REPL: the partners raise, and the same collective next is unharmed
# (the failed call's leftovers are dropped), at 3 and 4 ranks
for n in (3, 4):
    last, others = n - 1, f"0-{n - 2}"
    rc, out, err, tag = run(LUMPI, ["-n", str(n), "--timeout", "10"],
                            stdin="w, r = mpi.COMM_WORLD, mpi.rank()\n"
                            "return w:allreduce(r, r == w:size() - 1 and 'nope' or mpi.SUM)\n"
                            "return w:allreduce(r, mpi.SUM)\n"
                            "if r == 1 then return w:bcast(1, 7) else return w:bcast(111, 0) end\n"
                            "return w:bcast(r == 0 and 222 or -1, 0)\n", timeout=40)
    text = out + err
    check(f"REPL at {n} ranks: every rank raises, and the next collectives are correct",
          f"[{others}] error: {partner_error(last, 'unknown op ' + chr(34) + 'nope' + chr(34))}" in text
          and f"[0-{last}] {n * (n - 1) // 2}\n" in text and f"[0-{last}] 222\n" in text
          and "LUMPI_ERR_INTERRUPTED" not in text and "timeout" not in text and no_leftovers(tag), text)

# C, under MPI_ERRORS_RETURN. "barrier": the last rank's MPI_Allreduce
# returns MPI_ERR_OP and it goes on to MPI_Barrier, where the others join it
# once their MPI_Allreduce returned its error, and a correct MPI_Allreduce
# follows; "good": every rank gives MPI_SUM. "root": different roots in
# MPI_Reduce (the last rank names itself, the others rank 0): both roots
# wait for ever, so each returns MPI_ERR_ROOT naming the roots, and then
# every rank meets in a barrier.
PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include <string.h>
static void say_error(int rank, int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len, cls;
  MPI_Error_string(rc, text, &len);
  MPI_Error_class(rc, &cls);
  printf("rank %d: class %d: %s\n", rank, cls, text);
}
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, sum = 0, rc;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (strcmp(argv[1], "root") == 0) {
    rc = MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, rank == size - 1 ? size - 1 : 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) say_error(rank, rc);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
  } else {
    int bad = strcmp(argv[1], "barrier") == 0 && rank == size - 1;
    rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, bad ? MPI_OP_NULL : MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
      say_error(rank, rc);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      printf("rank %d: then sum %d\n", rank, sum);
    } else {
      printf("rank %d: sum %d\n", rank, sum);
    }
  }
  MPI_Finalize();
  return 0;
}
"""
src, exe = os.path.join(TMP, "bad_args.c"), os.path.join(TMP, "bad_args")
with open(src, "w") as f:
    f.write(PROGRAM)
compile_program(LUMPI, src, exe)

for n in (3, 4):
    last, others = n - 1, f"0-{n - 2}"
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "20", exe, "barrier"], timeout=40)
    check(f"C bad op at {n} ranks: the cycle names the error of the rank in the other call",
          rc == 1 and "lumpi exec: deadlock found" in err
          and f"rank 0 in MPI_Allreduce on {W} waits for {last}, rank {last} in MPI_Barrier on {W} waits for "
              f"{others}{CLAUSE}{C_ERROR}\n" in err and "timeout" not in err and no_leftovers(tag),
          f"rc={rc} out={out!r}\n{err}")
    lines = out.splitlines()
    check(f"C bad op at {n} ranks: every rank returns MPI_ERR_OP (10), the partners naming rank {last}, "
          "then they go on together",
          f"rank {last}: class 10: {C_ERROR}" in lines
          and all(f"rank {r}: class 10: {partner_error(last, 'op is MPI_OP_NULL')}" in lines for r in range(n - 1))
          and all(f"rank {r}: then sum {n * (n - 1) // 2}" in lines for r in range(n))
          and f"deadlock: ranks {others} raise the error of rank {last}\n" in err,
          f"rc={rc} out={out!r}\n{err}")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "20", exe, "good"], timeout=40)
    check(f"C correct twin at {n} ranks: every rank sums, no deadlock, no clause",
          rc == 0 and out.count(f": sum {n * (n - 1) // 2}\n") == n and "deadlock" not in err
          and CLAUSE not in out + err and no_leftovers(tag), f"rc={rc} out={out!r}\n{err}")

for n in (3, 5):
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "20", exe, "root"], timeout=40)
    errors = [l for l in out.splitlines() if ": class " in l]
    roots = f"the ranks gave different roots (root=0 at rank 0, root={n - 1} at rank {n - 1})"
    check(f"C wrong root at {n} ranks: both roots return MPI_ERR_ROOT naming the roots, all then meet",
          rc == 1 and sorted(errors) == [f"rank {r}: class 8: MPI_ERR_ROOT in MPI_Reduce: {roots}; MPI-3.1 §5.1: "
                                         "the root must have identical values on all processes" for r in (0, n - 1)]
          and all(f"rank {r}: done" in out.splitlines() for r in range(n))
          and "raise MPI_ERR_ROOT (their roots differ)" in err and "timeout" not in err and no_leftovers(tag),
          f"rc={rc} out={out!r}\n{err}")

# C++ (lumpi.hpp, whose default handler throws): the last rank's Allreduce
# throws ERR_OP; the others' throw the same class, naming it; all then meet.
CXX_PROGRAM = r"""
#include <lumpi.hpp>
#include <cstdio>
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const int me = lumpi::COMM_WORLD.Get_rank(), n = lumpi::COMM_WORLD.Get_size();
  int sum = 0;
  try {
    lumpi::COMM_WORLD.Allreduce(&me, &sum, 1, lumpi::INT, me == n - 1 ? lumpi::OP_NULL : lumpi::SUM);
    std::printf("rank %d: sum %d\n", me, sum);
  } catch (const lumpi::Exception& e) {
    std::printf("rank %d: class %d: %s\n", me, e.Get_error_class(), e.what());
  }
  lumpi::COMM_WORLD.Barrier();
  std::printf("rank %d: done\n", me);
  lumpi::Finalize();
  return 0;
}
"""
src, cxx_exe = os.path.join(TMP, "bad_op.cpp"), os.path.join(TMP, "bad_op_cxx")
with open(src, "w") as f:
    f.write(CXX_PROGRAM)
compile_program(LUMPI, src, cxx_exe, cxx=True)
for n in (3, 5):
    last = n - 1
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "20", cxx_exe], timeout=40)
    lines = out.splitlines()
    check(f"C++ bad op at {n} ranks: every rank throws ERR_OP (10), the partners naming rank {last}, all then meet",
          rc == 1 and any(l.startswith(f"rank {last}: class 10: ") for l in lines)
          and all(any(l.startswith(f"rank {r}: class 10: ") and f"rank {last} of COMM_WORLD will not take part" in l
                      for l in lines) for r in range(n - 1))
          and all(f"rank {r}: done" in lines for r in range(n)) and "timeout" not in err and no_leftovers(tag),
          f"rc={rc} out={out!r}\n{err}")

finish()
