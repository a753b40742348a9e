/* tests/exec/shared_module.c: a shared object built with `lumpi-cc -shared
 * -fPIC`, as a Python extension or a plugin is (test_capi_shared.py). Its
 * MPI calls resolve to libmpi.so, which it finds by the run path lumpi-cc
 * gave it; whoever loads it (dlopen_host.c, or Python's ctypes) becomes a
 * rank by its MPI_Init. module_run() joins the world, sums rank + 1 over it,
 * leaves, and returns the sum (-1 if the sum failed). */
#include <mpi.h>

int module_run(int *rank, int *size) {
  int mine, sum = -1;
  MPI_Init(NULL, NULL); /* errors are fatal: a failed MPI_Init ends the process */
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  mine = *rank + 1;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) sum = -1;
  MPI_Finalize();
  return sum;
}
