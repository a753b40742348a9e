/*
 * tests/bench/mpi_allreduce1000.c: the anchor for lumpi's 1000-number
 * allreduce: MPI_Allreduce of 1000 doubles (MPI_SUM) per call, timed as
 * /work/shared/anchors/mpi_coll.c times its operations. Built on demand by
 * bench.py into a scratch directory. Output (rank 0):
 *   COLL allreduce1000 <nranks> <iters> <us_per_call>
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double in[1000], out[1000];

static double timed(long n) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Allreduce(in, out, 1000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double dt = (MPI_Wtime() - t0) / (double)n, mx;
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

int main(int argc, char **argv) {
    int rank, size;
    double target = 0.5;
    MPI_Init(&argc, &argv);
    if (argc > 1) target = atof(argv[1]);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 1000; i++) in[i] = 1.0;
    timed(5);
    double pilot = timed(20);
    long n = (long)(target / (pilot > 1e-9 ? pilot : 1e-9));
    if (n < 20) n = 20;
    if (n > 200000) n = 200000;
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    double t = timed(n);
    if (rank == 0) printf("COLL allreduce1000 %d %ld %.3f\n", size, n, t * 1e6);
    MPI_Finalize();
    return 0;
}
