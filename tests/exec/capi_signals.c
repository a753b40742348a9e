/* tests/exec/capi_signals.c: a program whose own signals interrupt lumpi's
 * calls. A SIGALRM handler installed without SA_RESTART fires every 0.5 ms
 * from before MPI_Init to after MPI_Finalize (as a program's own timer or a
 * sampling profiler would), so start-up, messages, collectives, waits and
 * the shutdown handshake all meet EINTR; every call must carry on as if no
 * signal had come. Prints "done" when every check passes.
 *
 *   capi_signals early-death   (3 ranks or more) rank 2 is killed by its
 *       own SIGALRM while MPI_Init waits for rank 1, which joins 2 s late;
 *       rank 0 and rank 1, whose MPI_Init then returns, are told of the
 *       death: a receive from rank 2 and MPI_Finalize end with
 *       MPI_ERR_PROC_FAILED under MPI_ERRORS_RETURN instead of waiting
 *       for ever. Rank 0 prints what each got. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"

static volatile sig_atomic_t alarms = 0;

static void on_alarm(int sig) {
  (void)sig;
  alarms++;
}

static void every(long usec) {
  struct itimerval t;
  memset(&t, 0, sizeof t);
  t.it_interval.tv_usec = usec;
  t.it_value.tv_usec = usec;
  setitimer(ITIMER_REAL, &t, NULL);
}

static int class_of(int code) {
  int c = MPI_SUCCESS;
  MPI_Error_class(code, &c);
  return c;
}

static int early_death(int argc, char** argv) {
  const char* env = getenv("LUMPI_RANK");
  int rank = env ? atoi(env) : -1;
  if (rank == 1) sleep(2);
  if (rank == 2) alarm(1); /* SIGALRM's default action ends the process */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int value = 0, rc = MPI_SUCCESS;
  if (me == 0) rc = MPI_Recv(&value, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int fin = MPI_Finalize();
  if (me == 0)
    printf("rank 0: recv %s, finalize %s\n", class_of(rc) == MPI_ERR_PROC_FAILED ? "MPI_ERR_PROC_FAILED" : "other",
           class_of(fin) == MPI_ERR_PROC_FAILED ? "MPI_ERR_PROC_FAILED" : "other");
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "early-death") == 0) return early_death(argc, argv);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = 0; /* no SA_RESTART: blocking calls return EINTR */
  sigaction(SIGALRM, &sa, NULL);
  every(500);

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  for (int round = 0; round < 200; ++round) {
    int token = round, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, (me + 1) % n, round, &got, 1, MPI_INT, (me + n - 1) % n, round,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == round, "round %d: got %d", round, got);
    int sum = 0;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == n * (n - 1) / 2, "round %d: allreduce gave %d", round, sum);
    MPI_Request r[2];
    MPI_Irecv(&got, 1, MPI_INT, (me + n - 1) % n, 1000 + round, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&token, 1, MPI_INT, (me + 1) % n, 1000 + round, MPI_COMM_WORLD, &r[1]);
    int index = -1;
    MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(got == round, "round %d: nonblocking got %d", round, got);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  CHECK(alarms > 0, "no alarm came");
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(all ? "%d failures\n" : "done\n", all);
  fflush(stdout);
  MPI_Finalize();
  every(0);
  return all != 0;
}
