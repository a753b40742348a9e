/* scripts/counter.c: the lesson of docs/windows.md, the C twin of
 * scripts/counter.lua. A counter in rank 0's window that every rank adds 1
 * to, three ways: MPI_Fetch_and_op (one atomic operation), then MPI_Get and
 * MPI_Put under a shared lock (a race: the ranks all read before any of
 * them writes, and increments are lost), then the same under an exclusive
 * lock. Rank 0 prints the count each time.
 *   build/lumpi-cc -o counter scripts/counter.c && build/lumpi exec -n 3 ./counter */
#include <mpi.h>
#include <stdio.h>

static int me, n;
static long *counter;

/* Rank 0 shows the counter once every rank is done, and sets it back to 0. */
static void show(const char *how) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    printf("%s: %ld of %d\n", how, *counter, n);
    *counter = 0;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Read, add, write; with `race`, every rank reads before any writes. */
static void get_add_put(MPI_Win win, int lock_type, int race) {
  long v;
  MPI_Win_lock(lock_type, 0, 0, win);
  MPI_Get(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
  MPI_Win_flush(0, win);
  if (race) MPI_Barrier(MPI_COMM_WORLD);
  v += 1;
  MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
  MPI_Win_unlock(0, win);
}

int main(int argc, char **argv) {
  MPI_Win win;
  long one = 1, old;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
  MPI_Win_set_name(win, "counter");
  *counter = 0;
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  show("fetch_and_op");

  get_add_put(win, MPI_LOCK_SHARED, 1);
  show("get + put, shared lock");

  get_add_put(win, MPI_LOCK_EXCLUSIVE, 0); /* no barrier inside: the others wait for the lock */
  show("get + put, exclusive lock");

  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
