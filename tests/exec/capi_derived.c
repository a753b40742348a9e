/* tests/exec/capi_derived.c: derived datatypes with holes in every kind of
 * call (MPI-3.1 §4.1, §5.1: "any datatype"): the column halo of a 1-D
 * decomposition with MPI_Type_vector through MPI_Irecv/MPI_Isend, a column
 * gathered, columns scattered with a resized vector, allgather and
 * alltoall into vector types, MPI_Ibcast, MPI_Bsend and
 * MPI_Sendrecv_replace of a column, the v forms with a type of holes,
 * MPI_Get_count/MPI_Get_elements on a partial column, and MPI_Pack/MPI_Unpack. Prints "FAIL ..." per
 * failed check and "done" on rank 0 (tests/integration/test_capi_nbc.py). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define ROWS 4
#define COLS 5 /* each rank: a ROWS x COLS block, column 0 and COLS-1 are halos */

static MPI_Datatype column; /* ROWS ints, COLS apart */

static void halo(void) {
  int a[ROWS][COLS], i, j, left = (me + n - 1) % n, right = (me + 1) % n;
  MPI_Request r[4];
  for (i = 0; i < ROWS; i++)
    for (j = 0; j < COLS; j++) a[i][j] = (j == 0 || j == COLS - 1) ? -1 : 100 * me + 10 * i + j;
  /* my first inner column goes left, my last inner column right */
  MPI_Irecv(&a[0][0], 1, column, left, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&a[0][COLS - 1], 1, column, right, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(&a[0][1], 1, column, left, 2, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(&a[0][COLS - 2], 1, column, right, 1, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  for (i = 0; i < ROWS; i++) {
    CHECK(a[i][0] == 100 * left + 10 * i + COLS - 2, "halo from the left: row %d has %d", i, a[i][0]);
    CHECK(a[i][COLS - 1] == 100 * right + 10 * i + 1, "halo from the right: row %d has %d", i, a[i][COLS - 1]);
    for (j = 1; j < COLS - 1; j++) CHECK(a[i][j] == 100 * me + 10 * i + j, "inner cell (%d,%d) changed", i, j);
  }
}

/* Rank k's column 2 gathered at the root into row k of a contiguous array;
 * then the root scatters its columns, one per rank, with a resized vector. */
static void gather_scatter(void) {
  int a[ROWS][COLS], *all = malloc(sizeof(int) * ROWS * (size_t)n), i, k;
  int *wide = malloc(sizeof(int) * ROWS * (size_t)n), mine[ROWS];
  MPI_Datatype col_n, col1;
  for (i = 0; i < ROWS; i++)
    for (k = 0; k < COLS; k++) a[i][k] = 1000 * me + 10 * i + k;
  MPI_Gather(&a[0][2], 1, column, all, ROWS, MPI_INT, 0, MPI_COMM_WORLD);
  if (me == 0)
    for (k = 0; k < n; k++)
      for (i = 0; i < ROWS; i++)
        CHECK(all[k * ROWS + i] == 1000 * k + 10 * i + 2, "gathered column of rank %d, row %d: %d", k, i,
              all[k * ROWS + i]);
  /* the root's ROWS x n matrix, column k to rank k */
  MPI_Type_vector(ROWS, 1, n, MPI_INT, &col_n);
  MPI_Type_create_resized(col_n, 0, sizeof(int), &col1);
  MPI_Type_commit(&col1);
  for (i = 0; i < ROWS * n; i++) wide[i] = me == 0 ? i : -1;
  MPI_Scatter(wide, 1, col1, mine, ROWS, MPI_INT, 0, MPI_COMM_WORLD);
  for (i = 0; i < ROWS; i++) CHECK(mine[i] == i * n + me, "scattered column row %d: %d", i, mine[i]);
  /* and back: every rank's column lands in column `rank` of every matrix */
  MPI_Allgather(mine, ROWS, MPI_INT, wide, 1, col1, MPI_COMM_WORLD);
  for (i = 0; i < ROWS * n; i++) CHECK(wide[i] == i, "allgathered matrix[%d] = %d", i, wide[i]);
  MPI_Type_free(&col1);
  MPI_Type_free(&col_n);
  free(all);
  free(wide);
}

/* alltoall: send column j of a ROWS x n matrix to rank j, receive rows. */
static void alltoall(void) {
  int *m = malloc(sizeof(int) * ROWS * (size_t)n), *got = malloc(sizeof(int) * ROWS * (size_t)n), i, k;
  int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
  MPI_Datatype col_n, col1;
  MPI_Request r;
  MPI_Type_vector(ROWS, 1, n, MPI_INT, &col_n);
  MPI_Type_create_resized(col_n, 0, sizeof(int), &col1);
  MPI_Type_commit(&col1);
  for (i = 0; i < ROWS * n; i++) m[i] = 1000 * me + i;
  MPI_Alltoall(m, 1, col1, got, ROWS, MPI_INT, MPI_COMM_WORLD);
  for (k = 0; k < n; k++)
    for (i = 0; i < ROWS; i++)
      CHECK(got[k * ROWS + i] == 1000 * k + i * n + me, "alltoall from %d row %d: %d", k, i, got[k * ROWS + i]);
  memset(got, 0xff, sizeof(int) * ROWS * (size_t)n);
  MPI_Ialltoall(m, 1, col1, got, ROWS, MPI_INT, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(got[ROWS * (n - 1)] == 1000 * (n - 1) + me, "ialltoall gave %d", got[ROWS * (n - 1)]);
  /* gatherv of every rank's column 0 of m into column k of a ROWS x n matrix */
  for (k = 0; k < n; k++) counts[k] = 1, displs[k] = k;
  memset(got, 0xff, sizeof(int) * ROWS * (size_t)n);
  MPI_Gatherv(m, 1, col1, got, counts, displs, col1, n - 1, MPI_COMM_WORLD);
  if (me == n - 1)
    for (i = 0; i < ROWS * n; i++)
      CHECK(got[i] == 1000 * (i % n) + (i / n) * n, "gatherv matrix[%d] = %d", i, got[i]);
  MPI_Type_free(&col1);
  MPI_Type_free(&col_n);
  free(m), free(got), free(counts), free(displs);
}

static void modes(void) {
  int a[ROWS][COLS], i, k, size, count = -1, elements = -1;
  char *attached;
  MPI_Request r;
  MPI_Status st;
  for (i = 0; i < ROWS; i++)
    for (k = 0; k < COLS; k++) a[i][k] = me == 0 ? 10 * i + k : -1;
  MPI_Ibcast(&a[0][3], 1, column, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (i = 0; i < ROWS; i++) {
    CHECK(a[i][3] == 10 * i + 3, "ibcast column row %d: %d", i, a[i][3]);
    if (me != 0) CHECK(a[i][2] == -1, "ibcast wrote outside the column: row %d", i);
  }
  /* a buffered send of a column to the next rank, received as 2 of a column's elements */
  MPI_Pack_size(1, column, MPI_COMM_WORLD, &size);
  size += MPI_BSEND_OVERHEAD;
  attached = malloc((size_t)size);
  MPI_Buffer_attach(attached, size);
  for (i = 0; i < ROWS; i++) a[i][1] = 100 * me + i;
  MPI_Bsend(&a[0][1], 1, column, (me + 1) % n, 5, MPI_COMM_WORLD);
  memset(a, 0xff, sizeof a);
  MPI_Recv(&a[0][0], 1, column, (me + n - 1) % n, 5, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, column, &count);
  MPI_Get_elements(&st, column, &elements);
  CHECK(count == 1 && elements == ROWS, "a whole column: count %d, elements %d", count, elements);
  for (i = 0; i < ROWS; i++) CHECK(a[i][0] == 100 * ((me + n - 1) % n) + i, "bsent column row %d: %d", i, a[i][0]);
  MPI_Buffer_detach(&attached, &size);
  free(attached);
  /* a partial column: 2 ints into a column's room */
  for (i = 0; i < ROWS; i++) a[i][2] = -5;
  {
    int two[2] = {me, me};
    MPI_Sendrecv(two, 2, MPI_INT, me, 6, &a[0][2], 1, column, me, 6, MPI_COMM_WORLD, &st);
  }
  MPI_Get_count(&st, column, &count);
  MPI_Get_elements(&st, column, &elements);
  CHECK(count == MPI_UNDEFINED && elements == 2, "a partial column: count %d, elements %d", count, elements);
  /* sendrecv_replace of a column round the ring */
  for (i = 0; i < ROWS; i++) a[i][4] = 10 * me + i, a[i][3] = -9;
  MPI_Sendrecv_replace(&a[0][4], 1, column, (me + 1) % n, 7, (me + n - 1) % n, 7, MPI_COMM_WORLD, &st);
  for (i = 0; i < ROWS; i++) {
    CHECK(a[i][4] == 10 * ((me + n - 1) % n) + i, "sendrecv_replace row %d: %d", i, a[i][4]);
    CHECK(a[i][3] == -9, "sendrecv_replace wrote outside the column");
  }
}

/* MPI_Pack of an int and a column, sent as MPI_PACKED, received into the
 * column type directly; and packed bytes unpacked back. */
static void packing(void) {
  int a[ROWS][COLS], b[ROWS][COLS], i, tag = 40 + me, got = -1, pos = 0, size = 0, upos = 0;
  char buf[256];
  MPI_Status st;
  for (i = 0; i < ROWS; i++) a[i][2] = 7 * i + me, b[i][2] = -1;
  MPI_Pack_size(1, column, MPI_COMM_WORLD, &size);
  CHECK(size == ROWS * (int)sizeof(int), "MPI_Pack_size of a column: %d", size);
  MPI_Pack(&tag, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Pack(&a[0][2], 1, column, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  CHECK(pos == (ROWS + 1) * (int)sizeof(int), "position after packing: %d", pos);
  MPI_Unpack(buf, pos, &upos, &got, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(buf, pos, &upos, &b[0][2], 1, column, MPI_COMM_WORLD);
  CHECK(got == tag && upos == pos, "unpacked int %d at %d", got, upos);
  for (i = 0; i < ROWS; i++) CHECK(b[i][2] == a[i][2], "unpacked column row %d: %d", i, b[i][2]);
  /* the packed column alone, sent as MPI_PACKED and received as the type */
  pos = 0;
  MPI_Pack(&a[0][2], 1, column, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  for (i = 0; i < ROWS; i++) b[i][1] = -1;
  MPI_Sendrecv(buf, pos, MPI_PACKED, me, 9, &b[0][1], 1, column, me, 9, MPI_COMM_WORLD, &st);
  for (i = 0; i < ROWS; i++) CHECK(b[i][1] == a[i][2], "MPI_PACKED into a column, row %d: %d", i, b[i][1]);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  pos = 0;
  CHECK(MPI_Pack(&a[0][2], 1, column, buf, 4, &pos, MPI_COMM_WORLD) != MPI_SUCCESS && pos == 0,
        "packing past outsize succeeded");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Type_vector(ROWS, 1, COLS, MPI_INT, &column);
  MPI_Type_commit(&column);
  halo();
  gather_scatter();
  alltoall();
  modes();
  packing();
  MPI_Type_free(&column);
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && failures == 0) printf("done\n");
  MPI_Finalize();
  return failures != 0;
}
