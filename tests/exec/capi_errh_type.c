/* tests/exec/capi_errh_type.c: a C program built with lumpi-cc and run with
 * lumpi exec (tests/integration/test_capi_errh.py): user-defined error
 * handlers and their inheritance (MPI-3.1 §8.3, §6.4.2), added error
 * classes/codes/strings and MPI_LASTUSEDCODE (§8.5), derived datatypes in
 * point-to-point and MPI_Bcast (chapter 4), datatype attributes (§6.7.4),
 * and COMM_SELF's attributes deleted newest first by MPI_Finalize (§8.7.1).
 *
 * Every rank prints "ok <check>" or "FAIL <check>" lines prefixed with its
 * rank ("r<rank> "), the delete callbacks of MPI_Finalize print
 * "r<rank> self-delete <n>", and rank 0 prints "done" before MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;
static int calls = 0, last_code = 0;
static MPI_Comm last_comm = MPI_COMM_NULL;

static void report(const char *what, int ok) { printf("r%d %s %s\n", rank, ok ? "ok" : "FAIL", what); }

static void recorder(MPI_Comm *comm, int *code, ...) {
  ++calls;
  last_comm = *comm;
  last_code = *code;
}

static int type_deletes = 0, type_copies = 0;
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag) {
  (void)t, (void)k, (void)extra;
  ++type_copies;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int k, void *value, void *extra) {
  (void)t, (void)k, (void)value, (void)extra;
  ++type_deletes;
  return MPI_SUCCESS;
}

static int self_delete(MPI_Comm comm, int k, void *value, void *extra) {
  (void)comm, (void)k, (void)extra;
  printf("r%d self-delete %d\n", rank, *(int *)value);
  fflush(stdout);
  return MPI_SUCCESS;
}

static void errhandlers(void) {
  MPI_Comm dup, child, split;
  MPI_Errhandler eh, got;
  int rc, cls, code, dummy = 0, len, flag, *lastused;
  char text[MPI_MAX_ERROR_STRING];

  MPI_Comm_create_errhandler(recorder, &eh);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, eh);
  rc = MPI_Send(&dummy, 1, MPI_INT, size, 0, dup);
  report("a user handler is called with the communicator and the code, then the call returns it",
         calls == 1 && last_comm == dup && last_code == MPI_ERR_RANK && rc == MPI_ERR_RANK);

  MPI_Comm_dup(dup, &child);
  MPI_Comm_split(dup, rank % 2, rank, &split);
  MPI_Comm_get_errhandler(child, &got);
  report("MPI_Comm_dup inherits the user handler", got == eh);
  MPI_Errhandler_free(&got);
  rc = MPI_Send(&dummy, 1, MPI_INT, -9, 0, split);
  report("MPI_Comm_split inherits the user handler", calls == 2 && last_comm == split && rc == MPI_ERR_RANK);

  MPI_Add_error_class(&cls);
  MPI_Add_error_code(cls, &code);
  MPI_Add_error_string(cls, "a class of ours");
  MPI_Add_error_string(code, "a code of ours");
  rc = MPI_Comm_call_errhandler(child, code);
  report("MPI_Comm_call_errhandler calls the handler with the code and returns MPI_SUCCESS",
         rc == MPI_SUCCESS && calls == 3 && last_comm == child && last_code == code);
  MPI_Error_class(code, &rc);
  report("MPI_Error_class of an added code is its class", rc == cls && cls > MPI_ERR_LASTCODE);
  MPI_Error_string(code, text, &len);
  report("MPI_Error_string of an added code is its string", strcmp(text, "a code of ours") == 0 && len == 14);
  MPI_Error_string(cls, text, &len);
  report("MPI_Error_string of an added class is its string", strcmp(text, "a class of ours") == 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastused, &flag);
  report("MPI_LASTUSEDCODE on MPI_COMM_WORLD is the last added code", flag && *lastused == code);

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Add_error_string(MPI_ERR_RANK, "not ours");
  report("MPI_Add_error_string on a predefined code is MPI_ERR_ARG", rc == MPI_ERR_ARG);
  rc = MPI_Errhandler_free(&eh);
  report("MPI_Errhandler_free succeeds and nulls the handle", rc == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL);
  rc = MPI_Send(&dummy, 1, MPI_INT, size, 0, child);
  report("a communicator keeps a freed handler", calls == 4 && last_comm == child);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_free(&split);
  MPI_Comm_free(&child);
  MPI_Comm_free(&dup);
}

static void datatypes(void) {
  /* a column of a 4x3 matrix of doubles: 4 blocks of 1, stride 3 */
  double m[4][3], col[4];
  MPI_Datatype column, twocols, s, r, d, types[1];
  MPI_Aint lb, extent;
  int i, j, count, ni, na, nd, comb, ints[3], key, value = 7, *got, flag, tsize;
  MPI_Aint addrs[1];
  MPI_Status st;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Type_size(column, &tsize);
  MPI_Type_get_extent(column, &lb, &extent);
  report("vector(4,1,3,DOUBLE): size 32, extent 80", tsize == 32 && lb == 0 && extent == 80);
  MPI_Type_get_envelope(column, &ni, &na, &nd, &comb);
  MPI_Type_get_contents(column, 3, 0, 1, ints, addrs, types);
  report("envelope and contents of a vector",
         comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1 && ints[0] == 4 && ints[1] == 1 &&
             ints[2] == 3 && types[0] == MPI_DOUBLE);

  for (i = 0; i < 4; ++i)
    for (j = 0; j < 3; ++j) m[i][j] = rank * 100 + i * 10 + j;
  /* send my column 1 right, receive the left neighbour's column 1 as 4 contiguous doubles */
  MPI_Sendrecv(&m[0][1], 1, column, right, 5, col, 4, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  report("a strided column arrives packed",
         count == 4 && col[0] == left * 100 + 1 && col[3] == left * 100 + 31);
  /* and back into a strided column of another matrix */
  for (i = 0; i < 4; ++i) m[i][2] = -1;
  MPI_Sendrecv(col, 4, MPI_DOUBLE, left, 6, &m[0][2], 1, column, right, 6, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, column, &count);
  MPI_Get_elements(&st, column, &i);
  report("a received column is scattered with stride 3, the rest untouched",
         count == 1 && i == 4 && m[0][2] == rank * 100 + 1 && m[3][2] == rank * 100 + 31 && m[0][1] == rank * 100 + 1);

  /* two columns at once through a resized type (extent one double) */
  MPI_Type_create_resized(column, 0, sizeof(double), &s);
  MPI_Type_commit(&s);
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 3; ++j) m[i][j] = rank == 0 ? i * 3 + j : -1;
  MPI_Bcast(&m[0][0], 2, s, 0, MPI_COMM_WORLD);
  report("MPI_Bcast of two resized columns fills columns 0 and 1 only",
         m[3][0] == 9 && m[3][1] == 10 && (rank == 0 || m[3][2] == -1));
  MPI_Type_contiguous(2, s, &twocols);
  MPI_Type_get_true_extent(twocols, &lb, &extent);
  report("true extent of two resized columns", lb == 0 && extent == 88);

  /* datatype attributes: copied by dup, deleted by free, also on a predefined type */
  MPI_Type_create_keyval(type_copy, type_delete, &key, NULL);
  MPI_Type_set_attr(column, key, &value);
  MPI_Type_dup(column, &d);
  MPI_Type_get_attr(d, key, &got, &flag);
  report("MPI_Type_dup runs the copy callback", flag && got == &value && type_copies == 1);
  MPI_Type_free(&d);
  report("MPI_Type_free runs the delete callback and nulls the handle", type_deletes == 1 && d == MPI_DATATYPE_NULL);
  MPI_Type_set_attr(MPI_INT, key, &value);
  MPI_Type_delete_attr(MPI_INT, key);
  MPI_Type_get_attr(MPI_INT, key, &got, &flag);
  report("a predefined type carries attributes", type_deletes == 2 && !flag);
  MPI_Type_set_name(column, "column");
  {
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(column, name, &len);
    report("MPI_Type_set_name/get_name", strcmp(name, "column") == 0 && len == 6);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  r = MPI_INT;
  i = MPI_Type_free(&r);
  report("freeing a predefined type is MPI_ERR_TYPE", i == MPI_ERR_TYPE && r == MPI_INT);
  MPI_Type_vector(2, 1, 2, MPI_INT, &r);
  i = MPI_Send(&value, 1, r, right, 0, MPI_COMM_WORLD);
  report("sending with an uncommitted type is MPI_ERR_TYPE", i == MPI_ERR_TYPE);
  MPI_Type_free(&r);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&column);
  report("the attribute goes with the type", type_deletes == 3);
  MPI_Type_free_keyval(&key);
  MPI_Type_free(&twocols);
  MPI_Type_free(&s);
}

int main(int argc, char **argv) {
  static int one = 1, two = 2, three = 3;
  int k1, k2, k3;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  errhandlers();
  datatypes();
  /* set in the order 2, 3, 1: MPI_Finalize deletes 1, 3, 2 (§8.7.1) */
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k1, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k2, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k3, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, k2, &two);
  MPI_Comm_set_attr(MPI_COMM_SELF, k3, &three);
  MPI_Comm_set_attr(MPI_COMM_SELF, k1, &one);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("done\n");
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
