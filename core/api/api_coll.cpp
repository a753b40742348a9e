// core/api/api_coll.cpp: the C++ API's datatypes, reduction ops and collectives,
// over the typed-buffer collectives of core/coll/coll_typed.hpp.
//
// Datatypes are the predefined basic types the typed core supports; each maps
// to one core element type. As the core has no type conversion, a collective
// whose send and receive sides are both significant on a process needs the
// same type and count on both (ERR_TYPE / ERR_COUNT otherwise); a side that
// is not significant (the receive side of Gather off the root, ...) is not
// looked at. MPI_IN_PLACE and the v-variants are not there yet.
#include "core/api/api_detail.hpp"
#include "core/coll/coll.hpp"
#include "core/base/constants.hpp"

namespace lumpi {

namespace typed = core::coll::typed;
using detail::Access;
using detail::Elems;
using detail::guarded;
using detail::significant;

namespace {

enum TypeId : int { kNullType, kInt, kLong, kInt64, kUChar, kByte, kFloat, kDouble, kTypeEnd };

struct TypeInfo {
  const char* name;
  typed::Type core;
};

static_assert(sizeof(int) == 4 && sizeof(long) == 8, "lumpi::INT and LONG assume LP64");

constexpr TypeInfo kTypes[kTypeEnd] = {
    {"MPI_DATATYPE_NULL", typed::Type::UInt8}, {"MPI_INT", typed::Type::Int32},
    {"MPI_LONG", typed::Type::Int64},          {"MPI_INT64_T", typed::Type::Int64},
    {"MPI_UNSIGNED_CHAR", typed::Type::UInt8}, {"MPI_BYTE", typed::Type::UInt8},
    {"MPI_FLOAT", typed::Type::Float},         {"MPI_DOUBLE", typed::Type::Double},
};

bool known(int id) { return id > kNullType && id < kTypeEnd; }

}  // namespace

extern const Datatype DATATYPE_NULL = Access::datatype(kNullType);
extern const Datatype INT = Access::datatype(kInt);
extern const Datatype LONG = Access::datatype(kLong);
extern const Datatype INT64_T = Access::datatype(kInt64);
extern const Datatype UNSIGNED_CHAR = Access::datatype(kUChar);
extern const Datatype BYTE = Access::datatype(kByte);
extern const Datatype FLOAT = Access::datatype(kFloat);
extern const Datatype DOUBLE = Access::datatype(kDouble);

// Op ids are the core's typed::Op values plus one (0 is OP_NULL).
extern const Op OP_NULL = Access::op(0);
extern const Op SUM = Access::op(1 + int(typed::Op::Sum));
extern const Op PROD = Access::op(1 + int(typed::Op::Prod));
extern const Op MAX = Access::op(1 + int(typed::Op::Max));
extern const Op MIN = Access::op(1 + int(typed::Op::Min));
extern const Op LAND = Access::op(1 + int(typed::Op::Land));
extern const Op LOR = Access::op(1 + int(typed::Op::Lor));
extern const Op LXOR = Access::op(1 + int(typed::Op::Lxor));
extern const Op BAND = Access::op(1 + int(typed::Op::Band));
extern const Op BOR = Access::op(1 + int(typed::Op::Bor));
extern const Op BXOR = Access::op(1 + int(typed::Op::Bxor));

// ---- Datatype and Op ---------------------------------------------------------------

int Datatype::Get_size() const {
  return int(typed::type_size(detail::typed_type(*this, "MPI_Type_size")));
}

std::string Datatype::Get_name() const { return known(id_) || id_ == 0 ? kTypes[id_].name : "?"; }

std::string Op::Get_name() const {
  return id_ == 0 ? "MPI_OP_NULL" : core::op_name(core::Op(id_ - 1));
}

void Op::Reduce_local(const void* inbuf, void* inoutbuf, int count, const Datatype& type) const {
  const char* func = "MPI_Reduce_local";
  guarded([&] {
    typed::Op op = detail::typed_op(*this, type, func);
    typed::reduce_local(inbuf, inoutbuf, count, detail::typed_type(type, func), op);
  });
}

namespace detail {

typed::Type typed_type(const Datatype& t, std::string_view func) {
  if (t.Is_null()) fail(ERR_TYPE, func, "datatype is DATATYPE_NULL");
  if (!known(t.Id())) fail(ERR_TYPE, func, "datatype " + std::to_string(t.Id()) + " is not a datatype");
  return kTypes[t.Id()].core;
}

typed::Op typed_op(const Op& op, const Datatype& t, std::string_view func) {
  typed::Type type = typed_type(t, func);
  if (op.Is_null()) fail(ERR_OP, func, "op is OP_NULL");
  typed::Op o = typed::Op(op.Id() - 1);
  const bool bitwise = o == typed::Op::Band || o == typed::Op::Bor || o == typed::Op::Bxor;
  if (t.Id() == kByte && !bitwise)
    fail(ERR_OP, func, op.Get_name() + " is not defined for MPI_BYTE (only MPI_BAND, MPI_BOR, MPI_BXOR are)");
  guarded([&] { typed::check_op_type(o, type, func); });
  return o;
}

size_t buffer_bytes(const void* buf, int count, const Datatype& t, std::string_view func,
                    const char* what) {
  typed::Type type = typed_type(t, func);
  if (count < 0) fail(ERR_COUNT, func, "count " + std::to_string(count) + " is negative");
  if (count > 0 && !buf) fail(ERR_BUFFER, func, std::string(what) + " is null");
  return size_t(count) * typed::type_size(type);
}

Elems significant(const Side& send, const Side& recv, std::string_view func) {
  if (send.significant && recv.significant) {
    if (!(send.type == recv.type))
      fail(ERR_TYPE, func,
           "sendtype " + send.type.Get_name() + " and recvtype " + recv.type.Get_name() +
               " differ (type conversion needs derived datatypes, not there yet)");
    if (send.count != recv.count)
      fail(ERR_COUNT, func,
           "sendcount " + std::to_string(send.count) + " and recvcount " + std::to_string(recv.count) +
               " differ");
  }
  if (send.significant) return {send.count, typed_type(send.type, func)};
  if (recv.significant) return {recv.count, typed_type(recv.type, func)};
  return {0, typed::Type::UInt8};  // PROC_NULL on an intercommunicator: nothing moves
}

}  // namespace detail

// ---- collectives on every communicator ----------------------------------------------

void Comm::Barrier() const {
  guarded(*this, "MPI_Barrier", [](core::Comm& c) { core::coll::barrier(c); });
}

void Comm::Bcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Bcast";
  guarded(*this, func, [&](core::Comm& c) {
    typed::bcast(c, buf, count, detail::typed_type(type, func), root);
  });
}

void Comm::Gather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Gather";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    Elems e = significant({sendcount, sendtype, c.takes_part(root)},
                          {recvcount, recvtype, c.is_root(root)}, func);
    typed::gather(c, sendbuf, recvbuf, e.count, e.type, root);
  });
}

void Comm::Scatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                   int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Scatter";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    Elems e = significant({sendcount, sendtype, c.is_root(root)},
                          {recvcount, recvtype, c.takes_part(root)}, func);
    typed::scatter(c, sendbuf, recvbuf, e.count, e.type, root);
  });
}

void Comm::Allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Allgather";
  guarded(*this, func, [&](core::Comm& c) {
    Elems e = significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
    typed::allgather(c, sendbuf, recvbuf, e.count, e.type);
  });
}

void Comm::Alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Alltoall";
  guarded(*this, func, [&](core::Comm& c) {
    Elems e = significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
    typed::alltoall(c, sendbuf, recvbuf, e.count, e.type);
  });
}

void Comm::Reduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op, int root) const {
  const char* func = "MPI_Reduce";
  guarded(*this, func, [&](core::Comm& c) {
    typed::Op o = detail::typed_op(op, type, func);
    typed::reduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o, root);
  });
}

void Comm::Allreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op) const {
  const char* func = "MPI_Allreduce";
  guarded(*this, func, [&](core::Comm& c) {
    typed::Op o = detail::typed_op(op, type, func);
    typed::allreduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

void Comm::Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                          const Datatype& type, const Op& op) const {
  const char* func = "MPI_Reduce_scatter";
  guarded(*this, func, [&](core::Comm& c) {
    typed::Op o = detail::typed_op(op, type, func);
    if (!recvcounts) detail::fail(ERR_ARG, func, "recvcounts is null");
    std::vector<int> counts(recvcounts, recvcounts + c.size());
    typed::reduce_scatter(c, sendbuf, recvbuf, counts, detail::typed_type(type, func), o);
  });
}

void Comm::Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                const Datatype& type, const Op& op) const {
  const char* func = "MPI_Reduce_scatter_block";
  guarded(*this, func, [&](core::Comm& c) {
    typed::Op o = detail::typed_op(op, type, func);
    typed::reduce_scatter_block(c, sendbuf, recvbuf, recvcount, detail::typed_type(type, func), o);
  });
}

// ---- intracommunicators only ---------------------------------------------------------

void Intracomm::Scan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op) const {
  const char* func = "MPI_Scan";
  guarded(*this, func, [&](core::Comm& c) {
    typed::Op o = detail::typed_op(op, type, func);
    typed::scan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

void Intracomm::Exscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                       const Op& op) const {
  const char* func = "MPI_Exscan";
  guarded(*this, func, [&](core::Comm& c) {
    typed::Op o = detail::typed_op(op, type, func);
    typed::exscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

}  // namespace lumpi
