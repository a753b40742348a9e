// core/rma/win_check.hpp: --check's conflict detection for windows (MPI-3.1
// §11.7; issue 25 items 7 and 10). Both ends of a window keep a record only
// while Engine::checking() was on at its creation.
//
// Target (Conflicts): every access served is recorded with its exact byte
// ranges, its origin and its kind until the epoch that made it ends: a
// fence epoch at the next fence, an exposure epoch at MPI_Win_wait, a
// passive-target access when its origin flushes or unlocks this target.
// Two recorded accesses that overlap conflict unless both only read, or
// both are accumulates with the same basic type and the same op (or NO_OP):
// from one origin too, since puts and gets of one epoch are not ordered
// (MPI-3.1 §11.7: a location a put updates is not accessed by another RMA
// operation until the put completes at the target; only accumulates of one
// origin are ordered, §11.7.2). A local store by the
// target is found by a shadow copy of the window: the bytes as the last
// synchronization and the RMA writes since left them. A recorded range
// whose bytes differ from the shadow was stored into locally during the
// epoch (checked when an access is served and when its epoch ends, and
// for completed accesses of a concurrent epoch when the target's own lock
// epoch ends, at MPI_Win_sync and at MPI_Win_free: see the clocks below). Fence
// and exposure epochs take the shadow when they open; in passive target the
// target's own lock (or lock_all) epoch does, and MPI_Win_sync renews it.
// Windows of the create and allocate flavours up to 64 MiB are checked
// (shared windows are meant for loads and stores, dynamic ones change).
//
// This rank's own operations whose origin or result buffer lies in this
// window are accesses too (a put's origin is read, a get's result
// written), from the call to the synchronization that completes them, and
// checked against the accesses of other origins.
//
// Passive-target epochs of different origins are ordered only by the
// synchronization between them (an exclusive lock's grant, a barrier, a
// message). An access completed at the target (its origin's flush or
// unlock, sent at Lamport clock C) stays on record. Each access carries
// the clock its origin's program had seen when it was made
// (Engine::seen_clock): if that is <= C, no chain of synchronizations led
// from the completion to the access (each link raises the clock), so the
// two were concurrent. A higher clock proves nothing, and is not
// reported. This rank's own buffers are compared the same way: when made,
// by the clock this rank has seen; once complete, by the Lamport clock of
// their completion.
//
// Origin (OriginBuffers): the origin buffer of a put or accumulate must not
// change, that of a get not be written nor read by another operation,
// before the epoch's completion at that target: a copy is taken at the call
// and compared when a get's data arrives and at the completion.
//
// A window's first finding goes through Engine::report_check, class
// "rma-conflict"; the target's record and the origin's buffers share that
// one report (a put into this rank's origin buffer is one mistake, seen
// from both ends).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/engine.hpp"
#include "core/rma/win_state.hpp"

namespace lumpi::core::rma {

struct Span {
  std::int64_t lo = 0, hi = 0;
};
// The merged byte ranges of a shape; false if there are more than cap.
bool shape_spans(const Shape& s, std::vector<Span>* out, std::size_t cap = 4096);

// Which epoch an operation was issued in, carried in its tag's upper bits
// (RMA messages bypass the matcher): the kind, and the origin's fence count.
enum class EpochKind : int { Unchecked = 0, Fence = 1, Exposure = 2, Passive = 3 };
int stamp_tag(int tag, EpochKind kind, std::uint32_t fences);
struct Stamp {
  int tag = 0;
  EpochKind kind = EpochKind::Unchecked;
  std::uint32_t fences = 0;
};
Stamp unstamp(int tag);

class Conflicts {
 public:
  Conflicts(Engine& e, char* base, std::int64_t size, std::string window, std::shared_ptr<bool> said);
  // An access served here, made when its origin had seen `clock`:
  // checked against the record, then recorded. apply() is the access itself, run
  // between the check and the shadow's update.
  template <class F>
  void serve(int origin, std::uint64_t clock, const Stamp& st, const Shape& s, int op, int basic, F&& apply) {
    Access a{origin, st.tag, op, basic, {}, clock};
    bool spans = shape_spans(s, &a.spans);
    bool now = spans && admit(st);
    if (now) check(a, st.kind);
    apply();
    update_shadow(s);
    if (now) record(std::move(a), st.kind);
    else if (spans && early(st)) next_.push_back(std::move(a));
  }
  void fence(bool opens);  // this rank's fence: the epoch ends (and the next opens)
  void exposure(bool opens);  // post opens, wait ends
  void closed(int origin, std::uint64_t clock);  // the origin's flush or unlock of this target, sent at clock
  void self_epoch(bool opens);  // this rank's lock (lock_all) of itself, its unlock
  void sync();                // MPI_Win_sync: local stores made visible
  // MPI_Win_free, before its barrier (also at this rank's unlock of
  // itself, and at MPI_Win_sync): a store since the shadow into bytes a
  // completed access of a concurrent epoch touched.
  void stores_since_shadow();
  // This rank's operation func (to window rank target) reads (or, written,
  // writes) count elements of type at buf: the bytes inside this window
  // are an access of the epoch kind until local_done(target).
  void local(const void* buf, std::int64_t count, const Datatype& type, bool written, int target, EpochKind kind,
             const char* func);
  void local_done(int target);  // -1: every target

 private:
  struct Access {
    int origin, tag, op, basic;
    std::vector<Span> spans;
    std::uint64_t clock = 0;     // the clock its origin had seen when it made it
    std::uint64_t until = 0;     // passive: the clock of its completion, 0 while open
    const char* local = nullptr;  // this rank's own call, whose buffer it is
  };
  bool admit(const Stamp& st) const;
  // From an origin that has left the fence this rank is still in: checked
  // when this rank's fence opens that epoch.
  bool early(const Stamp& st) const { return st.kind == EpochKind::Fence && st.fences == fences_ + 1; }
  using Refs = std::vector<const Access*>;  // (valid until the record changes)
  static Refs refs(const std::vector<Access>& v);
  bool overlaps_other(const Access& a, const Refs& others, EpochKind kind);
  Refs concurrent(const Access& a) const;  // passive: what a may conflict with
  void keep(std::vector<Access> done, std::uint64_t clock);  // completed at clock: to closed_
  void check(const Access& a, EpochKind kind);
  void record(Access a, EpochKind kind);
  void update_shadow(const Shape& s);
  void compare(const std::vector<Access>& done, const char* when);
  bool stored(const Span& s) const;
  void resync() { shadow_.assign(base_, size_t(size_)), shadow_clock_ = engine_.clock(); }
  void report(const std::string& what);

  Engine& engine_;
  char* base_;
  std::int64_t size_;
  std::string window_;
  std::string shadow_;
  std::uint64_t shadow_clock_ = 0;  // this rank's Lamport clock when the shadow was taken
  std::uint32_t fences_ = 0;  // this rank's fence count (the epoch of fence-stamped accesses)
  bool fence_open_ = false, exposure_open_ = false, self_open_ = false;
  std::vector<Access> epoch_;               // fence or exposure epoch's accesses
  std::vector<Access> next_;                // the next fence epoch's, arrived early
  std::map<int, std::vector<Access>> open_;  // passive target: by origin until it completes
  std::map<int, std::vector<Access>> mine_;  // passive target: own buffers, by target until complete
  std::deque<Access> closed_;               // passive target: completed, with their clock
  std::shared_ptr<bool> said_;  // the window's one report made
};

class OriginBuffers {
 public:
  OriginBuffers(Engine& e, std::string window, std::shared_ptr<bool> said);
  ~OriginBuffers();
  OriginBuffers(const OriginBuffers&) = delete;
  OriginBuffers& operator=(const OriginBuffers&) = delete;
  // A put's or accumulate's origin (read) or a get's result (written):
  // count elements of type at buf, to target (window rank), by func.
  void issued(const void* buf, std::int64_t count, const Datatype& type, int target, bool written,
              const char* func, std::uint64_t seq = 0);
  void answered(std::uint64_t seq);  // a get's data arrives (before it is written)
  void completed(int target);        // the epoch's operations to target are complete
  void completed_all();
  // Win::pending_buffer_use on this window's buffers: bytes [lo, hi) used
  // by another call share a pending get's result, or (written) any
  // pending operation's buffer.
  std::string used(std::uintptr_t lo, std::uintptr_t hi, bool written);

 private:
  struct Buffer {
    const char* at;
    std::vector<Span> spans;  // bytes from at that the operation reads or writes
    std::string copy;         // their contents at the call, one after another
    int target;
    bool written;
    const char* func;
    std::uint64_t seq;
  };
  const Buffer* clash(const std::vector<Span>& spans, bool written) const;
  void check_changed(const Buffer& b, const char* when);
  bool changed(const Buffer& b) const;
  void report(const std::string& what);
  Engine& engine_;
  std::string window_;
  std::vector<Buffer> pending_;
  std::shared_ptr<bool> said_;  // the window's one report made
};

// Win::pending_buffer_use: the first window whose OriginBuffers::used says why.
std::string pending_use(std::uintptr_t lo, std::uintptr_t hi, bool written);

}  // namespace lumpi::core::rma
