// core/api/api_nbc.cpp: the C++ API's nonblocking collectives (Comm::Ibarrier
// ... Comm::Ireduce_scatter_block, Intracomm::Iscan, Iexscan; the v- and
// w-forms are api_nbcv.cpp's), over the byte forms of core/coll/nbc.hpp, on any
// committed datatype: the send side is packed at the call, the receive side
// unpacked when the collective completes (detail::Blocks). Argument rules
// are the blocking forms' (core/api/api_coll.cpp): where both the send and
// the receive side are significant they need the same type signature and
// count. Errors at the start go under the communicator's error handler;
// errors of the collective itself surface from Wait/Test.
#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"
#include "core/coll/nbc.hpp"

namespace lumpi {

using detail::Access;
using detail::Blocks;
using detail::guarded;

Request Comm::Ibarrier() const {
  return detail::start_collective(*this, "MPI_Ibarrier", [](const core::CommPtr& c) { return core::nbc::ibarrier(c).request; });
}

namespace {

// What a collective's completion does with its Out: the received bytes (one
// value, or one block per rank joined) into the receive side of b.
core::nbc::Deliver landing(detail::Blocks b, const char* func) {
  if (!b.recv) return {};
  return [b = std::move(b), func](core::nbc::Out& o) {
    if (!o.has_data) return;
    if (o.parts.empty()) return b.land(o.data, func);
    core::coll::Bytes all;
    for (const auto& p : o.parts) all += p;
    b.land(all, func);
  };
}

int peers(const core::Comm& c) { return c.is_inter() ? c.remote_size() : c.size(); }

}  // namespace

Request Comm::Ibcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Ibcast";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    const bool sends = c->is_root(root), receives = c->takes_part(root) && !sends;
    Blocks b = detail::blocks(buf, {count, type, sends}, 1, buf, {count, type, receives}, 1, func);
    return core::nbc::ibcast(c, b.sent_bytes(func), root, landing(b, func)).request;
  });
}

Request Comm::Igather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                      int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Igather";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    Blocks b = detail::blocks(sendbuf, {sendcount, sendtype, c->takes_part(root)}, 1, recvbuf,
                              {recvcount, recvtype, c->is_root(root)}, peers(*c), func);
    return core::nbc::igather(c, b.sent_bytes(func), root, landing(b, func)).request;
  });
}

Request Comm::Iscatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Iscatter";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    Blocks b = detail::blocks(sendbuf, {sendcount, sendtype, c->is_root(root)}, peers(*c), recvbuf,
                              {recvcount, recvtype, c->takes_part(root)}, 1, func);
    return core::nbc::iscatter(c, b.sent_blocks(func), root, landing(b, func)).request;
  });
}

Request Comm::Iallgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                         int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Iallgather";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Blocks b = detail::blocks(sendbuf, {sendcount, sendtype, true}, 1, recvbuf, {recvcount, recvtype, true},
                              peers(*c), func);
    return core::nbc::iallgather(c, b.sent_bytes(func), landing(b, func)).request;
  });
}

Request Comm::Ialltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                        int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ialltoall";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    const int n = peers(*c);
    Blocks b = detail::blocks(sendbuf, {sendcount, sendtype, true}, n, recvbuf, {recvcount, recvtype, true}, n, func);
    return core::nbc::ialltoall(c, b.sent_blocks(func), landing(b, func)).request;
  });
}

// ---- reductions: the operands packed, combined by the op's Combine
// (core/coll/combine.hpp: predefined ops, MAXLOC/MINLOC, user ops), the
// result unpacked into recvbuf at completion.

Request Comm::Ireduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                      int root) const {
  const char* func = "MPI_Ireduce";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    detail::Reducer r = detail::reducer(op, type, func);
    const bool sends = !c->is_inter() || (c->takes_part(root) && !c->is_root(root));
    Blocks b = detail::operands(sendbuf, sends, !c->is_inter() && c->is_root(root), recvbuf, c->is_root(root),
                                count, type, func);
    return core::nbc::ireduce(c, b.sent_bytes(func), r.combine, r.commutes, root, landing(b, func)).request;
  });
}

Request Comm::Iallreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iallreduce";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    detail::Reducer r = detail::reducer(op, type, func);
    Blocks b = detail::operands(sendbuf, true, !c->is_inter(), recvbuf, true, count, type, func);
    return core::nbc::iallreduce(c, b.sent_bytes(func), r.combine, landing(b, func)).request;
  });
}

Request Comm::Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], const Datatype& type,
                              const Op& op) const {
  const char* func = "MPI_Ireduce_scatter";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    if (!recvcounts) detail::fail(ERR_ARG, func, "recvcounts is null");
    std::vector<int> counts(recvcounts, recvcounts + c->size());
    detail::ReduceScatter a = detail::reduce_scatter_args(*c, sendbuf, recvbuf, counts, type, op, func);
    return core::nbc::ireduce_scatter(c, a.in.sent_bytes(func), a.r.combine, a.sizes, landing(a.out, func), func)
        .request;
  });
}

Request Comm::Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, const Datatype& type,
                                    const Op& op) const {
  const char* func = "MPI_Ireduce_scatter_block";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    std::vector<int> counts(size_t(c->size()), recvcount);
    detail::ReduceScatter a = detail::reduce_scatter_args(*c, sendbuf, recvbuf, counts, type, op, func);
    return core::nbc::ireduce_scatter(c, a.in.sent_bytes(func), a.r.combine, a.sizes, landing(a.out, func), func)
        .request;
  });
}

Request Intracomm::Iscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iscan";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    detail::Reducer r = detail::reducer(op, type, func);
    Blocks b = detail::operands(sendbuf, true, !c->is_inter(), recvbuf, true, count, type, func);
    return core::nbc::iscan(c, b.sent_bytes(func), r.combine, landing(b, func)).request;
  });
}

Request Intracomm::Iexscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                           const Op& op) const {
  const char* func = "MPI_Iexscan";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    detail::Reducer r = detail::reducer(op, type, func);
    Blocks b = detail::operands(sendbuf, true, !c->is_inter(), recvbuf, true, count, type, func);
    return core::nbc::iexscan(c, b.sent_bytes(func), r.combine, landing(b, func)).request;
  });
}

}  // namespace lumpi
