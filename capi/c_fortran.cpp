// capi/c_fortran.cpp: handles and statuses as Fortran sees them (MPI-3.1
// §17.2.4 "Transfer of Handles", §17.2.5 "Status"), for mixed-language
// programs and for the bindings that pass handles as integers (mpi4py's
// py2f/f2py). lumpi's handles are already C ints, numbers into the
// process's tables, so MPI_Fint is int and each MPI_X_c2f / MPI_X_f2c is
// the identity: a handle converted one way and back is the same handle,
// and an invalid one stays invalid (the call that uses it says so). A
// Fortran status is the C status as an array of MPI_Fint (MPI_F_STATUS_SIZE
// of them).
#include <cstring>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0 &&
              sizeof(MPI_Status) / sizeof(MPI_Fint) == MPI_F_STATUS_SIZE);

static MPI_Fint lumpi_f_status_ignore[MPI_F_STATUS_SIZE];
static MPI_Fint lumpi_f_statuses_ignore[MPI_F_STATUS_SIZE];

extern "C" {

MPI_Fint* MPI_F_STATUS_IGNORE = lumpi_f_status_ignore;
MPI_Fint* MPI_F_STATUSES_IGNORE = lumpi_f_statuses_ignore;

#define LUMPI_HANDLE_TRANSFER(Kind, Handle)                      \
  LUMPI_PMPI(Kind##_c2f);                                         \
  MPI_Fint MPI_##Kind##_c2f(Handle h) { return MPI_Fint(h); } \
  LUMPI_PMPI(Kind##_f2c);                                         \
  Handle MPI_##Kind##_f2c(MPI_Fint h) { return Handle(h); }
LUMPI_HANDLE_TRANSFER(Comm, MPI_Comm)
LUMPI_HANDLE_TRANSFER(Type, MPI_Datatype)
LUMPI_HANDLE_TRANSFER(Group, MPI_Group)
LUMPI_HANDLE_TRANSFER(Op, MPI_Op)
LUMPI_HANDLE_TRANSFER(Request, MPI_Request)
LUMPI_HANDLE_TRANSFER(Info, MPI_Info)
LUMPI_HANDLE_TRANSFER(Errhandler, MPI_Errhandler)
LUMPI_HANDLE_TRANSFER(Win, MPI_Win)
LUMPI_HANDLE_TRANSFER(Message, MPI_Message)
#undef LUMPI_HANDLE_TRANSFER

// §17.2.5: passing MPI_STATUS_IGNORE (or the Fortran ignore) is erroneous.
LUMPI_PMPI(Status_c2f);
int MPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) {
  const char* f = "MPI_Status_c2f";
  return call(f, [&] {
    if (!c_status) fail(MPI_ERR_ARG, f, "c_status is MPI_STATUS_IGNORE");
    if (!f_status || f_status == MPI_F_STATUS_IGNORE || f_status == MPI_F_STATUSES_IGNORE)
      fail(MPI_ERR_ARG, f, "f_status is NULL or MPI_F_STATUS_IGNORE");
    std::memcpy(f_status, c_status, sizeof(MPI_Status));
  });
}

LUMPI_PMPI(Status_f2c);
int MPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) {
  const char* f = "MPI_Status_f2c";
  return call(f, [&] {
    if (!f_status || f_status == MPI_F_STATUS_IGNORE || f_status == MPI_F_STATUSES_IGNORE)
      fail(MPI_ERR_ARG, f, "f_status is NULL or MPI_F_STATUS_IGNORE");
    if (!c_status) fail(MPI_ERR_ARG, f, "c_status is MPI_STATUS_IGNORE");
    std::memcpy(c_status, f_status, sizeof(MPI_Status));
  });
}

}  // extern "C"
