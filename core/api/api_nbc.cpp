// core/api/api_nbc.cpp: the C++ API's nonblocking collectives (Comm::Ibarrier
// ... Comm::Ireduce_scatter_block, Intracomm::Iscan, Iexscan; the v- and
// w-forms are api_nbcv.cpp's), over the typed nonblocking collectives of
// core/coll/nbc.hpp. Argument rules are the blocking forms' (core/api/api_coll.cpp):
// where both the send and the receive side are significant they need the
// same type and count. Errors at the start go under the communicator's
// error handler; errors of the collective itself surface from Wait/Test.
#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"
#include "core/coll/nbc.hpp"

namespace lumpi {

namespace nbc = core::nbc::typed;
using detail::Access;
using detail::Elems;
using detail::guarded;
using detail::significant;

Request Comm::Ibarrier() const {
  return detail::start_collective(*this, "MPI_Ibarrier",
                                  [](const core::CommPtr& c) { return core::nbc::ibarrier(c).request; });
}

Request Comm::Ibcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Ibcast";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    return nbc::ibcast(c, buf, count, detail::typed_type(type, func), root);
  });
}

Request Comm::Igather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                      int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Igather";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    Elems e = significant({sendcount, sendtype, c->takes_part(root)}, {recvcount, recvtype, c->is_root(root)}, func);
    return nbc::igather(c, sendbuf, recvbuf, e.count, e.type, root);
  });
}

Request Comm::Iscatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Iscatter";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    Elems e = significant({sendcount, sendtype, c->is_root(root)}, {recvcount, recvtype, c->takes_part(root)}, func);
    return nbc::iscatter(c, sendbuf, recvbuf, e.count, e.type, root);
  });
}

Request Comm::Iallgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                         int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Iallgather";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Elems e = significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
    return nbc::iallgather(c, sendbuf, recvbuf, e.count, e.type);
  });
}

Request Comm::Ialltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                        int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ialltoall";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Elems e = significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
    return nbc::ialltoall(c, sendbuf, recvbuf, e.count, e.type);
  });
}

Request Comm::Ireduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                      int root) const {
  const char* func = "MPI_Ireduce";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::ireduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o, root);
  });
}

Request Comm::Iallreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iallreduce";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::iallreduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

Request Comm::Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], const Datatype& type,
                              const Op& op) const {
  const char* func = "MPI_Ireduce_scatter";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    if (!recvcounts) detail::fail(ERR_ARG, func, "recvcounts is null");
    std::vector<int> counts(recvcounts, recvcounts + c->size());
    return nbc::ireduce_scatter(c, sendbuf, recvbuf, counts, detail::typed_type(type, func), o);
  });
}

Request Comm::Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, const Datatype& type,
                                    const Op& op) const {
  const char* func = "MPI_Ireduce_scatter_block";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::ireduce_scatter_block(c, sendbuf, recvbuf, recvcount, detail::typed_type(type, func), o);
  });
}

Request Intracomm::Iscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iscan";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::iscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

Request Intracomm::Iexscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                           const Op& op) const {
  const char* func = "MPI_Iexscan";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::iexscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

}  // namespace lumpi
