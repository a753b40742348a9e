/* tests/bench/mpi_put.c: Open MPI anchor for lumpi-bench rma: rank 0 holds
 * an exclusive lock on rank 1's window and times MPI_Put+MPI_Win_flush
 * (MPI_Get+MPI_Win_flush) for the same sizes and iteration counts; rank 1
 * waits in a barrier. Prints "RMA put|get <bytes> <iters> <us_per_op> <MBps>".
 * Build: mpicc.openmpi -O2 -o mpi_put mpi_put.c
 * Run:   mpirun.openmpi -n 2 --mca btl tcp,self --mca btl_tcp_if_include lo ./mpi_put [divisor] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, div = argc > 1 ? atoi(argv[1]) : 1;
  if (div < 1) div = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const size_t most = 4 << 20;
  const size_t bytes[] = {8, 1024, 65536, 1 << 20, 4 << 20};
  const int iters0[] = {20000, 20000, 5000, 500, 200};
  char *mem, *buf = malloc(most);
  memset(buf, 'x', most);
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)most, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    for (int op = 0; op < 2; ++op)
      for (int s = 0; s < 5; ++s) {
        int iters = iters0[s] / div < 20 ? 20 : iters0[s] / div, warm = iters / 10;
        double t0 = 0;
        for (int i = -warm; i < iters; ++i) {
          if (i == 0) t0 = MPI_Wtime();
          if (op == 0) MPI_Put(buf, (int)bytes[s], MPI_BYTE, 1, 0, (int)bytes[s], MPI_BYTE, win);
          else MPI_Get(buf, (int)bytes[s], MPI_BYTE, 1, 0, (int)bytes[s], MPI_BYTE, win);
          MPI_Win_flush(1, win);
        }
        double us = (MPI_Wtime() - t0) / iters * 1e6;
        printf("RMA %s %zu %d %.2f %.1f\n", op == 0 ? "put" : "get", bytes[s], iters, us, (double)bytes[s] / us);
        fflush(stdout);
      }
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  free(buf);
  MPI_Finalize();
  return 0;
}
