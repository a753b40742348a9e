// core/coll/layout.cpp: the block cutting and placing of core/coll/layout.hpp
// and the argument checks of the gather, scatter, allgather, alltoall (regular,
// v and w forms, one body per family) and neighbourhood collectives, each
// written once for its blocking and nonblocking forms and for both doors.
#include "core/coll/layout.hpp"

#include <algorithm>
#include <functional>

#include "core/base/error.hpp"
#include "core/check/resource.hpp"
#include "core/datatype/typed_buffer.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi::core::coll {

namespace {

int peers(const Comm& c) { return c.is_inter() ? c.remote_size() : c.size(); }

void check_out(const void* p, const char* f, const std::string& what) {
  if (!p) fail(ErrClass::Arg, f, what + " is NULL");
}

void check_count(int count, const char* f, const char* what) {
  if (count < 0) fail(ErrClass::Count, f, std::string(what) + " is negative: " + std::to_string(count));
}

// The v layout of n peers: counts[i] elements of t at displs[i] elements
// (of t's extent), counts and displacements checked.
Layout layout_arg(const int* counts, const int* displs, int n, const TypeArg& t, const char* f, const char* cname,
                  const char* dname) {
  std::vector<int> c = counts_arg(counts, n, f, cname), d = displs_arg(displs, n, f, dname);
  TypePtr type = t(0);
  Layout l;
  for (size_t i = 0; i < c.size(); ++i) l.slots.push_back(Slot{long(d[i]) * long(type->extent()), c[i], type});
  return l;
}

// The w layout of n peers: counts[i] elements of types[i] at byte
// displacement displs[i] (int for the w-collectives, std::int64_t for the
// neighbourhood ones).
template <class D>
Layout layout_w(const int* counts, const D* displs, const TypeArg& types, int n, const char* f, const char* cname,
                const char* dname) {
  std::vector<int> c = counts_arg(counts, n, f, cname);
  if (n > 0) check_out(displs, f, dname);
  Layout l;
  for (int i = 0; i < n; ++i) l.slots.push_back(Slot{long(displs[i]), c[size_t(i)], types(i)});
  return l;
}

// n blocks of count elements of t, one after the other.
Layout even(size_t n, int count, const TypeArg& t, const char* f, const char* what) {
  check_count(count, f, what);
  TypePtr type = t(0);
  Layout l;
  for (size_t k = 0; k < n; ++k) l.slots.push_back(Slot{long(k) * count * long(type->extent()), count, type});
  return l;
}

// MPI_IN_PLACE is an intracommunicator option (§5.2.2).
void not_in_place_inter(const Comm& c, const void* buf, const char* f, const char* what) {
  if (c.is_inter() && is_in_place(buf))
    fail(ErrClass::Arg, f, std::string(what) + " is MPI_IN_PLACE, which an intercommunicator does not allow");
}

// The rooted forms take MPI_IN_PLACE at the root only (§5.5, §5.6).
void not_in_place_off_root(const Comm& c, const void* buf, const char* f, const char* what) {
  not_in_place_inter(c, buf, f, what);
  if (is_in_place(buf))
    fail(ErrClass::Arg, f, std::string(what) + " is MPI_IN_PLACE, which only the root may pass");
}

// The neighbourhood collectives have no in-place form (§7.6).
void not_in_place(const void* sendbuf, const void* recvbuf, const char* f) {
  if (is_in_place(sendbuf) || is_in_place(recvbuf))
    fail(ErrClass::Arg, f,
         std::string(is_in_place(sendbuf) ? "sendbuf" : "recvbuf") +
             " is MPI_IN_PLACE, which the neighbourhood collectives do not take (MPI-3.1 §7.6)");
}

// A receive buffer of NULL where a block's data would start at address 0:
// MPI_ERR_BUFFER before anything is sent (NULL is MPI_BOTTOM, as in
// pack_block: absolute addresses may follow it).
// MPI-3.1 §5.5 (MPI_Gatherv), and so every receive layout: "no location
// ... written more than once", or the result depends on arrival order.
// Erroneous, but MPICH and Open MPI take it and MPICH's own tests do it
// (coll/allgatherv4, and coll/nonblocking's MPI_Ialltoallw): a --check
// finding ("local-concurrency"), never an error. Blocks of a hole-free
// type are byte ranges and are compared (sorted, each with the furthest
// end before it); others are not.
void check_written_once(const Comm& c, const Layout& l, const char* f) {
  if (!check::checking(c)) return;
  struct Range {
    std::int64_t begin, end;
    size_t peer;
  };
  std::vector<Range> r;
  for (size_t i = 0; i < l.slots.size(); ++i) {
    const Slot& s = l.slots[i];
    if (s.bytes() > 0 && dense(*s.type)) r.push_back({s.at, s.at + std::int64_t(s.bytes()), i});
  }
  std::sort(r.begin(), r.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (size_t k = 1, last = 0; k < r.size(); ++k) {
    if (r[k].begin < r[last].end)
      return check::report(c, "local-concurrency",
                           std::string(f) + ": the receive blocks of peers " +
                               std::to_string(std::min(r[k].peer, r[last].peer)) + " and " +
                               std::to_string(std::max(r[k].peer, r[last].peer)) +
                               " overlap (their counts and displacements place both at byte " +
                               std::to_string(r[k].begin) +
                               " of recvbuf; MPI-3.1 §5.5: no location of a receive buffer is written more than "
                               "once, or the result depends on which block lands last)");
    if (r[k].end > r[last].end) last = k;
  }
}

void check_room(const void* buf, const Layout& l, const char* f) {
  if (buf) return;
  for (size_t i = 0; i < l.slots.size(); ++i) {
    const Slot& s = l.slots[i];
    if (int(i) != l.skip && s.count > 0 && s.type->size() > 0 && s.at + s.type->true_lb() == 0)
      fail(ErrClass::Buffer, f, "recvbuf is NULL");
  }
}

}  // namespace

Slot slot_arg(int count, const TypeArg& t, const char* f, const char* what) {
  check_count(count, f, what);
  return Slot{0, count, t(0)};
}

// buf + offset computed on integers: buf may be MPI_BOTTOM (null), and
// null + offset is undefined in C++.
char* at_offset(const void* buf, std::int64_t offset) {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(buf) + std::uintptr_t(offset));
}

Bytes pack_block(const void* buf, const Slot& s, const char* func, std::vector<Piece>* read) {
  Bytes out;
  if (s.count > 0) {
    // NULL is MPI_BOTTOM: absolute addresses (a derived type's, or the
    // byte displacements of a w-collective, §4.1.5) then say where the data
    // is; data that would start at address 0 is a NULL buffer.
    if (!buf && s.at + s.type->true_lb() == 0) fail(ErrClass::Buffer, func, "buffer is NULL");
    s.type->pack(at_offset(buf, s.at), s.count, out, func);
    if (read) read->push_back(Piece{buf, s});
  }
  return out;
}

void unpack_block(void* buf, const Slot& s, const Bytes& b, const std::string& func, int from) {
  if (b.size() > s.bytes())
    fail(ErrClass::Truncate, func,
         "rank " + std::to_string(from) + " sent " + std::to_string(b.size()) + " bytes; its block has room for " +
             std::to_string(s.bytes()));
  if (b.empty()) return;
  s.type->unpack(b.data(), b.size(), at_offset(buf, s.at), s.count, func);
}

std::vector<int> counts_arg(const int* a, int n, const char* func, const char* what) {
  if (n > 0 && !a) fail(ErrClass::Arg, func, std::string(what) + " is NULL");
  std::vector<int> v(a, a + n);
  for (int i = 0; i < n; ++i)
    if (v[size_t(i)] < 0)
      fail(ErrClass::Count, func,
           std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(v[size_t(i)]) + " is negative");
  return v;
}

std::vector<int> displs_arg(const int* a, int n, const char* func, const char* what) {
  if (n > 0 && !a) fail(ErrClass::Arg, func, std::string(what) + " is NULL");
  return std::vector<int>(a, a + n);
}

std::vector<Bytes> cut(const void* buf, const Layout& l, const char* func, std::vector<Piece>* read) {
  std::vector<Bytes> parts;
  for (const Slot& s : l.slots) parts.push_back(pack_block(buf, s, func, read));
  return parts;
}

void unpack_blocks(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func) {
  for (size_t i = 0; i < parts.size() && i < l.slots.size(); ++i)
    if (int(i) != l.skip) unpack_block(buf, l.slots[i], parts[i], func, int(i));
}

nbc::Deliver unpack_later(void* buf, Layout l, const char* func) {
  return [buf, l = std::move(l), name = std::string(func)](nbc::Out& o) { unpack_blocks(buf, l, o.parts, name); };
}

void check_not_aliased(const void* sendbuf, const void* recvbuf, bool both_move, std::string_view f) {
  if (!both_move || !sendbuf || sendbuf != recvbuf || is_in_place(sendbuf)) return;
  fail(ErrClass::Buffer, f,
       "sendbuf and recvbuf are the same buffer: an output argument may not alias another argument (MPI-3.1 "
       "§2.3; pass MPI_IN_PLACE where the call offers it)");
}

// ---- gather, scatter, allgather, alltoall: one body per family --------------------
// The regular, v and w forms differ only in the layouts they describe; a
// root's side is built only at the root, and every layout in the order the
// checks have always run.

namespace {

using LayoutOf = std::function<Layout()>;

// True where some block of the layout holds data.
bool moves(const Layout& l) {
  for (const Slot& s : l.slots)
    if (s.bytes() > 0) return true;
  return false;
}

Gatherv gather_with(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                    const void* recvbuf, const LayoutOf& recv, int root, const char* f) {
  c.check_root(root, f);
  Gatherv a;
  a.at_root = c.is_root(root);
  const bool sends = !c.is_inter() || root >= 0;
  if (a.at_root) a.recv = recv();
  const bool in_place = is_in_place(sendbuf) && a.at_root && !c.is_inter();
  if (in_place) a.recv.skip = c.rank();
  if (sends && !in_place) {
    not_in_place_off_root(c, sendbuf, f, "sendbuf");
    Slot mine = slot_arg(sendcount, sendtype, f, "sendcount");
    check_not_aliased(sendbuf, recvbuf, a.at_root && mine.bytes() > 0 && moves(a.recv), f);
    a.mine = pack_block(sendbuf, mine, f, &a.read);
  }
  if (a.at_root) check_written_once(c, a.recv, f);
  return a;
}

Scatterv scatter_with(const Comm& c, const void* sendbuf, const LayoutOf& send, const void* recvbuf,
                      int recvcount, const TypeArg& recvtype, int root, const char* f) {
  c.check_root(root, f);
  Scatterv a;
  const bool at_root = c.is_root(root);
  if (at_root) a.parts = cut(sendbuf, send(), f, &a.read);
  const bool in_place = is_in_place(recvbuf) && at_root && !c.is_inter();
  a.receives = (!c.is_inter() || root >= 0) && !in_place;
  if (a.receives) {
    not_in_place_off_root(c, recvbuf, f, "recvbuf");
    a.slot = slot_arg(recvcount, recvtype, f, "recvcount");
    check_room(recvbuf, Layout{{a.slot}, -1}, f);
    check_not_aliased(sendbuf, recvbuf, at_root && a.slot.bytes() > 0, f);
  }
  return a;
}

Allgatherv allgather_with(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                          void* recvbuf, Layout recv, const char* f) {
  Allgatherv a;
  a.recv = std::move(recv);
  check_room(recvbuf, a.recv, f);
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  if (is_in_place(sendbuf)) {
    a.mine = pack_block(recvbuf, a.recv.slots[size_t(c.rank())], f, &a.read);
    a.recv.skip = c.rank();
  } else {
    Slot mine = slot_arg(sendcount, sendtype, f, "sendcount");
    check_not_aliased(sendbuf, recvbuf, mine.bytes() > 0 && moves(a.recv), f);
    a.mine = pack_block(sendbuf, mine, f, &a.read);
  }
  check_written_once(c, a.recv, f);
  return a;
}

// In place, the send side is the receive side's layout, copied now.
Exchange alltoall_with(const Comm& c, const void* sendbuf, const LayoutOf& send, void* recvbuf,
                       Layout recv, const char* f) {
  Exchange a;
  a.recv = std::move(recv);
  check_room(recvbuf, a.recv, f);
  not_in_place_inter(c, sendbuf, f, "sendbuf");
  if (is_in_place(sendbuf)) {
    a.parts = cut(recvbuf, a.recv, f, &a.read);
  } else {
    Layout out = send();
    check_not_aliased(sendbuf, recvbuf, moves(out) && moves(a.recv), f);
    a.parts = cut(sendbuf, out, f, &a.read);
  }
  check_written_once(c, a.recv, f);
  return a;
}

}  // namespace

Gatherv gatherv_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                     const void* recvbuf, const int recvcounts[], const int displs[], const TypeArg& recvtype,
                     int root, const char* f) {
  return gather_with(c, sendbuf, sendcount, sendtype, recvbuf, [&] {
    return layout_arg(recvcounts, displs, peers(c), recvtype, f, "recvcounts", "displs");
  }, root, f);
}

Scatterv scatterv_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       const TypeArg& sendtype, const void* recvbuf, int recvcount, const TypeArg& recvtype, int root,
                       const char* f) {
  return scatter_with(c, sendbuf, [&] {
    return layout_arg(sendcounts, displs, peers(c), sendtype, f, "sendcounts", "displs");
  }, recvbuf, recvcount, recvtype, root, f);
}

Allgatherv allgatherv_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], const TypeArg& recvtype,
                           const char* f) {
  return allgather_with(c, sendbuf, sendcount, sendtype, recvbuf,
                        layout_arg(recvcounts, displs, peers(c), recvtype, f, "recvcounts", "displs"), f);
}

Exchange alltoallv_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const TypeArg& sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        const TypeArg& recvtype, const char* f) {
  const int p = peers(c);
  Layout recv = layout_arg(recvcounts, rdispls, p, recvtype, f, "recvcounts", "rdispls");
  return alltoall_with(c, sendbuf, [&] {
    return layout_arg(sendcounts, sdispls, p, sendtype, f, "sendcounts", "sdispls");
  }, recvbuf, std::move(recv), f);
}

Exchange alltoallw_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const TypeArg& sendtypes, void* recvbuf, const int recvcounts[], const int rdispls[],
                        const TypeArg& recvtypes, const char* f) {
  const int p = peers(c);
  Layout recv = layout_w(recvcounts, rdispls, recvtypes, p, f, "recvcounts", "rdispls");
  return alltoall_with(c, sendbuf, [&] {
    return layout_w(sendcounts, sdispls, sendtypes, p, f, "sendcounts", "sdispls");
  }, recvbuf, std::move(recv), f);
}

Gatherv gather_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                    const void* recvbuf, int recvcount, const TypeArg& recvtype, int root, const char* f) {
  return gather_with(c, sendbuf, sendcount, sendtype, recvbuf, [&] {
    return even(size_t(peers(c)), recvcount, recvtype, f, "recvcount");
  }, root, f);
}

Scatterv scatter_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                      const void* recvbuf, int recvcount, const TypeArg& recvtype, int root, const char* f) {
  return scatter_with(c, sendbuf, [&] {
    return even(size_t(peers(c)), sendcount, sendtype, f, "sendcount");
  }, recvbuf, recvcount, recvtype, root, f);
}

Allgatherv allgather_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                          void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f) {
  return allgather_with(c, sendbuf, sendcount, sendtype, recvbuf,
                        even(size_t(peers(c)), recvcount, recvtype, f, "recvcount"), f);
}

Exchange alltoall_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                       void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f) {
  const size_t p = size_t(peers(c));
  Layout recv = even(p, recvcount, recvtype, f, "recvcount");
  return alltoall_with(c, sendbuf, [&] { return even(p, sendcount, sendtype, f, "sendcount"); }, recvbuf,
                       std::move(recv), f);
}

// ---- reductions ------------------------------------------------------------------------

const void* reduction_input(const void* sendbuf, const void* recvbuf, bool allowed, std::int64_t count,
                            std::string_view f) {
  if (!is_in_place(sendbuf)) {
    check_not_aliased(sendbuf, recvbuf, allowed && count > 0, f);
    return sendbuf;
  }
  if (!allowed)
    fail(ErrClass::Arg, f,
         "sendbuf is MPI_IN_PLACE, which this call does not allow here (MPI-3.1 §5.9: only the root of "
         "MPI_Reduce and the processes of an intracommunicator's all-, scan and reduce-scatter forms)");
  return recvbuf;
}

void check_reduce_local_buffers(const void* inbuf, const void* inoutbuf, std::string_view f) {
  if (!is_in_place(inbuf) && !is_in_place(inoutbuf)) return;
  fail(ErrClass::Arg, f,
       std::string(is_in_place(inbuf) ? "inbuf" : "inoutbuf") +
           " is MPI_IN_PLACE, which MPI_Reduce_local does not take (MPI-3.1 §5.9.7)");
}

// ---- neighbourhood ------------------------------------------------------------------

// The neighbourhood collectives' buffers after their layouts: an output
// may not alias an input where both carry data (MPI-3.1 §2.3); under
// --check, receive blocks may not overlap.
static Exchange buffers_checked(const Comm& c, Exchange a, const void* sendbuf, const void* recvbuf, const char* f) {
  bool sends = false;
  for (const Bytes& part : a.parts) sends = sends || !part.empty();
  check_not_aliased(sendbuf, recvbuf, sends && moves(a.recv), f);
  check_written_once(c, a.recv, f);
  return a;
}

Exchange neighbor_allgather_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                                 const void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f) {
  const Neighbors nb = neighbors_of(c, f);
  not_in_place(sendbuf, recvbuf, f);
  Exchange a;
  a.recv = even(nb.in.size(), recvcount, recvtype, f, "recvcount");
  check_room(recvbuf, a.recv, f);
  a.parts.assign(nb.out.size(), pack_block(sendbuf, slot_arg(sendcount, sendtype, f, "sendcount"), f, &a.read));
  return buffers_checked(c, std::move(a), sendbuf, recvbuf, f);
}

Exchange neighbor_allgatherv_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                                  const void* recvbuf, const int recvcounts[], const int displs[],
                                  const TypeArg& recvtype, const char* f) {
  const Neighbors nb = neighbors_of(c, f);
  not_in_place(sendbuf, recvbuf, f);
  Exchange a;
  a.recv = layout_arg(recvcounts, displs, int(nb.in.size()), recvtype, f, "recvcounts", "displs");
  check_room(recvbuf, a.recv, f);
  a.parts.assign(nb.out.size(), pack_block(sendbuf, slot_arg(sendcount, sendtype, f, "sendcount"), f, &a.read));
  return buffers_checked(c, std::move(a), sendbuf, recvbuf, f);
}

Exchange neighbor_alltoall_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                                const void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f) {
  const Neighbors nb = neighbors_of(c, f);
  not_in_place(sendbuf, recvbuf, f);
  Exchange a;
  Layout send = even(nb.out.size(), sendcount, sendtype, f, "sendcount");
  a.recv = even(nb.in.size(), recvcount, recvtype, f, "recvcount");
  check_room(recvbuf, a.recv, f);
  a.parts = cut(sendbuf, send, f, &a.read);
  return buffers_checked(c, std::move(a), sendbuf, recvbuf, f);
}

Exchange neighbor_alltoallv_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 const TypeArg& sendtype, const void* recvbuf, const int recvcounts[],
                                 const int rdispls[], const TypeArg& recvtype, const char* f) {
  const Neighbors nb = neighbors_of(c, f);
  not_in_place(sendbuf, recvbuf, f);
  const int in = int(nb.in.size()), out = int(nb.out.size());
  Exchange a;
  Layout send = layout_arg(sendcounts, sdispls, out, sendtype, f, "sendcounts", "sdispls");
  a.recv = layout_arg(recvcounts, rdispls, in, recvtype, f, "recvcounts", "rdispls");
  check_room(recvbuf, a.recv, f);
  a.parts = cut(sendbuf, send, f, &a.read);
  return buffers_checked(c, std::move(a), sendbuf, recvbuf, f);
}

Exchange neighbor_alltoallw_args(const Comm& c, const void* sendbuf, const int sendcounts[],
                                 const std::int64_t sdispls[], const TypeArg& sendtypes, const void* recvbuf,
                                 const int recvcounts[], const std::int64_t rdispls[], const TypeArg& recvtypes,
                                 const char* f) {
  const Neighbors nb = neighbors_of(c, f);
  not_in_place(sendbuf, recvbuf, f);
  const int in = int(nb.in.size()), out = int(nb.out.size());
  Exchange a;
  Layout send = layout_w(sendcounts, sdispls, sendtypes, out, f, "sendcounts", "sdispls");
  a.recv = layout_w(recvcounts, rdispls, recvtypes, in, f, "recvcounts", "rdispls");
  check_room(recvbuf, a.recv, f);
  a.parts = cut(sendbuf, send, f, &a.read);
  return buffers_checked(c, std::move(a), sendbuf, recvbuf, f);
}

}  // namespace lumpi::core::coll
