/* tests/exec/capi_agree.c: a collective call whose arguments must agree
 * (leaders, high, groups, recvcounts) fails on every rank with the same
 * error class and text, or succeeds on every rank; an idup result is
 * MPI_ERR_COMM on every rank until its request completes (issue 27, item
 * 1). Needs at least 3 ranks; prints "done" on rank 0 when every check
 * passed. Errors are returned (MPI_ERRORS_RETURN on COMM_WORLD). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* A cheap fingerprint of an error string, to compare texts across ranks. */
static long text_hash(const char* s) {
  unsigned long h = 5381;
  for (; *s; ++s) h = h * 33u + (unsigned char)*s;
  return (long)(h & 0x7fffffff);
}

/* rc must be an error of class `want` on every rank, with the same text
 * everywhere, containing `needle`. */
static void failed_everywhere(int rc, int want, const char* needle, const char* what) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0, cls = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) {
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
  }
  CHECK(cls == want, "%s: class %d, expected %d (%s)", what, cls, want, text);
  CHECK(strstr(text, needle) != NULL, "%s: '%s' does not name '%s'", what, text, needle);
  long mine[2] = {text_hash(text), -text_hash(text)}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(all[0] == mine[0] && all[1] == mine[1], "%s: ranks raised different texts", what);
}

/* Evens and odds joined by an intercommunicator (leaders: world ranks 0, 1). */
static MPI_Comm halves(MPI_Comm* half) {
  MPI_Comm ic;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, half);
  MPI_Intercomm_create(*half, 0, MPI_COMM_WORLD, me % 2 == 0 ? 1 : 0, 27, &ic);
  return ic;
}

static void intercomm_create_leader(void) {
  MPI_Comm ic = MPI_COMM_NULL;
  failed_everywhere(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 5, &ic), MPI_ERR_RANK,
                    "remote_leader 0", "MPI_Intercomm_create");
  CHECK(ic == MPI_COMM_NULL, "MPI_Intercomm_create left a communicator");
}

static void merge_high(void) {
  MPI_Comm half, ic = halves(&half), m = MPI_COMM_NULL;
  failed_everywhere(MPI_Intercomm_merge(ic, me == 2, &m), MPI_ERR_ARG, "COMM_WORLD rank 2", "MPI_Intercomm_merge");
  CHECK(m == MPI_COMM_NULL, "MPI_Intercomm_merge left a communicator");
  int size = 0;
  MPI_Intercomm_merge(ic, me % 2, &m);
  MPI_Comm_size(m, &size);
  CHECK(size == n, "merged size %d", size);
  MPI_Comm_free(&m);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&half);
}

static void create_overlap(void) {
  MPI_Group world, low, g;
  int k = n / 2 + 1, range[1][3] = {{0, k - 1, 1}};
  char needle[32];
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_range_incl(world, 1, range, &low);
  failed_everywhere(MPI_Comm_create(MPI_COMM_WORLD, me < k ? low : world, &c), MPI_ERR_GROUP,
                    (snprintf(needle, sizeof needle, "rank %d", k), needle), "MPI_Comm_create");
  CHECK(c == MPI_COMM_NULL, "MPI_Comm_create left a communicator");
  MPI_Group_range_excl(world, 1, range, &g);
  int size = 0;
  MPI_Comm_create(MPI_COMM_WORLD, me < k ? low : g, &c);
  MPI_Comm_size(c, &size);
  CHECK(size == (me < k ? k : n - k), "disjoint create: size %d", size);
  MPI_Comm_free(&c);
  MPI_Group_free(&g);
  MPI_Group_free(&low);
  MPI_Group_free(&world);
}

static void reduce_scatter_counts(void) {
  int counts[16], in[32], out[4] = {0};
  char needle[32];
  for (int i = 0; i < n; ++i) counts[i] = 1;
  for (int i = 0; i < n + 1; ++i) in[i] = i;
  if (me == n - 1) counts[0] = 2;
  snprintf(needle, sizeof needle, "rank %d", n - 1);
  failed_everywhere(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, needle,
                    "MPI_Reduce_scatter");
  int block = me == n - 1 ? 3 : 1;  /* recvcount 3 on one rank only */
  failed_everywhere(MPI_Reduce_scatter_block(in, out, block, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
                    needle, "MPI_Reduce_scatter_block");
}

static void idup_before_completion(void) {
  MPI_Comm d;
  MPI_Request r;
  MPI_Comm_idup(MPI_COMM_WORLD, &d, &r);
  failed_everywhere(MPI_Barrier(d), MPI_ERR_COMM, "MPI_Comm_idup", "MPI_Barrier on a pending idup");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(MPI_Barrier(d) == MPI_SUCCESS, "MPI_Barrier after the idup completed");
  MPI_Comm_free(&d);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  intercomm_create_leader();
  merge_high();
  create_overlap();
  reduce_scatter_counts();
  idup_before_completion();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("done\n");
  MPI_Finalize();
  return all != 0;
}
