/* scripts/hello.c: the first C program of docs/c-api.md. Every rank sends
 * its rank to rank 0 (MPI_Gather), which prints one line. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *all = rank == 0 ? malloc(sizeof(int) * (size_t)size) : NULL;
  MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("hello from %d ranks:", size);
    for (int i = 0; i < size; i++) printf(" %d", all[i]);
    printf("\n");
    free(all);
  }
  MPI_Finalize();
  return 0;
}
