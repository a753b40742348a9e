// core/rma/win.hpp: windows, MPI's one-sided communication (seed chapter 11,
// MPI-3.1 §11): creation over user memory or allocated memory, free, every
// synchronization (fence; post/start/complete/wait/test; lock/unlock,
// lock_all/unlock_all, the flushes, sync), put, get, accumulate,
// get_accumulate, fetch_and_op, compare_and_swap and their request-based
// forms with any committed datatypes and every predefined op, info hints,
// names, the error-handler slot and the predefined attributes' values.
// Attributes themselves are the bindings' business (lua/bind_attr.cpp,
// core/api/api_win.cpp), as for communicators.
//
// Protocol (one protocol: the engine's data messages, kind Rma): a window
// has a private duplicate of its communicator, whose context base is the
// window's id in the job. Every RMA call is checked completely at the origin
// (rank, datatypes, counts, displacement, range inside the target's window,
// whose size and disp_unit every rank learns at creation, and the
// synchronization state) before anything is sent. The origin packs its data
// (Datatype::pack) and sends it with the target datatype's flattened runs,
// which the target applies to its memory run by run. Put and accumulate are
// not answered; get, get_accumulate and compare_and_swap are answered with
// the target's data. The target applies each operation when its engine
// progresses, in a blocked MPI call or idle at the REPL prompt
// (launcher/host/host.cpp's serve loop), or from the engine's passive
// progress thread while its rank computes outside MPI
// (core/engine/passive.cpp), one at a time. Messages between two
// ranks arrive in order, so an answer completes every earlier operation at
// that target: flush waits for the last answered operation or asks for a
// flush (answered); unlock waits for its answer; fence flushes every target
// this rank touched and then barriers; complete sends a notice after the
// operations, which the target's wait counts.
// A lock is granted by the target (exclusive: alone; shared: with other
// shared holders), in arrival order; lock blocks until granted. Post sends
// each origin of its group a notice that start waits for.
//
// Memory model: WIN_UNIFIED. The window is the one copy of the memory; an
// operation reads or writes it when the target's engine serves it, which
// is whenever the target is in any MPI call (Win_sync included) or idle.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/datatype/datatype.hpp"
#include "core/datatype/op.hpp"
#include "core/engine/request.hpp"

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
  // MPI_Win_allocate_shared (§11.2.3): size zeroed bytes of each rank in one
  // shared-memory segment that every rank of comm maps, so ranks load and
  // store each other's parts directly; the parts are contiguous in rank
  // order. Every rank must run on this host (MPI_ERR_RMA_SHARED otherwise).
  static WinPtr allocate_shared(Comm& comm, std::int64_t size, int disp_unit, std::string_view func);
  // MPI_Win_create_dynamic (§11.2.4): a window without memory (size 0,
  // base null, disp_unit 1) whose ranks attach regions of their memory;
  // target_disp is then an address at the target (MPI_Get_address's). The
  // origin cannot check the range: the target does, against its attached
  // regions (MPI_ERR_RMA_RANGE at the origin's next synchronization).
  static WinPtr create_dynamic(Comm& comm, std::string_view func);
  ~Win();
  Win(const Win&) = delete;
  Win& operator=(const Win&) = delete;
  // --check: why a call of this process reading (written: writing) bytes
  // at buf conflicts with a one-sided operation not yet completed, whose
  // result buffer they share (or origin buffer, when written), on any
  // window; "" if none. Said once per window (core/rma/win_check.cpp).
  static std::string pending_buffer_use(const void* buf, std::size_t bytes, bool written);

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
  // MPI_ERR_RMA_SYNC. PROC_NULL: no-op. A MODE_NOCHECK lock is not asked
  // of the target (the program promises no conflicting lock): its unlock is
  // a flush.
  void lock(int lock_type, int rank, int assert);
  void unlock(int rank);
  void flush(int rank);
  // MPI_Win_lock_all / unlock_all: a shared lock on every rank (§11.5.3).
  // MPI_Win_flush_all; flush_local and flush_local_all complete the
  // operations at the target too (more than local completion asks).
  void lock_all(int assert);
  void unlock_all();
  void flush_all();
  void flush_local(int rank);
  void flush_local_all();
  // MPI_Win_sync: serves the operations that have arrived (so a rank
  // polling its window memory sees them) and fences the memory.
  void sync();
  // General active target (§11.5.2). post(group) opens an exposure epoch
  // for the origins of group (world ranks, a subgroup of the window's:
  // MPI_ERR_GROUP otherwise); start(group) an access epoch to the targets of
  // group, blocking until each has posted (MODE_NOCHECK: they have, and
  // posted with MODE_NOCHECK too); complete() ends the access epoch (every
  // operation then completes at its target before that target's wait
  // returns); wait() ends the exposure epoch once every origin completed;
  // test() is wait that does not block (false: not yet). A second post or
  // start while one is open, complete without start, wait or test without
  // post: MPI_ERR_RMA_SYNC. assert: MODE_NOCHECK|NOSTORE|NOPUT for post,
  // MODE_NOCHECK for start (MPI_ERR_ASSERT otherwise).
  void post(const group::Members& group, int assert);
  void start(const group::Members& group, int assert);
  void complete();
  void wait();
  bool test();

  // MPI_Put / MPI_Get / MPI_Accumulate, any committed datatypes at either
  // end. Target rank PROC_NULL: no-op after the local checks (MPI-2.1
  // Ballot 3 item 6). The origin's and the target's type signatures must
  // match (MPI_ERR_TYPE naming target_datatype otherwise: the same basic
  // types in the same order; MPI_BYTE matches any); the target range must
  // lie in the target's window (MPI_ERR_RMA_RANGE); the call must be inside
  // an access epoch to the target: a fence, a lock, or a start whose group
  // holds it (MPI_ERR_RMA_SYNC). For accumulate both types must be made of
  // one basic type, the same, that the op takes (MPI_ERR_TYPE, MPI_ERR_OP);
  // every predefined op, REPLACE and NO_OP. A target applies the operations
  // of one origin in the order they were issued, one at a time, so
  // accumulates to one location are ordered and atomic per element (§11.7).
  void put(const void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
           std::int64_t tcount, const TypePtr& ttype);
  void get(void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
           std::int64_t tcount, const TypePtr& ttype);
  void accumulate(const void* origin, std::int64_t count, const TypePtr& otype, int target,
                  std::int64_t disp, std::int64_t tcount, const TypePtr& ttype, Op op);
  // MPI_Get_accumulate: the target's data before the op into result (whose
  // signature must match the target's); with NO_OP the origin arguments are
  // ignored. MPI_Fetch_and_op: one element of a predefined type.
  // MPI_Compare_and_swap: one element of a predefined integer, logical or
  // byte type: replaced by origin when it equals compare; the old value
  // into result. Results are there after the epoch's next completion
  // (flush, unlock, fence, complete).
  void get_accumulate(const void* origin, std::int64_t count, const TypePtr& otype, void* result,
                      std::int64_t rcount, const TypePtr& rtype, int target, std::int64_t disp,
                      std::int64_t tcount, const TypePtr& ttype, Op op, std::string_view func = "MPI_Get_accumulate");
  void fetch_and_op(const void* origin, void* result, const TypePtr& type, int target, std::int64_t disp, Op op);
  void compare_and_swap(const void* origin, const void* compare, void* result, const TypePtr& type, int target,
                        std::int64_t disp);
  // Request-based operations (§11.3.5), in a passive-target epoch only
  // (MPI_ERR_RMA_SYNC otherwise): the request completes when the origin
  // buffer may be reused (rput, raccumulate: at once, the data being
  // copied) or holds the data (rget, rget_accumulate).
  RequestPtr rput(const void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
                  std::int64_t tcount, const TypePtr& ttype);
  RequestPtr rget(void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
                  std::int64_t tcount, const TypePtr& ttype);
  RequestPtr raccumulate(const void* origin, std::int64_t count, const TypePtr& otype, int target,
                         std::int64_t disp, std::int64_t tcount, const TypePtr& ttype, Op op);
  RequestPtr rget_accumulate(const void* origin, std::int64_t count, const TypePtr& otype, void* result,
                             std::int64_t rcount, const TypePtr& rtype, int target, std::int64_t disp,
                             std::int64_t tcount, const TypePtr& ttype, Op op);

  // MPI_Win_set_info / get_info (§11.2.7): the hints lumpi knows
  // (no_locks, accumulate_ordering, accumulate_ops, same_size,
  // same_disp_unit, alloc_shared_noncontig) are kept and reported, with
  // their defaults when not set; others are ignored. lumpi honours every
  // value: it orders all accumulates and never relies on a hint.
  void set_info(const std::map<std::string, std::string>& info);
  std::map<std::string, std::string> get_info() const;

  // MPI_Win_attach / detach: local, dynamic windows only (MPI_ERR_RMA_FLAVOR).
  // size >= 0 (MPI_ERR_SIZE); a region overlapping one attached, or a
  // detach of a base not attached: MPI_ERR_RMA_ATTACH.
  void attach(void* base, std::int64_t size);
  void detach(const void* base);
  // MPI_Win_shared_query: rank's part of a shared window (rank PROC_NULL:
  // the lowest rank whose part is not empty; an empty part's base is null). MPI_ERR_RMA_FLAVOR for a
  // window not made by allocate_shared.
  struct SharedPart {
    std::int64_t size = 0;
    int disp_unit = 1;
    void* base = nullptr;
  };
  SharedPart shared_query(int rank) const;

  // ---- local queries (valid after free too, except where noted) ----
  void* base() const { return base_; }
  std::int64_t size() const { return size_; }
  int disp_unit() const { return disp_unit_; }
  int flavor() const { return flavor_; }
  int model() const { return WIN_UNIFIED; }
  // The memory allocate and allocate_shared made (null otherwise): a
  // binding's view of it keeps it, past free, as long as the view lives.
  const std::shared_ptr<void>& memory() const { return memory_; }
  // The window's private communicator (requests are made on it).
  const CommPtr& comm() const { return comm_; }
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
  void set_name(std::string_view n);
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
  // Checks the target arguments of an operation (rank, disp, count, type,
  // range, epoch); false for PROC_NULL.
  bool check_target(int target, std::int64_t disp, std::int64_t tcount, const TypePtr& ttype,
                    std::string_view func) const;
  // Checks data arguments (count, type) against the target's: signatures match.
  void check_data(std::int64_t count, const TypePtr& type, std::int64_t tcount, const TypePtr& ttype,
                  std::string_view func, const char* count_name, const char* type_name) const;
  // Sends one operation `op` to target (a window rank) with body `body`
  // (its shape and data already packed) and notes the target as touched;
  // an answered operation (seq != 0) is remembered as the target's last.
  // (func: the call, as :trace names the operation's message)
  void send_op(int op, int target, std::string body, std::uint64_t seq, std::string_view func);
  // The start of an operation's body: the target shape of tcount elements
  // of ttype at disp (in target units).
  std::string op_header(std::int64_t disp, int target, std::int64_t tcount, const TypePtr& ttype) const;
  void append_data(std::string& body, const void* data, std::int64_t count, const TypePtr& type,
                   std::string_view func) const;
  std::uint64_t check_acc_types(const TypePtr& otype, const TypePtr& ttype, std::int64_t tcount, Op op,
                                std::string_view func) const;
  // get_accumulate's work: the answer's sequence number (0 for PROC_NULL).
  std::uint64_t issue_get_accumulate(const void* origin, std::int64_t count, const TypePtr& otype, void* result,
                                     std::int64_t rcount, const TypePtr& rtype, int target, std::int64_t disp,
                                     std::int64_t tcount, const TypePtr& ttype, Op op, std::string_view func);
  // A new answered request whose answer is unpacked into count elements of type at buf.
  std::uint64_t expect(void* buf, std::int64_t count, const TypePtr& type);
  // Sends a request answered by the target, and waits for its answer.
  void request(int op, int target, std::string body, std::string_view func);
  void wait_until(const std::function<bool()>& done, int target, std::string_view func);
  void wait_for(const std::set<std::uint64_t>& seqs, int target, std::string_view func);
  // The window ranks of group's members (world ranks); MPI_ERR_GROUP for one not in the window.
  std::vector<int> window_ranks(const group::Members& g, std::string_view func) const;
  void check_no_epoch(std::string_view func) const;
  void end_fence_epoch();
  void flush_rank(int rank, std::string_view func);
  void flush_every(std::string_view func);
  bool exposure_done() const;
  std::vector<int> missing_completes() const;  // world ranks of the exposure group not yet completed
  void wait_for_posts(const group::Members& group, std::string_view func);
  void end_exposure();
  // Completes every operation to the targets (window ranks) at their ends.
  void flush_targets(const std::set<int>& targets, std::string_view func);
  void unlock_one(int rank, std::string_view func);
  // A request completing when answer seq has arrived.
  RequestPtr answered(std::uint64_t seq, std::string_view func);
  void check_passive(int target, std::string_view func) const;
  void raise_async(std::string_view func);
  void start_checks();
  // --check: notes an operation's origin buffer (written: a get's result).
  void note_buffer(const void* buf, std::int64_t count, const TypePtr& type, int target, bool written,
                   const char* func, std::uint64_t seq = 0);

  CommPtr comm_;  // private duplicate: id and collectives
  std::shared_ptr<void> memory_;  // what allocate and allocate_shared made (freed with the window)
  std::vector<void*> shared_bases_;  // allocate_shared: every rank's part in this process's mapping
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
