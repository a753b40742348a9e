/* tests/exec/check_rma.c: one-sided cases of the checker (docs/checking.md),
   each buggy case beside its correct twin; the case is argv[1]. Rank 1 is
   the target (any world of 2 ranks or more); the other ranks are origins.

   put_put / put_put_ok: two origins put to one location in one fence epoch
     (3 ranks or more)
     (to different locations in the twin).
   put_get / put_get_ok: rank 0 puts to a location and gets it back in one
     fence epoch (puts and gets are not ordered; the twin gets another
     location).
   target_store / target_store_ok: the target stores into a location a put
     writes in the same fence epoch (after the closing fence in the twin).
   origin_store / origin_store_ok: an origin changes a put's origin buffer
     before the fence completes it (after, in the twin).
   get_store / get_store_ok: an origin writes into a get's result buffer
     before the fence (after, in the twin).
   acc_ok: every origin accumulates MPI_SUM to one location under a shared
     lock (no conflict: same op, same type).
   lock_flush_ok: origins put to one location in turn under lock_all,
     ordered by flush and a barrier.
   start_nopost / start_ok: rank 0 starts an access epoch to rank 1, which
     never posts (posts, in the twin). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;
static int cells[8];
static MPI_Win win;

static void put_put(int same) {
  int v = rank;
  MPI_Win_fence(0, win);
  if (rank != 1) MPI_Put(&v, 1, MPI_INT, 1, same ? 0 : rank % 8, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
}

static void put_get(int bug) {
  int v = 7, back = -1;
  MPI_Win_fence(0, win);
  if (rank == 0) {
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Get(&back, 1, MPI_INT, 1, bug ? 0 : 1, 1, MPI_INT, win);
  }
  MPI_Win_fence(0, win);
}

static void target_store(int bug) {
  int v = 7;
  MPI_Win_fence(0, win);
  if (rank == 0) MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
  if (rank == 1 && bug) cells[0] = 42;
  MPI_Win_fence(0, win);
  if (rank == 1 && !bug) cells[0] = 42;
}

static void origin_store(int bug) {
  int v = 7;
  MPI_Win_fence(0, win);
  if (rank == 0) MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
  if (bug) v = 8;
  MPI_Win_fence(0, win);
  if (!bug) v = 8;
}

static void get_store(int bug) {
  int v = 7;
  MPI_Win_fence(0, win);
  if (rank == 0) MPI_Get(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
  if (bug) v = 8;
  MPI_Win_fence(0, win);
  if (!bug) v = 8;
}

static void acc_ok(void) {
  int one = 1;
  MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
  MPI_Accumulate(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(1, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 && cells[0] != size) printf("sum %d, expected %d\n", cells[0], size);
}

static void lock_flush_ok(void) {
  MPI_Win_lock_all(0, win);
  for (int turn = 0; turn < size; ++turn) {
    if (rank == turn) {
      MPI_Put(&turn, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
      MPI_Win_flush(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Win_unlock_all(win);
}

static void start_post(int bug) {
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int peer = rank == 0 ? 1 : 0;
  MPI_Group_incl(world, 1, &peer, &g);
  if (rank == 0) {
    MPI_Win_start(g, 0, win);
    MPI_Put(&rank, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
  } else if (rank == 1 && !bug) {
    MPI_Win_post(g, 0, win);
    MPI_Win_wait(win);
  }
  MPI_Group_free(&g);
  MPI_Group_free(&world);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* c = argc > 1 ? argv[1] : "";
  MPI_Win_create(cells, sizeof cells, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  if (!strcmp(c, "put_put")) put_put(1);
  else if (!strcmp(c, "put_put_ok")) put_put(0);
  else if (!strcmp(c, "put_get")) put_get(1);
  else if (!strcmp(c, "put_get_ok")) put_get(0);
  else if (!strcmp(c, "target_store")) target_store(1);
  else if (!strcmp(c, "target_store_ok")) target_store(0);
  else if (!strcmp(c, "origin_store")) origin_store(1);
  else if (!strcmp(c, "origin_store_ok")) origin_store(0);
  else if (!strcmp(c, "get_store")) get_store(1);
  else if (!strcmp(c, "get_store_ok")) get_store(0);
  else if (!strcmp(c, "acc_ok")) acc_ok();
  else if (!strcmp(c, "lock_flush_ok")) lock_flush_ok();
  else if (!strcmp(c, "start_nopost")) start_post(1);
  else if (!strcmp(c, "start_ok")) start_post(0);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (rank == 0) printf("done\n");
  return 0;
}
