"""tests/mpi4py/instrument.py: Python ranks get what C ranks get from
`lumpi exec` (issue 26, item 4), checked with the mpi4py run_mpi4py.py
built: the hang report naming the MPI call each rank waits in (--timeout),
Ctrl-C showing the same and stopping the world, the deadlock found as it
happens, MPI_ERR_PROC_FAILED for the peer of a rank that died; no process
left behind by any of them. Each case at 2 and 3 ranks.
"""
import os
import signal
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from lumpitest import pids_with_tag  # noqa: E402

PYTHON = "/usr/bin/python3"

# rank 0 receives from rank 1, which computes (sleeps) for a long while:
# a hang, not a deadlock
HANG = """
import time
from mpi4py import MPI
w = MPI.COMM_WORLD
if w.rank == 0:
    w.recv(source=1, tag=5)
else:
    time.sleep(60)
"""
# every rank receives first: a deadlock
DEADLOCK = """
from mpi4py import MPI
w = MPI.COMM_WORLD
w.recv(source=(w.rank + 1) % w.size)
"""
# rank 1 dies after the barrier; rank 0's receive from it must fail
DEAD_PEER = """
import os
from mpi4py import MPI
w = MPI.COMM_WORLD
w.Barrier()
if w.rank == 1:
    os._exit(3)
if w.rank == 0:
    try:
        w.recv(source=1)
        print("rank 0: the receive returned")
    except MPI.Exception as e:
        print("rank 0:", e.Get_error_string().split(":")[0])
"""


def start(lumpi, lib, np, program, extra=()):
    """lumpi exec of program at np ranks, tagged so its processes can be found."""
    tag = "lumpi-mpi4py-" + uuid.uuid4().hex
    env = dict(os.environ, LUMPI_TEST_TAG=tag, PYTHONPATH=lib)
    p = subprocess.Popen([lumpi, "exec", "-n", str(np), *extra, PYTHON, "-c", program], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    return p, tag


def finish(p, tag, timeout=60):
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        err += f"\n(lumpi exec did not end in {timeout} s)"
    time.sleep(0.2)
    left = pids_with_tag(tag)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return p.returncode, out, err, left


def cases(lumpi, lib, np):
    """(what, passed, detail) for each case at np ranks."""
    p, tag = start(lumpi, lib, np, HANG, ["--timeout", "2"])
    rc, out, err, left = finish(p, tag)
    yield ("--timeout shows the MPI call each rank waits in", rc == 124 and
           "[0] waiting in MPI_Mprobe(source=1, tag=5)" in err and "deadlock" not in err, f"rc={rc} {err}")
    yield ("no process left after --timeout", not left, left)

    p, tag = start(lumpi, lib, np, HANG)
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    rc, out, err, left = finish(p, tag)
    yield ("Ctrl-C shows where rank 0 waits and stops the world (130)", rc == 130 and
           "interrupted (Ctrl-C)" in err and "[0] waiting in MPI_Mprobe(source=1, tag=5)" in err, f"rc={rc} {err}")
    yield ("no process left after Ctrl-C", not left, left)

    p, tag = start(lumpi, lib, np, DEADLOCK)
    rc, out, err, left = finish(p, tag)
    yield ("a deadlock is found as it happens (status 1)", rc == 1 and "deadlock found" in err and
           "in MPI_Mprobe(source=" in err, f"rc={rc} {err}")
    yield ("no process left after the deadlock", not left, left)

    p, tag = start(lumpi, lib, np, DEAD_PEER)
    rc, out, err, left = finish(p, tag)
    yield ("the peer of a dead rank gets MPI_ERR_PROC_FAILED; the run ends with the dead rank's status",
           out == "rank 0: MPI_ERR_PROC_FAILED in MPI_Mprobe\n" and rc == 3, f"rc={rc} out={out!r} err={err}")
    yield ("no process left after the death", not left, left)


def check(lumpi, lib, sizes=(2, 3)):
    """Lines to print, and how many cases failed."""
    lines, wrong = [], 0
    for np in sizes:
        for what, ok, detail in cases(os.path.abspath(lumpi), lib, np):
            lines.append(f"{'ok  ' if ok else 'FAIL'} instrument, {np} ranks: {what}" +
                         ("" if ok else f"\n     {str(detail)[-1500:]}"))
            wrong += not ok
    return lines, wrong


if __name__ == "__main__":  # instrument.py LUMPI MPI4PY_BUILD_LIB
    text, failed = check(sys.argv[1], sys.argv[2])
    print("\n".join(text))
    sys.exit(1 if failed else 0)
