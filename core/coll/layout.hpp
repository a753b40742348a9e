// core/coll/layout.hpp: the arguments of the gather, scatter, allgather and
// alltoall families in their regular, v-, w- and neighbourhood forms
// (MPI-3.1 §5.5-§5.8, §5.12.3-§5.12.6, §7.6, §7.7), the rules the C and
// C++ doors share: which counts, displacements and types are significant
// where, MPI_IN_PLACE where the text allows it (MPI_ERR_ARG elsewhere), and
// the cutting of a buffer into the per-rank blocks the byte collectives
// (core/coll/coll.hpp, core/coll/nbc.hpp) move, each block packed by its
// datatype, so any committed datatype works; and the placing of received
// blocks. One checker per family, which the blocking and the nonblocking
// forms share. Offsets are in bytes; every check raises an MPI error naming
// the argument before anything is sent. A NULL buffer is MPI_BOTTOM: an
// error (MPI_ERR_BUFFER) only where a block's data would start at address
// 0, on the send side when it is packed, on the receive side (where the
// checker is given recvbuf) with the arguments.
//
// A door gives its datatype arguments as TypeArg: the core type of peer i
// (one type for all but in the w-forms), resolved only where MPI says the
// argument is significant, after the counts.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/coll/nbc.hpp"
#include "core/comm/comm.hpp"
#include "core/datatype/datatype.hpp"

namespace lumpi::core::coll {

// MPI_IN_PLACE, the same address in every door ((void*)-1).
inline constexpr std::uintptr_t kInPlace = std::uintptr_t(-1);
inline bool is_in_place(const void* p) { return reinterpret_cast<std::uintptr_t>(p) == kInPlace; }

// An OUT argument is never an alias of another argument (MPI-3.1 §2.3):
// sendbuf and recvbuf at one address where both carry data is
// MPI_ERR_BUFFER (MPI_IN_PLACE is the way to share them where a call
// offers it). `both_move`: both sides are significant here and not empty.
void check_not_aliased(const void* sendbuf, const void* recvbuf, bool both_move, std::string_view f);

// The usable (committed, not freed) type of peer i, ERR_TYPE otherwise.
using TypeArg = std::function<TypePtr(int i)>;

// One block of a typed buffer: count elements of type at byte offset at.
// It travels packed (count * type->size() bytes); a basic or hole-free
// type packs by one copy.
struct Slot {
  long at = 0;
  std::int64_t count = 0;
  TypePtr type;
  size_t bytes() const { return size_t(count) * size_t(type ? type->size() : 0); }
};

// A block a call read from the program's memory (the C door's checker
// watches the buffers of nonblocking calls).
struct Piece {
  const void* buf;
  Slot slot;
};

// buf + offset computed on integers: buf may be MPI_BOTTOM (null).
char* at_offset(const void* buf, std::int64_t offset);
// count elements of type(0) at a buffer's start: count checked (ERR_COUNT
// naming `what`), then the type.
Slot slot_arg(int count, const TypeArg& type, const char* f, const char* what);
// The packed data of slot s of buf, noted in *read when given.
Bytes pack_block(const void* buf, const Slot& s, const char* func, std::vector<Piece>* read = nullptr);
// Unpacks b into slot s of buf: MPI_ERR_TRUNCATE naming func if b is
// longer (a core error, so it can also be raised inside a completing
// nonblocking collective). Shorter is allowed (for collectives the amounts
// must match, which the sender's side guarantees for a correct program);
// an empty b leaves buf untouched.
void unpack_block(void* buf, const Slot& s, const Bytes& b, const std::string& func, int from);

// n counts of an argument array, each checked to be non-negative.
std::vector<int> counts_arg(const int* a, int n, const char* func, const char* what);
std::vector<int> displs_arg(const int* a, int n, const char* func, const char* what);

// Where each peer's block lands in a receive buffer.
struct Layout {
  std::vector<Slot> slots;
  int skip = -1;  // a block left as it is (MPI_IN_PLACE)
};

// The send blocks a layout describes: slot j of buf, packed.
std::vector<Bytes> cut(const void* buf, const Layout& l, const char* func, std::vector<Piece>* read = nullptr);
// Unpacks parts[i] into slot i of buf, all but l.skip.
void unpack_blocks(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func);
// The same when the nonblocking collective completes (its Out's parts).
nbc::Deliver unpack_later(void* buf, Layout l, const char* func);

// ---- the v- and w-collectives ---------------------------------------------------------
// c: the communicator; the other arguments as the MPI functions'. On an
// intercommunicator the peers are the remote group. `read` lists the
// blocks packed from the program's buffers.

// MPI_(I)gatherv: this process's block (none where it sends nothing: the
// root's group's other members, or the root in place), and at the root the
// receive layout.
struct Gatherv {
  bool at_root = false;
  Bytes mine;
  Layout recv;
  std::vector<Piece> read;
};
Gatherv gatherv_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                     const void* recvbuf, const int recvcounts[], const int displs[], const TypeArg& recvtype,
                     int root, const char* f);

// MPI_(I)scatterv: the root's blocks, and whether (and into what) this
// process receives one.
struct Scatterv {
  std::vector<Bytes> parts;
  bool receives = false;
  Slot slot;
  std::vector<Piece> read;
};
Scatterv scatterv_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       const TypeArg& sendtype, const void* recvbuf, int recvcount, const TypeArg& recvtype,
                       int root, const char* f);

// MPI_(I)allgatherv: this process's block and the receive layout.
struct Allgatherv {
  Bytes mine;
  Layout recv;
  std::vector<Piece> read;
};
Allgatherv allgatherv_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], const TypeArg& recvtype,
                           const char* f);

// An exchange: parts[j] for peer j (or out-neighbour j), and where the
// block from peer i (in-neighbour i) lands.
struct Exchange {
  std::vector<Bytes> parts;
  Layout recv;
  std::vector<Piece> read;
};
Exchange alltoallv_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const TypeArg& sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        const TypeArg& recvtype, const char* f);
// The w-forms: byte displacements; the types arrays are checked by the
// door's TypeArg (ERR_ARG for a null array, then each type).
Exchange alltoallw_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const TypeArg& sendtypes, void* recvbuf, const int recvcounts[], const int rdispls[],
                        const TypeArg& recvtypes, const char* f);

// ---- the regular forms: the v forms with every count the same and block i
// at i * count elements; each count and type is checked only where MPI says
// it is significant. -------------------------------------------------------------------

Gatherv gather_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                    const void* recvbuf, int recvcount, const TypeArg& recvtype, int root, const char* f);
Scatterv scatter_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                      const void* recvbuf, int recvcount, const TypeArg& recvtype, int root, const char* f);
Allgatherv allgather_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                          void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f);
Exchange alltoall_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype, void* recvbuf,
                       int recvcount, const TypeArg& recvtype, const char* f);

// ---- MPI_IN_PLACE in the reductions (§5.9-§5.11) ---------------------------------------

// The input of a reduction: sendbuf, or recvbuf where sendbuf is
// MPI_IN_PLACE and `allowed` (the root of MPI_Reduce, every process of the
// all-, scan and reduce-scatter forms, on an intracommunicator); MPI_ERR_ARG
// where it is not (a non-root, an intercommunicator, MPI_Reduce_local).
// Where it is allowed, sendbuf may not be recvbuf itself for count > 0
// elements of input (check_not_aliased).
const void* reduction_input(const void* sendbuf, const void* recvbuf, bool allowed, std::int64_t count,
                            std::string_view f);
// MPI_Reduce_local has no in-place form (MPI-3.1 §5.9.7): MPI_ERR_ARG naming
// inbuf or inoutbuf when either is MPI_IN_PLACE.
void check_reduce_local_buffers(const void* inbuf, const void* inoutbuf, std::string_view f);

// ---- the neighbourhood collectives ------------------------------------------------------
// The topology is checked first (MPI_ERR_TOPOLOGY), then the arguments,
// sized by the process's out- and in-degree. parts: one per out-neighbour
// (allgather: the one send block for each); recv: one slot per in-neighbour.
// MPI_IN_PLACE is no option here (§7.6): MPI_ERR_ARG.

Exchange neighbor_allgather_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                                 const void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f);
Exchange neighbor_allgatherv_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                                  const void* recvbuf, const int recvcounts[], const int displs[],
                                  const TypeArg& recvtype, const char* f);
Exchange neighbor_alltoall_args(const Comm& c, const void* sendbuf, int sendcount, const TypeArg& sendtype,
                                const void* recvbuf, int recvcount, const TypeArg& recvtype, const char* f);
Exchange neighbor_alltoallv_args(const Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 const TypeArg& sendtype, const void* recvbuf, const int recvcounts[],
                                 const int rdispls[], const TypeArg& recvtype, const char* f);
Exchange neighbor_alltoallw_args(const Comm& c, const void* sendbuf, const int sendcounts[],
                                 const std::int64_t sdispls[], const TypeArg& sendtypes, const void* recvbuf,
                                 const int recvcounts[], const std::int64_t rdispls[], const TypeArg& recvtypes,
                                 const char* f);

}  // namespace lumpi::core::coll
