// core/api/api_pack.cpp: Datatype::Pack, Unpack, Pack_size and the external32
// forms (MPI-3.1 §4.2, §4.3) over core::pack_at/unpack_at
// (core/datatype/typed_buffer.hpp), whose rules of positions and sizes the
// C API's MPI_Pack shares. The packed form is what a message of the type
// carries, so packed data can be sent as PACKED and received into the type.
#include "core/api/api_detail.hpp"
#include "core/datatype/external32.hpp"

namespace lumpi {

namespace {

// The one data representation the _external forms know (§4.3, §13.5.2).
void check_datarep(const char* datarep, std::string_view f) {
  if (!datarep) detail::fail(ERR_ARG, f, "datarep is null");
  if (std::string(datarep) != "external32")
    detail::fail(ERR_ARG, f, std::string("datarep '") + datarep + "' is not \"external32\"");
}

}  // namespace

void Datatype::Pack(const void* inbuf, int incount, void* outbuf, int outsize, int& position,
                    const Comm& comm) const {
  const char* f = "MPI_Pack";
  detail::guarded(comm, f, [&](core::Comm&) {
    std::int64_t at = position;
    core::pack_at(*detail::type_of(*this, f), inbuf, incount, outbuf, outsize, at, false, f);
    position = int(at);
  });
}

void Datatype::Unpack(const void* inbuf, int insize, void* outbuf, int outcount, int& position,
                      const Comm& comm) const {
  const char* f = "MPI_Unpack";
  detail::guarded(comm, f, [&](core::Comm&) {
    std::int64_t at = position;
    core::unpack_at(*detail::type_of(*this, f), inbuf, insize, at, outbuf, outcount, false, f);
    position = int(at);
  });
}

int Datatype::Pack_size(int incount, const Comm& comm) const {
  const char* f = "MPI_Pack_size";
  return detail::guarded(comm, f, [&](core::Comm&) {
    if (incount < 0) detail::fail(ERR_COUNT, f, "incount " + std::to_string(incount) + " is negative");
    const std::int64_t n = std::int64_t(incount) * detail::type_of(*this, f)->size();
    if (n > INT32_MAX) detail::fail(ERR_ARG, f, std::to_string(n) + " packed bytes do not fit an int");
    return int(n);
  });
}

void Datatype::Pack_external(const char* datarep, const void* inbuf, int incount, void* outbuf, Aint outsize,
                             Aint& position) const {
  const char* f = "MPI_Pack_external";
  detail::guarded([&] {
    check_datarep(datarep, f);
    core::pack_at(*detail::type_of(*this, f), inbuf, incount, outbuf, outsize, position, true, f);
  });
}

void Datatype::Unpack_external(const char* datarep, const void* inbuf, Aint insize, Aint& position,
                               void* outbuf, int outcount) const {
  const char* f = "MPI_Unpack_external";
  detail::guarded([&] {
    check_datarep(datarep, f);
    core::unpack_at(*detail::type_of(*this, f), inbuf, insize, position, outbuf, outcount, true, f);
  });
}

Aint Datatype::Pack_external_size(const char* datarep, int incount) const {
  const char* f = "MPI_Pack_external_size";
  return detail::guarded([&] {
    check_datarep(datarep, f);
    if (incount < 0) detail::fail(ERR_COUNT, f, "incount " + std::to_string(incount) + " is negative");
    core::TypePtr t = detail::type_of(*this, f);
    t->check_committed(f);
    return Aint(core::external32_size(*t, incount));
  });
}

}  // namespace lumpi
