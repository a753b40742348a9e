// core/api/api_nbcv.cpp: the C++ API's nonblocking v- and w-collectives
// (MPI-3.1 §5.12.3-§5.12.6: Igatherv, Iscatterv, Iallgatherv, Ialltoallv,
// Ialltoallw) on intra- and intercommunicators, with IN_PLACE where the
// text allows it. The arguments are checked and the send side cut into
// packed blocks at the call by the rules the C API and the blocking forms
// share (core/coll/layout.hpp), before anything is sent, so the caller may
// reuse its send buffer at once; the core's nonblocking byte collectives
// (core/coll/nbc.hpp) move them, and the received blocks are unpacked into
// the receive buffer when the collective completes, before its request
// reports completion (a block longer than its room fails the request with
// ERR_TRUNCATE).
#include "core/api/api_detail.hpp"
#include "core/check/coll_check.hpp"
#include "core/coll/nbc.hpp"

namespace lumpi {

namespace coll = core::coll;
using detail::start_collective;
using detail::type_arg;
using detail::types_arg;
using detail::coll_side;
using detail::usable_type;
using core::check::v_side;

Request Comm::Igatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       const int recvcounts[], const int displs[], const Datatype& recvtype, int root) const {
  const char* f = "MPI_Igatherv";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Gatherv a = coll::gatherv_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts, displs,
                                         type_arg(recvtype, f), root, f);
    if (core::check::applies(*c))
      detail::check_coll_v_started(
          c, f, root, coll_side(sendcount, sendtype, !a.at_root || !coll::is_in_place(sendbuf), f),
          v_side(recvcounts, c->size(), a.at_root ? usable_type(recvtype, f) : nullptr));
    core::nbc::Deliver into = a.at_root ? coll::unpack_later(recvbuf, std::move(a.recv), f) : nullptr;
    return core::nbc::igather(c, std::move(a.mine), root, std::move(into)).request;
  });
}

Request Comm::Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], const Datatype& sendtype,
                        void* recvbuf, int recvcount, const Datatype& recvtype, int root) const {
  const char* f = "MPI_Iscatterv";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Scatterv a = coll::scatterv_args(*c, sendbuf, sendcounts, displs, type_arg(sendtype, f), recvbuf,
                                           recvcount, type_arg(recvtype, f), root, f);
    if (core::check::applies(*c))
      detail::check_coll_v_started(
          c, f, root, v_side(sendcounts, c->size(), c->is_root(root) ? usable_type(sendtype, f) : nullptr),
          coll_side(recvcount, recvtype, a.receives, f));
    core::nbc::Deliver into;
    if (a.receives)
      into = [recvbuf, slot = a.slot, name = std::string(f), root](core::nbc::Out& o) {
        if (o.has_data) coll::unpack_block(recvbuf, slot, o.data, name, root);
      };
    return core::nbc::iscatter(c, std::move(a.parts), root, std::move(into)).request;
  });
}

Request Comm::Iallgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], const Datatype& recvtype) const {
  const char* f = "MPI_Iallgatherv";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Allgatherv a = coll::allgatherv_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts,
                                               displs, type_arg(recvtype, f), f);
    if (core::check::applies(*c))
      detail::check_coll_v_started(c, f, -1, coll_side(sendcount, sendtype, !coll::is_in_place(sendbuf), f),
                                   v_side(recvcounts, c->size(), usable_type(recvtype, f)));
    return core::nbc::iallgather(c, std::move(a.mine), coll::unpack_later(recvbuf, std::move(a.recv), f)).request;
  });
}

Request Comm::Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype& sendtype,
                         void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype& recvtype) const {
  const char* f = "MPI_Ialltoallv";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Exchange a = coll::alltoallv_args(*c, sendbuf, sendcounts, sdispls, type_arg(sendtype, f), recvbuf,
                                            recvcounts, rdispls, type_arg(recvtype, f), f);
    if (core::check::applies(*c))
      detail::check_coll_v_started(
          c, f, -1, v_side(sendcounts, c->size(), coll::is_in_place(sendbuf) ? nullptr : usable_type(sendtype, f)),
          v_side(recvcounts, c->size(), usable_type(recvtype, f)));
    return core::nbc::ialltoall(c, std::move(a.parts), coll::unpack_later(recvbuf, std::move(a.recv), f)).request;
  });
}

Request Comm::Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype sendtypes[],
                         void* recvbuf, const int recvcounts[], const int rdispls[],
                         const Datatype recvtypes[]) const {
  const char* f = "MPI_Ialltoallw";
  return start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Exchange a =
        coll::alltoallw_args(*c, sendbuf, sendcounts, sdispls, types_arg(sendtypes, f, "sendtypes"), recvbuf,
                             recvcounts, rdispls, types_arg(recvtypes, f, "recvtypes"), f);
    if (core::check::applies(*c)) detail::check_coll_v_started(c, f, -1, {}, {});  // the call only: a type per pair
    return core::nbc::ialltoall(c, std::move(a.parts), coll::unpack_later(recvbuf, std::move(a.recv), f)).request;
  });
}

}  // namespace lumpi
