// core/rma/win_sync.cpp: a window's synchronization (MPI-3.1 §11.5): fence,
// post/start/complete/wait/test, lock/unlock and lock_all/unlock_all, the
// flushes and sync, the origin's end of each (the targets' end is
// win.cpp's serve_request). The protocol is described in core/rma/win.hpp.
#include <algorithm>
#include <atomic>
#include <optional>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/rma/win_check.hpp"
#include "core/rma/win_state.hpp"

namespace lumpi::core {

using namespace rma;

namespace {

// Lock, unlock and flush wait for the target's answer: a wait of the trace
// on this rank from begin to end, naming the target (its COMM_WORLD rank).
class TracedWait {
 public:
  TracedWait(Engine& e, const Comm& c, int target, std::string_view func) {
    if (!e.tracing()) return;
    e_ = &e;
    t_.call = std::string(func);
    t_.context = c.base();
    t_.peer = c.world_of(target);
    record(TraceEvent::Kind::Begin);
  }
  ~TracedWait() {
    if (e_) record(TraceEvent::Kind::End);
  }
  TracedWait(const TracedWait&) = delete;
  TracedWait& operator=(const TracedWait&) = delete;

 private:
  void record(TraceEvent::Kind k) {
    TraceEvent t = t_;
    t.kind = k;
    e_->trace(std::move(t));
  }
  Engine* e_ = nullptr;
  TraceEvent t_;
};

}  // namespace

void Win::raise_async(std::string_view func) {
  State& st = *state_;
  if (st.async_error.empty()) return;
  std::string why = std::move(st.async_error);
  st.async_error.clear();
  fail(st.async_class, func, why);
}

void Win::wait_until(const std::function<bool()>& done, int target, std::string_view func) {
  Waiting w = comm_->waiting(std::string(func), target >= 0 ? "target" : "", target);
  if (target >= 0) w.needs = {comm_->world_of(target)};
  else w.group = comm_->local_group();
  state_->engine->wait(done, w);
}

void Win::wait_for(const std::set<std::uint64_t>& seqs, int target, std::string_view func) {
  State& st = *state_;
  auto done = [&] {
    for (auto s : seqs)
      if (st.awaiting.count(s)) return false;
    return true;
  };
  try {
    wait_until(done, target, func);
  } catch (...) {
    for (auto s : seqs) st.awaiting.erase(s), st.gets.erase(s);
    throw;
  }
}

void Win::request(int op, int target, std::string body, std::string_view func) {
  State& st = *state_;
  TracedWait traced(*st.engine, *comm_, target, func);
  std::uint64_t seq = st.engine->next_seq();
  st.awaiting.insert(seq);
  st.reply(comm_->world_of(target), op, seq, std::move(body));
  if (op == kLock) {
    try {
      wait_for({seq}, target, func);
    } catch (...) {
      st.abandoned_locks.insert(seq);  // if it is granted later, give it back
      throw;
    }
  } else {
    wait_for({seq}, target, func);
  }
}

std::vector<int> Win::window_ranks(const group::Members& g, std::string_view func) const {
  std::vector<int> ranks;
  for (int w : g) {
    int r = group::rank_of(comm_->local_group(), w);
    if (r < 0)
      fail(ErrClass::Group, func,
           "group holds rank " + std::to_string(w) + " of COMM_WORLD, which is not in the window's group");
    ranks.push_back(r);
  }
  return ranks;
}

// Completes every operation to the targets at their ends: a target whose
// last operation is answered needs only that answer; others are asked
// (under --check every target is, to learn that its origin's accesses
// are complete).
void Win::flush_targets(const std::set<int>& targets, std::string_view func) {
  State& st = *state_;
  std::set<std::uint64_t> seqs;
  for (int t : targets) {
    if (!st.touched.count(t)) continue;  // nothing since its last completion
    auto last = st.last_answered.find(t);
    if (last != st.last_answered.end() && !st.buffers) {
      if (st.awaiting.count(last->second)) seqs.insert(last->second);
      continue;
    }
    std::uint64_t seq = st.engine->next_seq();
    st.awaiting.insert(seq);
    st.reply(comm_->world_of(t), kFlush, seq);
    seqs.insert(seq);
  }
  int one = targets.size() == 1 ? *targets.begin() : -1;
  std::optional<TracedWait> traced;
  if (one >= 0) traced.emplace(*st.engine, *comm_, one, func);
  wait_for(seqs, one, func);
  for (int t : targets) {
    st.touched.erase(t), st.last_answered.erase(t), st.issued.erase(comm_->world_of(t));
    if (st.buffers) st.buffers->completed(t);
    if (st.conflicts) st.conflicts->local_done(t);
  }
}

void Win::fence(int assert) {
  const char* func = "MPI_Win_fence";
  check_usable(func);
  const int valid = MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED;
  if (assert & ~valid)
    fail(ErrClass::Assert, func, "assert = " + std::to_string(assert) +
                                     " has bits other than MODE_NOSTORE, MODE_NOPUT, MODE_NOPRECEDE, MODE_NOSUCCEED");
  State& st = *state_;
  if (!st.locks.empty())
    fail(ErrClass::RmaSync, func,
         "rank " + std::to_string(st.locks.begin()->first) + " is locked (passive target); unlock it before a fence");
  if (st.access_open || st.exposure_open)
    fail(ErrClass::RmaSync, func, "a post/start epoch is open; end it (complete, wait) before a fence");
  if ((assert & MODE_NOPRECEDE) && !st.touched.empty())
    fail(ErrClass::RmaSync, func, "MODE_NOPRECEDE, but this rank issued operations since the last fence");
  flush_targets(std::set<int>(st.touched), func);
  barrier(*comm_, func);
  if (st.fence != State::Fence::None) st.trace_epoch(TraceEvent::Kind::End, func);
  st.fence = (assert & MODE_NOSUCCEED) ? State::Fence::None : State::Fence::Issued;
  if (st.fence != State::Fence::None) st.trace_epoch(TraceEvent::Kind::Begin, func);
  ++st.fences;
  if (st.buffers) st.buffers->completed_all();
  if (st.conflicts) st.conflicts->fence(!(assert & MODE_NOSUCCEED));
  raise_async(func);
}

// ---- passive target ----------------------------------------------------------------------

// MPI_ERR_RMA_SYNC unless a lock (or access) epoch may begin now.
void Win::check_no_epoch(std::string_view func) const {
  const State& st = *state_;
  if (st.lock_all) fail(ErrClass::RmaSync, func, "every rank is locked by MPI_Win_lock_all; unlock_all first");
  if (st.fence == State::Fence::Active)
    fail(ErrClass::RmaSync, func, "a fence epoch is open (operations since the last fence); fence first");
  if (st.access_open) fail(ErrClass::RmaSync, func, "an access epoch (MPI_Win_start) is open; complete it first");
}

// Another kind of epoch begins: a fence's ends (fence, then lock, is allowed
// when the fence began no operations).
void Win::end_fence_epoch() {
  State& st = *state_;
  if (st.fence != State::Fence::None) st.trace_epoch(TraceEvent::Kind::End, "MPI_Win_fence");
  st.fence = State::Fence::None;
}

void Win::lock(int lock_type, int rank, int assert) {
  const char* func = "MPI_Win_lock";
  check_usable(func);
  if (lock_type != LOCK_EXCLUSIVE && lock_type != LOCK_SHARED)
    fail(ErrClass::Locktype, func,
         "lock_type = " + std::to_string(lock_type) + " is neither LOCK_EXCLUSIVE nor LOCK_SHARED");
  if (assert & ~MODE_NOCHECK)
    fail(ErrClass::Assert, func, "assert = " + std::to_string(assert) + " has bits other than MODE_NOCHECK");
  check_rank(rank, func);
  if (rank == PROC_NULL) {  // a passive epoch with nobody, for operations on MPI_PROC_NULL
    ++state_->null_locks;
    return;
  }
  State& st = *state_;
  check_no_epoch(func);
  if (st.locks.count(rank)) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is already locked by this rank");
  if (assert & MODE_NOCHECK) st.nocheck.insert(rank);
  else request(kLock, rank, Packer().u64(uint64_t(lock_type)).take(), func);
  end_fence_epoch();
  st.locks[rank] = lock_type;
  st.trace_lock_epoch(TraceEvent::Kind::Begin, func, comm_->world_of(rank));
  if (st.conflicts && rank == this->rank()) st.conflicts->self_epoch(true);
  raise_async(func);
}

void Win::unlock_one(int rank, std::string_view func) {
  State& st = *state_;
  if (st.nocheck.count(rank)) flush_targets({rank}, func);
  else request(kUnlock, rank, {}, func);  // answered after every earlier operation was applied
  st.trace_lock_epoch(TraceEvent::Kind::End, "MPI_Win_lock", comm_->world_of(rank));
  st.locks.erase(rank);
  st.nocheck.erase(rank);
  st.touched.erase(rank);
  st.issued.erase(comm_->world_of(rank));
  st.last_answered.erase(rank);
  if (st.buffers) st.buffers->completed(rank);
  if (st.conflicts) st.conflicts->local_done(rank);
  if (st.conflicts && rank == this->rank()) st.conflicts->self_epoch(false);
}

void Win::unlock(int rank) {
  const char* func = "MPI_Win_unlock";
  check_usable(func);
  check_rank(rank, func);
  if (rank == PROC_NULL) {
    if (state_->null_locks > 0) --state_->null_locks;
    return;
  }
  State& st = *state_;
  if (!st.locks.count(rank)) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is not locked by this rank");
  if (st.lock_all) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is locked by MPI_Win_lock_all; call unlock_all");
  unlock_one(rank, func);
  raise_async(func);
}

void Win::lock_all(int assert) {
  const char* func = "MPI_Win_lock_all";
  check_usable(func);
  if (assert & ~MODE_NOCHECK)
    fail(ErrClass::Assert, func, "assert = " + std::to_string(assert) + " has bits other than MODE_NOCHECK");
  State& st = *state_;
  check_no_epoch(func);
  if (!st.locks.empty())
    fail(ErrClass::RmaSync, func, "rank " + std::to_string(st.locks.begin()->first) + " is locked by this rank; unlock it first");
  std::set<std::uint64_t> seqs;
  for (int r = 0; r < group_size(); ++r) {
    if (assert & MODE_NOCHECK) {
      st.nocheck.insert(r);
      continue;
    }
    std::uint64_t seq = st.engine->next_seq();
    st.awaiting.insert(seq);
    st.reply(comm_->world_of(r), kLock, seq, Packer().u64(uint64_t(LOCK_SHARED)).take());
    seqs.insert(seq);
  }
  try {
    wait_for(seqs, -1, func);
  } catch (...) {
    st.abandoned_locks.insert(seqs.begin(), seqs.end());  // those granted later are given back
    st.nocheck.clear();
    throw;
  }
  for (int r = 0; r < group_size(); ++r) st.locks[r] = LOCK_SHARED;
  st.lock_all = true;
  if (st.conflicts) st.conflicts->self_epoch(true);
  end_fence_epoch();
  st.trace_epoch(TraceEvent::Kind::Begin, func);
  raise_async(func);
}

void Win::unlock_all() {
  const char* func = "MPI_Win_unlock_all";
  check_usable(func);
  State& st = *state_;
  if (!st.lock_all) fail(ErrClass::RmaSync, func, "no MPI_Win_lock_all epoch is open");
  flush_targets(st.nocheck, func);
  std::set<std::uint64_t> seqs;
  for (const auto& [r, type] : st.locks) {
    if (st.nocheck.count(r)) continue;
    std::uint64_t seq = st.engine->next_seq();
    st.awaiting.insert(seq);
    st.reply(comm_->world_of(r), kUnlock, seq);  // answered after every earlier operation was applied
    seqs.insert(seq);
  }
  wait_for(seqs, -1, func);
  st.locks.clear();
  st.nocheck.clear();
  st.touched.clear();
  st.issued.clear();
  st.last_answered.clear();
  st.lock_all = false;
  st.trace_epoch(TraceEvent::Kind::End, "MPI_Win_lock_all");
  if (st.buffers) st.buffers->completed_all();
  if (st.conflicts) st.conflicts->local_done(-1), st.conflicts->self_epoch(false);
  raise_async(func);
}

// ---- flushes and sync ----------------------------------------------------------------------

void Win::flush_rank(int rank, std::string_view func) {
  check_usable(func);
  check_rank(rank, func);
  if (rank == PROC_NULL) return;
  if (!state_->locks.count(rank)) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is not locked by this rank");
  flush_targets({rank}, func);
  raise_async(func);
}

void Win::flush_every(std::string_view func) {
  check_usable(func);
  State& st = *state_;
  if (st.locks.empty()) fail(ErrClass::RmaSync, func, "no passive-target epoch: lock a rank first");
  std::set<int> locked;
  for (const auto& [r, type] : st.locks) locked.insert(r);
  flush_targets(locked, func);
  raise_async(func);
}

void Win::flush(int rank) { flush_rank(rank, "MPI_Win_flush"); }
void Win::flush_local(int rank) { flush_rank(rank, "MPI_Win_flush_local"); }
void Win::flush_all() { flush_every("MPI_Win_flush_all"); }
void Win::flush_local_all() { flush_every("MPI_Win_flush_local_all"); }

void Win::sync() {
  check_usable("MPI_Win_sync");
  state_->engine->progress(0);
  if (state_->conflicts) state_->conflicts->sync();
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// ---- general active target ----------------------------------------------------------------

void Win::post(const group::Members& group, int assert) {
  const char* func = "MPI_Win_post";
  check_usable(func);
  if (assert & ~(MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT))
    fail(ErrClass::Assert, func,
         "assert = " + std::to_string(assert) + " has bits other than MODE_NOCHECK, MODE_NOSTORE, MODE_NOPUT");
  State& st = *state_;
  if (st.exposure_open) fail(ErrClass::RmaSync, func, "an exposure epoch is already open; MPI_Win_wait for it first");
  window_ranks(group, func);
  st.exposure = group;
  st.exposure_open = true;
  st.trace_epoch(TraceEvent::Kind::Begin, func);
  if (st.conflicts) st.conflicts->exposure(true);
  if (!(assert & MODE_NOCHECK))
    for (int w : group) st.reply(w, kPosted, 0);
}

// Start's wait names the targets whose MPI_Win_post has not arrived (world
// ranks, as a point-to-point wait does), anew after each post, so that a
// deadlock report names the ranks that never post (MPI-3.1 §11.5.2).
void Win::wait_for_posts(const group::Members& group, std::string_view func) {
  State& st = *state_;
  auto missing = [&] {
    std::vector<int> m;
    for (int w : group)
      if (st.posted[w] == 0) m.push_back(w);
    return m;
  };
  for (std::vector<int> m = missing(); !m.empty(); m = missing()) {
    Waiting w = comm_->waiting(std::string(func));
    w.needs = m;
    st.engine->wait([&] { return missing().size() < m.size(); }, w);
  }
}

void Win::start(const group::Members& group, int assert) {
  const char* func = "MPI_Win_start";
  check_usable(func);
  if (assert & ~MODE_NOCHECK)
    fail(ErrClass::Assert, func, "assert = " + std::to_string(assert) + " has bits other than MODE_NOCHECK");
  State& st = *state_;
  if (st.access_open) fail(ErrClass::RmaSync, func, "an access epoch is already open; MPI_Win_complete it first");
  check_no_epoch(func);
  if (!st.locks.empty())
    fail(ErrClass::RmaSync, func, "rank " + std::to_string(st.locks.begin()->first) + " is locked by this rank; unlock it first");
  std::vector<int> ranks = window_ranks(group, func);
  if (!(assert & MODE_NOCHECK)) {
    wait_for_posts(group, func);
    for (int w : group) --st.posted[w];
  }
  st.access = std::move(ranks);
  st.access_open = true;
  end_fence_epoch();
  st.trace_epoch(TraceEvent::Kind::Begin, func);
}

// The targets' wait returns once they have served the notice, which
// follows every operation; the origin waits only for its gets' answers.
void Win::complete() {
  const char* func = "MPI_Win_complete";
  check_usable(func);
  State& st = *state_;
  if (!st.access_open) fail(ErrClass::RmaSync, func, "no access epoch: MPI_Win_start first");
  for (int t : st.access) st.reply(comm_->world_of(t), kComplete, 0);
  std::set<std::uint64_t> seqs;
  for (const auto& [seq, get] : st.gets) seqs.insert(seq);
  wait_for(seqs, -1, func);
  for (int t : st.access) {
    st.touched.erase(t), st.last_answered.erase(t), st.issued.erase(comm_->world_of(t));
    if (st.buffers) st.buffers->completed(t);
  }
  st.access.clear();
  st.access_open = false;
  st.trace_epoch(TraceEvent::Kind::End, "MPI_Win_start");
  raise_async(func);
}

std::vector<int> Win::missing_completes() const {
  const State& st = *state_;
  std::vector<int> m;
  for (int w : st.exposure) {
    auto it = st.completed.find(w);
    if (it == st.completed.end() || it->second == 0) m.push_back(w);
  }
  return m;
}

bool Win::exposure_done() const { return missing_completes().empty(); }

void Win::end_exposure() {
  State& st = *state_;
  for (int w : st.exposure) --st.completed[w];
  st.exposure.clear();
  st.exposure_open = false;
  st.trace_epoch(TraceEvent::Kind::End, "MPI_Win_post");
  if (st.conflicts) st.conflicts->exposure(false);
}

void Win::wait() {
  const char* func = "MPI_Win_wait";
  check_usable(func);
  State& st = *state_;
  if (!st.exposure_open) fail(ErrClass::RmaSync, func, "no exposure epoch: MPI_Win_post first");
  // as start's wait: the origins whose MPI_Win_complete has not arrived
  for (std::vector<int> m = missing_completes(); !m.empty(); m = missing_completes()) {
    Waiting w = comm_->waiting(func);
    w.needs = m;
    st.engine->wait([&] { return missing_completes().size() < m.size(); }, w);
  }
  end_exposure();
}

bool Win::test() {
  const char* func = "MPI_Win_test";
  check_usable(func);
  if (!state_->exposure_open) fail(ErrClass::RmaSync, func, "no exposure epoch: MPI_Win_post first");
  if (!exposure_done()) state_->engine->progress(0);
  if (!exposure_done()) return false;
  end_exposure();
  return true;
}

}  // namespace lumpi::core
