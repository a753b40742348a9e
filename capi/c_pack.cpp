// capi/c_pack.cpp: MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI-3.1 §4.2)
// over the core's one pack engine (core/datatype): the packed form is the
// type's data in type-map order without its holes, the same bytes a message
// of that type carries, so packed data can be sent as MPI_PACKED and
// received into the type, or the other way round. The _external forms
// (§4.3) write and read the portable "external32" representation
// (core/datatype/external32.hpp) around the same engine.
#include <cstring>
#include <string>

#include "capi/c_api.hpp"
#include "core/datatype/external32.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// Position and size arguments (int for MPI_Pack, MPI_Aint for the _external
// forms): MPI_ERR_ARG naming them when negative or past the buffer's end.
template <class Int>
void check_position(const Int* position, Int size, const char* f, const char* what) {
  check_out(position, f, "position");
  if (size < 0) fail(MPI_ERR_ARG, f, std::string(what) + " " + std::to_string(size) + " is negative");
  if (*position < 0 || *position > size)
    fail(MPI_ERR_ARG, f,
         "position " + std::to_string(*position) + " is outside the buffer of " + std::to_string(size) + " bytes");
}

// The one data representation MPI_Pack_external knows (§4.3, §13.5.2).
void check_datarep(const char* datarep, const char* f) {
  if (!datarep) fail(MPI_ERR_ARG, f, "datarep is NULL");
  if (std::string(datarep) != "external32")
    fail(MPI_ERR_ARG, f, std::string("datarep '") + datarep + "' is not \"external32\"");
}

const core::TypePtr& usable(MPI_Datatype t, const char* f) {
  const core::TypePtr& p = type_of(t, f);
  p->check_usable(f);
  return p;
}

}  // namespace

extern "C" {

LUMPI_PMPI(Pack);
int MPI_Pack(const void* inbuf, int incount, MPI_Datatype t, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  const char* f = "MPI_Pack";
  return call(comm, f, [&] {
    core_comm(comm, f);
    check_count(incount, f, "incount");
    const core::TypePtr& type = usable(t, f);
    check_position(position, outsize, f, "outsize");
    const std::int64_t n = std::int64_t(incount) * type->size();
    if (n > outsize - *position)
      fail(MPI_ERR_ARG, f,
           std::to_string(n) + " packed bytes do not fit the " + std::to_string(outsize - *position) +
               " left in outbuf after position " + std::to_string(*position) + " (outsize " +
               std::to_string(outsize) + ")");
    if (n == 0) return;
    if (!inbuf) fail(MPI_ERR_BUFFER, f, "inbuf is NULL");
    check_out(outbuf, f, "outbuf");
    type->pack(inbuf, incount, static_cast<char*>(outbuf) + *position, f);
    *position += int(n);
  });
}

LUMPI_PMPI(Unpack);
int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype t,
               MPI_Comm comm) {
  const char* f = "MPI_Unpack";
  return call(comm, f, [&] {
    core_comm(comm, f);
    check_count(outcount, f, "outcount");
    const core::TypePtr& type = usable(t, f);
    check_position(position, insize, f, "insize");
    const std::int64_t n = std::int64_t(outcount) * type->size();
    if (n > insize - *position)
      fail(MPI_ERR_TRUNCATE, f,
           std::to_string(outcount) + " elements need " + std::to_string(n) + " packed bytes; inbuf has " +
               std::to_string(insize - *position) + " after position " + std::to_string(*position));
    if (n == 0) return;
    check_out(inbuf, f, "inbuf");
    if (!outbuf) fail(MPI_ERR_BUFFER, f, "outbuf is NULL");
    type->unpack(static_cast<const char*>(inbuf) + *position, size_t(n), outbuf, outcount, f);
    *position += int(n);
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
    check_count(incount, f, "incount");
    const core::TypePtr& type = usable(t, f);
    check_position(position, outsize, f, "outsize");
    const std::int64_t n = core::external32_size(*type, incount);
    if (n > outsize - *position)
      fail(MPI_ERR_ARG, f,
           std::to_string(n) + " external32 bytes do not fit the " + std::to_string(outsize - *position) +
               " left in outbuf after position " + std::to_string(*position));
    if (n == 0) return;
    if (!inbuf) fail(MPI_ERR_BUFFER, f, "inbuf is NULL");
    check_out(outbuf, f, "outbuf");
    std::string native;
    type->pack(inbuf, incount, native, f);
    const std::string external = core::to_external32(*type, incount, native, f);
    std::memcpy(static_cast<char*>(outbuf) + *position, external.data(), external.size());
    *position += MPI_Aint(external.size());
  });
}

LUMPI_PMPI(Unpack_external);
int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position,
                        void* outbuf, int outcount, MPI_Datatype t) {
  const char* f = "MPI_Unpack_external";
  return call(f, [&] {
    check_datarep(datarep, f);
    check_count(outcount, f, "outcount");
    const core::TypePtr& type = usable(t, f);
    check_position(position, insize, f, "insize");
    const std::int64_t n = core::external32_size(*type, outcount);
    if (n > insize - *position)
      fail(MPI_ERR_TRUNCATE, f,
           std::to_string(outcount) + " elements need " + std::to_string(n) + " external32 bytes; inbuf has " +
               std::to_string(insize - *position) + " after position " + std::to_string(*position));
    if (n == 0) return;
    check_out(inbuf, f, "inbuf");
    if (!outbuf) fail(MPI_ERR_BUFFER, f, "outbuf is NULL");
    const std::string native = core::from_external32(
        *type, outcount, std::string_view(static_cast<const char*>(inbuf) + *position, size_t(n)), f);
    type->unpack(native.data(), native.size(), outbuf, outcount, f);
    *position += MPI_Aint(n);
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
