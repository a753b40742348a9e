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
#include <cstring>

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

void check_same_signature(const Side& send, const Side& recv, std::string_view func) {
  if (send.type == recv.type && send.count != recv.count)
    detail::fail(ERR_COUNT, func, "sendcount " + std::to_string(send.count) + " and recvcount " +
                                      std::to_string(recv.count) + " differ");
  auto a = core::check::signature(*detail::usable_type(send.type, func, "sendtype"), send.count);
  auto b = core::check::signature(*detail::usable_type(recv.type, func, "recvtype"), recv.count);
  if (!core::check::compatible(a, b))
    detail::fail(ERR_TYPE, func, "sendtype and recvtype differ: " + a.text + " sent, " + b.text + " received");
}

}  // namespace

namespace detail {

namespace {
// count * blocks elements at buf; a null buf is an error wherever count
// elements would be read or written, even with no blocks (no neighbours).
std::shared_ptr<core::TypedBuffer> side_bytes(const void* buf, const Side& side, int blocks, std::string_view func,
                                              const char* buf_name, const char* count_name) {
  auto b = std::make_shared<core::TypedBuffer>(
      typed_bytes(buf, side.count * blocks, side.type, func, buf_name, count_name));
  if (!buf && side.count > 0 && b->type()->size() > 0) fail(ERR_BUFFER, func, std::string(buf_name) + " is null");
  return b;
}
}  // namespace

Blocks blocks(const void* sendbuf, const Side& send, int sblocks, void* recvbuf, const Side& recv, int rblocks,
              std::string_view func) {
  Blocks b;
  if (send.significant) {
    b.send = side_bytes(sendbuf, send, sblocks, func, "sendbuf", "sendcount");
    b.nsend = sblocks;
    if (sblocks > 0) b.block = b.send->size() / size_t(sblocks);
  }
  if (recv.significant) {
    b.recv = side_bytes(recvbuf, recv, rblocks, func, "recvbuf", "recvcount");
    if (send.significant) check_same_signature(send, recv, func);
    const size_t each = rblocks > 0 ? b.recv->size() / size_t(rblocks) : b.block;
    if (b.send && sblocks > 0 && each != b.block)
      fail(ERR_COUNT, func, "sendcount and recvcount move different numbers of bytes");
    b.block = each;
  }
  return b;
}

std::vector<core::coll::Bytes> Blocks::sent_blocks(std::string_view func) const {
  std::vector<core::coll::Bytes> out;
  const char* p = send ? send->pack(func) : nullptr;
  for (int k = 0; k < nsend; ++k) out.emplace_back(p + size_t(k) * block, block);
  return out;
}

void Blocks::land(const core::coll::Bytes& data, std::string_view func) const {
  if (!recv) return;
  if (data.size() != recv->size())
    fail(ERR_TRUNCATE, func, "received " + std::to_string(data.size()) + " bytes where " +
                                 std::to_string(recv->size()) + " were expected (counts differ between ranks)");
  std::memcpy(recv->stage(), data.data(), data.size());
  recv->unpack(data.size(), func);
}

// A reduction's operands: count elements of type as the input where this
// process contributes one (recvbuf's where sendbuf is IN_PLACE and in_place
// allows it: core/coll/layout.hpp's reduction_input), as the room for the
// result where it gets one.
Blocks operands(const void* sendbuf, bool sends, bool in_place, void* recvbuf, bool receives, int count,
                const Datatype& type, std::string_view func) {
  if (sends) sendbuf = guarded([&] { return core::coll::reduction_input(sendbuf, recvbuf, in_place, func); });
  return blocks(sendbuf, {count, type, sends}, 1, recvbuf, {count, type, receives}, 1, func);
}

ReduceScatter reduce_scatter_args(const core::Comm& c, const void* sendbuf, void* recvbuf,
                                  const std::vector<int>& counts, const Datatype& type, const Op& op,
                                  std::string_view func) {
  ReduceScatter a{reducer(op, type, func), {}, {}, {}};
  int total = 0;
  for (int k : counts) {
    if (k < 0) fail(ERR_COUNT, func, "recvcount " + std::to_string(k) + " is negative");
    a.sizes.push_back(size_t(k) * size_t(a.r.type->size()));
    total += k;
  }
  a.in = operands(sendbuf, true, !c.is_inter(), recvbuf, false, total, type, func);
  a.out = operands(nullptr, false, false, recvbuf, true, counts[size_t(c.rank())], type, func);
  return a;
}

}  // namespace detail

using detail::Blocks;
using detail::blocks;
using detail::operands;

// The root sends the packed elements; the others receive into their room.
void Comm::Bcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Bcast";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    const bool sends = c.is_root(root), receives = c.takes_part(root) && !sends;
    Blocks b = blocks(buf, {count, type, sends}, 1, buf, {count, type, receives}, 1, func);
    void* data = sends ? const_cast<char*>(b.sent(func)) : b.room();
    typed::bcast(c, data, int(b.block), typed::Type::UInt8, root);
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
    typed::gather(c, b.sent(func), b.room(), int(b.block), typed::Type::UInt8, root);
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
    typed::scatter(c, b.sent(func), b.room(), int(b.block), typed::Type::UInt8, root);
    b.land(func);
  });
}

void Comm::Allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Allgather";
  guarded(*this, func, [&](core::Comm& c) {
    Blocks b = blocks(sendbuf, {sendcount, sendtype, true}, 1, recvbuf, {recvcount, recvtype, true},
                      c.is_inter() ? c.remote_size() : c.size(), func);
    typed::allgather(c, b.sent(func), b.room(), int(b.block), typed::Type::UInt8);
    b.land(func);
  });
}

void Comm::Alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Alltoall";
  guarded(*this, func, [&](core::Comm& c) {
    const int n = c.is_inter() ? c.remote_size() : c.size();
    Blocks b = blocks(sendbuf, {sendcount, sendtype, true}, n, recvbuf, {recvcount, recvtype, true}, n, func);
    typed::alltoall(c, b.sent(func), b.room(), int(b.block), typed::Type::UInt8);
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
    detail::Reducer r = detail::reducer(op, type, func);
    const bool sends = !c.is_inter() || (c.takes_part(root) && !c.is_root(root));
    Blocks b = operands(sendbuf, sends, !c.is_inter() && c.is_root(root), recvbuf, c.is_root(root), count, type, func);
    auto out = core::coll::reduce(c, b.sent_bytes(func), r.combine, r.commutes, root);
    if (out) b.land(*out, func);
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
    detail::Reducer r = detail::reducer(op, type, func);
    Blocks b = operands(sendbuf, true, !c.is_inter(), recvbuf, true, count, type, func);
    b.land(core::coll::allreduce(c, b.sent_bytes(func), r.combine, r.commutes), func);
  });
}

namespace {

// Reduce-scatter on the packed path: the input of sum(counts) elements cut
// into rank blocks, this rank's block landing in recvbuf.
void reduce_scatter_packed(core::Comm& c, const void* sendbuf, void* recvbuf, const std::vector<int>& counts,
                           const Datatype& type, const Op& op, const char* func) {
  detail::ReduceScatter a = detail::reduce_scatter_args(c, sendbuf, recvbuf, counts, type, op, func);
  auto regroup = c.is_inter() ? core::coll::regroup(a.sizes, func) : core::coll::Regroup();
  a.out.land(core::coll::reduce_scatter(c, core::coll::cut(a.in.sent_bytes(func), a.sizes), a.r.combine,
                                        a.r.commutes, regroup, counts),
             func);
}

}  // namespace

void Comm::Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                          const Datatype& type, const Op& op) const {
  const char* func = "MPI_Reduce_scatter";
  guarded(*this, func, [&](core::Comm& c) {
    if (!recvcounts) detail::fail(ERR_ARG, func, "recvcounts is null");
    std::vector<int> counts(recvcounts, recvcounts + c.size());
    if (!typed_takes(type, op)) return reduce_scatter_packed(c, sendbuf, recvbuf, counts, type, op, func);
    typed::Op o = detail::typed_op(op, type, func);
    typed::reduce_scatter(c, sendbuf, recvbuf, counts, detail::typed_type(type, func), o);
  });
}

void Comm::Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                const Datatype& type, const Op& op) const {
  const char* func = "MPI_Reduce_scatter_block";
  guarded(*this, func, [&](core::Comm& c) {
    if (!typed_takes(type, op))
      return reduce_scatter_packed(c, sendbuf, recvbuf, std::vector<int>(size_t(c.size()), recvcount), type, op, func);
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
    Blocks b = operands(sendbuf, true, !c.is_inter(), recvbuf, true, count, type, func);
    b.land(core::coll::scan(c, b.sent_bytes(func), r.combine), func);
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
    Blocks b = operands(sendbuf, true, !c.is_inter(), recvbuf, true, count, type, func);
    auto out = core::coll::exscan(c, b.sent_bytes(func), r.combine);
    if (out) b.land(*out, func);
  });
}

}  // namespace lumpi
