"""tests/exec/ctypes_ranks.py: a Python process becomes a lumpi rank through
ctypes alone, as a binding (mpi4py, Rmpi, ...) makes it. Started by
`lumpi exec`, it loads libmpi.so with RTLD_GLOBAL (as bindings do) and
calls MPI_Init, the door a C program's main takes; the handles' values
come from mpi.h. Every rank checks the sum of rank + 1 and the largest
rank over the world; rank 0 prints them. With --module, it loads a shared
object built with `lumpi-cc -shared` (tests/exec/shared_module.c) instead
and calls its module_run, as Python loads an extension.

usage: lumpi exec -n N /usr/bin/python3 ctypes_ranks.py path/to/libmpi.so path/to/mpi.h
       lumpi exec -n N /usr/bin/python3 ctypes_ranks.py --module path/to/module.so
"""
import ctypes
import re
import sys


def expect_sum(rank, size, total):
    if total != size * (size + 1) // 2:
        sys.exit(f"ctypes_ranks: rank {rank} of {size}: sum {total}")


def run_module(path):
    module = ctypes.CDLL(path)
    rank, size = ctypes.c_int(-1), ctypes.c_int(0)
    total = module.module_run(ctypes.byref(rank), ctypes.byref(size))
    expect_sum(rank.value, size.value, total)
    if rank.value == 0:
        print(f"module: {size.value} ranks, sum {total}")


def run_libmpi(path, header):
    k = {m.group(1): int(m.group(2))
         for m in re.finditer(r"^#define (MPI_\w+) (-?\d+)\s*$", open(header).read(), re.M)}
    mpi = ctypes.CDLL(path, ctypes.RTLD_GLOBAL)

    def ok(rc, what):
        if rc != k["MPI_SUCCESS"]:
            sys.exit(f"ctypes_ranks: {what} returned {rc}")

    ok(mpi.MPI_Init(None, None), "MPI_Init")
    world = k["MPI_COMM_WORLD"]
    rank, size = ctypes.c_int(-1), ctypes.c_int(0)
    ok(mpi.MPI_Comm_rank(world, ctypes.byref(rank)), "MPI_Comm_rank")
    ok(mpi.MPI_Comm_size(world, ctypes.byref(size)), "MPI_Comm_size")
    mine, total = ctypes.c_int(rank.value + 1), ctypes.c_int(0)
    ok(mpi.MPI_Allreduce(ctypes.byref(mine), ctypes.byref(total), 1, k["MPI_INT"], k["MPI_SUM"], world),
       "MPI_Allreduce")
    top = ctypes.c_int(-1)
    ok(mpi.MPI_Allreduce(ctypes.byref(rank), ctypes.byref(top), 1, k["MPI_INT"], k["MPI_MAX"], world),
       "MPI_Allreduce")
    ok(mpi.MPI_Finalize(), "MPI_Finalize")
    expect_sum(rank.value, size.value, total.value)
    if top.value != size.value - 1:
        sys.exit(f"ctypes_ranks: rank {rank.value}: largest rank {top.value}")
    if rank.value == 0:
        print(f"ctypes: {size.value} ranks, sum {total.value}, largest rank {top.value}")


if len(sys.argv) == 3 and sys.argv[1] == "--module":
    run_module(sys.argv[2])
elif len(sys.argv) == 3:
    run_libmpi(sys.argv[1], sys.argv[2])
else:
    sys.exit(__doc__)
