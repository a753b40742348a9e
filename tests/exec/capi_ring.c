/* tests/exec/capi_ring.c: a token around the ring of MPI_COMM_WORLD; rank 0
 * prints "ring N of N" (test_install.py, test_capi_shared.py: programs built
 * against libmpi.so, the static libraries, an installed prefix). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  int me, n, token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n == 1) token = 1;
  else if (me == 0) {
    token = 1;
    MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, n - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&token, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token += 1;
    MPI_Send(&token, 1, MPI_INT, (me + 1) % n, 0, MPI_COMM_WORLD);
  }
  if (me == 0) printf("ring %d of %d\n", token, n);
  MPI_Finalize();
  return 0;
}
