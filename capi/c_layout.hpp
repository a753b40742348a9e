// capi/c_layout.hpp: cutting C buffers into the per-rank blocks the
// core's collectives move (each packed by its datatype, so any committed
// datatype works), unpacking received blocks into place, and the argument
// checks of the gather/scatter/allgather/alltoall families in their
// regular, v-, w- and neighbourhood forms, one per family, which the
// blocking (capi/c_collv.cpp, capi/c_neighbor.cpp) and the nonblocking
// (capi/c_nbcv.cpp, capi/c_neighbor.cpp) forms share (capi/c_layout.cpp).
// Offsets are in bytes; every check raises an MPI error naming the argument
// before anything is sent.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "core/coll/nbc.hpp"
#include "capi/c_api.hpp"

namespace lumpi::capi {

using core::coll::Bytes;

// One block of a typed buffer: count elements of type at byte offset at.
// It travels packed (count * type->size() bytes); a basic or hole-free
// type packs by one copy.
struct Slot {
  long at = 0;
  std::int64_t count = 0;
  core::TypePtr type;
  size_t bytes() const { return size_t(count) * size_t(type ? type->size() : 0); }
};

// count elements of t at a buffer's start: count checked (ERR_COUNT naming
// `what`), t committed and not freed (ERR_TYPE).
Slot slot_arg(int count, MPI_Datatype t, const char* f, const char* what);
// The packed data of slot s of buf.
Bytes pack_slot(const void* buf, const Slot& s, const char* func);
// Unpacks b into slot s of buf: MPI_ERR_TRUNCATE naming func if b is
// longer (a core error, so it can also be raised inside a completing
// nonblocking collective). Shorter is allowed (for collectives the amounts
// must match, which the sender's side guarantees for a correct program);
// an empty b leaves buf untouched.
void place(void* buf, const Slot& s, const Bytes& b, const std::string& func, int from);

// n counts of an argument array, each checked to be non-negative.
std::vector<int> counts_arg(const int* a, int n, const char* func, const char* what);
std::vector<int> displs_arg(const int* a, int n, const char* func, const char* what);

// Where each peer's block lands in a receive buffer.
struct Layout {
  std::vector<Slot> slots;
  int skip = -1;  // a block left as it is (MPI_IN_PLACE)
};

// The send blocks a layout describes: slot j of buf, packed.
std::vector<Bytes> cut(const void* buf, const Layout& l, const char* func);
// Unpacks parts[i] into slot i of buf, all but l.skip.
void place_all(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func);
// The same when the nonblocking collective completes (its Out's parts).
core::nbc::Deliver place_later(void* buf, Layout l, const char* func);
// The handle of a started nonblocking collective.
MPI_Request started(const core::CommPtr& c, const core::nbc::Started& s, const char* func);

// ---- the v- and w-collectives (MPI-3.1 §5.5-§5.8, §5.12.3-§5.12.6) ---------------
// c: the communicator; the other arguments as the MPI functions'. On an
// intercommunicator the peers are the remote group.

// MPI_(I)gatherv: this process's block (none where it sends nothing: the
// root's group's other members, or the root in place), and at the root the
// receive layout.
struct Gatherv {
  bool at_root = false;
  Bytes mine;
  Layout recv;
};
Gatherv gatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, const char* f);

// MPI_(I)scatterv: the root's blocks, and whether (and into what) this
// process receives one.
struct Scatterv {
  std::vector<Bytes> parts;
  bool receives = false;
  Slot slot;
};
Scatterv scatterv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       const char* f);

// MPI_(I)allgatherv: this process's block and the receive layout.
struct Allgatherv {
  Bytes mine;
  Layout recv;
};
Allgatherv allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           const char* f);

// An exchange: parts[j] for peer j (or out-neighbour j), and where the
// block from peer i (in-neighbour i) lands.
struct Exchange {
  std::vector<Bytes> parts;
  Layout recv;
};
Exchange alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        MPI_Datatype recvtype, const char* f);
Exchange alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], const char* f);

// ---- the regular forms (MPI-3.1 §5.5-§5.8): the v forms with every count
// the same and block i at i * count elements; each count and type is
// checked only where MPI says it is significant. -----------------------------

Gatherv gather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    int recvcount, MPI_Datatype recvtype, int root, const char* f);
Scatterv scatter_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, const char* f);
Allgatherv allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                          void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f);
Exchange alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f);

// ---- the neighbourhood collectives (MPI-3.1 §7.6, §7.7) -----------------------------
// The topology is checked first (MPI_ERR_TOPOLOGY), then the arguments,
// sized by the process's out- and in-degree. parts: one per out-neighbour
// (allgather: the one send block for each); recv: one slot per in-neighbour.

Exchange neighbor_allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 int recvcount, MPI_Datatype recvtype, const char* f);
Exchange neighbor_allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, const char* f);
Exchange neighbor_alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                int recvcount, MPI_Datatype recvtype, const char* f);
Exchange neighbor_alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, const char* f);
Exchange neighbor_alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], const char* f);

}  // namespace lumpi::capi
