// capi/c_layout.cpp: the block cutting and placing of capi/c_layout.hpp
// and the argument checks of the v-, w- and neighbourhood collectives, each
// written once for its blocking and nonblocking forms.
#include "capi/c_layout.hpp"

#include "core/base/error.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi::capi {

namespace {

int peers(const core::Comm& c) { return c.is_inter() ? c.remote_size() : c.size(); }

// Blocks of counts[i] elements of es bytes at displs[i] elements.
Layout layout(const std::vector<int>& counts, const std::vector<int>& displs, size_t es) {
  Layout l;
  for (size_t i = 0; i < counts.size(); ++i) {
    l.at.push_back(long(displs[i]) * long(es));
    l.room.push_back(size_t(counts[i]) * es);
  }
  return l;
}

// The v layout of n peers: counts and displacements (in elements of t) checked.
Layout layout_arg(const int* counts, const int* displs, int n, MPI_Datatype t, const char* f, const char* cname,
                  const char* dname) {
  std::vector<int> c = counts_arg(counts, n, f, cname), d = displs_arg(displs, n, f, dname);
  return layout(c, d, size_t(type_size(t, f)));
}

// The w layout of n peers: counts[i] elements of types[i] at byte
// displacement displs[i] (int for the w-collectives, MPI_Aint for the
// neighbourhood ones).
template <class D>
Layout layout_w(const int* counts, const D* displs, const MPI_Datatype* types, int n, const char* f,
                const char* cname, const char* dname, const char* tname) {
  std::vector<int> c = counts_arg(counts, n, f, cname);
  if (n > 0) {
    check_out(displs, f, dname);
    check_out(types, f, tname);
  }
  Layout l;
  for (int i = 0; i < n; ++i) {
    l.at.push_back(long(displs[i]));
    l.room.push_back(size_t(c[size_t(i)]) * size_t(type_size(types[i], f)));
  }
  return l;
}

// n blocks of each bytes, one after the other.
Layout even(size_t n, size_t each) {
  Layout l;
  for (size_t k = 0; k < n; ++k) {
    l.at.push_back(long(k * each));
    l.room.push_back(each);
  }
  return l;
}

// MPI_IN_PLACE is an intracommunicator option (§5.2.2).
void not_in_place_inter(const core::Comm& c, const void* buf, const char* f, const char* what) {
  if (c.is_inter() && buf == MPI_IN_PLACE)
    fail(MPI_ERR_ARG, f, std::string(what) + " is MPI_IN_PLACE, which an intercommunicator does not allow");
}

}  // namespace

void place(void* buf, long off, const Bytes& b, size_t cap, const std::string& func, int from) {
  if (b.size() > cap)
    core::fail(core::ErrClass::Truncate, func,
               "rank " + std::to_string(from) + " sent " + std::to_string(b.size()) +
                   " bytes; its block has room for " + std::to_string(cap));
  if (!b.empty()) std::memcpy(static_cast<char*>(buf) + off, b.data(), b.size());
}

std::vector<int> counts_arg(const int* a, int n, const char* func, const char* what) {
  if (n > 0 && !a) fail(MPI_ERR_ARG, func, std::string(what) + " is NULL");
  std::vector<int> v(a, a + n);
  for (int i = 0; i < n; ++i)
    if (v[size_t(i)] < 0)
      fail(MPI_ERR_COUNT, func,
           std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(v[size_t(i)]) + " is negative");
  return v;
}

std::vector<int> displs_arg(const int* a, int n, const char* func, const char* what) {
  if (n > 0 && !a) fail(MPI_ERR_ARG, func, std::string(what) + " is NULL");
  return std::vector<int>(a, a + n);
}

std::vector<Bytes> cut(const void* buf, const Layout& l) {
  std::vector<Bytes> parts;
  for (size_t j = 0; j < l.at.size(); ++j) parts.push_back(block_at(buf, l.at[j], l.room[j]));
  return parts;
}

void place_all(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func) {
  for (size_t i = 0; i < parts.size() && i < l.at.size(); ++i)
    if (int(i) != l.skip) place(buf, l.at[i], parts[i], l.room[i], func, int(i));
}

core::nbc::Deliver place_later(void* buf, Layout l, const char* func) {
  return [buf, l = std::move(l), name = std::string(func)](core::nbc::Out& o) { place_all(buf, l, o.parts, name); };
}

MPI_Request started(const core::CommPtr& c, const core::nbc::Started& s, const char* func) {
  return add_request(detail::request_of(c, s.request, func));
}

// ---- v and w ----------------------------------------------------------------------

Gatherv gatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, const char* f) {
  c.check_root(root, f);
  Gatherv a;
  a.at_root = c.is_root(root);
  const bool sends = !c.is_inter() || root >= 0;
  if (a.at_root) a.recv = layout_arg(recvcounts, displs, peers(c), recvtype, f, "recvcounts", "displs");
  const bool in_place = sendbuf == MPI_IN_PLACE && a.at_root && !c.is_inter();
  if (in_place) a.recv.skip = c.rank();
  if (sends && !in_place) {
    not_in_place_inter(c, sendbuf, f, "sendbuf");
    a.mine = block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
  }
  return a;
}

Scatterv scatterv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       const char* f) {
  c.check_root(root, f);
  Scatterv a;
  const bool at_root = c.is_root(root);
  if (at_root) a.parts = cut(sendbuf, layout_arg(sendcounts, displs, peers(c), sendtype, f, "sendcounts", "displs"));
  const bool in_place = recvbuf == MPI_IN_PLACE && at_root && !c.is_inter();
  a.receives = (!c.is_inter() || root >= 0) && !in_place;
  if (a.receives) {
    not_in_place_inter(c, recvbuf, f, "recvbuf");
    a.room = nbytes(recvcount, recvtype, f, "recvcount");
  }
  return a;
}

Allgatherv allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           const char* f) {
  Allgatherv a;
  a.recv = layout_arg(recvcounts, displs, peers(c), recvtype, f, "recvcounts", "displs");
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  if (sendbuf == MPI_IN_PLACE) {
    const size_t me = size_t(c.rank());
    a.mine = block_at(recvbuf, a.recv.at[me], a.recv.room[me]);
    a.recv.skip = c.rank();
  } else {
    a.mine = block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
  }
  return a;
}

Exchange alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        MPI_Datatype recvtype, const char* f) {
  const int p = peers(c);
  Exchange a;
  a.recv = layout_arg(recvcounts, rdispls, p, recvtype, f, "recvcounts", "rdispls");
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  a.parts = sendbuf == MPI_IN_PLACE  // the send side is the receive side's layout, copied now
                ? cut(recvbuf, a.recv)
                : cut(sendbuf, layout_arg(sendcounts, sdispls, p, sendtype, f, "sendcounts", "sdispls"));
  return a;
}

Exchange alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], const char* f) {
  const int p = peers(c);
  Exchange a;
  a.recv = layout_w(recvcounts, rdispls, recvtypes, p, f, "recvcounts", "rdispls", "recvtypes");
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  a.parts = sendbuf == MPI_IN_PLACE
                ? cut(recvbuf, a.recv)
                : cut(sendbuf, layout_w(sendcounts, sdispls, sendtypes, p, f, "sendcounts", "sdispls", "sendtypes"));
  return a;
}

// ---- neighbourhood ------------------------------------------------------------------

Exchange neighbor_allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 int recvcount, MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  Exchange a;
  a.recv = even(nb.in.size(), nbytes(recvcount, recvtype, f, "recvcount"));
  a.parts.assign(nb.out.size(), block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount")));
  return a;
}

Exchange neighbor_allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  Exchange a;
  a.recv = layout_arg(recvcounts, displs, int(nb.in.size()), recvtype, f, "recvcounts", "displs");
  a.parts.assign(nb.out.size(), block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount")));
  return a;
}

Exchange neighbor_alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                int recvcount, MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  const size_t sb = nbytes(sendcount, sendtype, f, "sendcount");
  Exchange a;
  a.recv = even(nb.in.size(), nbytes(recvcount, recvtype, f, "recvcount"));
  a.parts = cut(sendbuf, even(nb.out.size(), sb));
  return a;
}

Exchange neighbor_alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  const int in = int(nb.in.size()), out = int(nb.out.size());
  Exchange a;
  Layout send = layout_arg(sendcounts, sdispls, out, sendtype, f, "sendcounts", "sdispls");
  a.recv = layout_arg(recvcounts, rdispls, in, recvtype, f, "recvcounts", "rdispls");
  a.parts = cut(sendbuf, send);
  return a;
}

Exchange neighbor_alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  const int in = int(nb.in.size()), out = int(nb.out.size());
  Exchange a;
  Layout send = layout_w(sendcounts, sdispls, sendtypes, out, f, "sendcounts", "sdispls", "sendtypes");
  a.recv = layout_w(recvcounts, rdispls, recvtypes, in, f, "recvcounts", "rdispls", "recvtypes");
  a.parts = cut(sendbuf, send);
  return a;
}

}  // namespace lumpi::capi
