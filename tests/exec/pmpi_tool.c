/* tests/exec/pmpi_tool.c: a profiling tool as MPI-3.1 §14.2 has tools
 * written: its own MPI_Send and MPI_Bcast count the calls and go on to
 * lumpi through PMPI_Send and PMPI_Bcast; its MPI_Finalize adds up the
 * counts of every rank (through PMPI_ calls, which it does not count) and
 * rank 0 prints "tool: sends S, bcasts B". Linked into the program
 * (statically or with libmpi.so), built as a library the program links
 * before libmpi, or LD_PRELOADed into a program that knows nothing of it
 * (test_pmpi.py, with capi_pmpi.c). */
#include <mpi.h>
#include <stdio.h>

static int sends, bcasts;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  sends++;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  bcasts++;
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Finalize(void) {
  int mine[2] = {sends, bcasts}, all[2] = {0, 0}, me;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  PMPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("tool: sends %d, bcasts %d\n", all[0], all[1]);
  fflush(stdout);
  return PMPI_Finalize();
}
