// core/rma/win_state.hpp: what the files of core/rma/ share and nothing
// else sees: the RMA messages' tags, the shape of target data that travels
// with every operation, and Win::State, the bookkeeping of both ends
// (origin: epochs, locks, unanswered requests; target: lock holders, the
// exposure epoch of post/wait). win.cpp creates and serves, win_sync.cpp
// synchronizes, win_ops.cpp and win_atomic.cpp issue operations.
#pragma once

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base/pack.hpp"
#include "core/rma/win.hpp"

namespace lumpi::core::rma {

class Conflicts;
class OriginBuffers;
enum class EpochKind : int;

// The RMA operations: the envelope's tag. Tags from kGetReply on are
// answers (or notices an origin receives); the others are served by the target.
enum Tag : int {
  kPut = 1, kGet = 2, kAcc = 3, kLock = 4, kUnlock = 5, kFlush = 6, kGetAcc = 7, kCas = 8,
  kComplete = 9,
  kGetReply = 11, kGranted = 12, kUnlocked = 13, kFlushed = 14, kNack = 15, kPosted = 16,
};
// The call an operation's message carries out ("MPI_Put"; a get's answer
// "MPI_Get (answer)"), for the checker's reports and :trace; nullptr for
// the synchronisation messages.
const char* op_call(int tag);

// The shape of `count` elements of a type at the target: one element's
// runs, its extent. Travels with every operation.
struct Shape {
  std::int64_t disp = 0;  // bytes from the window's base
  std::int64_t count = 0;
  std::int64_t extent = 0;
  std::vector<Run> runs;
  std::int64_t bytes() const;
};
// The shape of tcount elements of ttype at byte displacement disp; a
// contiguous type becomes one run, which the target copies with one memcpy.
Shape shape_of(std::int64_t disp, std::int64_t tcount, const Datatype& ttype);
void pack_shape(Packer& p, const Shape& s);
Shape unpack_shape(Unpacker& u);
// Bytes [lo, hi) of the window that the shape touches; false if none.
bool shape_span(const Shape& s, std::int64_t* lo, std::int64_t* hi);

// Window synchronization under the MPI call's name (MPI_Win_fence,
// MPI_Win_create ...), for hang reports, the deadlock diagnosis and the
// trace's spans: a barrier, or an allgather, of the window's own
// communicator on tags no other call on it uses.
void barrier(Comm& c, const char* func);
std::vector<std::string> allgather(Comm& c, std::string mine, const char* func);

}  // namespace lumpi::core::rma

namespace lumpi::core {

struct Win::State {
  Engine* engine = nullptr;
  std::uint64_t id = 0;
  char* base = nullptr;
  std::int64_t size = 0;
  int my_world = 0;
  const group::Members* members = nullptr;  // world ranks by window rank
  std::map<std::string, std::string> info;  // the hints as set (MPI_Win_set_info)
  bool dynamic = false;                     // create_dynamic: target_disp is an address
  std::map<std::uintptr_t, std::int64_t> regions;  // a dynamic window's attached memory: address -> bytes

  // ---- origin side ----
  enum class Fence { None, Issued, Active };
  Fence fence = Fence::None;
  std::map<int, int> locks;      // window rank -> lock type held
  std::set<int> nocheck;         // locks taken with MODE_NOCHECK: never asked of the target
  bool lock_all = false;         // the locks are lock_all's
  int null_locks = 0;            // MPI_Win_lock(MPI_PROC_NULL) not yet unlocked: an epoch on nobody
  std::vector<int> access;       // start's group (window ranks) while its epoch is open
  bool access_open = false;
  std::map<int, int> posted;     // world rank -> posts received and not yet started on
  std::set<int> touched;         // targets with operations not yet completed
  // Per target, the last operation sent when it is answered (a get): its
  // answer completes every earlier operation at that target, so a flush
  // need not ask again.
  std::map<int, std::uint64_t> last_answered;
  std::set<std::uint64_t> awaiting;  // requests not yet answered
  struct PendingGet {
    void* buf;
    std::int64_t count;
    TypePtr type;
  };
  std::map<std::uint64_t, PendingGet> gets;
  std::set<std::uint64_t> abandoned_locks;  // lock requests given up by an interrupt
  std::string async_error;                  // a target's refusal, raised at the next sync
  ErrClass async_class = ErrClass::Other;
  std::uint32_t fences = 0;                 // fences so far (--check stamps operations with it)
  std::shared_ptr<rma::OriginBuffers> buffers;  // --check: origin buffers of pending operations
  bool request_based = false;               // an rput or raccumulate: its request frees the buffer

  // ---- --check at the target (core/rma/win_check.hpp) ----
  std::shared_ptr<rma::Conflicts> conflicts;
  int stamp = 0;  // the served operation's tag, with its epoch (rma::Stamp)

  // ---- target side ----
  int exclusive = -1;  // world rank holding the exclusive lock
  std::uint64_t released = 1;  // the Lamport clock when the last exclusive lock was released
  int shared = 0;      // shared holders
  std::map<int, int> shared_by;  // world rank -> shared locks it holds
  struct LockReq {
    int world;
    int type;
    std::uint64_t seq;
  };
  std::deque<LockReq> queue;
  // :queue: the operations issued to each target (world rank) and not yet
  // completed, counted by call ("MPI_Put": 3), until a flush, unlock,
  // complete or fence completes them.
  // (std::less<>: send_op finds a call by its string_view, so only the
  // first operation of a call to a target in an epoch makes a string)
  std::map<int, std::map<std::string, int, std::less<>>> issued;
  std::vector<Engine::PendingRma> pending() const;
  std::vector<int> exposure;     // post's group (world ranks) while its epoch is open
  bool exposure_open = false;
  std::map<int, int> completed;  // world rank -> completes received and not yet waited for

  bool in_access_epoch(int target) const;
  rma::EpochKind epoch_of(int target) const;  // which epoch an operation to target (window rank) belongs to
  // Why the shape does not lie in the window's memory (its bytes, or an
  // attached region of a dynamic window), or "".
  std::string outside(const rma::Shape& s) const;
  // The address of byte `at` of the window (an address itself when dynamic).
  char* at(std::int64_t at) const {
    return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(base) + std::uintptr_t(at));
  }
  // (traced: the call :trace names the message by, op_call(op) when empty)
  // (orders_after: the clock the message carries instead of this rank's, Engine::send)
  void reply(int world, int op, std::uint64_t seq, std::string body = {}, std::string_view traced = {},
             std::uint64_t orders_after = 0);
  // :trace's epoch bands (docs/windows.md "Seeing it"): this rank's side of
  // an epoch begins or ends ("epoch MPI_Win_lock"; peer: the other side's
  // world rank, -1 for a group; id pairs an end with its begin).
  void trace_epoch(TraceEvent::Kind k, const char* what, int peer = -1, std::uint64_t id = 0);
  // A lock epoch's side, with `world` the other side's world rank: the
  // band's id is world + 1 at both ends (0 is a group's epoch).
  void trace_lock_epoch(TraceEvent::Kind k, const char* what, int world) {
    trace_epoch(k, what, world, std::uint64_t(world) + 1);
  }
  void nack(int world, std::uint64_t seq, ErrClass c, const std::string& why);
  void grant_queued();
  void take(const LockReq& r);
  void serve(Message& m);
  void serve_request(Message& m);
  void serve_data(Message& m);
  std::string apply_data(const rma::Shape& s, int tag, Op op, Pair pair, std::string_view data);
  std::string gather(const rma::Shape& s) const;  // the shape's bytes, packed
  void combine_pairs(const rma::Shape& s, Op op, Pair pair, std::string_view data);
  void serve_cas(Message& m);
  void serve_answer(Message& m);
};

}  // namespace lumpi::core
