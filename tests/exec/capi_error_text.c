/* tests/exec/capi_error_text.c: an error code returned to a C program
 * carries its message in the program's own terms. Under MPI_ERRORS_RETURN,
 * MPI_Error_string of the returned code says which argument was wrong and
 * why, with C's spelling (MPI_UNDEFINED, not Lua's mpi.UNDEFINED) and C's
 * 0-based positions (ranks[0]); MPI_Error_class gives the class, and the
 * code is the class itself, so `rc == MPI_ERR_ARG` holds too. A class never
 * returned keeps its generic string. Run by test_capi_error_text.py. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static void text_of(int rc, char* s) {
  int len = 0;
  s[0] = 0;
  MPI_Error_string(rc, s, &len);
  CHECK(len == (int)strlen(s), "resultlen %d for a string of %d", len, (int)strlen(s));
}

int main(int argc, char** argv) {
  char s[MPI_MAX_ERROR_STRING];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* §6.4.2: a colour is non-negative or MPI_UNDEFINED */
  MPI_Comm c = MPI_COMM_WORLD;
  int rc = MPI_Comm_split(MPI_COMM_WORLD, -2, 0, &c), cls = -1;
  MPI_Error_class(rc, &cls);
  text_of(rc, s);
  CHECK(rc == MPI_ERR_ARG && cls == MPI_ERR_ARG, "split colour -2: rc %d class %d", rc, cls);
  CHECK(c == MPI_COMM_NULL, "a failed split leaves MPI_COMM_NULL");
  CHECK(strstr(s, "MPI_Comm_split") && strstr(s, "-2") && strstr(s, "MPI_UNDEFINED") && !strstr(s, "mpi."),
        "split colour -2: %s", s);

  /* a bad rank at position 0 is ranks[0] */
  MPI_Group world, g = MPI_GROUP_EMPTY;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranks[2] = {n, 0};
  rc = MPI_Group_incl(world, 2, ranks, &g);
  MPI_Error_class(rc, &cls);
  text_of(rc, s);
  CHECK(cls == MPI_ERR_RANK, "Group_incl ranks[0] = n: class %d", cls);
  CHECK(strstr(s, "MPI_Group_incl") && strstr(s, "ranks[0]") && !strstr(s, "ranks[1]"), "Group_incl: %s", s);

  /* the second blocklength is blocklengths[1] */
  int bl[2] = {1, -2};
  MPI_Aint disp[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT}, t = MPI_DATATYPE_NULL;
  rc = MPI_Type_create_struct(2, bl, disp, types, &t);
  text_of(rc, s);
  CHECK(rc != MPI_SUCCESS && strstr(s, "blocklengths[1]") && !strstr(s, "blocklengths[2]"),
        "Type_create_struct: rc %d: %s", rc, s);

  /* a class this program never got back keeps its generic text */
  text_of(MPI_ERR_TOPOLOGY, s);
  CHECK(strcmp(s, "MPI_ERR_TOPOLOGY: invalid topology") == 0, "generic MPI_ERR_TOPOLOGY: %s", s);

  MPI_Group_free(&world);
  printf("rank %d: %d failures\n", me, failures);
  MPI_Finalize();
  return failures != 0;
}
