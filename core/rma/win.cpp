// core/rma/win.cpp: windows: creation, free, queries, info, and the target
// end of every operation (the protocol is described in core/rma/win.hpp).
// The element-wise ops of accumulate are core/datatype/op.hpp's.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/base/log.hpp"
#include "core/comm/team.hpp"
#include "core/rma/win_check.hpp"
#include "core/rma/win_state.hpp"

namespace lumpi::core {

namespace rma {

std::int64_t Shape::bytes() const {
  std::int64_t n = 0;
  for (const Run& r : runs) n += r.count * std::int64_t(basic_info(r.basic).size);
  return n * count;
}

Shape shape_of(std::int64_t disp, std::int64_t tcount, const Datatype& ttype) {
  Shape s;
  s.disp = disp;
  s.count = tcount;
  s.extent = ttype.extent();
  s.runs = ttype.runs();
  if (s.runs.size() == 1 && s.runs[0].offset == 0 &&
      s.runs[0].count * std::int64_t(basic_info(s.runs[0].basic).size) == s.extent) {
    s.runs[0].count *= tcount;
    s.extent *= tcount;
    s.count = tcount > 0 ? 1 : 0;
  }
  return s;
}

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

// Tags of the window's own communicator no other call on it uses.
enum SyncTag : int { kSyncBarrier = 1 << 25, kSyncAll = kSyncBarrier + 2 };  // a barrier takes two

void barrier(Comm& c, const char* func) {
  Team t(c, Lane::Coll, c.waiting(func));
  team_barrier(t, kSyncBarrier);
}

std::vector<std::string> allgather(Comm& c, std::string mine, const char* func) {
  Team t(c, Lane::Coll, c.waiting(func));
  return team_allgather(t, std::move(mine), kSyncAll);
}

}  // namespace rma

using namespace rma;

namespace {

// Calls f(pointer into the window, run) for every run of every element.
template <class F>
void for_each_run(const Win::State& st, const Shape& s, F&& f) {
  for (std::int64_t i = 0; i < s.count; ++i)
    for (const Run& r : s.runs) f(st.at(s.disp + i * s.extent + r.offset), r);
}

}  // namespace

// ---- the target's end, and the answers an origin receives ---------------------------

// MPI_PROC_NULL is a target of every epoch, and of none outside one
// (MPI-3.1 §11.3: "it is still necessary to finish the RMA epoch").
bool Win::State::in_access_epoch(int target) const {
  if (fence != Fence::None || locks.count(target)) return true;
  if (target == PROC_NULL) return !locks.empty() || null_locks > 0 || access_open;
  return access_open && std::find(access.begin(), access.end(), target) != access.end();
}

const char* rma::op_call(int tag) {
  switch (tag) {
    case kPut: return "MPI_Put";
    case kGet: return "MPI_Get";
    case kAcc: return "MPI_Accumulate";
    case kGetAcc: return "MPI_Get_accumulate (or MPI_Fetch_and_op)";
    case kCas: return "MPI_Compare_and_swap";
    case kGetReply: return "MPI_Get (answer)";
    default: return nullptr;
  }
}

void Win::State::reply(int world, int op, std::uint64_t seq, std::string body, std::string_view traced,
                       std::uint64_t orders_after) {
  Envelope env;
  env.clock = orders_after;
  env.kind = MsgKind::Rma;
  env.context = id;
  env.source = my_world;
  env.tag = op;
  env.seq = seq;
  env.epoch = engine->epoch();
  std::string_view name = traced;  // :trace's name of an operation's message
  if (name.empty() && engine->tracing())
    if (const char* call = op_call(unstamp(op).tag)) name = call;
  engine->send(world, env, Body(std::move(body)), name);
}

// :queue's lines for this window: at an origin, the operations not yet
// completed per target; at a target, the lock requests waiting for a lock
// another rank holds.
std::vector<Engine::PendingRma> Win::State::pending() const {
  std::vector<Engine::PendingRma> out;
  for (const auto& [target, calls] : issued) {
    std::string what;
    for (const auto& [call, n] : calls) what += (what.empty() ? "" : ", ") + std::to_string(n) + " " + call;
    out.push_back({id, target, what + " issued to rank " + std::to_string(target) +
                                   ", not yet completed (a flush, unlock, complete or fence completes them)"});
  }
  std::string holder = exclusive >= 0 ? "rank " + std::to_string(exclusive) + " holds it exclusively"
                                      : std::to_string(shared) + " shared lock(s) held";
  for (const LockReq& r : queue)
    out.push_back({id, r.world, std::string(r.type == LOCK_SHARED ? "shared" : "exclusive") + " lock request from rank " +
                                    std::to_string(r.world) + " waits (" + holder + ")"});
  return out;
}

void Win::State::trace_epoch(TraceEvent::Kind k, const char* what, int peer, std::uint64_t epoch_id) {
  if (!engine->tracing()) return;
  TraceEvent t;
  t.kind = k;
  t.call = std::string("epoch ") + what;
  t.peer = peer;
  t.msg = epoch_id;
  t.context = id;
  engine->trace(std::move(t));
}

void Win::State::nack(int world, std::uint64_t seq, ErrClass c, const std::string& why) {
  reply(world, kNack, seq, Packer().u64(uint64_t(c)).bytes(why).take());
}

void Win::State::grant_queued() {
  while (!queue.empty()) {
    LockReq r = queue.front();
    bool ok = r.type == LOCK_SHARED ? exclusive < 0 : exclusive < 0 && shared == 0;
    if (!ok) return;
    queue.pop_front();
    take(r);
  }
}

void Win::State::take(const LockReq& r) {
  if (r.type == LOCK_SHARED) ++shared, ++shared_by[r.world];
  else exclusive = r.world;
  trace_lock_epoch(TraceEvent::Kind::Begin, "MPI_Win_lock (target)", r.world);
  // A shared lock orders its holder after the exclusive epochs before it,
  // not after the other shared ones (Lamport: its grant carries the clock
  // of the last exclusive release; core/rma/win_check.hpp needs it).
  reply(r.world, kGranted, r.seq, {}, {}, r.type == LOCK_SHARED ? released : 0);
}

void Win::State::serve(Message& m) {
  stamp = m.env.tag;
  m.env.tag = unstamp(m.env.tag).tag;
  if (engine->tracing())
    if (const char* call = op_call(m.env.tag)) engine->trace_arrival(TraceEvent::Kind::Recv, m, id, call);
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
  if (m.env.tag == kPut || m.env.tag == kGet || m.env.tag == kAcc || m.env.tag == kGetAcc) return serve_data(m);
  if (m.env.tag == kCas) return serve_cas(m);
  Unpacker u(m.body.view(), "RMA");
  switch (m.env.tag) {
    case kLock: {
      int type = int(u.u64());
      u.end();
      queue.push_back({from, type, seq});
      grant_queued();
      return;
    }
    case kUnlock: {
      u.end();
      if (exclusive == from) exclusive = -1, released = engine->clock();
      else if (shared_by[from] > 0) --shared_by[from], --shared;
      else return nack(from, seq, ErrClass::RmaSync, "unlock from a rank that holds no lock here");
      if (conflicts) conflicts->closed(from, m.env.clock);
      trace_lock_epoch(TraceEvent::Kind::End, "MPI_Win_lock (target)", from);
      reply(from, kUnlocked, seq);
      grant_queued();
      return;
    }
    case kFlush:
      u.end();
      if (conflicts) conflicts->closed(from, m.env.clock);
      reply(from, kFlushed, seq);
      return;
    case kComplete:  // every operation of its access epoch was served before
      u.end();
      engine->see_clock(m.env.clock);  // our MPI_Win_wait comes after it
      ++completed[from];
      return;
    default:
      fail(ErrClass::Intern, "RMA", "unknown RMA operation " + std::to_string(m.env.tag));
  }
}

std::string Win::State::outside(const Shape& s) const {
  std::int64_t lo = 0, hi = 0;
  if (!shape_span(s, &lo, &hi)) return {};
  if (!dynamic) {
    if (lo >= 0 && hi <= size) return {};
    return "bytes [" + std::to_string(lo) + ", " + std::to_string(hi) + ") are outside the window of " +
           std::to_string(size) + " bytes";
  }
  // the region holding lo, then regions that adjoin it until hi is covered
  auto r = regions.upper_bound(std::uintptr_t(lo));
  if (r != regions.begin()) {
    std::uintptr_t end = std::prev(r)->first + std::uintptr_t(std::prev(r)->second);
    for (; end < std::uintptr_t(hi) && r != regions.end() && r->first == end; ++r) end += std::uintptr_t(r->second);
    if (std::uintptr_t(lo) < end && std::uintptr_t(hi) <= end) return {};
  }
  return "addresses [" + std::to_string(lo) + ", " + std::to_string(hi) + ") are in no region attached here";
}

// Put, get, accumulate and get_accumulate: the target's data of the shape,
// run by run, is copied in (put), copied out (get), combined with the
// origin's by the op (accumulate), or copied out and then combined
// (get_accumulate, whose NO_OP carries no data). Gets are answered with
// the data as it was. MAXLOC and MINLOC on pair types combine the packed
// pairs (combine_pairs).
void Win::State::serve_data(Message& m) {
  const int tag = m.env.tag, from = m.env.source;
  Unpacker u(m.body.view(), "RMA");
  Shape s = unpack_shape(u);
  const std::uint64_t seen = buffers ? u.u64() : 0;  // (Win::op_header)
  const bool acc = tag == kAcc || tag == kGetAcc;
  std::uint64_t op = acc ? u.u64() : 0, pair = acc ? u.u64() : 0;
  std::string_view data = tag == kGet ? std::string_view() : u.bytes_view();
  u.end();
  if (std::string why = outside(s); !why.empty()) return nack(from, m.env.seq, ErrClass::RmaRange, why);
  if (op >= uint64_t(Op::Count_) || pair > uint64_t(Pair::Count_))
    return nack(from, m.env.seq, ErrClass::Op, "unknown op or pair type");
  const bool combine = acc && Op(op) != Op::NoOp;
  if ((tag == kPut || combine) && std::int64_t(data.size()) != s.bytes())
    return nack(from, m.env.seq, ErrClass::Intern, "data of the wrong size");
  if (combine && (Op(op) == Op::Maxloc || Op(op) == Op::Minloc) && !pair)
    return nack(from, m.env.seq, ErrClass::Op, "MAXLOC/MINLOC on a type that is no pair type");
  std::string out;
  auto apply = [&] { out = apply_data(s, tag, Op(op), Pair(pair), data); };
  if (!conflicts) apply();
  else conflicts->serve(from, seen, unstamp(stamp), s, acc ? int(op) : -1, s.runs.empty() ? -1 : int(s.runs[0].basic), apply);
  if (tag == kGet || tag == kGetAcc) reply(from, kGetReply, m.env.seq, std::move(out));
}

// serve_data's work on the window: what a get returns ("" for put and accumulate).
std::string Win::State::apply_data(const Shape& s, int tag, Op op, Pair pair, std::string_view data) {
  const bool combine = (tag == kAcc || tag == kGetAcc) && op != Op::NoOp;
  std::string out;
  if (tag == kGet || tag == kGetAcc) out = gather(s);
  if (combine && (op == Op::Maxloc || op == Op::Minloc)) {
    combine_pairs(s, op, Pair(int(pair) - 1), data);
  } else if (tag == kPut || combine) {
    size_t pos = 0;
    for_each_run(*this, s, [&](char* p, const Run& r) {
      size_t n = size_t(r.count) * basic_info(r.basic).size;
      if (tag == kPut) std::memcpy(p, data.data() + pos, n);
      else apply_basic(op, r.basic, data.data() + pos, p, r.count);
      pos += n;
    });
  }
  return out;
}

std::string Win::State::gather(const Shape& s) const {
  std::string out;
  out.reserve(size_t(s.bytes()));
  for_each_run(*this, s, [&](char* p, const Run& r) { out.append(p, size_t(r.count) * basic_info(r.basic).size); });
  return out;
}

// The target's pairs, packed, combined with the origin's, scattered back.
void Win::State::combine_pairs(const Shape& s, Op op, Pair pair, std::string_view data) {
  std::string mine = gather(s);
  const TypePtr& t = Datatype::pair(pair);
  apply_packed(op, *t, data.data(), mine.data(), std::int64_t(mine.size()) / t->size());
  size_t pos = 0;
  for_each_run(*this, s, [&](char* p, const Run& r) {
    size_t n = size_t(r.count) * basic_info(r.basic).size;
    std::memcpy(p, mine.data() + pos, n);
    pos += n;
  });
}

// Compare-and-swap of one element: replaced by the origin's value when it
// equals compare (bytewise: the types are integers, logicals or bytes);
// answered with the old value.
void Win::State::serve_cas(Message& m) {
  const int from = m.env.source;
  Unpacker u(m.body.view(), "RMA");
  Shape s = unpack_shape(u);
  const std::uint64_t seen = buffers ? u.u64() : 0;  // (Win::op_header)
  std::string_view compare = u.bytes_view(), origin = u.bytes_view();
  u.end();
  if (std::string why = outside(s); !why.empty()) return nack(from, m.env.seq, ErrClass::RmaRange, why);
  if (s.count != 1 || s.runs.size() != 1 || std::int64_t(compare.size()) != s.bytes() ||
      origin.size() != compare.size())
    return nack(from, m.env.seq, ErrClass::Intern, "a compare-and-swap of the wrong shape");
  char* p = at(s.disp + s.runs[0].offset);
  std::string old;
  auto apply = [&] {
    old.assign(p, compare.size());
    if (std::memcmp(p, compare.data(), compare.size()) == 0) std::memcpy(p, origin.data(), origin.size());
  };
  if (!conflicts) apply();
  else conflicts->serve(from, seen, unstamp(stamp), s, int(Op::Count_), int(s.runs[0].basic), apply);  // CAS: its own op
  reply(from, kGetReply, m.env.seq, std::move(old));
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
  if (m.env.tag == kPosted || m.env.tag == kGranted) engine->see_clock(m.env.clock);  // MPI orders us after them
  if (m.env.tag == kPosted) {  // a target opened its exposure epoch to us
    ++posted[m.env.source];
    return;
  }
  if (m.env.tag == kGranted && abandoned_locks.erase(seq)) {  // nobody waits: give it back
    reply(m.env.source, kUnlock, 0);
    return;
  }
  if (!awaiting.erase(seq)) return;  // an answer to an interrupted request
  if (m.env.tag == kGetReply && buffers) buffers->answered(seq);
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
  // how :trace and hang reports name the window's messages and waits, until the program names it
  w->comm_->set_name("window");
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
  if (comm.engine().checking()) w->start_checks();
  std::weak_ptr<State> weak = st;
  // Served before the exchange below completes anywhere, so no operation
  // can reach a rank that does not know the window yet.
  comm.engine().serve_rma(st->id, [weak](Message& m) {
    if (auto s = weak.lock()) s->serve(m);
  });
  comm.engine().describe_rma(st->id, [weak] {
    auto s = weak.lock();
    return s ? s->pending() : std::vector<Engine::PendingRma>();
  });
  std::vector<std::string> all =
      allgather(*w->comm_, Packer().i64(size).i64(disp_unit).take(), std::string(func).c_str());
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
  std::shared_ptr<char[]> mem(new char[size_t(std::max<std::int64_t>(size, 1))]());
  WinPtr w = create(comm, mem.get(), size, disp_unit, func, WIN_FLAVOR_ALLOCATE);
  w->memory_ = std::move(mem);
  return w;
}

// --check (core/rma/win_check.hpp): the origin's buffers on every window,
// the target's record on windows of user or allocated memory up to 64 MiB.
void Win::start_checks() {
  State& st = *state_;
  std::string name = "rank " + std::to_string(st.my_world) + "'s window";
  auto said = std::make_shared<bool>(false);  // one report per window, from either end
  st.buffers = std::make_shared<OriginBuffers>(*st.engine, name, said);
  bool plain = flavor_ == WIN_FLAVOR_CREATE || flavor_ == WIN_FLAVOR_ALLOCATE;
  if (plain && size_ <= (std::int64_t(64) << 20))
    st.conflicts = std::make_shared<Conflicts>(*st.engine, st.base, size_, name, said);
}

std::string Win::pending_buffer_use(const void* buf, std::size_t bytes, bool written) {
  const auto lo = reinterpret_cast<std::uintptr_t>(buf);
  return rma::pending_use(lo, lo + bytes, written);
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

void Win::set_name(std::string_view n) {
  name_ = object_name(n);
  comm_->set_name(name_);  // :trace and hang reports then say it
}

void Win::check_free(std::string_view func) const {
  check_usable(func);
  const State& st = *state_;
  if (!st.locks.empty())
    fail(ErrClass::RmaSync, func, "rank " + std::to_string(st.locks.begin()->first) + " is still locked; unlock it first");
  if (st.access_open) fail(ErrClass::RmaSync, func, "an access epoch (MPI_Win_start) is open; complete it first");
  if (st.exposure_open) fail(ErrClass::RmaSync, func, "an exposure epoch (MPI_Win_post) is open; wait for it first");
  if (!st.touched.empty())
    fail(ErrClass::RmaSync, func, "operations since the last fence are not completed; call fence first");
}

void Win::free() {
  check_free();
  State& st = *state_;
  if (st.conflicts) st.conflicts->stores_since_shadow();
  barrier(*comm_, "MPI_Win_free");  // nobody accesses this window any more
  end_fence_epoch();
  st.engine->stop_rma(st.id);
  freed_ = true;
}

// ---- info -------------------------------------------------------------------------------

namespace {

// The hints lumpi reports, with their defaults (§11.2.1).
const std::map<std::string, std::string>& known_hints() {
  static const std::map<std::string, std::string> h = {
      {"no_locks", "false"}, {"accumulate_ordering", "rar,raw,war,waw"}, {"accumulate_ops", "same_op_no_op"},
      {"same_size", "false"}, {"same_disp_unit", "false"}, {"alloc_shared_noncontig", "false"}};
  return h;
}

}  // namespace

void Win::set_info(const std::map<std::string, std::string>& info) {
  check_usable("MPI_Win_set_info");
  for (const auto& [k, v] : info)
    if (known_hints().count(k)) state_->info[k] = v;
}

std::map<std::string, std::string> Win::get_info() const {
  check_usable("MPI_Win_get_info");
  std::map<std::string, std::string> all = known_hints();
  for (const auto& [k, v] : state_->info) all[k] = v;
  return all;
}

}  // namespace lumpi::core
