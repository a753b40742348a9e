/* tests/exec/capi_waitany.c: MPI_Waitany and MPI_Waitsome wait as MPI_Wait
 * does (MPI-3.1 §3.7.5): asleep in the progress engine, not spinning, seen
 * by the hang report, and ended by a peer's death.
 *
 *   capi_waitany        rank 0 waits in MPI_Waitany, then MPI_Waitsome, on
 *                       a message the last rank sends after 0.4 s; the CPU
 *                       time rank 0 spends meanwhile must stay under a
 *                       quarter of the time it waited (a spinning wait
 *                       takes all of it). Prints "done".
 *   capi_waitany hang   rank 0 waits in MPI_Waitany for a message from the
 *                       last rank, which computes (sleeps) a minute first:
 *                       a hang, no deadlock (lumpi exec --timeout shows
 *                       where it waits)
 *   capi_waitany dead   the last rank exits 4 without MPI_Finalize; rank 0,
 *                       in MPI_Waitany on a receive from it under
 *                       MPI_ERRORS_RETURN, prints the class it gets */
#include <mpi.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Rank 0 waits (any or some) for a message the last rank sends late. */
static void sleeps(int some) {
  const char* name = some ? "MPI_Waitsome" : "MPI_Waitany";
  int last = n - 1, value = 0, never = 0;
  if (me == last && me != 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    usleep(400000);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    return;
  }
  if (me != 0 || n == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  }
  MPI_Request r[3];
  r[0] = MPI_REQUEST_NULL;
  MPI_Irecv(&never, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[1]); /* from itself, sent below */
  MPI_Irecv(&value, 1, MPI_INT, last, 1, MPI_COMM_WORLD, &r[2]);
  MPI_Barrier(MPI_COMM_WORLD);
  double wall = MPI_Wtime(), cpu = cpu_seconds();
  int index = -1, count = 0, indices[3], rc;
  if (some)
    rc = MPI_Waitsome(3, r, &count, indices, MPI_STATUSES_IGNORE);
  else
    rc = MPI_Waitany(3, r, &index, MPI_STATUS_IGNORE);
  wall = MPI_Wtime() - wall;
  cpu = cpu_seconds() - cpu;
  if (some) index = count == 1 ? indices[0] : -1;
  CHECK(rc == MPI_SUCCESS && index == 2 && value == 42, "%s: rc %d index %d value %d", name, rc, index, value);
  CHECK(wall > 0.2, "%s returned after %.3f s, before the message was sent", name, wall);
  CHECK(cpu < wall / 4, "%s spent %.3f s on the CPU in %.3f s of waiting", name, cpu, wall);
  int one = 1;
  MPI_Send(&one, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  rc = MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && never == 1, "the other receive: rc %d value %d", rc, never);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int value = 0, index = -1;
  MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (strcmp(mode, "hang") == 0) {
    if (me == n - 1)
      for (int s = 0; s < 600; ++s) usleep(100000); /* computing, outside MPI */
    if (me == 0) {
      MPI_Irecv(&value, 1, MPI_INT, n - 1, 99, MPI_COMM_WORLD, &r[1]);
      MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE);
    }
  } else if (strcmp(mode, "dead") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* MPI_Finalize meets the death too */
    if (me == n - 1) _exit(4);
    if (me == 0) {
      MPI_Irecv(&value, 1, MPI_INT, n - 1, 7, MPI_COMM_WORLD, &r[1]);
      int rc = MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE), cls = MPI_SUCCESS;
      MPI_Error_class(rc, &cls);
      printf("rank 0: %s, index %d, request %s\n", cls == MPI_ERR_PROC_FAILED ? "MPI_ERR_PROC_FAILED" : "another class",
             index, r[1] == MPI_REQUEST_NULL ? "freed" : "kept");
    }
  } else {
    sleeps(0);
    sleeps(1);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "%d failures\n" : "done\n", all);
    MPI_Finalize();
    return all != 0;
  }
  MPI_Finalize();
  return 0;
}
