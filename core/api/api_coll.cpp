// core/api/api_coll.cpp: the C++ API's blocking collectives on every
// communicator (the v- and w-forms are api_collv.cpp's), and the detail::
// pieces the nonblocking and neighbourhood forms share.
//
// Any committed datatype: the data moves as the types' packed bytes.
// Gather, Scatter, Allgather and Alltoall take their argument rules,
// IN_PLACE included, from core/coll/layout.hpp (the C API's too) over the
// byte collectives of core/coll/coll.hpp; as the core has no type
// conversion, where a process's own block is both sent and received by its
// arguments they need the same type signature (detail::check_sides). Bcast
// and the reductions use the typed collectives of core/coll/coll_typed.hpp
// where those take the type and op, else the byte collectives with the
// op's Combine (core/coll/combine.hpp), on detail::Operands (core::TypedBuffer).
#include <cstring>

#include "core/api/api_detail.hpp"
#include "core/coll/coll.hpp"
#include "core/base/constants.hpp"
#include "core/check/coll_check.hpp"

namespace lumpi {

namespace typed = core::coll::typed;
namespace coll = core::coll;
using detail::Access;
using detail::guarded;

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

core::TypedBuffer typed_bytes(const void* buf, int count, const Datatype& t, std::string_view func,
                              const char* buf_name, const char* count_name) {
  if (count < 0) fail(ERR_COUNT, func, std::string(count_name) + " " + std::to_string(count) + " is negative");
  core::TypePtr p = type_of(t, func);
  return guarded([&] { return core::TypedBuffer(buf, count, p, func, count_name, buf_name); });
}

}  // namespace detail

// ---- collectives on every communicator ----------------------------------------------

void Comm::Barrier() const {
  guarded(*this, "MPI_Barrier", [](core::Comm& c) {
    detail::check_coll(c, "MPI_Barrier", -1, nullptr, {});
    core::coll::barrier(c);
  });
}

namespace detail {

void check_sides(int sendcount, const Datatype& sendtype, int recvcount, const Datatype& recvtype,
                 std::string_view func) {
  if (sendtype == recvtype && sendcount != recvcount)
    fail(ERR_COUNT, func, "sendcount " + std::to_string(sendcount) + " and recvcount " + std::to_string(recvcount) +
                              " differ");
  auto a = core::check::signature(*usable_type(sendtype, func, "sendtype"), sendcount);
  auto b = core::check::signature(*usable_type(recvtype, func, "recvtype"), recvcount);
  if (!core::check::compatible(a, b))
    fail(ERR_TYPE, func, "sendtype and recvtype differ: " + a.text + " sent, " + b.text + " received");
}

Operands sides(const void* sendbuf, bool sends, void* recvbuf, bool receives, int count, const Datatype& type,
               std::string_view func) {
  Operands o;
  if (sends) o.send = std::make_shared<core::TypedBuffer>(typed_bytes(sendbuf, count, type, func, "sendbuf"));
  if (receives) o.recv = std::make_shared<core::TypedBuffer>(typed_bytes(recvbuf, count, type, func, "recvbuf"));
  if (auto* w = buffer_watch()) {  // --check: local concurrency (core/check/buffer_watch.hpp)
    if (o.send) w->note(*o.send, false);
    if (o.recv && !o.recv->staged()) w->note(*o.recv, true);  // a result lands whole (Operands::land)
  }
  return o;
}

void Operands::land(const core::coll::Bytes& data, std::string_view func) const {
  if (!recv) return;
  auto* w = recv->staged() ? nullptr : buffer_watch();
  if (w) w->landing(recv->buffer(), recv->size(), false);
  recv->land(data, func);
  if (w) w->landing(recv->buffer(), recv->size(), true);
}

Operands operands(const void* sendbuf, bool sends, bool in_place, void* recvbuf, bool receives, int count,
                  const Datatype& type, std::string_view func) {
  if (sends) sendbuf = guarded([&] { return core::coll::reduction_input(sendbuf, recvbuf, in_place, count, func); });
  return sides(sendbuf, sends, recvbuf, receives, count, type, func);
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

namespace {

core::check::CollCall describe(const char* func, int root, const Op* op, CollSide send, CollSide recv) {
  auto side = [&](CollSide s) {
    return s.type ? core::check::Side{s.count, type_of(*s.type, func)} : core::check::Side{};
  };
  std::string op_text;
  if (op) {
    std::optional<core::Op> o = predefined_op(*op, func);
    op_text = o ? core::op_name(*o) : core::check::user_op_text();
  }
  return core::check::describe(func, root, op_text, side(send), side(recv));
}

}  // namespace

void check_coll(core::Comm& c, const char* func, int root, const Op* op, CollSide send, CollSide recv) {
  if (core::check::applies(c)) core::check::collective(c, describe(func, root, op, send, recv));
}

void check_coll_started(const core::CommPtr& c, const char* func, int root, const Op* op, CollSide send,
                        CollSide recv) {
  if (core::check::applies(*c)) core::check::collective_started(c, describe(func, root, op, send, recv));
}

core::check::Side coll_side(int count, const Datatype& t, bool present, const char* func) {
  return present ? core::check::Side{count, usable_type(t, func)} : core::check::Side{};
}

void check_coll_v(core::Comm& c, const char* func, int root, const core::check::Side& send,
                  const core::check::Side& recv) {
  core::check::collective(c, core::check::describe(func, root, "", send, recv, true));
}

void check_coll_v_started(const core::CommPtr& c, const char* func, int root, const core::check::Side& send,
                          const core::check::Side& recv) {
  core::check::collective_started(c, core::check::describe(func, root, "", send, recv, true));
}

}  // namespace detail

using detail::Operands;
using detail::operands;
using detail::type_arg;

// The root sends the packed elements; the others receive into their room.
void Comm::Bcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Bcast";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    const bool sends = c.is_root(root), receives = c.takes_part(root) && !sends;
    Operands b = detail::sides(buf, sends, buf, receives, count, type, func);
    detail::check_coll(c, func, root, nullptr, {count, &type});
    b.land(core::coll::bcast(c, b.sent_bytes(func), root), func);
  });
}

// ---- gather, scatter, allgather, alltoall: core/coll/layout.hpp's regular forms (the C
// API's rules, IN_PLACE included) over the byte collectives, as the v-forms.

void Comm::Gather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype, int root) const {
  const char* f = "MPI_Gather";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Gatherv a = coll::gather_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                        type_arg(recvtype, f), root, f);
    if (a.at_root && !c.is_inter() && !coll::is_in_place(sendbuf))
      detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    const bool sends = !a.at_root || !coll::is_in_place(sendbuf);
    detail::check_coll(c, f, root, nullptr, {sendcount, sends ? &sendtype : nullptr},
                       {recvcount, a.at_root ? &recvtype : nullptr});
    std::vector<coll::Bytes> all = coll::gather(c, std::move(a.mine), root);
    if (a.at_root) coll::unpack_blocks(recvbuf, a.recv, all, f);
  });
}

void Comm::Scatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                   int recvcount, const Datatype& recvtype, int root) const {
  const char* f = "MPI_Scatter";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Scatterv a = coll::scatter_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                          type_arg(recvtype, f), root, f);
    if (c.is_root(root) && a.receives && !c.is_inter())
      detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    detail::check_coll(c, f, root, nullptr, {sendcount, c.rank() == root ? &sendtype : nullptr},
                       {recvcount, a.receives ? &recvtype : nullptr});
    coll::Bytes mine = coll::scatter(c, std::move(a.parts), root);
    if (a.receives) coll::unpack_block(recvbuf, a.slot, mine, f, root);
  });
}

void Comm::Allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Allgather";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Allgatherv a = coll::allgather_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                              type_arg(recvtype, f), f);
    if (!c.is_inter() && !coll::is_in_place(sendbuf)) detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    const Datatype* sent = coll::is_in_place(sendbuf) ? nullptr : &sendtype;
    detail::check_coll(c, f, -1, nullptr, {sendcount, sent}, {recvcount, &recvtype});
    coll::unpack_blocks(recvbuf, a.recv, coll::allgather(c, std::move(a.mine)), f);
  });
}

void Comm::Alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Alltoall";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Exchange a = coll::alltoall_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                           type_arg(recvtype, f), f);
    if (!c.is_inter() && !coll::is_in_place(sendbuf)) detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    const Datatype* sent = coll::is_in_place(sendbuf) ? nullptr : &sendtype;
    detail::check_coll(c, f, -1, nullptr, {sendcount, sent}, {recvcount, &recvtype});
    coll::unpack_blocks(recvbuf, a.recv, coll::alltoall(c, std::move(a.parts)), f);
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

// --check's local concurrency (core/check/buffer_watch.hpp) for the typed
// reductions, which take the user's memory as it is: count basic elements
// read at send (none for IN_PLACE) and written at recv where this rank
// receives the result.
void note_reduction(const void* send, void* recv, int count, const Datatype& type, bool receives) {
  auto* w = detail::buffer_watch();
  if (!w || count <= 0) return;
  const size_t bytes = size_t(count) * size_t(type.Get_size());
  if (send != IN_PLACE) w->note(send, bytes, false);
  if (receives) w->note(recv, bytes, true);
}

}  // namespace

void Comm::Reduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op, int root) const {
  const char* func = "MPI_Reduce";
  guarded(*this, func, [&](core::Comm& c) {
    c.check_root(root, func);
    detail::check_coll(c, func, root, &op, {count, &type});
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      note_reduction(sendbuf, recvbuf, count, type, c.is_root(root));
      return typed::reduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o, root);
    }
    c.check_root(root, func);
    detail::Reducer r = detail::reducer(op, type, func);
    const bool sends = !c.is_inter() || (c.takes_part(root) && !c.is_root(root));
    Operands b = operands(sendbuf, sends, !c.is_inter() && c.is_root(root), recvbuf, c.is_root(root), count, type, func);
    auto out = core::coll::reduce(c, b.sent_bytes(func), r.combine, r.commutes, root);
    if (out) b.land(*out, func);
  });
}

void Comm::Allreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op) const {
  const char* func = "MPI_Allreduce";
  guarded(*this, func, [&](core::Comm& c) {
    detail::check_coll(c, func, -1, &op, {count, &type});
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      note_reduction(sendbuf, recvbuf, count, type, true);
      return typed::allreduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
    }
    detail::Reducer r = detail::reducer(op, type, func);
    Operands b = operands(sendbuf, true, !c.is_inter(), recvbuf, true, count, type, func);
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
    detail::check_coll(c, func, -1, &op, {});  // the call and op: the counts are compared in the core
    if (!typed_takes(type, op)) return reduce_scatter_packed(c, sendbuf, recvbuf, counts, type, op, func);
    typed::Op o = detail::typed_op(op, type, func);
    typed::reduce_scatter(c, sendbuf, recvbuf, counts, detail::typed_type(type, func), o);
  });
}

void Comm::Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                const Datatype& type, const Op& op) const {
  const char* func = "MPI_Reduce_scatter_block";
  guarded(*this, func, [&](core::Comm& c) {
    detail::check_coll(c, func, -1, &op, {recvcount, &type});
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
    detail::check_coll(c, func, -1, &op, {count, &type});
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      note_reduction(sendbuf, recvbuf, count, type, true);
      return typed::scan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
    }
    detail::Reducer r = detail::reducer(op, type, func);
    Operands b = operands(sendbuf, true, !c.is_inter(), recvbuf, true, count, type, func);
    b.land(core::coll::scan(c, b.sent_bytes(func), r.combine), func);
  });
}

void Intracomm::Exscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                       const Op& op) const {
  const char* func = "MPI_Exscan";
  guarded(*this, func, [&](core::Comm& c) {
    detail::check_coll(c, func, -1, &op, {count, &type});
    if (typed_takes(type, op)) {
      typed::Op o = detail::typed_op(op, type, func);
      note_reduction(sendbuf, recvbuf, count, type, true);
      return typed::exscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
    }
    detail::Reducer r = detail::reducer(op, type, func);
    Operands b = operands(sendbuf, true, !c.is_inter(), recvbuf, true, count, type, func);
    auto out = core::coll::exscan(c, b.sent_bytes(func), r.combine);
    if (out) b.land(*out, func);
  });
}

}  // namespace lumpi
