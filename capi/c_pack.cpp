// capi/c_pack.cpp: MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI-3.1 §4.2)
// over the core's one pack engine (core/datatype): the packed form is the
// type's data in type-map order without its holes, the same bytes a message
// of that type carries, so packed data can be sent as MPI_PACKED and
// received into the type, or the other way round.
#include <cstring>
#include <string>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// Position and size arguments: MPI_ERR_ARG naming them when negative or
// past the buffer's end.
void check_position(const int* position, int size, const char* f, const char* what) {
  check_out(position, f, "position");
  if (size < 0) fail(MPI_ERR_ARG, f, std::string(what) + " " + std::to_string(size) + " is negative");
  if (*position < 0 || *position > size)
    fail(MPI_ERR_ARG, f,
         "position " + std::to_string(*position) + " is outside the buffer of " + std::to_string(size) + " bytes");
}

const core::TypePtr& usable(MPI_Datatype t, const char* f) {
  const core::TypePtr& p = type_of(t, f);
  p->check_usable(f);
  return p;
}

}  // namespace

extern "C" {

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
    std::string packed;
    type->pack(inbuf, incount, packed, f);
    std::memcpy(static_cast<char*>(outbuf) + *position, packed.data(), packed.size());
    *position += int(packed.size());
  });
}

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

}  // extern "C"
