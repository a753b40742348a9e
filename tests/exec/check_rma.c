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
     never posts (posts, in the twin).
   shared_puts / shared_puts_ok: ranks 0 and 2 each put to one location of
     rank 1 under a shared lock, rank 2 a moment later, nothing between
     them (3 ranks or more); in the twin rank 0 tells rank 2 it has
     unlocked. exclusive_puts_ok: the same under exclusive locks, which
     order the two epochs. shared_after_exclusive_ok: rank 0 puts under an
     exclusive lock, rank 2 gets under a shared one.
   window_origin / window_origin_ok: under lock_all, rank 0 puts to cells
     0-3 of rank 1 while rank 1 puts from its own cells 2-3 to rank 0 (from
     cells 6-7 in the twin).
   window_result / window_result_ok: in a fence epoch rank 0 gets cell 0
     of rank 1 while rank 1 gets into its own cell 0 from rank 0 (into
     cell 7 in the twin).
   passive_store / passive_store_ok: under lock_all, rank 0 puts to cell
     0 of rank 1, which stores into cell 0 a moment later inside its own
     lock_all epoch; in the twin rank 0 tells rank 1 it has flushed.
   free_store / free_store_ok: the same with rank 0 locking rank 1 alone
     and rank 1 in no epoch (found at MPI_Win_free).
   get_send / get_send_ok: rank 0 gets a cell of rank 1 and sends the
     result buffer to rank 1 before the fence completes the get (after, in
     the twin): a local-concurrency finding. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

static void two_puts(int lock_type, int told) {
  int v = rank;
  if (rank == 2) {
    if (told) MPI_Recv(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else pause_ms(200);
  }
  if (rank == 0 || rank == 2) {
    MPI_Win_lock(lock_type, 1, 0, win);
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
  }
  if (rank == 0 && told) MPI_Send(NULL, 0, MPI_INT, 2, 0, MPI_COMM_WORLD);
}

static void shared_after_exclusive_ok(void) {
  int v = 7, back = -1;
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
  } else if (rank == 2) {
    pause_ms(100);
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get(&back, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
  }
}

static void window_origin(int bug) {
  int v[4] = {1, 2, 3, 4};
  MPI_Win_lock_all(0, win);
  if (rank == 0) MPI_Put(v, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
  if (rank == 1) MPI_Put(&cells[bug ? 2 : 6], 2, MPI_INT, 0, 0, 2, MPI_INT, win);
  MPI_Win_unlock_all(win);
}

static void window_result(int bug) {
  int back = -1;
  MPI_Win_fence(0, win);
  if (rank == 0) MPI_Get(&back, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
  if (rank == 1) MPI_Get(&cells[bug ? 0 : 7], 1, MPI_INT, 0, 4, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
}

static void passive_store(int bug, int all) {
  int v = 7;
  if (all) MPI_Win_lock_all(0, win);
  if (rank == 0) {
    if (!all) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    if (all) MPI_Win_flush(1, win);
    else MPI_Win_unlock(1, win);
    if (!bug) MPI_Send(NULL, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
  }
  if (rank == 1) {
    if (bug) pause_ms(200);
    else MPI_Recv(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    cells[0] = 42;
  }
  if (all) MPI_Win_unlock_all(win);
}

static void get_send(int bug) {
  int v = -1;
  MPI_Win_fence(0, win);
  if (rank == 0) {
    MPI_Get(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    if (bug) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  }
  if (rank == 1 && bug) MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Win_fence(0, win);
  if (rank == 0 && !bug) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  if (rank == 1 && !bug) MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
  else if (!strcmp(c, "shared_puts")) two_puts(MPI_LOCK_SHARED, 0);
  else if (!strcmp(c, "shared_puts_ok")) two_puts(MPI_LOCK_SHARED, 1);
  else if (!strcmp(c, "exclusive_puts_ok")) two_puts(MPI_LOCK_EXCLUSIVE, 0);
  else if (!strcmp(c, "shared_after_exclusive_ok")) shared_after_exclusive_ok();
  else if (!strcmp(c, "window_origin")) window_origin(1);
  else if (!strcmp(c, "window_origin_ok")) window_origin(0);
  else if (!strcmp(c, "window_result")) window_result(1);
  else if (!strcmp(c, "window_result_ok")) window_result(0);
  else if (!strcmp(c, "passive_store")) passive_store(1, 1);
  else if (!strcmp(c, "passive_store_ok")) passive_store(0, 1);
  else if (!strcmp(c, "free_store")) passive_store(1, 0);
  else if (!strcmp(c, "free_store_ok")) passive_store(0, 0);
  else if (!strcmp(c, "get_send")) get_send(1);
  else if (!strcmp(c, "get_send_ok")) get_send(0);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (rank == 0) printf("done\n");
  return 0;
}
