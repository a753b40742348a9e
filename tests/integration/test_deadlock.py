# tests/integration/test_deadlock.py: the deadlock diagnosis and :queue on
# the real binary. Each classic mistake runs as a script with a 3.5 s
# --timeout it must not need: the deadlock is found as it happens (the
# live watch, docs/checking.md), the report names the cycle, or the idle
# rank waited for, with the calls, and the command is interrupted, the
# whole run under 2.5 s (the hang report came after 2 s). A rank waiting for
# one that computes is no deadlock: the hang report after 2 s shows it, then
# the timeout interrupts. Then, under a pseudo-terminal, :status typed
# while a command hangs shows the diagnosis and :queue shows the posted
# receives and the unmatched messages.
# Usage: python3 test_deadlock.py /path/to/build/lumpi  (exit status 1 on failure)
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402
import ptyrun  # noqa: E402

LUMPI = sys.argv[1]
TMP = scratch_dir("lumpi-deadlock-")
W = "'MPI_COMM_WORLD'"
FOUND_WITHIN = 2.5  # seconds for the whole run (start, deadlock, report, interrupt, shutdown)


def script(name, body):
    path = os.path.join(TMP, name + ".lua")
    with open(path, "w") as f:
        f.write("local w, r = mpi.COMM_WORLD, mpi.rank()\n" + body + "\n")
    return path


def hang(name, n, body, wants, absent=(), deadlock=True, ends="deadlock: interrupting"):
    """Runs `body` on n ranks (3.5 s timeout); the output must hold every line of wants.
    A deadlock is found and ended (the line `ends`) within FOUND_WITHIN; else the timeout ends it."""
    t0 = time.time()
    rc, out, err, tag = run(LUMPI, ["-n", str(n), "--timeout", "3.5", script(name, body)], timeout=40)
    took = time.time() - t0
    text = out + err
    missing = [w for w in wants if w not in text] + [a for a in absent if a in text]
    check(f"{name} at {n} ranks: the report says {wants[0]!r}", not missing,
          f"missing or unwanted: {missing}\n{text}")
    if deadlock:
        print(f"     {name} at {n} ranks: run ended after {took:.2f} s")
        check(f"{name} at {n} ranks: found as it happens, the command ended, nothing left behind",
              "deadlock found:\n" in text and ends + "\n" in text and "timeout after" not in text
              and took < FOUND_WITHIN and no_leftovers(tag), f"took={took:.2f}\n{text}")
    else:
        check(f"{name} at {n} ranks: no deadlock, the timeout ends it, nothing left behind",
              "timeout after 3.5 s" in text and "deadlock found" not in text and no_leftovers(tag), text)


# a topology constructor is reported under its own name (it runs on the
# communicator's internal lane, not as a user MPI_Allgather)
for n in (3, 4):
    hang("cart-create-skipped", n, "if r ~= 0 then w:cart_create({n - 1}, {false}) end".replace("n - 1", str(n - 1)),
         ["in MPI_Cart_create"], absent=["MPI_Allgather"])

# receive-receive: each waits for the other
for n in (2, 3):
    hang("recv-recv", n, "if r == 0 then w:recv(1, 5) elseif r == 1 then w:recv(0, 5) end",
         [f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Recv(source=1, tag=5) on {W} waits for 1, "
          f"rank 1 in MPI_Recv(source=0, tag=5) on {W} waits for 0"])

# synchronous sends, each waiting for its match, at an odd size between 0 and 2
hang("ssend-ssend", 3, "if r == 0 then w:ssend('a', 2, 1) elseif r == 2 then w:ssend('b', 0, 1) end",
     [f"deadlock: 0 -> 2 -> 0: rank 0 in MPI_Ssend(dest=2, tag=1) on {W} waits for 2, "
      f"rank 2 in MPI_Ssend(dest=0, tag=1) on {W} waits for 0"])

# the example: a barrier against a receive
hang("barrier-recv", 3, "if r == 2 then w:recv(0, 5) else w:barrier() end",
     [f"deadlock: 0 -> 2 -> 0: rank 0 in MPI_Barrier on {W} waits for 2, "
      f"rank 2 in MPI_Recv(source=0, tag=5) on {W} waits for 0"])

# collectives called in different orders
hang("collective-order", 2,
     "if r == 0 then w:barrier(); w:allreduce(1, mpi.SUM) else w:allreduce(1, mpi.SUM); w:barrier() end",
     [f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Barrier on {W} waits for 1, rank 1 in MPI_Allreduce on {W} waits for 0"])
hang("collective-order", 3,
     "if r == 2 then w:allreduce(1, mpi.SUM); w:barrier() else w:barrier(); w:allreduce(1, mpi.SUM) end",
     [f"deadlock: 0 -> 2 -> 0: rank 0 in MPI_Barrier on {W} waits for 2, rank 2 in MPI_Allreduce on {W} waits for 0-1"])

# a wrong root: rank 2 thinks it is the root of the reduction; the stuck
# ranks raise MPI_ERR_ROOT naming every root (docs/errors.md)
hang("wrong-root", 3, "w:reduce(r, mpi.SUM, r == 2 and 2 or 0)",
     [f"deadlock: rank 0 in MPI_Reduce(root=0) on {W} waits for 1: rank 1 is idle (finished the command)",
      f"mismatch: MPI_Reduce on {W} called with different arguments: root=0 at rank 0, root=2 at rank 2",
      "[0,2] error: MPI_ERR_ROOT in MPI_Reduce: the ranks gave different roots (root=0 at rank 0, root=2 at "
      "rank 2); MPI-3.1 §5.1: the root must have identical values on all processes\n"],
     absent=["LUMPI_ERR_INTERRUPTED"], ends="deadlock: ranks 0,2 raise MPI_ERR_ROOT (their roots differ)")

# a wrong tag: the sender finished, its message waits unmatched at the receiver
for n in (2, 3):
    hang("wrong-tag", n, "if r == 0 then w:send('x', 1, 5) elseif r == 1 then w:recv(0, 6) end",
         [f"deadlock: rank 1 in MPI_Recv(source=0, tag=6) on {W} waits for 0: rank 0 is idle (finished the "
          "command) (rank 1 has unmatched messages from 0 with tag 5)"])

# one rank skipped a barrier
hang("skipped-barrier", 5, "if r ~= 3 then w:barrier() end",
     [f"deadlock: ranks 0-2,4 in MPI_Barrier on {W} wait for 3: rank 3 is idle (finished the command)"])
hang("skipped-barrier", 2, "if r ~= 1 then w:barrier() end",
     [f"deadlock: rank 0 in MPI_Barrier on {W} waits for 1: rank 1 is idle (finished the command)"])

# a peer that finished, on a named communicator
hang("finished-peer", 3, "local c = w:dup(); c:set_name('w')\nif r == 0 then c:recv(2, 9) end",
     ["deadlock: rank 0 in MPI_Recv(source=2, tag=9) on 'w' waits for 2: rank 2 is idle (finished the command)"])

# a peer whose program finished (lumpi exec: MPI_Finalize), found as it happens
ring = os.path.join(os.path.dirname(os.path.abspath(LUMPI)), "lumpi-exec-ring")
t0 = time.time()
rc, out, err, tag = run(LUMPI, ["exec", "-n", "3", "--timeout", "3.5", ring, "orphan"], timeout=30)
took = time.time() - t0
check("lumpi exec: a wait for a finished program is diagnosed as it happens",
      rc == 1 and took < FOUND_WITHIN and "lumpi exec: deadlock found" in err and f"deadlock: rank 0 in MPI_Recv(source=2, tag=99) on {W} waits for 2: rank 2 is finished "
      "(its program ended)" in err, f"rc={rc} {err}")
check("lumpi exec: nothing left behind", no_leftovers(tag))

# a wildcard receive: only a possible deadlock
hang("wildcard", 3, "if r == 0 then w:recv(mpi.ANY_SOURCE, 1) else w:recv(0, 2) end",
     ["possible deadlock", "rank 0 in MPI_Recv(source=ANY_SOURCE, tag=1)", "waits for any of 1-2"],
     absent=["\ndeadlock: 0"])

# a wait on requests: MPI_Waitany waits for any of its requests' sources
hang("waitany", 3, "if r == 0 then mpi.waitany({w:irecv(1, 1), w:irecv(2, 1)}) else w:recv(0, 3) end",
     [f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Waitany on {W} waits for any of 1-2, "
      f"rank 1 in MPI_Recv(source=0, tag=3) on {W} waits for 0"], absent=["possible"])
# requests on two communicators: the wait names none of them
hang("waitany-two-comms", 3,
     "local d = w:dup(); if r == 0 then mpi.waitany({w:irecv(1, 1), d:irecv(2, 1)}) else w:recv(0, 3) end",
     ["deadlock: 0 -> 1 -> 0: rank 0 in MPI_Waitany waits for any of 1-2, "
      f"rank 1 in MPI_Recv(source=0, tag=3) on {W} waits for 0"], absent=["possible"])

# a wait on one request
hang("wait", 2, "local q = w:irecv(1 - r, 2); q:wait()",
     [f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Wait"])

# probes waiting for each other, at an odd size
hang("probe-probe", 3, "if r == 0 then w:probe(1, 2) elseif r == 1 then w:probe(0, 2) end",
     [f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Probe(source=1, tag=2) on {W} waits for 1, "
      f"rank 1 in MPI_Probe(source=0, tag=2) on {W} waits for 0"])

# a nonblocking collective one rank never started: the wait waits for it
hang("ibarrier-skipped", 3, "if r ~= 2 then w:ibarrier():wait() end",
     [f"deadlock: ranks 0-1 in MPI_Wait on {W} wait for 2: rank 2 is idle (finished the command)"])

# windows (MPI-3.1 §11.5): a fence one rank skipped; a lock whose holder waits for the
# rank that wants it (the target, idle, answers lock requests: it is not the one waited for)
hang("fence-skipped", 3, "local win = w:win_allocate(8, 8)\nif r ~= 1 then win:fence() end",
     ["deadlock: ranks 0,2 in MPI_Win_fence on 'window' wait for 1: rank 1 is idle (finished the command)"])
# (rank 1 asks for the lock only once rank 0 holds it: otherwise rank 1 may
# win the race, and the program ends without a deadlock)
hang("lock-held", 3, "local win = w:win_allocate(8, 8)\n"
     "if r == 0 then win:lock(mpi.LOCK_EXCLUSIVE, 2) w:send('held', 1, 8) w:recv(1, 7) "
     "elseif r == 1 then w:recv(0, 8) win:lock(mpi.LOCK_EXCLUSIVE, 2) win:unlock(2) w:send(1, 0, 7) end",
     [f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Recv(source=1, tag=7) on {W} waits for 1, "
      "rank 1 in MPI_Win_lock(target=2) on 'window' waits for any of 0,2 (whichever holds the lock)"])
# (Whether the report also says "rank 2 is idle" depends on whether rank 2
# had finished the command when the watch asked: both are true reports.)

# no diagnosis while the waited-for rank computes
hang("busy-peer", 2, "if r == 0 then w:recv(1, 1) else local t = os.time() + 30; while os.time() < t do end end",
     [f"[0] waiting in MPI_Recv(source=1, tag=1) on {W}"], absent=["deadlock"], deadlock=False)


# :status while a command hangs, and :queue, at the terminal
def pty_checks():
    with ptyrun.Lumpi(LUMPI, ["-n", "3"]) as l:
        l.prompt()
        out = l.command("w = mpi.COMM_WORLD; if mpi.rank() == 1 then w:send(8, 2, 4) end")
        # The send returns once the message is handed to ZeroMQ; rank 2 may
        # not have taken it off its socket yet when :queue asks: ask again,
        # for at most 5 s, until it has arrived.
        deadline = time.time() + 5
        out = l.command(":queue")
        while "[2] unmatched message" not in out and time.time() < deadline:
            time.sleep(0.1)
            out = l.command(":queue")
        check(":queue at the prompt shows an unmatched message with its size",
              "[0-1] no posted receives, no unmatched messages" in out
              and "[2] unmatched message: from 1, tag=4 on 'MPI_COMM_WORLD'" in out, out)
        l.line("if mpi.rank() == 0 then w:recv(2, 3) elseif mpi.rank() == 2 then w:recv(0, 3) end")
        l.expect(r"deadlock: 0 -> 2 -> 0", 8, "hang report")
        l.line(":queue")
        l.expect(r"\[0\] posted receive: source=2, tag=3 on 'MPI_COMM_WORLD'", 5, ":queue while running")
        l.expect(r"unmatched message: from 1, tag=4", 5, ":queue shows the old message too")
        l.line(":status")
        l.expect(r"\[1\] finished this command", 5, ":status while running")
        l.expect(r"deadlock: 0 -> 2 -> 0: rank 0 in MPI_Recv\(source=2, tag=3\)", 5, ":status diagnosis")
        l.ctrl_c()
        l.prompt(10)
        out = l.command(":on 2 w:recv(1, 4)", 10)
        check("the queued message is still there to receive", "[2] 8" in out, out)


# :queue on stdin; a flood of unmatched messages is shown up to the oldest 1000
rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="w = mpi.COMM_WORLD\n"
                        "if mpi.rank() == 0 then for i = 1, 1200 do w:send(i, 1, 7) end end; w:barrier()\n"
                        ":queue\n", timeout=60)
shown = out.count("unmatched message: from 0, tag=7 on 'MPI_COMM_WORLD'")
check(":queue shows the oldest 1000 of a flood", shown == 1000 and "[0] no posted receives" in out,
      f"{shown} shown\n{out[:2000]}\n{err}")
check(":queue on stdin leaves nothing behind", no_leftovers(tag))

try:
    pty_checks()
    check("pty: :status and :queue", True)
except ptyrun.Failure as e:
    check("pty: :status and :queue", False, str(e))
finish()
