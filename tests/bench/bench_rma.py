"""tests/bench/bench_rma.py: bench.py's `rma` suite (issue 28's targets):
tests/bench/c_rma.c on lumpi, MPICH and Open MPI (bench_csource.py), 2
ranks:

- a 1-double MPI_Fetch_and_op + flush under MPI_Win_lock_all (FOP) within
  2 x of the same system's 8-byte round trip (RTT8);
- a 1 MiB MPI_Put + flush (PUT1M) within 1.2 x of a 1 MiB send answered by
  a 0-byte message (SEND1M).
"""
import bench_csource


def suite_rma(a, anchors, lumpi, bench_exe, bench):
    bench_csource.suite(a, bench, lumpi, "c_rma.c", "rma",
                        "One-sided (issue 28): c_rma.c at 2 ranks, µs per operation",
                        ("RTT8", "FOP", "SEND1M", "PUT1M"), (("FOP", "RTT8"), ("PUT1M", "SEND1M")),
                        "FOP / RTT8 at most 2 on lumpi; PUT1M / SEND1M at most 1.2.")
