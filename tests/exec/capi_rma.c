/* tests/exec/capi_rma.c: the rest of MPI-3.1 chapter 11 from a C user's
 * side, at any number of ranks: derived and non-C++ datatypes at either end
 * of MPI_Put/MPI_Get/MPI_Accumulate, MPI_Get_accumulate (MPI_NO_OP,
 * MPI_REPLACE), MPI_Fetch_and_op and MPI_Compare_and_swap under
 * MPI_Win_lock_all, the flushes, post/start/complete/wait/test with groups,
 * the request-based operations completed by MPI_Wait/MPI_Test,
 * MPI_Win_sync, MPI_Win_get_info/set_info, shared-memory windows
 * (MPI_Win_allocate_shared, MPI_Win_shared_query, plain loads and stores),
 * dynamic windows (MPI_Win_create_dynamic, attach, detach, addresses from
 * MPI_Get_address), MAXLOC on MPI_2INT, and the errors of misuse
 * (MPI_ERR_RMA_SYNC, MPI_ERR_TYPE, MPI_ERR_GROUP) returned before anything
 * is sent. Prints "capi_rma ok" on rank 0 and exits 0 when every check
 * holds (driven by tests/integration/test_capi_rma.py). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errs = 0;
#define CHECK(c, what) do { if (!(c)) { errs++; fprintf(stderr, "FAIL [%d] %s\n", rank, what); } } while (0)
static int rank, size;

static int cls_of(int rc) {
  int c;
  MPI_Error_class(rc, &c);
  return c;
}

/* A strided origin (every other int) into a contiguous target, a
 * contiguous origin out to a strided get, and signed chars accumulated. */
static void datatypes(void) {
  int mem[8], src[8], got[8], i, right = (rank + 1) % size;
  signed char cells[4] = {0, 0, 0, 0}, one[4] = {1, 2, 3, 4};
  MPI_Datatype every_other;
  MPI_Win w, wc;
  for (i = 0; i < 8; i++) mem[i] = -1, src[i] = rank * 100 + i, got[i] = 0;
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  MPI_Win_fence(0, w);
  MPI_Put(src, 1, every_other, right, 0, 4, MPI_INT, w);  /* src[0,2,4,6] -> right's mem[0..3] */
  MPI_Win_fence(0, w);
  {
    int left = (rank + size - 1) % size;
    CHECK(mem[0] == left * 100 && mem[1] == left * 100 + 2 && mem[3] == left * 100 + 6 && mem[4] == -1,
          "a vector origin into a contiguous target");
  }
  MPI_Get(got, 1, every_other, right, 0, 4, MPI_INT, w);  /* right's mem[0..3] -> got[0,2,4,6] */
  MPI_Win_fence(0, w);
  CHECK(got[0] == rank * 100 && got[2] == rank * 100 + 2 && got[6] == rank * 100 + 6 && got[1] == 0,
        "a contiguous target into a vector origin");
  CHECK(cls_of(MPI_Put(src, 4, MPI_INT, right, 0, 4, MPI_FLOAT, w)) == MPI_ERR_TYPE,
        "int into float: signatures differ, MPI_ERR_TYPE");
  MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
  MPI_Win_free(&w);
  MPI_Type_free(&every_other);

  MPI_Win_create(cells, sizeof cells, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wc);
  MPI_Win_fence(0, wc);
  MPI_Accumulate(one, 4, MPI_SIGNED_CHAR, 0, 0, 4, MPI_SIGNED_CHAR, MPI_SUM, wc);
  MPI_Win_fence(0, wc);
  if (rank == 0) CHECK(cells[0] == (signed char)size && cells[3] == (signed char)(4 * size), "MPI_SIGNED_CHAR sums");
  MPI_Win_fence(MPI_MODE_NOSUCCEED, wc);
  MPI_Win_free(&wc);
}

/* A shared counter on rank 0: fetch_and_op under lock_all gives every rank
 * a distinct ticket; compare_and_swap elects exactly one rank. */
static void atomics(void) {
  long counter = 0, ticket = -1, one = 1, seen = -7;
  int flag = 0, me = rank + 1, zero = 0, old = -1, noop_old = -1;
  long all[64];
  MPI_Win w, wf;
  MPI_Win_create(&counter, sizeof counter, sizeof counter, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_lock_all(0, w);
  MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 0, MPI_SUM, w);
  MPI_Win_flush(0, w);
  MPI_Win_unlock_all(w);
  MPI_Allgather(&ticket, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
  {
    long sum = 0;
    int i;
    for (i = 0; i < size; i++) sum += all[i];
    CHECK(sum == (long)size * (size - 1) / 2, "fetch_and_op tickets are 0 .. size-1");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
  MPI_Fetch_and_op(NULL, &seen, MPI_LONG, 0, 0, MPI_NO_OP, w);
  MPI_Win_unlock(0, w);
  CHECK(seen == size, "MPI_NO_OP fetches the counter");
  MPI_Win_free(&w);

  MPI_Win_create(&flag, sizeof flag, sizeof flag, MPI_INFO_NULL, MPI_COMM_WORLD, &wf);
  MPI_Win_set_errhandler(wf, MPI_ERRORS_RETURN);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, wf);
  MPI_Compare_and_swap(&me, &zero, &old, MPI_INT, 0, 0, wf);
  MPI_Win_flush_local(0, wf);
  MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &noop_old, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, wf);
  MPI_Win_flush_all(wf);
  {
    double d = 1, dd = 0, dr;
    CHECK(cls_of(MPI_Compare_and_swap(&d, &dd, &dr, MPI_DOUBLE, 0, 0, wf)) == MPI_ERR_TYPE,
          "compare_and_swap on MPI_DOUBLE: MPI_ERR_TYPE");
  }
  MPI_Win_unlock_all(wf);
  {
    int won = old == 0, winners = 0;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(winners == 1, "compare_and_swap elects one rank");
    CHECK(noop_old >= 1 && noop_old <= size, "get_accumulate NO_OP reads the winner");
  }
  MPI_Win_free(&wf);
}

/* Everyone exposes to its left neighbour and accesses its right one. */
static void pscw(void) {
  int mem[2] = {0, 0}, v = rank + 10, right = (rank + 1) % size, left = (rank + size - 1) % size, done = 0, rc;
  MPI_Group world, to_right, from_left;
  MPI_Win w;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &right, &to_right);
  MPI_Group_incl(world, 1, &left, &from_left);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  CHECK(cls_of(MPI_Win_complete(w)) == MPI_ERR_RMA_SYNC, "complete without start: MPI_ERR_RMA_SYNC");
  CHECK(cls_of(MPI_Win_wait(w)) == MPI_ERR_RMA_SYNC, "wait without post: MPI_ERR_RMA_SYNC");
  CHECK(cls_of(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w)) == MPI_ERR_RMA_SYNC, "put with no epoch");
  /* MPI-3.1 §11.3: an operation on MPI_PROC_NULL needs an epoch too */
  CHECK(cls_of(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w)) == MPI_ERR_RMA_SYNC,
        "put to MPI_PROC_NULL with no epoch");
  MPI_Win_post(from_left, 0, w);
  rc = MPI_Win_post(from_left, 0, w);
  CHECK(cls_of(rc) == MPI_ERR_RMA_SYNC, "a second post: MPI_ERR_RMA_SYNC");
  MPI_Win_start(to_right, 0, w);
  CHECK(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w) == MPI_SUCCESS,
        "put to MPI_PROC_NULL in a start epoch");
  MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w);
  MPI_Accumulate(&v, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_REPLACE, w);
  MPI_Win_complete(w);
  while (!done) MPI_Win_test(w, &done);
  CHECK(mem[0] == left + 10 && mem[1] == left + 10, "post/start/complete/test");
  MPI_Win_post(from_left, MPI_MODE_NOPUT, w);
  MPI_Win_start(to_right, 0, w);
  MPI_Get(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w);
  MPI_Win_complete(w);
  MPI_Win_wait(w);
  CHECK(v == rank + 10, "a get in a start epoch");
  MPI_Win_free(&w);
  MPI_Group_free(&to_right);
  MPI_Group_free(&from_left);
  MPI_Group_free(&world);
}

/* Request-based operations under a lock, and MPI_Win_sync polling. */
static void requests(void) {
  double *mem, x = 1.5 + rank, y = 0, old = -1;
  MPI_Request r[4];
  MPI_Win w;
  int right = (rank + 1) % size, rc, flag = 0;
  MPI_Info info, used;
  char value[MPI_MAX_INFO_VAL];
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Win_allocate(3 * sizeof(double), sizeof(double), info, MPI_COMM_WORLD, &mem, &w);
  MPI_Info_free(&info);
  MPI_Win_get_info(w, &used);
  MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag && strcmp(value, "none") == 0, "MPI_Win_get_info reports the hint given at creation");
  MPI_Info_free(&used);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  rc = MPI_Rput(&x, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, w, &r[0]);
  CHECK(cls_of(rc) == MPI_ERR_RMA_SYNC, "MPI_Rput outside a passive-target epoch");
  rc = MPI_Rput(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, w, &r[0]);
  CHECK(cls_of(rc) == MPI_ERR_RMA_SYNC, "MPI_Rput to MPI_PROC_NULL outside a passive-target epoch");
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, w);  /* an epoch on nobody, as MPICH's rmanull has it */
  rc = MPI_Rput(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, w, &r[0]);
  CHECK(rc == MPI_SUCCESS && (MPI_Wait(&r[0], MPI_STATUS_IGNORE), r[0] == MPI_REQUEST_NULL),
        "MPI_Rput to MPI_PROC_NULL after MPI_Win_lock(MPI_PROC_NULL)");
  MPI_Win_unlock(MPI_PROC_NULL, w);
  rc = MPI_Rput(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, w, &r[0]);
  CHECK(cls_of(rc) == MPI_ERR_RMA_SYNC, "MPI_Rput to MPI_PROC_NULL after MPI_Win_unlock(MPI_PROC_NULL)");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
  rc = MPI_Rput(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, w, &r[0]);
  CHECK(rc == MPI_SUCCESS && (MPI_Wait(&r[0], MPI_STATUS_IGNORE), r[0] == MPI_REQUEST_NULL),
        "MPI_Rput to MPI_PROC_NULL under a lock completes");
  MPI_Rput(&x, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, w, &r[0]);
  MPI_Raccumulate(&x, 1, MPI_DOUBLE, right, 1, 1, MPI_DOUBLE, MPI_SUM, w, &r[1]);
  MPI_Rget(&y, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, w, &r[2]);
  MPI_Rget_accumulate(&x, 1, MPI_DOUBLE, &old, 1, MPI_DOUBLE, right, 2, 1, MPI_DOUBLE, MPI_MAX, w, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  CHECK(y == x && old == 0, "MPI_Rget and MPI_Rget_accumulate complete with MPI_Waitall");
  MPI_Win_unlock(right, w);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_sync(w);
  {
    double left = 1.5 + (rank + size - 1) % size;
    CHECK(mem[0] == left && mem[1] == left && mem[2] == left, "the requests' data at the target");
  }
  MPI_Win_free(&w);
}

/* Each rank stores into its part of a shared window; every rank then reads
 * its right neighbour's part with plain loads through MPI_Win_shared_query. */
static void shared(void) {
  int *mine, *theirs, unit = 0, *flavor, flag, rc, right = (rank + 1) % size;
  MPI_Aint bytes = 0;
  MPI_Win w, other;
  MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &w);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  mine[0] = 1000 + rank;
  mine[1] = -rank;
  MPI_Win_sync(w);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_shared_query(w, right, &bytes, &unit, &theirs);
  CHECK(bytes == 2 * sizeof(int) && unit == sizeof(int) && theirs[0] == 1000 + right && theirs[1] == -right,
        "MPI_Win_shared_query: the right neighbour's part, read with loads");
  MPI_Win_shared_query(w, MPI_PROC_NULL, &bytes, &unit, &theirs);
  CHECK(theirs[0] == 1000, "MPI_Win_shared_query(MPI_PROC_NULL): rank 0's part");
  CHECK(theirs + 2 * rank == mine, "the parts are contiguous in rank order");
  MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_SHARED, "MPI_WIN_CREATE_FLAVOR of a shared window");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, w);  /* RMA works on it too */
  MPI_Accumulate(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, w);
  MPI_Win_unlock_all(w);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_sync(w);
  if (rank == 0) CHECK(mine[1] == size * (size - 1) / 2, "accumulate into a shared window");
  MPI_Win_create(&flag, sizeof flag, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &other);
  MPI_Win_set_errhandler(other, MPI_ERRORS_RETURN);
  rc = MPI_Win_shared_query(other, 0, &bytes, &unit, &theirs);
  CHECK(cls_of(rc) == MPI_ERR_RMA_FLAVOR, "shared_query on a created window: MPI_ERR_RMA_FLAVOR");
  rc = MPI_Win_attach(other, &flag, sizeof flag);
  CHECK(cls_of(rc) == MPI_ERR_RMA_FLAVOR, "attach to a created window: MPI_ERR_RMA_FLAVOR");
  MPI_Win_free(&other);
  MPI_Win_free(&w);
}

/* Every rank attaches two adjoining halves of an array; its left neighbour
 * puts across both halves at the address MPI_Get_address gave. */
static void dynamic(void) {
  int cells[4] = {0, 0, 0, 0}, src[3] = {7, 8, 9}, rc, right = (rank + 1) % size, pairs[2];
  MPI_Aint mine, addrs[64];
  MPI_Win w;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  MPI_Win_attach(w, cells, 2 * sizeof(int));
  MPI_Win_attach(w, cells + 2, 2 * sizeof(int));
  rc = MPI_Win_attach(w, cells + 1, sizeof(int));
  CHECK(cls_of(rc) == MPI_ERR_RMA_ATTACH, "attaching attached memory again: MPI_ERR_RMA_ATTACH");
  MPI_Get_address(&cells[1], &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w);
  MPI_Put(src, 3, MPI_INT, right, addrs[right], 3, MPI_INT, w);
  MPI_Win_unlock(right, w);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(cells[0] == 0 && cells[1] == 7 && cells[3] == 9, "a put across two adjoining attached regions");
  /* MAXLOC on a pair type, into a dynamic window */
  pairs[0] = 100 - rank;
  pairs[1] = rank;
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
  MPI_Accumulate(pairs, 1, MPI_2INT, 0, addrs[0] - sizeof(int), 1, MPI_2INT, MPI_MAXLOC, w);
  MPI_Win_unlock(0, w);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(cells[0] == 100 && cells[1] == 0, "MPI_MAXLOC on MPI_2INT");
  MPI_Win_detach(w, cells);
  rc = MPI_Win_detach(w, cells);
  CHECK(cls_of(rc) == MPI_ERR_RMA_ATTACH, "detaching twice: MPI_ERR_RMA_ATTACH");
  MPI_Win_detach(w, cells + 2);
  MPI_Win_free(&w);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  datatypes();
  atomics();
  pscw();
  requests();
  shared();
  dynamic();
  MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && errs == 0) printf("capi_rma ok\n");
  MPI_Finalize();
  return errs != 0;
}
