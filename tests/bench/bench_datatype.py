"""tests/bench/bench_datatype.py: bench.py's `datatype` suite (issue 24's
targets): tests/bench/c_datatype.c on lumpi, MPICH and Open MPI
(bench_csource.py), 2 ranks:

- a 1 MiB column of a row-major matrix (MPI_Type_vector) against the same
  bytes sent contiguously: at most 1.5 x on lumpi, and lumpi's ratio at
  most 2 x MPICH's and Open MPI's own ratio;
- MPI_MAXLOC over 10^6 MPI_DOUBLE_INT pairs against MPI_MAX over 10^6
  doubles (MPI_Allreduce): at most 2 x.
"""
import bench_csource


def suite_datatype(a, anchors, lumpi, bench_exe, bench):
    bench_csource.suite(a, bench, lumpi, "c_datatype.c", "datatype",
                        "Datatypes (issue 24): c_datatype.c at 2 ranks, µs",
                        ("CONT1M", "VEC1M", "MAX1M", "MAXLOC1M"), (("VEC1M", "CONT1M"), ("MAXLOC1M", "MAX1M")),
                        "VEC1M / CONT1M at most 1.5 on lumpi and at most 2 x the same ratio of MPICH and "
                        "Open MPI; MAXLOC1M / MAX1M at most 2.")
