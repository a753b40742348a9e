/* tests/exec/deadlock_poll.c: polling loops that can never succeed, each
   beside a correct twin (core/engine/poll.hpp, docs/checking.md
   "Deadlocks"), run by tests/integration/test_deadlock_poll.py with
   lumpi exec at several world sizes. The buggy ones loop for ever: the
   deadlock watch must find them without a timeout. Prints "done" at the end.
   usage: deadlock_poll CASE */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int rank, size;

/* Longer than the watch's two seconds (kPollNoticeMs), so that it is told
   of the twins' loops and must stay silent. */
#define LATE 2.5

static void compute(double seconds) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
}

/* Rank 1 tests a receive rank 0 never sends (bug), or sends after
   computing for longer than the watch's two seconds (ok). */
static void test_loop(int sends) {
  int x = 0, flag = 0;
  MPI_Request r;
  if (rank == 1) {
    MPI_Irecv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  } else if (rank == 0 && sends) {
    compute(LATE);
    MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  }
}

/* Rank 0 probes for tag 3 while rank 1 sent tag 4 (bug), or tag 3 late (ok). */
static void iprobe_loop(int right_tag) {
  int flag = 0, x = 1;
  if (rank == 0) {
    while (!flag) MPI_Iprobe(1, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    if (right_tag) compute(LATE);
    MPI_Send(&x, 1, MPI_INT, 0, right_tag ? 3 : 4, MPI_COMM_WORLD);
  }
  if (!right_tag && rank == 0) MPI_Recv(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0 waits with MPI_Testany for two receives from the last rank,
   which sends only the first (bug) or both, the second late (ok). */
static void testany_loop(int both) {
  int a = 0, b = 0, idx, flag;
  const int last = size - 1;
  MPI_Request r[2];
  if (rank == 0) {
    MPI_Irecv(&a, 1, MPI_INT, last, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&b, 1, MPI_INT, last, 1, MPI_COMM_WORLD, &r[1]);
    for (int k = 0; k < 2; k++) {
      flag = 0;
      while (!flag) MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE);
    }
  } else if (rank == last) {
    MPI_Send(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (both) {
      compute(LATE);
      MPI_Send(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
  }
}

/* Rank 0 polls a receive from 1 while rank 1 waits in MPI_Recv for 0:
   a cycle through the loop (bug); the twin sends before polling (ok). */
static void poll_cycle(int sends_first) {
  int x = 0, y = 0, flag = 0;
  MPI_Request r;
  if (rank == 0) {
    MPI_Irecv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
    if (sends_first) MPI_Send(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    if (!sends_first) MPI_Send(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
}

/* A loop that tests and also sends between its tests: each call differs,
   so it is no polling streak, however long (ok, the peer answers late). */
static void busy_loop(void) {
  int x = 0, flag = 0, tick = 0;
  MPI_Request r;
  if (rank == 0) {
    MPI_Irecv(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r);
    while (!flag) {
      MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
      if (!flag && tick < 3) {
        MPI_Send(&tick, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
        tick++;
      }
    }
  } else if (rank == 1) {
    int got;
    for (int i = 0; i < 3; i++) MPI_Recv(&got, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    compute(LATE);
    MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  }
}

/* Rank 0 computes 1200 steps of 2.5 ms and tests, between two steps, for
   an abort message that never comes; then cancels it and sends its result
   to rank 1, which waits in MPI_Recv. The loop ends by its count: a
   compute loop, not a wait (ok). */
static void compute_loop(void) {
  int stop = 0, result = 0, flag = 0;
  MPI_Request r;
  if (rank == 0) {
    MPI_Irecv(&stop, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r);
    for (int step = 0; step < 1200 && !flag; step++) {
      compute(0.0025);
      result += step;
      MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    }
    if (!flag) {
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Send(&result, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&result, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

/* Rank 1 spins on MPI_Iprobe for an optional message for 0.8 s, gives up
   and sends its report to rank 0, which waits in MPI_Recv: a loop with a
   deadline shorter than the watch's two seconds (ok). */
static void deadline_loop(void) {
  int flag = 0, report = 1;
  if (rank == 1) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
      MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      clock_gettime(CLOCK_MONOTONIC, &t);
    } while (!flag && (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < 0.8);
    MPI_Send(&report, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&report, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "test")) test_loop(0);
  else if (!strcmp(c, "test_ok")) test_loop(1);
  else if (!strcmp(c, "iprobe")) iprobe_loop(0);
  else if (!strcmp(c, "iprobe_ok")) iprobe_loop(1);
  else if (!strcmp(c, "testany")) testany_loop(0);
  else if (!strcmp(c, "testany_ok")) testany_loop(1);
  else if (!strcmp(c, "cycle")) poll_cycle(0);
  else if (!strcmp(c, "cycle_ok")) poll_cycle(1);
  else if (!strcmp(c, "busy_ok")) busy_loop();
  else if (!strcmp(c, "compute_ok")) compute_loop();
  else if (!strcmp(c, "deadline_ok")) deadline_loop();
  else {
    if (rank == 0) fprintf(stderr, "unknown case '%s'\n", c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  if (rank == 0) printf("done\n");
  return 0;
}
