// capi/c_status.cpp: what a status says and what a generalized request's
// query function may set in one (MPI-3.1 §3.2.5, §4.1.11, §12.2.1):
// MPI_Get_elements_x, MPI_Status_set_elements(_x), MPI_Status_set_cancelled,
// and MPI_Type_size_x (the _x extent queries are capi/c_type.cpp's). A status
// carries the bytes of its message (lumpi_bytes); counts and elements are
// read from them through the datatype (core/datatype).
#include <string>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

extern "C" {

LUMPI_PMPI(Get_elements_x);
int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype t, MPI_Count* count) {
  const char* f = "MPI_Get_elements_x";
  return call(f, [&] {
    if (!status) fail(MPI_ERR_ARG, f, "status is MPI_STATUS_IGNORE");
    check_out(count, f, "count");
    const core::TypePtr& p = type_of(t, f);
    p->check_committed(f);
    *count = p->size() == 0 ? 0 : p->elements_of(status->lumpi_bytes);
  });
}

LUMPI_PMPI(Status_set_elements_x);
int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype t, MPI_Count count) {
  const char* f = "MPI_Status_set_elements_x";
  return call(f, [&] {
    check_out(status, f, "status");
    const core::TypePtr& p = type_of(t, f);
    p->check_committed(f);
    if (count < 0) fail(MPI_ERR_COUNT, f, "count " + std::to_string(count) + " is negative");
    status->lumpi_bytes = p->bytes_of_elements(count);
  });
}

LUMPI_PMPI(Status_set_elements);
int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype t, int count) {
  return MPI_Status_set_elements_x(status, t, count);
}

LUMPI_PMPI(Status_set_cancelled);
int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  const char* f = "MPI_Status_set_cancelled";
  return call(f, [&] {
    check_out(status, f, "status");
    status->lumpi_cancelled = flag != 0;
  });
}

LUMPI_PMPI(Type_size_x);
int MPI_Type_size_x(MPI_Datatype t, MPI_Count* size) {
  const char* f = "MPI_Type_size_x";
  return call(f, [&] {
    check_out(size, f, "size");
    *size = type_of(t, f)->size();
  });
}

LUMPI_PMPI(Aint_add);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return MPI_Aint((unsigned long)base + (unsigned long)disp); }

LUMPI_PMPI(Aint_diff);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return MPI_Aint((unsigned long)addr1 - (unsigned long)addr2);
}

}  // extern "C"
