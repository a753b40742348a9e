// capi/c_pack.cpp: MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI-3.1 §4.2)
// over the core's one pack engine (core/datatype): the packed form is the
// type's data in type-map order without its holes, the same bytes a message
// of that type carries, so packed data can be sent as MPI_PACKED and
// received into the type, or the other way round. The _external forms
// (§4.3) write and read the portable "external32" representation
// (core/datatype/external32.hpp) around the same engine. The rules of
// positions and sizes are core::pack_at's (core/datatype/typed_buffer.hpp),
// which the C++ API's Datatype::Pack shares.
#include <cstring>
#include <string>

#include "capi/c_api.hpp"
#include "core/datatype/external32.hpp"
#include "core/datatype/typed_buffer.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// The one data representation MPI_Pack_external knows (§4.3, §13.5.2).
void check_datarep(const char* datarep, const char* f) {
  if (!datarep) fail(MPI_ERR_ARG, f, "datarep is NULL");
  if (std::string(datarep) != "external32")
    fail(MPI_ERR_ARG, f, std::string("datarep '") + datarep + "' is not \"external32\"");
}

// MPI_Pack and MPI_Pack_external: core::pack_at's rules, position an int or MPI_Aint.
template <class Int>
void pack(const void* inbuf, int incount, MPI_Datatype t, void* outbuf, Int outsize, Int* position,
          bool external, const char* f) {
  check_out(position, f, "position");
  std::int64_t at = *position;
  core::pack_at(*type_of(t, f), inbuf, incount, outbuf, outsize, at, external, f);
  *position = Int(at);
}

template <class Int>
void unpack(const void* inbuf, Int insize, Int* position, void* outbuf, int outcount, MPI_Datatype t,
            bool external, const char* f) {
  check_out(position, f, "position");
  std::int64_t at = *position;
  core::unpack_at(*type_of(t, f), inbuf, insize, at, outbuf, outcount, external, f);
  *position = Int(at);
}

}  // namespace

extern "C" {

LUMPI_PMPI(Pack);
int MPI_Pack(const void* inbuf, int incount, MPI_Datatype t, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  const char* f = "MPI_Pack";
  return call(comm, f, [&] {
    core_comm(comm, f);
    pack(inbuf, incount, t, outbuf, outsize, position, false, f);
  });
}

LUMPI_PMPI(Unpack);
int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype t,
               MPI_Comm comm) {
  const char* f = "MPI_Unpack";
  return call(comm, f, [&] {
    core_comm(comm, f);
    unpack(inbuf, insize, position, outbuf, outcount, t, false, f);
  });
}

LUMPI_PMPI(Pack_size);
int MPI_Pack_size(int incount, MPI_Datatype t, MPI_Comm comm, int* size) {
  const char* f = "MPI_Pack_size";
  return call(comm, f, [&] {
    core_comm(comm, f);
    check_count(incount, f, "incount");
    check_out(size, f, "size");
    const std::int64_t n = std::int64_t(incount) * type_of(t, f)->size();
    if (n > INT32_MAX) fail(MPI_ERR_ARG, f, std::to_string(n) + " packed bytes do not fit an int");
    *size = int(n);
  });
}

LUMPI_PMPI(Pack_external);
int MPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype t, void* outbuf,
                      MPI_Aint outsize, MPI_Aint* position) {
  const char* f = "MPI_Pack_external";
  return call(f, [&] {
    check_datarep(datarep, f);
    pack(inbuf, incount, t, outbuf, outsize, position, true, f);
  });
}

LUMPI_PMPI(Unpack_external);
int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position,
                        void* outbuf, int outcount, MPI_Datatype t) {
  const char* f = "MPI_Unpack_external";
  return call(f, [&] {
    check_datarep(datarep, f);
    unpack(inbuf, insize, position, outbuf, outcount, t, true, f);
  });
}

LUMPI_PMPI(Pack_external_size);
int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype t, MPI_Aint* size) {
  const char* f = "MPI_Pack_external_size";
  return call(f, [&] {
    check_datarep(datarep, f);
    check_count(incount, f, "incount");
    check_out(size, f, "size");
    const core::TypePtr& type = type_of(t, f);
    type->check_committed(f);
    *size = MPI_Aint(core::external32_size(*type, incount));
  });
}

}  // extern "C"
