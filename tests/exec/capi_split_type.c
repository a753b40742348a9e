/* tests/exec/capi_split_type.c: MPI_Comm_split_type in C (seed §6.4.2;
 * MPI-4.0 §7.4.2 for HW_GUIDED and HW_UNGUIDED). Every local rank shares
 * one host: SHARED gives the whole world; HW_DOMAIN gives strict subsets,
 * level after level, until MPI_COMM_NULL; its info key MPI_HW_DOMAIN_TYPE
 * set to "mpi_shared_memory" gives SHARED's split, as HW_GUIDED's
 * "mpi_hw_resource_type" does; MPI_UNDEFINED gives MPI_COMM_NULL; an
 * unknown split type is MPI_ERR_ARG before any communication. Prints
 * "done" on rank 0 when every check passed on every rank. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int compare(MPI_Comm a, MPI_Comm b) {
  int r;
  MPI_Comm_compare(a, b, &r);
  return r;
}

static void shared_and_named_levels(void) {
  MPI_Comm host, domain, guided;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int size, rank;
  MPI_Comm_size(host, &size);
  MPI_Comm_rank(host, &rank);
  CHECK(size == n && rank == me, "SHARED: size %d rank %d, expected %d %d", size, rank, n, me);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, MPI_HW_DOMAIN_TYPE, "mpi_shared_memory");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_DOMAIN, 0, info, &domain);
  CHECK(domain != MPI_COMM_NULL && compare(domain, host) == MPI_CONGRUENT,
        "HW_DOMAIN with MPI_HW_DOMAIN_TYPE=mpi_shared_memory is not SHARED's split");
  MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &guided);
  CHECK(guided != MPI_COMM_NULL && compare(guided, host) == MPI_CONGRUENT,
        "HW_GUIDED with mpi_shared_memory is not SHARED's split");
  MPI_Info_free(&info);
  MPI_Comm_free(&guided);
  MPI_Comm_free(&domain);
  MPI_Comm_free(&host);
}

/* The seed's advice to users: split "recursively" until MPI_COMM_NULL. */
static void domains_down_to_null(void) {
  MPI_Comm level = MPI_COMM_WORLD;
  for (int depth = 0; depth < 16 && level != MPI_COMM_NULL; ++depth) {
    MPI_Comm sub;
    MPI_Comm_split_type(level, MPI_COMM_TYPE_HW_DOMAIN, 0, MPI_INFO_NULL, &sub);
    if (sub != MPI_COMM_NULL) {
      int outer, inner;
      MPI_Comm_size(level, &outer);
      MPI_Comm_size(sub, &inner);
      CHECK(compare(sub, level) == MPI_UNEQUAL && inner < outer,
            "depth %d: a domain of %d processes in %d is not a strict subset", depth, inner, outer);
    }
    if (level != MPI_COMM_WORLD) MPI_Comm_free(&level);
    level = sub;
  }
  CHECK(level == MPI_COMM_NULL, "16 levels of hardware domains and no MPI_COMM_NULL");
}

static void undefined_and_bad_types(void) {
  MPI_Comm none = MPI_COMM_WORLD;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none);
  CHECK(none == MPI_COMM_NULL, "MPI_UNDEFINED did not give MPI_COMM_NULL");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm bad = MPI_COMM_WORLD;
  int rc = MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &bad), cls = -1, len;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  CHECK(cls == MPI_ERR_ARG && strstr(text, "split_type 99") && bad == MPI_COMM_NULL,
        "split_type 99: class %d, '%s'", cls, text);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int pending = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
  CHECK(!pending, "the failed call sent something");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  shared_and_named_levels();
  domains_down_to_null();
  undefined_and_bad_types();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("done\n");
  MPI_Finalize();
  return all != 0;
}
