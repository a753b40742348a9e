/*
 * tests/bench/mpi_allreduce1000.c: the anchor for lumpi's 1000-number
 * allreduce: MPI_Allreduce of 1000 doubles (MPI_SUM) per call, timed as
 * /work/shared/anchors/mpi_coll.c times its operations. Built on demand by
 * bench.py into a scratch directory. Usage: mpi_allreduce1000 [target_s
 * [count]] (count up to 131072, 1 MiB: typed_bench.py). Output (rank 0):
 *   COLL allreduce<count> <nranks> <iters> <us_per_call>
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MOST 131072
static double in[MOST], out[MOST];
static int count = 1000;

static double timed(long n) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double dt = (MPI_Wtime() - t0) / (double)n, mx;
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

int main(int argc, char **argv) {
    int rank, size;
    double target = 0.5;
    MPI_Init(&argc, &argv);
    if (argc > 1) target = atof(argv[1]);
    if (argc > 2) count = atoi(argv[2]);
    if (count < 1 || count > MOST) count = 1000;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < count; i++) in[i] = 1.0;
    timed(5);
    double pilot = timed(20);
    long n = (long)(target / (pilot > 1e-9 ? pilot : 1e-9));
    if (n < 20) n = 20;
    if (n > 200000) n = 200000;
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    double t = timed(n);
    if (rank == 0) printf("COLL allreduce%d %d %ld %.3f\n", count, size, n, t * 1e6);
    MPI_Finalize();
    return 0;
}
