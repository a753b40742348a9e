// core/api/api_coll.cpp: the C++ API's collectives, over the typed-buffer
// collectives of core/coll/coll_typed.hpp and, for the reductions they do
// not take, the byte collectives of core/coll/coll.hpp.
//
// Any committed datatype: the blocks move as the types' packed bytes
// (core::TypedBuffer). As the core has no type conversion, a collective
// whose send and receive sides are both significant on a process needs the
// same type signature and count on both (ERR_TYPE / ERR_COUNT otherwise); a
// side that is not significant (the receive side of Gather off the root,
// ...) is not looked at. The nonblocking and neighbourhood forms take the
// typed collectives' element types only (detail::typed_type). MPI_IN_PLACE
// and the v-variants are not there yet.
#include "core/api/api_detail.hpp"
#include "core/coll/coll.hpp"
#include "core/base/constants.hpp"
#include "core/check/signature.hpp"

namespace lumpi {

namespace typed = core::coll::typed;
using detail::Access;
using detail::Elems;
using detail::guarded;
using detail::significant;
using detail::Side;

namespace detail {

std::optional<typed::Type> typed_type(const Datatype& t) {
  if (t.Is_null() || t.Id() > int(core::Basic::Count_)) return std::nullopt;
  switch (core::Basic(t.Id() - 1)) {
    case core::Basic::Int: case core::Basic::Int32: return typed::Type::Int32;
    case core::Basic::Long: case core::Basic::Int64: return typed::Type::Int64;
    case core::Basic::UnsignedChar: case core::Basic::Byte: return typed::Type::UInt8;
    case core::Basic::Float: return typed::Type::Float;
    case core::Basic::Double: return typed::Type::Double;
    default: return std::nullopt;
  }
}

typed::Type typed_type(const Datatype& t, std::string_view func) {
  type_of(t, func);  // ERR_TYPE for null, freed, unknown
  if (auto e = typed_type(t)) return *e;
  fail(ERR_TYPE, func, "datatype " + t.Get_name() +
                           " is not taken here yet (only INT, INT32_T, LONG, INT64_T, UNSIGNED_CHAR, BYTE, FLOAT, DOUBLE)");
}

typed::Op typed_op(const Op& op, const Datatype& t, std::string_view func) {
  typed::Type type = typed_type(t, func);
  std::optional<core::Op> o = predefined_op(op, func);
  if (!o || *o > core::Op::Bxor) fail(ERR_OP, func, op.Get_name() + " is not taken here yet");
  const bool bitwise = o == typed::Op::Band || o == typed::Op::Bor || o == typed::Op::Bxor;
  if (t == BYTE && !bitwise)
    fail(ERR_OP, func, op.Get_name() + " is not defined for MPI_BYTE (only MPI_BAND, MPI_BOR, MPI_BXOR are)");
  guarded([&] { typed::check_op_type(*o, type, func); });
  return *o;
}

size_t buffer_bytes(const void* buf, int count, const Datatype& t, std::string_view func,
                    const char* what) {
  typed::Type type = typed_type(t, func);
  if (count < 0) fail(ERR_COUNT, func, "count " + std::to_string(count) + " is negative");
  if (count > 0 && !buf) fail(ERR_BUFFER, func, std::string(what) + " is null");
  return size_t(count) * typed::type_size(type);
}

core::TypedBuffer typed_bytes(const void* buf, int count, const Datatype& t, std::string_view func,
                              const char* buf_name, const char* count_name) {
  if (count < 0) fail(ERR_COUNT, func, std::string(count_name) + " " + std::to_string(count) + " is negative");
  core::TypePtr p = type_of(t, func);
  if (count > 0 && p->size() > 0 && !buf) fail(ERR_BUFFER, func, std::string(buf_name) + " is null");
  return guarded([&] { return core::TypedBuffer(buf, count, p, func, count_name); });
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

namespace {

// The data of a collective that moves blocks, as bytes: the send side's
// packed contribution (sblocks blocks of sendcount elements) and the
// receive side's room (rblocks blocks of recvcount), each where this
// process is significant. Where both are, one block of each must have the
// same type signature (ERR_TYPE) and count (ERR_COUNT): the core has no
// type conversion. After the core moved `block` bytes per block, land()
// unpacks what a type with holes received.
struct Blocks {
  std::optional<core::TypedBuffer> send, recv;
  int block = 0;
  const char* sent(std::string_view func) { return send ? send->pack(func) : nullptr; }
  void* room() { return recv ? recv->stage() : nullptr; }
  void land(std::string_view func) {
    if (recv) recv->unpack(recv->size(), func);
  }
};

void check_same_signature(const Side& send, const Side& recv, std::string_view func) {
  if (send.type == recv.type && send.count != recv.count)
    detail::fail(ERR_COUNT, func, "sendcount " + std::to_string(send.count) + " and recvcount " +
                                      std::to_string(recv.count) + " differ");
  auto a = core::check::signature(*detail::usable_type(send.type, func, "sendtype"), send.count);
  auto b = core::check::signature(*detail::usable_type(recv.type, func, "recvtype"), recv.count);
  if (!core::check::compatible(a, b))
    detail::fail(ERR_TYPE, func, "sendtype and recvtype differ: " + a.text + " sent, " + b.text + " received");
}

Blocks blocks(const void* sendbuf, const Side& send, int sblocks, void* recvbuf, const Side& recv, int rblocks,
              std::string_view func) {
  Blocks b;
  if (send.significant) {
    b.send.emplace(detail::typed_bytes(sendbuf, send.count * sblocks, send.type, func, "sendbuf", "sendcount"));
    b.block = int(b.send->size()) / std::max(sblocks, 1);
  }
  if (recv.significant) {
    b.recv.emplace(detail::typed_bytes(recvbuf, recv.count * rblocks, recv.type, func, "recvbuf", "recvcount"));
    b.block = int(b.recv->size()) / std::max(rblocks, 1);
  }
  if (send.significant && recv.significant) check_same_signature(send, recv, func);
  if (b.send && b.recv && b.send->size() / std::max(sblocks, 1) != b.recv->size() / std::max(rblocks, 1))
    detail::fail(ERR_COUNT, func, "sendcount and recvcount move different numbers of bytes");
  return b;
}

}  // namespace

// The root sends the packed elements; the others receive into their room.
void Comm::Bcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Bcast";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    const bool sends = c.is_root(root), receives = c.takes_part(root) && !sends;
    Blocks b = blocks(buf, {count, type, sends}, 1, buf, {count, type, receives}, 1, func);
    void* data = sends ? const_cast<char*>(b.sent(func)) : b.room();
    typed::bcast(c, data, b.block, typed::Type::UInt8, root);
    if (receives) b.land(func);
  });
}

void Comm::Gather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Gather";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    Blocks b = blocks(sendbuf, {sendcount, sendtype, c.takes_part(root)}, 1,
                      recvbuf, {recvcount, recvtype, c.is_root(root)}, c.is_inter() ? c.remote_size() : c.size(), func);
    typed::gather(c, b.sent(func), b.room(), b.block, typed::Type::UInt8, root);
    b.land(func);
  });
}

void Comm::Scatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                   int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Scatter";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    Blocks b = blocks(sendbuf, {sendcount, sendtype, c.is_root(root)}, c.is_inter() ? c.remote_size() : c.size(),
                      recvbuf, {recvcount, recvtype, c.takes_part(root)}, 1, func);
    typed::scatter(c, b.sent(func), b.room(), b.block, typed::Type::UInt8, root);
    b.land(func);
  });
}

void Comm::Allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Allgather";
  guarded(*this, func, [&](core::Comm& c) {
    Blocks b = blocks(sendbuf, {sendcount, sendtype, true}, 1, recvbuf, {recvcount, recvtype, true},
                      c.is_inter() ? c.remote_size() : c.size(), func);
    typed::allgather(c, b.sent(func), b.room(), b.block, typed::Type::UInt8);
    b.land(func);
  });
}

void Comm::Alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Alltoall";
  guarded(*this, func, [&](core::Comm& c) {
    const int n = c.is_inter() ? c.remote_size() : c.size();
    Blocks b = blocks(sendbuf, {sendcount, sendtype, true}, n, recvbuf, {recvcount, recvtype, true}, n, func);
    typed::alltoall(c, b.sent(func), b.room(), b.block, typed::Type::UInt8);
    b.land(func);
  });
}

// ---- reductions: the typed collectives where they take the type and op (one of
// their element types, an op of SUM ... BXOR), else the packed path of every
// type and op (core/coll/combine.hpp): packed input, combined in rank
// order, unpacked result.

namespace {

bool typed_takes(const Datatype& t, const Op& op) {
  if (!detail::typed_type(t) || op.Is_null()) return false;
  auto o = detail::guarded([&] { return detail::predefined_op(op, ""); });
  return o && *o <= core::Op::Bxor;
}

// count elements of t at buf, packed (send side) or as room (receive side).
core::coll::Bytes packed_input(const void* send, int count, const core::TypePtr& t, std::string_view func) {
  core::TypedBuffer b(send, count, t, func);
  if (count > 0 && t->size() > 0 && !send) detail::fail(ERR_BUFFER, func, "sendbuf is null");
  return core::coll::Bytes(b.pack(func), b.size());
}

void packed_output(void* recv, int count, const core::TypePtr& t, const core::coll::Bytes& b, std::string_view func) {
  if (std::int64_t(b.size()) != std::int64_t(count) * t->size())
    detail::fail(ERR_TRUNCATE, func, "the result has " + std::to_string(b.size()) + " bytes where " +
                                         std::to_string(std::int64_t(count) * t->size()) + " were expected");
  if (count > 0 && t->size() > 0 && !recv) detail::fail(ERR_BUFFER, func, "recvbuf is null");
  t->unpack(b.data(), b.size(), recv, count, func);
}

}  // namespace

void Comm::Reduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op, int root) const {
  const char* func = "MPI_Reduce";
  guarded(*this, func, [&](core::Comm& c) {
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      return typed::reduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o, root);
    }
    c.check_root(root, func);
    if (c.is_inter()) detail::fail(ERR_COMM, func, "derived datatypes and user ops on an intercommunicator are not there yet");
    detail::Reducer r = detail::reducer(op, type, func);
    auto out = core::coll::reduce(c, packed_input(sendbuf, count, r.type, func), r.combine, r.commutes, root);
    if (out) packed_output(recvbuf, count, r.type, *out, func);
  });
}

void Comm::Allreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op) const {
  const char* func = "MPI_Allreduce";
  guarded(*this, func, [&](core::Comm& c) {
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      return typed::allreduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
    }
    if (c.is_inter()) detail::fail(ERR_COMM, func, "derived datatypes and user ops on an intercommunicator are not there yet");
    detail::Reducer r = detail::reducer(op, type, func);
    auto out = core::coll::allreduce(c, packed_input(sendbuf, count, r.type, func), r.combine, r.commutes);
    packed_output(recvbuf, count, r.type, out, func);
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
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      return typed::scan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
    }
    detail::Reducer r = detail::reducer(op, type, func);
    packed_output(recvbuf, count, r.type, core::coll::scan(c, packed_input(sendbuf, count, r.type, func), r.combine),
                  func);
  });
}

void Intracomm::Exscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                       const Op& op) const {
  const char* func = "MPI_Exscan";
  guarded(*this, func, [&](core::Comm& c) {
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      return typed::exscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
    }
    detail::Reducer r = detail::reducer(op, type, func);
    auto out = core::coll::exscan(c, packed_input(sendbuf, count, r.type, func), r.combine);
    if (out) packed_output(recvbuf, count, r.type, *out, func);
  });
}

}  // namespace lumpi
