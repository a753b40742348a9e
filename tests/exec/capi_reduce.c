/* tests/exec/capi_reduce.c: the C API's reductions over every predefined
 * type the op table of MPI-3.1 §5.9.2 allows, MPI_MAXLOC/MPI_MINLOC on the
 * pair types with ties to the lowest index (§5.9.4), derived datatypes with
 * predefined and user ops, the refused (op, type) pairs, and MPI_IN_PLACE
 * where §5.9 forbids it, against values computed here. Prints "FAIL ..."
 * per failed check and "done" on rank 0 (tests/integration/test_capi_nbc.py). */
#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* MPI_SUM and MPI_MAX of one value per rank, v(rank) = rank + 1, for each type. */
#define SUM_MAX(T, MT, FMT)                                                        \
  do {                                                                             \
    T in = (T)(me + 1), sum = 0, max = 0;                                          \
    MPI_Allreduce(&in, &sum, 1, MT, MPI_SUM, MPI_COMM_WORLD);                      \
    MPI_Allreduce(&in, &max, 1, MT, MPI_MAX, MPI_COMM_WORLD);                      \
    CHECK(sum == (T)(n * (n + 1) / 2), #MT " MPI_SUM gave " FMT, sum);             \
    CHECK(max == (T)n, #MT " MPI_MAX gave " FMT, max);                             \
  } while (0)

static void every_type(void) {
  SUM_MAX(signed char, MPI_SIGNED_CHAR, "%d");
  SUM_MAX(unsigned char, MPI_UNSIGNED_CHAR, "%d");
  SUM_MAX(short, MPI_SHORT, "%d");
  SUM_MAX(unsigned short, MPI_UNSIGNED_SHORT, "%d");
  SUM_MAX(int, MPI_INT, "%d");
  SUM_MAX(unsigned, MPI_UNSIGNED, "%u");
  SUM_MAX(long, MPI_LONG, "%ld");
  SUM_MAX(unsigned long, MPI_UNSIGNED_LONG, "%lu");
  SUM_MAX(long long, MPI_LONG_LONG, "%lld");
  SUM_MAX(unsigned long long, MPI_UNSIGNED_LONG_LONG, "%llu");
  SUM_MAX(float, MPI_FLOAT, "%g");
  SUM_MAX(double, MPI_DOUBLE, "%g");
  SUM_MAX(long double, MPI_LONG_DOUBLE, "%Lg");
  SUM_MAX(int8_t, MPI_INT8_T, "%d");
  SUM_MAX(uint16_t, MPI_UINT16_T, "%d");
  SUM_MAX(int64_t, MPI_INT64_T, "%ld");
  SUM_MAX(MPI_Aint, MPI_AINT, "%ld");
  SUM_MAX(MPI_Offset, MPI_OFFSET, "%lld");
  SUM_MAX(MPI_Count, MPI_COUNT, "%lld");
  {
    double complex in = (me + 1) + 1.0 * I, sum = 0, prod = 0, want = 1;
    int k;
    MPI_Allreduce(&in, &sum, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &prod, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    for (k = 1; k <= n; k++) want *= k + 1.0 * I;
    CHECK(creal(sum) == n * (n + 1) / 2 && cimag(sum) == n, "complex MPI_SUM gave %g%+gi", creal(sum), cimag(sum));
    CHECK(cabs(prod - want) < 1e-9 * cabs(want), "complex MPI_PROD gave %g%+gi", creal(prod), cimag(prod));
  }
  {
    _Bool in = me % 2 == 0, all = 0, any = 0;
    MPI_Allreduce(&in, &all, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &any, 1, MPI_C_BOOL, MPI_LOR, MPI_COMM_WORLD);
    CHECK(all == (n == 1) && any == 1, "MPI_C_BOOL LAND/LOR gave %d %d", all, any);
  }
  {
    signed char in = (signed char)(me % 2), x = 0;
    MPI_Allreduce(&in, &x, 1, MPI_SIGNED_CHAR, MPI_LXOR, MPI_COMM_WORLD);
    CHECK(x == (n / 2) % 2, "MPI_SIGNED_CHAR LXOR gave %d", x);
  }
}

/* The pair types: the maximum and minimum and who holds them; every rank
 * holds the same extreme value twice, so ties must go to the lower index. */
static void pairs(void) {
  struct { double v; int i; } d = {me % 3 == 0 ? 7.5 : 1.0 * me, me}, dmax, dmin;
  struct { short v; int i; } s = {(short)(-(me / 2)), me}, smin;
  struct { long double v; int i; } l = {(long double)me, me}, lmax;
  int two[2] = {me % 2, me}, twomax[2];
  MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  MPI_Allreduce(&d, &dmin, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  double best = 7.5;
  int who = 0, k, lowest = 0;
  for (k = 0; k < n; k++)
    if (k % 3 != 0 && k > best) best = k, who = k;
  CHECK(dmax.v == best && dmax.i == who, "MPI_DOUBLE_INT MAXLOC gave (%g, %d), want (%g, %d)", dmax.v, dmax.i, best, who);
  for (k = 0; k < n; k++)
    if ((k % 3 == 0 ? 7.5 : k) < (lowest % 3 == 0 ? 7.5 : lowest)) lowest = k;
  CHECK(dmin.i == lowest, "MPI_DOUBLE_INT MINLOC gave index %d, want %d", dmin.i, lowest);
  MPI_Allreduce(&s, &smin, 1, MPI_SHORT_INT, MPI_MINLOC, MPI_COMM_WORLD);
  CHECK(smin.v == -((n - 1) / 2) && smin.i == 2 * ((n - 1) / 2), "MPI_SHORT_INT MINLOC gave (%d, %d)", smin.v, smin.i);
  MPI_Allreduce(&l, &lmax, 1, MPI_LONG_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  CHECK(lmax.v == n - 1 && lmax.i == n - 1, "MPI_LONG_DOUBLE_INT MAXLOC gave (%Lg, %d)", lmax.v, lmax.i);
  { /* a pair type has holes (size 12, extent 16): point-to-point and bcast pack it */
    struct { double v; int i; } b[3];
    for (k = 0; k < 3; k++) b[k].v = me == 0 ? k + 0.5 : -1, b[k].i = me == 0 ? 10 * k : -1;
    MPI_Bcast(b, 3, MPI_DOUBLE_INT, 0, MPI_COMM_WORLD);
    for (k = 0; k < 3; k++) CHECK(b[k].v == k + 0.5 && b[k].i == 10 * k, "bcast of pairs: element %d", k);
  }
  MPI_Reduce(two, twomax, 1, MPI_2INT, MPI_MAXLOC, n - 1, MPI_COMM_WORLD);
  if (me == n - 1)
    CHECK(twomax[0] == (n > 1) && twomax[1] == (n > 1), "MPI_2INT MAXLOC tie gave (%d, %d)", twomax[0], twomax[1]);
  { /* Fortran's pairs: the index has the value's type (MPI_2REAL: two REALs) */
    float r[2] = {(float)(me % 2), (float)me}, rmax[2];
    double d2[4] = {-me, me, me % 2 ? 1.0 : 0.0, me}, d2min[4];
    int i2[2] = {me / 2, me}, i2max[2];
    MPI_Allreduce(r, rmax, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(rmax[0] == (n > 1) && rmax[1] == (n > 1), "MPI_2REAL MAXLOC tie gave (%g, %g)", rmax[0], rmax[1]);
    MPI_Allreduce(d2, d2min, 2, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(d2min[0] == -(n - 1) && d2min[1] == n - 1 && d2min[2] == 0 && d2min[3] == 0,
          "MPI_2DOUBLE_PRECISION MINLOC gave (%g, %g), (%g, %g)", d2min[0], d2min[1], d2min[2], d2min[3]);
    MPI_Allreduce(i2, i2max, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(i2max[0] == (n - 1) / 2 && i2max[1] == 2 * ((n - 1) / 2), "MPI_2INTEGER MAXLOC gave (%d, %d)", i2max[0],
          i2max[1]);
    int size = 0;
    MPI_Type_size(MPI_2DOUBLE_PRECISION, &size);
    CHECK(size == 16, "MPI_2DOUBLE_PRECISION has size %d", size);
  }
}

/* A column of a 3-column row-major matrix (MPI_Type_vector) reduced with a
 * predefined op, and with a user op that sees the memory layout: the column
 * holds a 2x2 matrix (m00, m01, m10, m11, 3 ints apart) and the op is the
 * matrix product in @ inout, associative and not commutative. */
static void matmul_cols(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int e, *a = in, *b = inout;
  (void)dt;
  for (e = 0; e < *len; e++, a += 12, b += 12) { /* an element spans 4 rows of 3 ints */
    int r00 = a[0] * b[0] + a[3] * b[6], r01 = a[0] * b[3] + a[3] * b[9];
    int r10 = a[6] * b[0] + a[9] * b[6], r11 = a[6] * b[3] + a[9] * b[9];
    b[0] = r00, b[3] = r01, b[6] = r10, b[9] = r11;
  }
}

static void derived(void) {
  int m[12], out[12], i, k, want = 0;
  MPI_Datatype col, col1;
  MPI_Op op;
  MPI_Type_vector(4, 1, 3, MPI_INT, &col);
  MPI_Type_create_resized(col, 0, 12 * sizeof(int), &col1); /* one element per 12 ints */
  MPI_Type_commit(&col);
  MPI_Type_commit(&col1);
  for (i = 0; i < 12; i++) m[i] = i % 3 == 0 ? me + i : -1, out[i] = -7;
  MPI_Allreduce(m, out, 1, col, MPI_SUM, MPI_COMM_WORLD);
  for (i = 0; i < 12; i++)
    CHECK(out[i] == (i % 3 == 0 ? n * (n - 1) / 2 + n * i : -7), "column allreduce out[%d] = %d", i, out[i]);
  MPI_Op_create(matmul_cols, 0, &op);
  m[0] = 1, m[3] = me + 1, m[6] = 0, m[9] = 2; /* [[1, me+1], [0, 2]] */
  for (i = 0; i < 12; i++) out[i] = -7;
  MPI_Reduce(m, out, 1, col1, op, 0, MPI_COMM_WORLD);
  for (k = 0; k < n; k++) want = 2 * want + (k + 1); /* M0 @ M1 @ ... top right */
  if (me == 0) {
    CHECK(out[0] == 1 && out[3] == want && out[6] == 0 && out[9] == (1 << n),
          "user op on a column gave [[%d, %d], [%d, %d]], want [[1, %d], [0, %d]]", out[0], out[3], out[6], out[9],
          want, 1 << n);
    for (i = 0; i < 12; i++)
      if (i % 3) CHECK(out[i] == -7, "the user op wrote outside the column: out[%d] = %d", i, out[i]);
  }
  MPI_Op_free(&op);
  MPI_Type_free(&col1);
  MPI_Type_free(&col);
}

static int class_of(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

static void refused(void) {
  char c = 'a', co;
  double d = 1, dout;
  int x = 1, xo;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK(class_of(MPI_Allreduce(&c, &co, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_OP, "MPI_CHAR + MPI_SUM accepted");
  CHECK(class_of(MPI_Allreduce(&d, &dout, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD)) == MPI_ERR_OP, "MPI_DOUBLE + MPI_BAND accepted");
  CHECK(class_of(MPI_Allreduce(&x, &xo, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD)) == MPI_ERR_OP, "MPI_INT + MPI_MAXLOC accepted");
  CHECK(class_of(MPI_Allreduce(&x, &xo, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD)) == MPI_ERR_OP, "MPI_REPLACE accepted");
  {
    float r[2] = {1, 0}, ro[2];
    CHECK(class_of(MPI_Allreduce(r, ro, 1, MPI_2REAL, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_OP, "MPI_2REAL + MPI_SUM accepted");
  }
  CHECK(class_of(MPI_Reduce_local(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM)) == MPI_ERR_ARG,
        "MPI_Reduce_local took MPI_IN_PLACE");
  if (n > 1 && me == 1)
    CHECK(class_of(MPI_Reduce(MPI_IN_PLACE, &xo, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD)) == MPI_ERR_ARG,
          "a non-root's MPI_IN_PLACE accepted by MPI_Reduce");
  /* the erroneous calls sent nothing: a correct one still works */
  x = me;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(x == n * (n - 1) / 2, "in-place allreduce after the errors gave %d", x);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  every_type();
  pairs();
  derived();
  refused();
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && failures == 0) printf("done\n");
  MPI_Finalize();
  return failures != 0;
}
