// core/api/api_nbc.cpp: the C++ API's nonblocking collectives (Comm::Ibarrier
// ... Intracomm::Iexscan), over the typed nonblocking collectives of
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

namespace {

// Starts a collective on self through start(comm pointer), as a Request
// whose errors go under self's handler as func.
template <class Start>
Request started(const Comm& self, const char* func, Start start) {
  return guarded(self, func, [&](core::Comm&) {
    const core::CommPtr& p = Access::handle(self)->comm;
    return detail::request_of(p, start(p), func);
  });
}

}  // namespace

Request Comm::Ibarrier() const {
  return started(*this, "MPI_Ibarrier", [](const core::CommPtr& c) { return core::nbc::ibarrier(c).request; });
}

Request Comm::Ibcast(void* buf, int count, const Datatype& type, int root) const {
  const char* func = "MPI_Ibcast";
  return started(*this, func, [&](const core::CommPtr& c) {
    return nbc::ibcast(c, buf, count, detail::typed_type(type, func), root);
  });
}

Request Comm::Igather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                      int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Igather";
  return started(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    Elems e = significant({sendcount, sendtype, c->takes_part(root)}, {recvcount, recvtype, c->is_root(root)}, func);
    return nbc::igather(c, sendbuf, recvbuf, e.count, e.type, root);
  });
}

Request Comm::Iscatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       int recvcount, const Datatype& recvtype, int root) const {
  const char* func = "MPI_Iscatter";
  return started(*this, func, [&](const core::CommPtr& c) {
    c->check_root(root, func);
    Elems e = significant({sendcount, sendtype, c->is_root(root)}, {recvcount, recvtype, c->takes_part(root)}, func);
    return nbc::iscatter(c, sendbuf, recvbuf, e.count, e.type, root);
  });
}

Request Comm::Iallgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                         int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Iallgather";
  return started(*this, func, [&](const core::CommPtr& c) {
    Elems e = significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
    return nbc::iallgather(c, sendbuf, recvbuf, e.count, e.type);
  });
}

Request Comm::Ialltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                        int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ialltoall";
  return started(*this, func, [&](const core::CommPtr& c) {
    Elems e = significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
    return nbc::ialltoall(c, sendbuf, recvbuf, e.count, e.type);
  });
}

Request Comm::Ireduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                      int root) const {
  const char* func = "MPI_Ireduce";
  return started(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::ireduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o, root);
  });
}

Request Comm::Iallreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iallreduce";
  return started(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::iallreduce(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

Request Intracomm::Iscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                         const Op& op) const {
  const char* func = "MPI_Iscan";
  return started(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::iscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

Request Intracomm::Iexscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                           const Op& op) const {
  const char* func = "MPI_Iexscan";
  return started(*this, func, [&](const core::CommPtr& c) {
    auto o = detail::typed_op(op, type, func);
    return nbc::iexscan(c, sendbuf, recvbuf, count, detail::typed_type(type, func), o);
  });
}

}  // namespace lumpi
