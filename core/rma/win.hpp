// core/rma/win.hpp: windows, MPI's one-sided communication (seed chapter 11,
// MPI-3.1 §11): creation over user memory or allocated memory, free, the
// active-target fence, passive-target lock/unlock/flush, put, get and
// accumulate with datatypes and predefined ops, names, the error-handler
// slot and the predefined attributes' values. Attributes themselves are the
// bindings' business (lua/bind_attr.cpp, core/api/api_win.cpp), as for
// communicators.
//
// Protocol (one protocol: the engine's data messages, kind Rma): a window
// has a private duplicate of its communicator, whose context base is the
// window's id in the job. Every RMA call is checked completely at the origin
// (rank, datatypes, counts, displacement, range inside the target's window,
// whose size and disp_unit every rank learns at creation, and the
// synchronization state) before anything is sent. Put and accumulate send
// their data and are not answered; get is answered with the data. The
// target applies each operation when its engine progresses, in a blocked
// MPI call or idle at the REPL prompt (launcher/host/host.cpp's serve loop), so
// passive-target access needs nothing from the target's user. Messages
// between two ranks arrive in order, so a flush (answered) completes every
// earlier operation at that target: unlock and flush wait for their answer,
// fence flushes every target this rank touched and then barriers.
// A lock is granted by the target (exclusive: alone; shared: with other
// shared holders), in arrival order; lock blocks until granted.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/datatype/datatype.hpp"
#include "core/datatype/op.hpp"

namespace lumpi::core {

inline constexpr int LOCK_EXCLUSIVE = 234, LOCK_SHARED = 235;
inline constexpr int MODE_NOCHECK = 1024, MODE_NOSTORE = 2048, MODE_NOPUT = 4096,
                     MODE_NOPRECEDE = 8192, MODE_NOSUCCEED = 16384;
inline constexpr int WIN_FLAVOR_CREATE = 1, WIN_FLAVOR_ALLOCATE = 2, WIN_FLAVOR_DYNAMIC = 3,
                     WIN_FLAVOR_SHARED = 4;
inline constexpr int WIN_SEPARATE = 1, WIN_UNIFIED = 2;

class Win;
using WinPtr = std::shared_ptr<Win>;

class Win {
 public:
  // MPI_Win_create: collective over comm (an intracommunicator; MPI_ERR_COMM
  // otherwise). size bytes at base (size 0: base may be null); disp_unit > 0
  // (MPI_ERR_DISP), size >= 0 (MPI_ERR_SIZE). flavor is WIN_FLAVOR_CREATE,
  // or WIN_FLAVOR_ALLOCATE when the caller allocated base for the window.
  static WinPtr create(Comm& comm, void* base, std::int64_t size, int disp_unit, std::string_view func,
                       int flavor = WIN_FLAVOR_CREATE);
  // MPI_Win_allocate: the window owns size zeroed bytes.
  static WinPtr allocate(Comm& comm, std::int64_t size, int disp_unit, std::string_view func);
  ~Win();
  Win(const Win&) = delete;
  Win& operator=(const Win&) = delete;

  // MPI_Win_free: collective. MPI_ERR_RMA_SYNC while this rank holds a lock
  // or has operations not completed by a fence, unlock or flush. The window
  // is then freed (MPI_ERR_WIN on any further use).
  void free();
  // The checks of free alone (bindings run delete callbacks in between).
  void check_free(std::string_view func = "MPI_Win_free") const;
  // MPI_Win_fence: collective. assert: MODE_NOSTORE|NOPUT|NOPRECEDE|NOSUCCEED
  // (MPI_ERR_ASSERT for other bits). MPI_ERR_RMA_SYNC while a lock is held.
  void fence(int assert);
  // MPI_Win_lock / unlock / flush. lock_type LOCK_EXCLUSIVE or LOCK_SHARED
  // (MPI_ERR_LOCKTYPE), assert 0 or MODE_NOCHECK (MPI_ERR_ASSERT); locking a
  // target already locked, unlocking or flushing one not locked:
  // MPI_ERR_RMA_SYNC. PROC_NULL: no-op.
  void lock(int lock_type, int rank, int assert);
  void unlock(int rank);
  void flush(int rank);

  // MPI_Put / MPI_Get / MPI_Accumulate. Target rank PROC_NULL: no-op after
  // the local checks (MPI-2.1 Ballot 3 item 6). Origin and target must carry
  // the same number of bytes (MPI_ERR_TYPE otherwise); the target range
  // must lie in the target's window (MPI_ERR_RMA_RANGE); the call must be
  // inside a fence epoch or a lock on the target (MPI_ERR_RMA_SYNC). For
  // accumulate both types must be made of one basic type, the same.
  void put(const void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
           std::int64_t tcount, const TypePtr& ttype);
  void get(void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
           std::int64_t tcount, const TypePtr& ttype);
  void accumulate(const void* origin, std::int64_t count, const TypePtr& otype, int target,
                  std::int64_t disp, std::int64_t tcount, const TypePtr& ttype, Op op);

  // ---- local queries (valid after free too, except where noted) ----
  void* base() const { return base_; }
  std::int64_t size() const { return size_; }
  int disp_unit() const { return disp_unit_; }
  int flavor() const { return flavor_; }
  int model() const { return WIN_UNIFIED; }
  int rank() const { return comm_->rank(); }
  int group_size() const { return comm_->size(); }
  const group::Members& group() const { return comm_->local_group(); }
  // The window's id in the job (its private communicator's context base).
  std::uint64_t id() const { return comm_->base(); }
  std::uint64_t serial() const { return serial_; }
  bool freed() const { return freed_; }
  // MPI_ERR_WIN naming func once freed.
  void check_usable(std::string_view func) const;
  const std::string& name() const { return name_; }
  void set_name(std::string_view n) { name_ = object_name(n); }
  // The predefined handlers; a binding with user-defined handlers keeps
  // them beside this slot (Errhandler::Raise there meaning "see the binding").
  Errhandler errhandler() const { return errhandler_; }
  void set_errhandler(Errhandler h) { errhandler_ = h; }
  // "win 'name' size=64 disp_unit=8 rank=1/4"
  std::string describe() const;

  struct State;  // the origin and target bookkeeping (win.cpp)

 private:
  Win() = default;
  void check_rank(int rank, std::string_view func) const;
  // Checks every argument of put/get/accumulate; false for PROC_NULL.
  bool check_access(std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
                    std::int64_t tcount, const TypePtr& ttype, std::string_view func) const;
  // Sends one operation and notes the target as touched: the target shape,
  // then the accumulate op if rma_op >= 0 and (put, accumulate) the packed
  // origin data.
  void send_op(int op, int target, std::int64_t disp, std::int64_t tcount, const TypePtr& ttype,
               const void* origin, std::int64_t count, const TypePtr& otype, int rma_op, std::uint64_t seq,
               std::string_view func);
  // Sends a request answered by the target, and waits for its answer.
  void request(int op, int target, std::string body, std::string_view func);
  void wait_for(const std::set<std::uint64_t>& seqs, int target, std::string_view func);
  void raise_async(std::string_view func);

  CommPtr comm_;  // private duplicate: id and collectives
  std::unique_ptr<char[]> owned_;
  void* base_ = nullptr;
  std::int64_t size_ = 0;
  int disp_unit_ = 1;
  int flavor_ = WIN_FLAVOR_CREATE;
  std::vector<std::int64_t> sizes_;  // every rank's window size and disp_unit (learned at creation)
  std::vector<int> units_;
  std::string name_;
  Errhandler errhandler_ = Errhandler::Raise;
  bool freed_ = false;
  std::shared_ptr<State> state_;
  static inline std::uint64_t serial_counter_ = 0;
  std::uint64_t serial_ = ++serial_counter_;
};

}  // namespace lumpi::core
