/* tests/exec/capi.c: a C program built with lumpi-cc and run with lumpi exec
 * (tests/integration/test_capi.py), exercising the C API's shape: handles,
 * error codes under MPI_ERRORS_RETURN, the fatal default, attributes with C
 * callbacks, a Cartesian ring, point-to-point with a status, and reductions.
 *
 *   capi ok      rank 0 prints one line per check that passed, then "done"
 *   capi fatal   rank 1 sends to a rank that does not exist (ERRORS_ARE_FATAL)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int deletes = 0;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}

static void report(int rank, const char *what, int ok) {
  if (rank == 0) printf("%s %s\n", ok ? "ok" : "FAIL", what);
}

int main(int argc, char **argv) {
  int rank, size, rc, cls, flag, sum, left, right, got, count, key, *tagub;
  char name[MPI_MAX_OBJECT_NAME];
  MPI_Comm ring, dup;
  MPI_Status st;
  MPI_Group g, empty;
  int dims[1] = {0}, periods[1] = {1};

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
    if (rank == 1) MPI_Send(&rank, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }

  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  report(rank, "allreduce of ranks", sum == size * (size - 1) / 2);

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Send(&rank, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  report(rank, "MPI_ERRORS_RETURN returns MPI_ERR_RANK", cls == MPI_ERR_RANK);
  rc = MPI_Allreduce(&rank, &sum, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
  report(rank, "a predefined op on a type outside its row of the table (MPI_CHAR, MPI_SUM) is MPI_ERR_OP",
         rc == MPI_ERR_OP);

  MPI_Dims_create(size, 1, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, ring, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  report(rank, "sendrecv round a periodic ring, with its status",
         got == left && st.MPI_SOURCE == left && st.MPI_TAG == 7 && count == 1);

  got = rank;
  MPI_Sendrecv_replace(&got, 1, MPI_INT, right, 8, left, 8, ring, MPI_STATUS_IGNORE);
  {
    int in[64], out = -1, i;
    MPI_Request r;
    for (i = 0; i < size; ++i) in[i] = i + rank;
    MPI_Reduce_scatter_block(in, &out, 1, MPI_INT, MPI_SUM, ring);
    report(rank, "sendrecv_replace and reduce_scatter_block",
           got == left && out == size * rank + size * (size - 1) / 2);
    MPI_Irecv(&out, 1, MPI_INT, MPI_ANY_SOURCE, 99, ring, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    report(rank, "a cancelled receive completes cancelled", flag && r == MPI_REQUEST_NULL);
  }

  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &key, NULL);
  MPI_Comm_set_attr(ring, key, &deletes);
  MPI_Comm_dup(ring, &dup);
  MPI_Comm_get_attr(dup, key, &tagub, &flag);
  report(rank, "MPI_COMM_DUP_FN copies an attribute on dup", flag && tagub == &deletes);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&ring);
  report(rank, "delete callbacks run on free", deletes == 2 && ring == MPI_COMM_NULL);
  MPI_Comm_free_keyval(&key);

  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagub, &flag);
  report(rank, "MPI_TAG_UB is at least 32767", flag && *tagub >= 32767);
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  MPI_Group_excl(g, 1, &rank, &empty);
  MPI_Group_free(&g);
  report(rank, "a group handle", g == MPI_GROUP_NULL);
  MPI_Comm_set_name(MPI_COMM_WORLD, "everyone");
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &count);
  report(rank, "names", strcmp(name, "everyone") == 0 && count == 8);
  if (rank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
