"""tests/bench/mpi4py_bench.py: mpi4py's costs on whatever MPI it was built
with, one program for every launcher (lumpi exec, mpirun.openmpi,
mpiexec.mpich), run by bench.py's mpi4py suite.

  python3 mpi4py_bench.py pingpong REPS   2 ranks: half round trip of an
      8-byte message, buffer form (Send/Recv of a bytearray) and pickle form
      (send/recv of a small dict), microseconds, median of 5 batches
  python3 mpi4py_bench.py allreduce REPS  every rank: Allreduce of 8 doubles
      (buffer form), microseconds per call, median of 5 batches
Rank 0 prints one line per figure: "RESULT <what> <microseconds>".
"""
import statistics
import sys
import time

from mpi4py import MPI


def batches(fn, reps, n=5):
    out = []
    for _ in range(n):
        MPI.COMM_WORLD.Barrier()
        t0 = time.perf_counter()
        fn(reps)
        out.append((time.perf_counter() - t0) / reps * 1e6)
    return statistics.median(out)


def pingpong(reps):
    w = MPI.COMM_WORLD
    me, peer = w.Get_rank(), 1 - w.Get_rank()
    buf = bytearray(8)
    obj = {"step": 1, "payload": [1.0, 2.0]}

    def buffers(k):
        for _ in range(k):
            if me == 0:
                w.Send(buf, dest=peer, tag=1)
                w.Recv(buf, source=peer, tag=1)
            else:
                w.Recv(buf, source=peer, tag=1)
                w.Send(buf, dest=peer, tag=1)

    def pickles(k):
        for _ in range(k):
            if me == 0:
                w.send(obj, dest=peer, tag=2)
                w.recv(source=peer, tag=2)
            else:
                w.send(w.recv(source=peer, tag=2), dest=peer, tag=2)

    buffers(reps // 10)  # warm up
    b = batches(buffers, reps) / 2
    p = batches(pickles, reps) / 2
    if me == 0:
        print(f"RESULT pingpong_buffer_us {b:.2f}")
        print(f"RESULT pingpong_pickle_us {p:.2f}")


def allreduce(reps):
    import array
    w = MPI.COMM_WORLD
    send, recv = array.array("d", [1.0] * 8), array.array("d", [0.0] * 8)

    def run(k):
        for _ in range(k):
            w.Allreduce(send, recv, op=MPI.SUM)

    run(reps // 10)
    t = batches(run, reps)
    if w.Get_rank() == 0:
        print(f"RESULT allreduce8_us {t:.2f}")


if __name__ == "__main__":
    {"pingpong": pingpong, "allreduce": allreduce}[sys.argv[1]](int(sys.argv[2]))
