// capi/c_layout.cpp: the block cutting and placing of capi/c_layout.hpp
// and the argument checks of the gather, scatter, allgather, alltoall (regular,
// v and w forms, one body per family) and neighbourhood collectives, each
// written once for its blocking and nonblocking forms.
#include "capi/c_layout.hpp"

#include <functional>

#include "core/base/error.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi::capi {

namespace {

int peers(const core::Comm& c) { return c.is_inter() ? c.remote_size() : c.size(); }

core::TypePtr usable(MPI_Datatype t, const char* f) {
  core::TypePtr p = type_of(t, f);
  p->check_usable(f);
  return p;
}

// The v layout of n peers: counts[i] elements of t at displs[i] elements
// (of t's extent), counts and displacements checked.
Layout layout_arg(const int* counts, const int* displs, int n, MPI_Datatype t, const char* f, const char* cname,
                  const char* dname) {
  std::vector<int> c = counts_arg(counts, n, f, cname), d = displs_arg(displs, n, f, dname);
  core::TypePtr type = usable(t, f);
  Layout l;
  for (size_t i = 0; i < c.size(); ++i) l.slots.push_back(Slot{long(d[i]) * long(type->extent()), c[i], type});
  return l;
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
  for (int i = 0; i < n; ++i) l.slots.push_back(Slot{long(displs[i]), c[size_t(i)], usable(types[i], f)});
  return l;
}

// n blocks of count elements of t, one after the other.
Layout even(size_t n, int count, MPI_Datatype t, const char* f, const char* what) {
  check_count(count, f, what);
  core::TypePtr type = usable(t, f);
  Layout l;
  for (size_t k = 0; k < n; ++k) l.slots.push_back(Slot{long(k) * count * long(type->extent()), count, type});
  return l;
}

// MPI_IN_PLACE is an intracommunicator option (§5.2.2).
void not_in_place_inter(const core::Comm& c, const void* buf, const char* f, const char* what) {
  if (c.is_inter() && buf == MPI_IN_PLACE)
    fail(MPI_ERR_ARG, f, std::string(what) + " is MPI_IN_PLACE, which an intercommunicator does not allow");
}

}  // namespace

Slot slot_arg(int count, MPI_Datatype t, const char* f, const char* what) {
  check_count(count, f, what);
  return Slot{0, count, usable(t, f)};
}

// buf + offset computed on integers: buf may be MPI_BOTTOM (null), and
// null + offset is undefined in C++.
char* at_offset(const void* buf, std::int64_t offset) {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(buf) + std::uintptr_t(offset));
}

Bytes pack_slot(const void* buf, const Slot& s, const char* func) {
  Bytes out;
  if (s.count > 0) {
    // NULL is MPI_BOTTOM: absolute addresses (a derived type's, or the
    // byte displacements of a w-collective, §4.1.5) then say where the data
    // is; data that would start at address 0 is a NULL buffer.
    if (!buf && s.at + s.type->true_lb() == 0) fail(MPI_ERR_BUFFER, func, "buffer is NULL");
    s.type->pack(at_offset(buf, s.at), s.count, out, func);
    if (dense(*s.type)) note_read_buffer(at_offset(buf, s.at), s.bytes());
  }
  return out;
}

void place(void* buf, const Slot& s, const Bytes& b, const std::string& func, int from) {
  if (b.size() > s.bytes())
    core::fail(core::ErrClass::Truncate, func,
               "rank " + std::to_string(from) + " sent " + std::to_string(b.size()) +
                   " bytes; its block has room for " + std::to_string(s.bytes()));
  if (b.empty()) return;
  check_landing(at_offset(buf, s.at), s.bytes(), false);
  s.type->unpack(b.data(), b.size(), at_offset(buf, s.at), s.count, func);
  check_landing(at_offset(buf, s.at), s.bytes(), true);
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

std::vector<Bytes> cut(const void* buf, const Layout& l, const char* func) {
  std::vector<Bytes> parts;
  for (const Slot& s : l.slots) parts.push_back(pack_slot(buf, s, func));
  return parts;
}

void place_all(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func) {
  for (size_t i = 0; i < parts.size() && i < l.slots.size(); ++i)
    if (int(i) != l.skip) place(buf, l.slots[i], parts[i], func, int(i));
}

core::nbc::Deliver place_later(void* buf, Layout l, const char* func) {
  for (size_t i = 0; i < l.slots.size(); ++i)
    if (int(i) != l.skip && l.slots[i].type && dense(*l.slots[i].type))
      note_written_buffer(at_offset(buf, l.slots[i].at), l.slots[i].bytes());
  return [buf, l = std::move(l), name = std::string(func)](core::nbc::Out& o) { place_all(buf, l, o.parts, name); };
}

MPI_Request started(const core::CommPtr& c, const core::nbc::Started& s, const char* func) {
  return add_request(detail::request_of(c, s.request, func));
}

// ---- gather, scatter, allgather, alltoall: one body per family --------------------
// The regular, v and w forms differ only in the layouts they describe; a
// root's side is built only at the root, and every layout in the order the
// checks have always run.

namespace {

using LayoutOf = std::function<Layout()>;

Gatherv gather_with(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    const LayoutOf& recv, int root, const char* f) {
  c.check_root(root, f);
  Gatherv a;
  a.at_root = c.is_root(root);
  const bool sends = !c.is_inter() || root >= 0;
  if (a.at_root) a.recv = recv();
  const bool in_place = sendbuf == MPI_IN_PLACE && a.at_root && !c.is_inter();
  if (in_place) a.recv.skip = c.rank();
  if (sends && !in_place) {
    not_in_place_inter(c, sendbuf, f, "sendbuf");
    a.mine = pack_slot(sendbuf, slot_arg(sendcount, sendtype, f, "sendcount"), f);
  }
  return a;
}

Scatterv scatter_with(const core::Comm& c, const void* sendbuf, const LayoutOf& send, const void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, const char* f) {
  c.check_root(root, f);
  Scatterv a;
  const bool at_root = c.is_root(root);
  if (at_root) a.parts = cut(sendbuf, send(), f);
  const bool in_place = recvbuf == MPI_IN_PLACE && at_root && !c.is_inter();
  a.receives = (!c.is_inter() || root >= 0) && !in_place;
  if (a.receives) {
    not_in_place_inter(c, recvbuf, f, "recvbuf");
    a.slot = slot_arg(recvcount, recvtype, f, "recvcount");
  }
  return a;
}

Allgatherv allgather_with(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                          void* recvbuf, Layout recv, const char* f) {
  Allgatherv a;
  a.recv = std::move(recv);
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  if (sendbuf == MPI_IN_PLACE) {
    a.mine = pack_slot(recvbuf, a.recv.slots[size_t(c.rank())], f);
    a.recv.skip = c.rank();
  } else {
    a.mine = pack_slot(sendbuf, slot_arg(sendcount, sendtype, f, "sendcount"), f);
  }
  return a;
}

// In place, the send side is the receive side's layout, copied now.
Exchange alltoall_with(const core::Comm& c, const void* sendbuf, const LayoutOf& send, void* recvbuf,
                       Layout recv, const char* f) {
  Exchange a;
  a.recv = std::move(recv);
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  a.parts = sendbuf == MPI_IN_PLACE ? cut(recvbuf, a.recv, f) : cut(sendbuf, send(), f);
  return a;
}

}  // namespace

Gatherv gatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, const char* f) {
  return gather_with(c, sendbuf, sendcount, sendtype, [&] {
    return layout_arg(recvcounts, displs, peers(c), recvtype, f, "recvcounts", "displs");
  }, root, f);
}

Scatterv scatterv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       const char* f) {
  return scatter_with(c, sendbuf, [&] {
    return layout_arg(sendcounts, displs, peers(c), sendtype, f, "sendcounts", "displs");
  }, recvbuf, recvcount, recvtype, root, f);
}

Allgatherv allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           const char* f) {
  return allgather_with(c, sendbuf, sendcount, sendtype, recvbuf,
                        layout_arg(recvcounts, displs, peers(c), recvtype, f, "recvcounts", "displs"), f);
}

Exchange alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        MPI_Datatype recvtype, const char* f) {
  const int p = peers(c);
  Layout recv = layout_arg(recvcounts, rdispls, p, recvtype, f, "recvcounts", "rdispls");
  return alltoall_with(c, sendbuf, [&] {
    return layout_arg(sendcounts, sdispls, p, sendtype, f, "sendcounts", "sdispls");
  }, recvbuf, std::move(recv), f);
}

Exchange alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], const char* f) {
  const int p = peers(c);
  Layout recv = layout_w(recvcounts, rdispls, recvtypes, p, f, "recvcounts", "rdispls", "recvtypes");
  return alltoall_with(c, sendbuf, [&] {
    return layout_w(sendcounts, sdispls, sendtypes, p, f, "sendcounts", "sdispls", "sendtypes");
  }, recvbuf, std::move(recv), f);
}

Gatherv gather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    int recvcount, MPI_Datatype recvtype, int root, const char* f) {
  return gather_with(c, sendbuf, sendcount, sendtype, [&] {
    return even(size_t(peers(c)), recvcount, recvtype, f, "recvcount");
  }, root, f);
}

Scatterv scatter_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, const char* f) {
  return scatter_with(c, sendbuf, [&] {
    return even(size_t(peers(c)), sendcount, sendtype, f, "sendcount");
  }, recvbuf, recvcount, recvtype, root, f);
}

Allgatherv allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                          void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f) {
  return allgather_with(c, sendbuf, sendcount, sendtype, recvbuf,
                        even(size_t(peers(c)), recvcount, recvtype, f, "recvcount"), f);
}

Exchange alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f) {
  const size_t p = size_t(peers(c));
  Layout recv = even(p, recvcount, recvtype, f, "recvcount");
  return alltoall_with(c, sendbuf, [&] { return even(p, sendcount, sendtype, f, "sendcount"); }, recvbuf,
                       std::move(recv), f);
}

// ---- neighbourhood ------------------------------------------------------------------

Exchange neighbor_allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 int recvcount, MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  Exchange a;
  a.recv = even(nb.in.size(), recvcount, recvtype, f, "recvcount");
  a.parts.assign(nb.out.size(), pack_slot(sendbuf, slot_arg(sendcount, sendtype, f, "sendcount"), f));
  return a;
}

Exchange neighbor_allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  Exchange a;
  a.recv = layout_arg(recvcounts, displs, int(nb.in.size()), recvtype, f, "recvcounts", "displs");
  a.parts.assign(nb.out.size(), pack_slot(sendbuf, slot_arg(sendcount, sendtype, f, "sendcount"), f));
  return a;
}

Exchange neighbor_alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                int recvcount, MPI_Datatype recvtype, const char* f) {
  const core::Neighbors nb = core::neighbors_of(c, f);
  Exchange a;
  Layout send = even(nb.out.size(), sendcount, sendtype, f, "sendcount");
  a.recv = even(nb.in.size(), recvcount, recvtype, f, "recvcount");
  a.parts = cut(sendbuf, send, f);
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
  a.parts = cut(sendbuf, send, f);
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
  a.parts = cut(sendbuf, send, f);
  return a;
}

}  // namespace lumpi::capi
