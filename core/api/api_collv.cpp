// core/api/api_collv.cpp: the C++ API's v- and w-collectives (MPI-3.1 §5.5,
// §5.6, §5.7, §5.8: Gatherv, Scatterv, Allgatherv, Alltoallv, Alltoallw) on
// intra- and intercommunicators, with IN_PLACE where the text allows it.
// Their arguments are checked, and the send buffer cut into one packed
// block per rank, by the rules the C API shares (core/coll/layout.hpp),
// before anything is sent; the core's byte collectives (core/coll/coll.hpp)
// move the blocks; the received ones are unpacked into place. Under
// --check each call is compared with the other ranks' as the C API's are
// (per pair of counts: core/check/coll_check.hpp).
#include "core/api/api_detail.hpp"
#include "core/check/coll_check.hpp"
#include "core/coll/coll.hpp"

namespace lumpi {

namespace coll = core::coll;
using detail::guarded;
using detail::type_arg;
using detail::types_arg;
using detail::coll_side;
using detail::usable_type;
using core::check::v_side;

coll::TypeArg detail::type_arg(const Datatype& t, const char* func) {
  return [t, func](int) { return usable_type(t, func); };
}

coll::TypeArg detail::types_arg(const Datatype types[], const char* func, const char* what) {
  return [types, func, what](int i) {
    if (!types) fail(ERR_ARG, func, std::string(what) + " is null");
    return usable_type(types[i], func);
  };
}

void Comm::Gatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], const Datatype& recvtype, int root) const {
  const char* f = "MPI_Gatherv";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Gatherv a = coll::gatherv_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts, displs,
                                         type_arg(recvtype, f), root, f);
    if (core::check::applies(c))
      detail::check_coll_v(c, f, root, coll_side(sendcount, sendtype, !a.at_root || !coll::is_in_place(sendbuf), f),
                           v_side(recvcounts, c.size(), a.at_root ? usable_type(recvtype, f) : nullptr));
    std::vector<coll::Bytes> all = coll::gather(c, std::move(a.mine), root);
    if (a.at_root) coll::unpack_blocks(recvbuf, a.recv, all, f);
  });
}

void Comm::Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], const Datatype& sendtype,
                    void* recvbuf, int recvcount, const Datatype& recvtype, int root) const {
  const char* f = "MPI_Scatterv";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Scatterv a = coll::scatterv_args(c, sendbuf, sendcounts, displs, type_arg(sendtype, f), recvbuf,
                                           recvcount, type_arg(recvtype, f), root, f);
    if (core::check::applies(c))
      detail::check_coll_v(c, f, root,
                           v_side(sendcounts, c.size(), c.is_root(root) ? usable_type(sendtype, f) : nullptr),
                           coll_side(recvcount, recvtype, a.receives, f));
    coll::Bytes mine = coll::scatter(c, std::move(a.parts), root);
    if (a.receives) coll::unpack_block(recvbuf, a.slot, mine, f, root);
  });
}

void Comm::Allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], const Datatype& recvtype) const {
  const char* f = "MPI_Allgatherv";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Allgatherv a = coll::allgatherv_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts,
                                               displs, type_arg(recvtype, f), f);
    if (core::check::applies(c))
      detail::check_coll_v(c, f, -1, coll_side(sendcount, sendtype, !coll::is_in_place(sendbuf), f),
                           v_side(recvcounts, c.size(), usable_type(recvtype, f)));
    coll::unpack_blocks(recvbuf, a.recv, coll::allgather(c, std::move(a.mine)), f);
  });
}

void Comm::Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype& sendtype,
                     void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype& recvtype) const {
  const char* f = "MPI_Alltoallv";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Exchange a = coll::alltoallv_args(c, sendbuf, sendcounts, sdispls, type_arg(sendtype, f), recvbuf,
                                            recvcounts, rdispls, type_arg(recvtype, f), f);
    if (core::check::applies(c))
      detail::check_coll_v(
          c, f, -1, v_side(sendcounts, c.size(), coll::is_in_place(sendbuf) ? nullptr : usable_type(sendtype, f)),
          v_side(recvcounts, c.size(), usable_type(recvtype, f)));
    coll::unpack_blocks(recvbuf, a.recv, coll::alltoall(c, std::move(a.parts)), f);
  });
}

void Comm::Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype sendtypes[],
                     void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype recvtypes[]) const {
  const char* f = "MPI_Alltoallw";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Exchange a =
        coll::alltoallw_args(c, sendbuf, sendcounts, sdispls, types_arg(sendtypes, f, "sendtypes"), recvbuf,
                             recvcounts, rdispls, types_arg(recvtypes, f, "recvtypes"), f);
    if (core::check::applies(c)) detail::check_coll_v(c, f, -1, {}, {});  // the call only: a type per pair
    coll::unpack_blocks(recvbuf, a.recv, coll::alltoall(c, std::move(a.parts)), f);
  });
}

}  // namespace lumpi
