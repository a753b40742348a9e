// core/api/api_nbc.cpp: the C++ API's nonblocking collectives (Comm::Ibarrier
// ... Comm::Ireduce_scatter_block, Intracomm::Iscan, Iexscan; the v- and
// w-forms are api_nbcv.cpp's), over the byte forms of core/coll/nbc.hpp, on
// any committed datatype: the send side is packed at the call, the receive
// side unpacked when the collective completes. Argument rules are the
// blocking forms' (core/api/api_coll.cpp): core/coll/layout.hpp's for
// Igather, Iscatter, Iallgather and Ialltoall (IN_PLACE included), and
// detail::check_sides where a process's own block is both sent and
// received. Errors at the start go under the communicator's error handler;
// errors of the collective itself surface from Wait/Test.
#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"
#include "core/coll/nbc.hpp"

namespace lumpi {

namespace coll = core::coll;
using detail::Operands;
using detail::start_collective;
using detail::type_arg;

Request Comm::Ibarrier() const {
  return start_collective(*this, "MPI_Ibarrier", [](const core::CommPtr& c) {
    detail::check_coll_started(c, "MPI_Ibarrier", -1, nullptr, {});
    return core::nbc::ibarrier(c).request;
  });
}

namespace {

// What a collective's completion does with its Out: the received bytes into
// the receive side of b.
core::nbc::Deliver landing(Operands b, const char* func) {
  if (!b.recv) return {};
  return [b = std::move(b), func](core::nbc::Out& o) {
    if (o.has_data) b.land(o.data, func);
  };
}

}  // namespace

Request Comm::Ibcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Ibcast";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    const bool sends = c->is_root(root), receives = c->takes_part(root) && !sends;
    Operands b = detail::sides(buf, sends, buf, receives, count, type, func);
    detail::check_coll_started(c, func, root, nullptr, {count, &type});
    return core::nbc::ibcast(c, b.sent_bytes(func), root, landing(b, func)).request;
  });
}

Request Comm::Igather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                      int recvcount, const Datatype& recvtype, int root) const {
  const char* f = "MPI_Igather";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Gatherv a = coll::gather_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                        type_arg(recvtype, f), root, f);
    if (a.at_root && !c->is_inter() && !coll::is_in_place(sendbuf))
      detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    core::nbc::Deliver into = a.at_root ? coll::unpack_later(recvbuf, std::move(a.recv), f) : nullptr;
    const bool sends = !a.at_root || !coll::is_in_place(sendbuf);
    detail::check_coll_started(c, f, root, nullptr, {sendcount, sends ? &sendtype : nullptr},
                               {recvcount, a.at_root ? &recvtype : nullptr});
    return core::nbc::igather(c, std::move(a.mine), root, std::move(into)).request;
  });
}

Request Comm::Iscatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       int recvcount, const Datatype& recvtype, int root) const {
  const char* f = "MPI_Iscatter";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Scatterv a = coll::scatter_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                          type_arg(recvtype, f), root, f);
    if (c->is_root(root) && a.receives && !c->is_inter())
      detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    core::nbc::Deliver into;
    if (a.receives)
      into = [recvbuf, slot = a.slot, name = std::string(f), root](core::nbc::Out& o) {
        if (o.has_data) coll::unpack_block(recvbuf, slot, o.data, name, root);
      };
    detail::check_coll_started(c, f, root, nullptr, {sendcount, c->rank() == root ? &sendtype : nullptr},
                               {recvcount, a.receives ? &recvtype : nullptr});
    return core::nbc::iscatter(c, std::move(a.parts), root, std::move(into)).request;
  });
}

Request Comm::Iallgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                         int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Iallgather";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Allgatherv a = coll::allgather_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                              type_arg(recvtype, f), f);
    if (!c->is_inter() && !coll::is_in_place(sendbuf)) detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    const Datatype* sent = coll::is_in_place(sendbuf) ? nullptr : &sendtype;
    detail::check_coll_started(c, f, -1, nullptr, {sendcount, sent}, {recvcount, &recvtype});
    return core::nbc::iallgather(c, std::move(a.mine), coll::unpack_later(recvbuf, std::move(a.recv), f)).request;
  });
}

Request Comm::Ialltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                        int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Ialltoall";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Exchange a = coll::alltoall_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                           type_arg(recvtype, f), f);
    if (!c->is_inter() && !coll::is_in_place(sendbuf)) detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    const Datatype* sent = coll::is_in_place(sendbuf) ? nullptr : &sendtype;
    detail::check_coll_started(c, f, -1, nullptr, {sendcount, sent}, {recvcount, &recvtype});
    return core::nbc::ialltoall(c, std::move(a.parts), coll::unpack_later(recvbuf, std::move(a.recv), f)).request;
  });
}

// ---- reductions: the operands packed, combined by the op's Combine
// (core/coll/combine.hpp: predefined ops, MAXLOC/MINLOC, user ops), the
// result unpacked into recvbuf at completion.

Request Comm::Ireduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                      int root) const {
  const char* func = "MPI_Ireduce";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    detail::Reducer r = detail::reducer(op, type, func);
    const bool sends = !c->is_inter() || (c->takes_part(root) && !c->is_root(root));
    Operands b = detail::operands(sendbuf, sends, !c->is_inter() && c->is_root(root), recvbuf, c->is_root(root),
                                count, type, func);
    detail::check_coll_started(c, func, root, &op, {count, &type});
    return core::nbc::ireduce(c, b.sent_bytes(func), r.combine, r.commutes, root, landing(b, func)).request;
  });
}

Request Comm::Iallreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iallreduce";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    detail::Reducer r = detail::reducer(op, type, func);
    Operands b = detail::operands(sendbuf, true, !c->is_inter(), recvbuf, true, count, type, func);
    detail::check_coll_started(c, func, -1, &op, {count, &type});
    return core::nbc::iallreduce(c, b.sent_bytes(func), r.combine, landing(b, func)).request;
  });
}

Request Comm::Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], const Datatype& type,
                              const Op& op) const {
  const char* func = "MPI_Ireduce_scatter";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    if (!recvcounts) detail::fail(ERR_ARG, func, "recvcounts is null");
    std::vector<int> counts(recvcounts, recvcounts + c->size());
    detail::ReduceScatter a = detail::reduce_scatter_args(*c, sendbuf, recvbuf, counts, type, op, func);
    detail::check_coll_started(c, func, -1, &op, {});
    return core::nbc::ireduce_scatter(c, a.in.sent_bytes(func), a.r.combine, a.sizes, landing(a.out, func), func)
        .request;
  });
}

Request Comm::Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, const Datatype& type,
                                    const Op& op) const {
  const char* func = "MPI_Ireduce_scatter_block";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    std::vector<int> counts(size_t(c->size()), recvcount);
    detail::ReduceScatter a = detail::reduce_scatter_args(*c, sendbuf, recvbuf, counts, type, op, func);
    detail::check_coll_started(c, func, -1, &op, {recvcount, &type});
    return core::nbc::ireduce_scatter(c, a.in.sent_bytes(func), a.r.combine, a.sizes, landing(a.out, func), func)
        .request;
  });
}

Request Intracomm::Iscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iscan";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    detail::Reducer r = detail::reducer(op, type, func);
    Operands b = detail::operands(sendbuf, true, !c->is_inter(), recvbuf, true, count, type, func);
    detail::check_coll_started(c, func, -1, &op, {count, &type});
    return core::nbc::iscan(c, b.sent_bytes(func), r.combine, landing(b, func)).request;
  });
}

Request Intracomm::Iexscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                           const Op& op) const {
  const char* func = "MPI_Iexscan";
  return start_collective(*this, func, [&](const core::CommPtr& c) {
    detail::Reducer r = detail::reducer(op, type, func);
    Operands b = detail::operands(sendbuf, true, !c->is_inter(), recvbuf, true, count, type, func);
    detail::check_coll_started(c, func, -1, &op, {count, &type});
    return core::nbc::iexscan(c, b.sent_bytes(func), r.combine, landing(b, func)).request;
  });
}

}  // namespace lumpi
