// core/rma/win.cpp: windows: creation, free, synchronization and the RMA
// operations at both ends (the protocol is described in core/rma/win.hpp).
// The element-wise ops of accumulate are core/datatype/op.hpp's.
#include "core/rma/win.hpp"

#include <algorithm>
#include <cstring>
#include <deque>

#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/base/log.hpp"
#include "core/base/pack.hpp"
#include "core/comm/team.hpp"

namespace lumpi::core {

namespace {

// The RMA operations: the envelope's tag.
enum RmaTag : int {
  kPut = 1, kGet = 2, kAcc = 3, kLock = 4, kUnlock = 5, kFlush = 6,
  kGetReply = 11, kGranted = 12, kUnlocked = 13, kFlushed = 14, kNack = 15,
};

// Window synchronization under the MPI call's name (MPI_Win_fence,
// MPI_Win_create ...), for hang reports, the deadlock diagnosis and the
// trace's spans: a barrier, or an allgather, of the window's own
// communicator on tags no other call on it uses.
enum SyncTag : int { kSyncIn = 1 << 25, kSyncOut = kSyncIn + 1, kSyncAll = kSyncIn + 2 };

void sync(Comm& c, const char* func) {
  Team t(c, Lane::Coll, c.waiting(func));
  team_gather(t, {}, 0, kSyncIn);  // everyone has entered
  team_bcast(t, {}, 0, kSyncOut);
}

std::vector<std::string> sync_all(Comm& c, std::string mine, const char* func) {
  Team t(c, Lane::Coll, c.waiting(func));
  return team_allgather(t, std::move(mine), kSyncAll);
}

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

// The shape of `count` elements of a type at the target: one element's
// runs, its extent. Travels with every put/get/accumulate.
struct Shape {
  std::int64_t disp = 0;  // bytes from the window's base
  std::int64_t count = 0;
  std::int64_t extent = 0;
  std::vector<Run> runs;
  std::int64_t bytes() const {
    std::int64_t n = 0;
    for (const Run& r : runs) n += r.count * std::int64_t(basic_info(r.basic).size);
    return n * count;
  }
};

void pack_shape(Packer& p, const Shape& s) {
  p.i64(s.disp).i64(s.count).i64(s.extent).u64(s.runs.size());
  for (const Run& r : s.runs) p.i64(r.offset).u64(uint64_t(r.basic)).i64(r.count);
}

Shape unpack_shape(Unpacker& u) {
  Shape s;
  s.disp = u.i64();
  s.count = u.i64();
  s.extent = u.i64();
  uint64_t n = u.u64();
  if (n > 1u << 24) fail(ErrClass::Intern, "RMA", "a target datatype of " + std::to_string(n) + " runs");
  for (uint64_t i = 0; i < n; ++i) {
    Run r;
    r.offset = u.i64();
    uint64_t b = u.u64();
    if (b >= uint64_t(Basic::Count_)) fail(ErrClass::Intern, "RMA", "unknown basic type");
    r.basic = Basic(b);
    r.count = u.i64();
    if (r.count < 0) fail(ErrClass::Intern, "RMA", "a negative run");
    s.runs.push_back(r);
  }
  if (s.count < 0) fail(ErrClass::Intern, "RMA", "a negative count");
  return s;
}

// Bytes [lo, hi) of the window that the shape touches; false if none.
bool shape_span(const Shape& s, std::int64_t* lo, std::int64_t* hi) {
  if (s.count == 0 || s.runs.empty()) return false;
  std::int64_t a = INT64_MAX, b = INT64_MIN;
  for (const Run& r : s.runs) {
    if (r.count == 0) continue;
    a = std::min(a, r.offset);
    b = std::max(b, r.offset + r.count * std::int64_t(basic_info(r.basic).size));
  }
  if (a > b) return false;
  std::int64_t last = (s.count - 1) * s.extent;
  *lo = s.disp + std::min<std::int64_t>(0, last) + a;
  *hi = s.disp + std::max<std::int64_t>(0, last) + b;
  return true;
}

// Calls f(pointer into the window, run) for every run of every element.
template <class F>
void for_each_run(char* base, const Shape& s, F&& f) {
  for (std::int64_t i = 0; i < s.count; ++i)
    for (const Run& r : s.runs) f(base + s.disp + i * s.extent + r.offset, r);
}

// The single basic type a committed type is made of; MPI_ERR_TYPE if several.
Basic single_basic(const Datatype& t, std::string_view func, const char* what) {
  const auto& runs = t.runs();
  if (runs.empty()) return Basic::Byte;
  Basic b = runs.front().basic;
  for (const Run& r : runs)
    if (r.basic != b)
      fail(ErrClass::Type, func,
           std::string(what) + " mixes basic types; accumulate needs one predefined type throughout");
  return b;
}

}  // namespace

// ---- the bookkeeping of both ends -----------------------------------------------

struct Win::State {
  Engine* engine = nullptr;
  std::uint64_t id = 0;
  char* base = nullptr;
  std::int64_t size = 0;
  int my_world = 0;
  const group::Members* members = nullptr;  // world ranks by window rank

  // Origin side.
  enum class Fence { None, Issued, Active };
  Fence fence = Fence::None;
  std::map<int, int> locks;       // window rank -> lock type held
  std::set<int> touched;          // targets with operations not yet completed
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

  // Target side.
  int exclusive = -1;  // world rank holding the exclusive lock
  int shared = 0;      // shared holders
  std::map<int, int> shared_by;  // world rank -> shared locks it holds
  struct LockReq {
    int world;
    int type;
    std::uint64_t seq;
  };
  std::deque<LockReq> queue;

  void reply(int world, int op, std::uint64_t seq, std::string body = {}) {
    Envelope env;
    env.kind = MsgKind::Rma;
    env.context = id;
    env.source = my_world;
    env.tag = op;
    env.seq = seq;
    env.epoch = engine->epoch();
    engine->send(world, env, Body(std::move(body)));
  }
  void nack(int world, std::uint64_t seq, ErrClass c, const std::string& why) {
    reply(world, kNack, seq, Packer().u64(uint64_t(c)).bytes(why).take());
  }
  void grant_queued() {
    while (!queue.empty()) {
      LockReq r = queue.front();
      bool ok = r.type == LOCK_SHARED ? exclusive < 0 : exclusive < 0 && shared == 0;
      if (!ok) return;
      queue.pop_front();
      take(r);
    }
  }
  void take(const LockReq& r) {
    if (r.type == LOCK_SHARED) ++shared, ++shared_by[r.world];
    else exclusive = r.world;
    reply(r.world, kGranted, r.seq);
  }
  void serve(Message& m);
  void serve_request(Message& m);
  void serve_answer(Message& m);
};

void Win::State::serve(Message& m) {
  try {
    if (m.env.tag >= kGetReply) serve_answer(m);
    else serve_request(m);
  } catch (const Error& e) {  // a malformed message: refuse it, never assert
    log("refused an RMA message from rank " + std::to_string(m.env.source) + ": " + e.what());
    if (m.env.tag < kGetReply) nack(m.env.source, m.env.seq, ErrClass::Intern, e.message());
  }
}

void Win::State::serve_request(Message& m) {
  const int from = m.env.source;
  const std::uint64_t seq = m.env.seq;
  Unpacker u(m.body.view(), "RMA");
  switch (m.env.tag) {
    case kPut: case kGet: case kAcc: {
      Shape s = unpack_shape(u);
      std::uint64_t op = m.env.tag == kAcc ? u.u64() : 0;
      std::string_view data = m.env.tag == kGet ? std::string_view() : u.bytes_view();
      u.end();
      std::int64_t lo = 0, hi = 0;
      if (shape_span(s, &lo, &hi) && (lo < 0 || hi > size))
        return nack(from, seq, ErrClass::RmaRange,
                    "bytes [" + std::to_string(lo) + ", " + std::to_string(hi) + ") are outside the window of " +
                        std::to_string(size) + " bytes");
      if (m.env.tag != kGet && std::int64_t(data.size()) != s.bytes())
        return nack(from, seq, ErrClass::Intern, "data of the wrong size");
      if (op >= uint64_t(Op::Count_)) return nack(from, seq, ErrClass::Op, "unknown op");
      size_t pos = 0;
      std::string out;
      for_each_run(base, s, [&](char* p, const Run& r) {
        size_t n = size_t(r.count) * basic_info(r.basic).size;
        if (m.env.tag == kPut) std::memcpy(p, data.data() + pos, n);
        else if (m.env.tag == kGet) out.append(p, n);
        else apply_basic(Op(op), r.basic, data.data() + pos, p, r.count);
        pos += n;
      });
      if (m.env.tag == kGet) reply(from, kGetReply, seq, std::move(out));
      return;
    }
    case kLock: {
      int type = int(u.u64());
      u.end();
      queue.push_back({from, type, seq});
      grant_queued();
      return;
    }
    case kUnlock: {
      u.end();
      if (exclusive == from) exclusive = -1;
      else if (shared_by[from] > 0) --shared_by[from], --shared;
      else return nack(from, seq, ErrClass::RmaSync, "unlock from a rank that holds no lock here");
      reply(from, kUnlocked, seq);
      grant_queued();
      return;
    }
    case kFlush:
      u.end();
      reply(from, kFlushed, seq);
      return;
    default:
      fail(ErrClass::Intern, "RMA", "unknown RMA operation " + std::to_string(m.env.tag));
  }
}

void Win::State::serve_answer(Message& m) {
  const std::uint64_t seq = m.env.seq;
  if (m.env.tag == kNack) {
    Unpacker u(m.body.view(), "RMA");
    uint64_t c = u.u64();
    std::string why = u.bytes();
    async_class = c < uint64_t(ErrClass::LastCode) ? ErrClass(c) : ErrClass::Other;
    async_error = "rank " + std::to_string(m.env.source) + " of COMM_WORLD refused: " + why;
    awaiting.erase(seq);
    gets.erase(seq);
    return;
  }
  if (m.env.tag == kGranted && abandoned_locks.erase(seq)) {  // nobody waits: give it back
    reply(m.env.source, kUnlock, 0);
    return;
  }
  if (!awaiting.erase(seq)) return;  // an answer to an interrupted request
  if (m.env.tag == kGetReply) {
    auto it = gets.find(seq);
    if (it == gets.end()) return;
    PendingGet g = it->second;
    gets.erase(it);
    g.type->unpack(m.body.data(), m.body.size(), g.buf, g.count, "MPI_Get");
  }
}

// ---- creation and free -----------------------------------------------------------

WinPtr Win::create(Comm& comm, void* base, std::int64_t size, int disp_unit, std::string_view func,
                   int flavor) {
  comm.check_usable(func);
  comm.check_intra(func);
  if (size < 0) fail(ErrClass::Size, func, "size = " + std::to_string(size) + " must not be negative");
  if (disp_unit <= 0) fail(ErrClass::Disp, func, "disp_unit = " + std::to_string(disp_unit) + " must be positive");
  if (!base && size > 0) fail(ErrClass::Base, func, "base is NULL for a window of " + std::to_string(size) + " bytes");
  WinPtr w(new Win());
  w->comm_ = comm_dup(comm);
  w->base_ = base;
  w->size_ = size;
  w->disp_unit_ = disp_unit;
  w->flavor_ = flavor;
  auto st = std::make_shared<State>();
  st->engine = &comm.engine();
  st->id = w->comm_->base();
  st->base = static_cast<char*>(base);
  st->size = size;
  st->my_world = comm.engine().world_rank();
  st->members = &w->comm_->local_group();
  w->state_ = st;
  std::weak_ptr<State> weak = st;
  // Served before the exchange below completes anywhere, so no operation
  // can reach a rank that does not know the window yet.
  comm.engine().serve_rma(st->id, [weak](Message& m) {
    if (auto s = weak.lock()) s->serve(m);
  });
  std::vector<std::string> all =
      sync_all(*w->comm_, Packer().i64(size).i64(disp_unit).take(), std::string(func).c_str());
  for (const std::string& b : all) {
    Unpacker u(b, func);
    w->sizes_.push_back(u.i64());
    w->units_.push_back(int(u.i64()));
    u.end();
  }
  return w;
}

WinPtr Win::allocate(Comm& comm, std::int64_t size, int disp_unit, std::string_view func) {
  comm.check_usable(func);
  if (size < 0) fail(ErrClass::Size, func, "size = " + std::to_string(size) + " must not be negative");
  std::unique_ptr<char[]> mem(new char[size_t(std::max<std::int64_t>(size, 1))]());
  WinPtr w = create(comm, mem.get(), size, disp_unit, func, WIN_FLAVOR_ALLOCATE);
  w->owned_ = std::move(mem);
  return w;
}

// A window dropped without free leaves its (weak) service in the engine,
// which then ignores the window's messages: the engine may already be gone
// (a C++ program's Win outliving Finalize), so it is not touched here.
Win::~Win() = default;

void Win::check_usable(std::string_view func) const {
  if (freed_) fail(ErrClass::Win, func, "the window has been freed");
}

std::string Win::describe() const {
  std::string s = "win";
  if (!name_.empty()) s += " '" + name_ + "'";
  s += " size=" + std::to_string(size_) + " disp_unit=" + std::to_string(disp_unit_) + " rank=" +
       std::to_string(rank()) + "/" + std::to_string(group_size());
  if (freed_) s += " (freed)";
  return s;
}

void Win::check_free(std::string_view func) const {
  check_usable(func);
  const State& st = *state_;
  if (!st.locks.empty())
    fail(ErrClass::RmaSync, func, "rank " + std::to_string(st.locks.begin()->first) + " is still locked; unlock it first");
  if (!st.touched.empty())
    fail(ErrClass::RmaSync, func, "operations since the last fence are not completed; call fence first");
}

void Win::free() {
  check_free();
  State& st = *state_;
  sync(*comm_, "MPI_Win_free");  // nobody accesses this window any more
  st.engine->stop_rma(st.id);
  freed_ = true;
}

// ---- synchronization ----------------------------------------------------------------

void Win::raise_async(std::string_view func) {
  State& st = *state_;
  if (st.async_error.empty()) return;
  std::string why = std::move(st.async_error);
  st.async_error.clear();
  fail(st.async_class, func, why);
}

void Win::check_rank(int rank, std::string_view func) const {
  if (rank == PROC_NULL) return;
  if (rank < 0 || rank >= group_size())
    fail(ErrClass::Rank, func,
         "target rank " + std::to_string(rank) + " is out of range for a window of " + std::to_string(group_size()) +
             " ranks");
}

void Win::wait_for(const std::set<std::uint64_t>& seqs, int target, std::string_view func) {
  State& st = *state_;
  Waiting w = comm_->waiting(std::string(func), target >= 0 ? "target" : "", target);
  if (target >= 0) w.needs = {comm_->world_of(target)};
  else w.group = comm_->local_group();
  auto done = [&] {
    for (auto s : seqs)
      if (st.awaiting.count(s)) return false;
    return true;
  };
  try {
    st.engine->wait(done, w);
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
  if ((assert & MODE_NOPRECEDE) && !st.touched.empty())
    fail(ErrClass::RmaSync, func, "MODE_NOPRECEDE, but this rank issued operations since the last fence");
  std::set<std::uint64_t> seqs;
  for (int t : st.touched) {
    std::uint64_t seq = st.engine->next_seq();
    st.awaiting.insert(seq);
    st.reply(comm_->world_of(t), kFlush, seq);
    seqs.insert(seq);
  }
  wait_for(seqs, -1, func);
  st.touched.clear();
  sync(*comm_, func);
  st.fence = (assert & MODE_NOSUCCEED) ? State::Fence::None : State::Fence::Issued;
  raise_async(func);
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
  if (rank == PROC_NULL) return;
  State& st = *state_;
  if (st.locks.count(rank)) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is already locked by this rank");
  if (st.fence == State::Fence::Active)
    fail(ErrClass::RmaSync, func, "a fence epoch is open (operations since the last fence); fence first");
  request(kLock, rank, Packer().u64(uint64_t(lock_type)).take(), func);
  st.fence = State::Fence::None;
  st.locks[rank] = lock_type;
  raise_async(func);
}

void Win::unlock(int rank) {
  const char* func = "MPI_Win_unlock";
  check_usable(func);
  check_rank(rank, func);
  if (rank == PROC_NULL) return;
  State& st = *state_;
  if (!st.locks.count(rank)) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is not locked by this rank");
  request(kUnlock, rank, {}, func);  // answered after every earlier operation was applied
  st.locks.erase(rank);
  st.touched.erase(rank);
  raise_async(func);
}

void Win::flush(int rank) {
  const char* func = "MPI_Win_flush";
  check_usable(func);
  check_rank(rank, func);
  if (rank == PROC_NULL) return;
  State& st = *state_;
  if (!st.locks.count(rank)) fail(ErrClass::RmaSync, func, "rank " + std::to_string(rank) + " is not locked by this rank");
  request(kFlush, rank, {}, func);
  st.touched.erase(rank);
  raise_async(func);
}

// ---- operations -------------------------------------------------------------------------

bool Win::check_access(std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
                       std::int64_t tcount, const TypePtr& ttype, std::string_view func) const {
  check_usable(func);
  if (count < 0) fail(ErrClass::Count, func, "origin_count = " + std::to_string(count) + " must not be negative");
  if (tcount < 0) fail(ErrClass::Count, func, "target_count = " + std::to_string(tcount) + " must not be negative");
  if (!otype) fail(ErrClass::Type, func, "origin_datatype is null");
  if (!ttype) fail(ErrClass::Type, func, "target_datatype is null");
  otype->check_usable(func, "origin_datatype");
  ttype->check_usable(func, "target_datatype");
  check_rank(target, func);
  if (disp < 0) fail(ErrClass::Disp, func, "target_disp = " + std::to_string(disp) + " must not be negative");
  if (otype->size() * count != ttype->size() * tcount)
    fail(ErrClass::Type, func,
         "the origin carries " + std::to_string(otype->size() * count) + " bytes, the target " +
             std::to_string(ttype->size() * tcount) + " (the type signatures must match)");
  if (target == PROC_NULL) return false;
  const State& st = *state_;
  if (!st.locks.count(target) && st.fence == State::Fence::None)
    fail(ErrClass::RmaSync, func,
         "no access epoch: call fence, or lock rank " + std::to_string(target) + " first");
  std::int64_t lo = 0, hi = 0;
  ttype->span(tcount, &lo, &hi);
  if (lo == hi) return true;
  std::int64_t at = disp * std::int64_t(units_[size_t(target)]);
  if (at + lo < 0 || at + hi > sizes_[size_t(target)])
    fail(ErrClass::RmaRange, func,
         "target bytes [" + std::to_string(at + lo) + ", " + std::to_string(at + hi) + ") are outside rank " +
             std::to_string(target) + "'s window of " + std::to_string(sizes_[size_t(target)]) + " bytes");
  return true;
}

void Win::send_op(int op, int target, std::int64_t disp, std::int64_t tcount, const TypePtr& ttype,
                  const void* origin, std::int64_t count, const TypePtr& otype, int rma_op, std::uint64_t seq,
                  std::string_view func) {
  State& st = *state_;
  Shape s;
  s.disp = disp * std::int64_t(units_[size_t(target)]);
  s.count = tcount;
  s.extent = ttype->extent();
  s.runs = ttype->runs();
  // A contiguous type (one run filling its extent from 0): all the elements
  // are one run, so the target copies them with one memcpy, not one per element.
  if (s.runs.size() == 1 && s.runs[0].offset == 0 &&
      s.runs[0].count * std::int64_t(basic_info(s.runs[0].basic).size) == s.extent) {
    s.runs[0].count *= tcount;
    s.extent *= tcount;
    s.count = tcount > 0 ? 1 : 0;
  }
  Packer p;
  pack_shape(p, s);
  if (rma_op >= 0) p.u64(uint64_t(rma_op));
  if (op != kGet) p.u64(uint64_t(otype->size() * count));
  std::string body = p.take();
  if (op != kGet && count > 0) otype->pack(origin, count, body, func);  // the data, packed straight into the message
  st.reply(comm_->world_of(target), op, seq, std::move(body));
  st.touched.insert(target);
  if (st.fence == State::Fence::Issued) st.fence = State::Fence::Active;
}

void Win::put(const void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
              std::int64_t tcount, const TypePtr& ttype) {
  const char* func = "MPI_Put";
  if (!check_access(count, otype, target, disp, tcount, ttype, func)) return;
  send_op(kPut, target, disp, tcount, ttype, origin, count, otype, -1, 0, func);
}

void Win::get(void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
              std::int64_t tcount, const TypePtr& ttype) {
  const char* func = "MPI_Get";
  if (!check_access(count, otype, target, disp, tcount, ttype, func)) return;
  State& st = *state_;
  std::uint64_t seq = st.engine->next_seq();
  st.awaiting.insert(seq);
  st.gets[seq] = State::PendingGet{origin, count, otype};
  send_op(kGet, target, disp, tcount, ttype, nullptr, 0, nullptr, -1, seq, func);
}

void Win::accumulate(const void* origin, std::int64_t count, const TypePtr& otype, int target,
                     std::int64_t disp, std::int64_t tcount, const TypePtr& ttype, Op op) {
  const char* func = "MPI_Accumulate";
  if (op >= Op::Count_) fail(ErrClass::Op, func, "op is not a predefined op accumulate takes");
  if (otype) otype->check_usable(func, "origin_datatype");
  if (ttype) ttype->check_usable(func, "target_datatype");
  if (otype && ttype) {
    Basic ob = single_basic(*otype, func, "origin_datatype");
    Basic tb = single_basic(*ttype, func, "target_datatype");
    if (ob != tb && !otype->runs().empty() && !ttype->runs().empty())
      fail(ErrClass::Type, func,
           std::string("origin_datatype is made of ") + basic_info(ob).name + ", target_datatype of " +
               basic_info(tb).name + "; accumulate needs the same basic type");
    check_accumulate_op(op, tb, func);
  }
  if (!check_access(count, otype, target, disp, tcount, ttype, func)) return;
  send_op(kAcc, target, disp, tcount, ttype, origin, count, otype, int(op), 0, func);
}

}  // namespace lumpi::core
