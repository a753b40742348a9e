/* tests/exec/capi_passive.c: passive-target progress does not depend on the
 * target calling MPI (issue 28 item 2, core/engine/passive.cpp). Rank 0
 * computes in a busy loop for 2 s without any MPI call; every other rank
 * meanwhile locks rank 0's window, gets, accumulates, fetches and unlocks,
 * and checks that it was done well before the target's loop ends (under
 * 1 s). After the loop rank 0 checks what was accumulated. Then the roles
 * turn: the target computes inside no MPI call while a shared lock_all
 * epoch with MPI_MODE_NOCHECK runs against it.
 * `capi_passive race` (for `lumpi exec --check`, 3 or more ranks): while
 * rank 0 computes, every other rank puts its rank to the same location
 * under a shared lock and holds the lock 0.5 s, so the puts are pending at
 * the target together: a conflict (MPI-3.1 §11.7) that the passive thread
 * sees and that is reported once the target calls MPI again. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The target's computation: no MPI call for `seconds`; returns a value
 * that depends on every step, so the loop cannot be optimized away. */
static double compute(double seconds) {
  double until = now() + seconds, x = 0;
  while (now() < until)
    for (int i = 0; i < 1000; ++i) x += 1e-9 * (double)i;
  return x;
}

/* Rank 0 computes; each origin does its epoch under `lock` and reports how
 * long it took. */
static void origins_during_compute(MPI_Win win, int exclusive) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    double x = compute(2.0);
    CHECK(x > 0, "the computation ran");
    return;
  }
  double t0 = now();
  long before = -1, one = 1, mine = me, fetched = -1;
  MPI_Win_lock(exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 0, 0, win);
  MPI_Get(&before, 1, MPI_LONG, 0, me, 1, MPI_LONG, win);
  MPI_Win_flush(0, win); /* the get completes before the accumulate to its location (§11.7) */
  MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
  MPI_Accumulate(&mine, 1, MPI_LONG, 0, me, 1, MPI_LONG, MPI_SUM, win);
  MPI_Fetch_and_op(NULL, &fetched, MPI_LONG, 0, me, MPI_NO_OP, win);
  MPI_Win_unlock(0, win);
  double took = now() - t0;
  CHECK(took < 1.0, "%s epoch on a computing target took %.3f s (its loop lasts 2 s)",
        exclusive ? "an exclusive" : "a shared", took);
  CHECK(fetched == before + me, "get %ld, then fetch_and_op %ld after adding %d", before, fetched, me);
}

/* Two origins' puts to one location in concurrent shared lock epochs. */
static void race(MPI_Win win) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    compute(2.0);
  } else {
    long mine = me;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Put(&mine, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    double until = now() + 0.5;
    while (now() < until) {
    }
    MPI_Win_unlock(0, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long *mem;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)(n * sizeof(long)), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  if (argc > 1 && strcmp(argv[1], "race") == 0) {
    race(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
  }
  origins_during_compute(win, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    CHECK(mem[0] == n - 1, "every origin's accumulate landed: %ld", mem[0]);
    for (int r = 1; r < n; ++r) CHECK(mem[r] == r, "origin %d's accumulate: %ld", r, mem[r]);
  }
  origins_during_compute(win, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) CHECK(mem[0] == 2 * (n - 1), "the shared epochs' accumulates: %ld", mem[0]);

  /* lock_all with MODE_NOCHECK: only the flush asks the target */
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    compute(2.0);
  } else {
    double t0 = now();
    long one = 1, old = -1;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock_all(win);
    CHECK(now() - t0 < 1.0, "fetch_and_op + flush on a computing target took %.3f s", now() - t0);
    CHECK(old >= 2 * (n - 1), "fetch_and_op's old value %ld", old);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) CHECK(mem[0] == 3 * (n - 1), "lock_all's fetch_and_ops: %ld", mem[0]);
  MPI_Win_free(&win);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("capi_passive ok\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
