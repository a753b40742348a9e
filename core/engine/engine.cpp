// core/engine/engine.cpp: data sockets, delivery and the blocking wait loop.
#include "core/engine/engine.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/base/log.hpp"
#include "core/engine/poll.hpp"
#include "core/transport/transport.hpp"

namespace lumpi::core {

std::string Waiting::describe() const {
  std::string s = "waiting in " + call + "(";
  if (!peer_role.empty()) {
    s += peer_role + "=";
    s += peer == ANY_SOURCE ? "ANY_SOURCE" : peer == ROOT ? "ROOT" : std::to_string(peer);
  }
  if (has_tag) {
    if (!peer_role.empty()) s += ", ";
    s += "tag=" + (tag == ANY_TAG ? std::string("ANY_TAG") : std::to_string(tag));
  }
  s += ")";
  if (!comm.empty()) s += " on '" + comm + "'";
  if (polling) s += " (called in a loop)";
  return s;
}

Engine::Engine(int world_rank, int world_size, const std::string& bind_endpoint, std::optional<CurveKeys> curve)
    : rank_(world_rank), size_(world_size), transport_(std::make_unique<Transport>(bind_endpoint, std::move(curve))),
      replay_(parse_replay(std::getenv("LUMPI_RACE"), world_rank)), poll_(std::make_unique<PollStreak>()),
      sent_to_(size_t(world_size)), received_from_(size_t(world_size)) {}

Engine::~Engine() { stop_passive_thread(); }

const std::string& Engine::endpoint() const { return transport_->endpoint(); }

void Engine::set_peer_endpoints(std::vector<std::string> endpoints) {
  transport_->set_peer_endpoints(std::move(endpoints));
}

void Engine::send(int dest, const Envelope& sent, Body body, std::string_view traced) {
  Envelope env = sent;
  ++clock_;
  if (!env.clock) env.clock = clock_;  // (else it orders after an older event only)
  const bool p2p = env.kind == MsgKind::Data && lane_of(env.context) == Lane::P2P;
  if (tracing() && (p2p || !traced.empty())) {
    TraceEvent t;
    t.kind = TraceEvent::Kind::Send;
    t.clock = env.clock;
    t.peer = dest;
    t.tag = env.tag;
    t.context = p2p ? base_of(env.context) : env.context;  // (a window's context is its base)
    t.msg = env.clock;
    t.bytes = (long long)body.size();
    t.call = !traced.empty() ? std::string(traced) : env.wants_ack ? "MPI_Ssend" : "MPI_Send";
    t.comm = context_name(t.context);
    t.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch()).count();
    tracer_.record(std::move(t));
  }
  if (dest == rank_) {  // to self: skip the socket, order is kept trivially
    ++sent_to_[size_t(dest)];
    deliver(Message{env, std::move(body)});
    run_background();  // a delivery round of its own (a freed receive it matched lands now)
    return;
  }
  if (is_dead(dest)) return;  // nothing can be delivered; receivers of it fail on their own
  ++sent_to_[size_t(dest)];
  transport_->send(dest, encode_header(env), std::move(body));
}

void Engine::trace(TraceEvent e) {
  e.clock = ++clock_;
  e.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch()).count();
  if (e.comm.empty() && e.context) e.comm = context_name(e.context);
  tracer_.record(std::move(e));
}

void Engine::trace_arrival(TraceEvent::Kind k, const Message& m, uint64_t context, std::string call) {
  TraceEvent t;
  t.kind = k;
  t.peer = m.env.source;
  t.tag = m.env.tag;
  t.context = context;
  t.msg = m.env.clock;
  t.bytes = (long long)m.body.size();
  t.call = std::move(call);
  trace(std::move(t));
}

bool Engine::take_ack(uint64_t seq) { return acks_.erase(seq) != 0; }

void Engine::unordered_ack(uint64_t seq) { unordered_acks_.insert(seq); }

void Engine::cancel_send(int dest, uint64_t seq) { send_control(dest, MsgKind::SendCancel, seq); }

void Engine::send_control(int dest, MsgKind kind, uint64_t seq, int32_t tag) {
  Envelope env;
  env.kind = kind;
  env.source = rank_;
  env.seq = seq;
  env.tag = tag;
  env.epoch = epoch_;
  send(dest, env, Body());
}

std::optional<bool> Engine::take_cancel_answer(uint64_t seq) {
  auto it = cancel_answers_.find(seq);
  if (it == cancel_answers_.end()) return std::nullopt;
  bool withdrawn = it->second;
  cancel_answers_.erase(it);
  return withdrawn;
}

// A sender cancels its message `seq`: withdrawn if still unmatched here.
void Engine::answer_cancel(int source, uint64_t seq) {
  send_control(source, MsgKind::SendCancelled, seq, matcher_.withdraw(source, seq) ? 1 : 0);
}

void Engine::deliver(Message m) {
  ++received_from_[size_t(m.env.source)];
  if (m.env.kind == MsgKind::SsendAck) {
    if (!unordered_acks_.erase(m.env.seq)) clock_ = std::max(clock_, m.env.clock) + 1, see_clock(m.env.clock);
    acks_.insert(m.env.seq);
    return;
  }
  clock_ = std::max(clock_, m.env.clock) + 1;  // Lamport: an arrival comes after its send
  if (m.env.kind == MsgKind::SendCancel) return answer_cancel(m.env.source, m.env.seq);
  if (m.env.kind == MsgKind::SendCancelled) {
    cancel_answers_[m.env.seq] = m.env.tag == 1;
    if (m.env.tag == 1) unordered_acks_.erase(m.env.seq);  // withdrawn: no acknowledgement will come
    return;
  }
  if (m.env.kind == MsgKind::Rma) {
    auto it = rma_services_.find(m.env.context);
    if (it == rma_services_.end()) {
      log("dropped an RMA message for window " + std::to_string(m.env.context) + ", which is not open here");
      return;
    }
    RmaService service = it->second;  // the service may stop itself (free) while it runs
    service(m);
    return;
  }
  if (discarded_epochs_.count(m.env.epoch)) return;
  if (checking_) races_.arrived(m.env);
  bool wants_ack = m.env.wants_ack;
  int source = m.env.source;
  uint64_t seq = m.env.seq;
  PostedRecv* matched = matcher_.arrive(std::move(m));
  if (!matched) return;
  matched->clock = clock_;
  see_clock(matched->msg.env.clock);
  if (wants_ack) acknowledge(source, seq);
}

void Engine::note_wildcard(WildcardMatch m) {
  if (auto race = races_.completed(std::move(m), matcher_.unexpected())) found_race(*race);
}

void Engine::note_named_receive(const Envelope& e) {
  if (auto race = races_.taken_by_name(e)) found_race(*race);
}

// Reported, and drawn by :trace where the receiver found it (a row naming
// the other message, which its send's arrow shows).
void Engine::found_race(const Race& r) {
  report_check("message-race", r.text);
  if (!tracing()) return;
  TraceEvent t;
  t.kind = TraceEvent::Kind::Race;
  t.peer = r.other;
  t.msg = r.other_clock;
  t.tag = r.tag;
  t.context = base_of(r.context);
  t.call = r.call;
  trace(std::move(t));
}

int Engine::probe_source() const {
  auto it = replay_.find(wildcard_posts_ + 1);
  return it != replay_.end() && it->second < size_ ? it->second : ANY_SOURCE;
}

// A synchronous send's message was matched: its sender may complete.
void Engine::acknowledge(int source, uint64_t seq) { send_control(source, MsgKind::SsendAck, seq); }

bool Engine::post(PostedRecv* r) {
  r->epoch = epoch_;
  if (r->source == ANY_SOURCE && lane_of(r->context) == Lane::P2P) {  // a user's wildcard receive
    r->wildcard = ++wildcard_posts_;
    if (auto it = replay_.find(r->wildcard); it != replay_.end() && it->second < size_) r->source = it->second;
  }
  if (!matcher_.post(r)) return false;
  r->clock = clock_;
  see_clock(r->msg.env.clock);
  if (r->msg.env.wants_ack) acknowledge(r->msg.env.source, r->msg.env.seq);
  return true;
}

std::optional<Message> Engine::take(uint64_t context, int source, int tag) {
  std::optional<Message> m = matcher_.take(context, source, tag);
  if (m) see_clock(m->env.clock);
  if (m && m->env.wants_ack) acknowledge(m->env.source, m->env.seq);
  return m;
}

std::optional<Message> Engine::next_message() {
  std::string header;
  Body body;
  for (;;) {
    Transport::Got got = transport_->receive(header, body);
    if (got == Transport::Got::None) return std::nullopt;
    std::string why = "wrong number of frames";
    std::optional<Envelope> env;
    if (got == Transport::Got::Message) env = decode_header(header, &why);
    if (env && env->source >= 0 && env->source < size_) return Message{*env, std::move(body)};
    if (env) why = "source rank " + std::to_string(env->source) + " out of range";
    log("dropped malformed data message: " + why);
  }
}

// The passive thread's check reports, sent by the application thread.
void Engine::send_deferred_reports() {
  for (auto& [check_class, text] : std::exchange(deferred_reports_, {})) report_check(check_class, text);
}

void Engine::deliver_deferred() {
  send_deferred_reports();
  while (!deferred_.empty()) {
    Message m = std::move(deferred_.front());
    deferred_.pop_front();
    deliver(std::move(m));
  }
}

void Engine::receive_available() {
  deliver_deferred();
  while (std::optional<Message> m = next_message()) deliver(std::move(*m));
}

void Engine::progress(int timeout_ms) {
  if (!deferred_.empty() || !deferred_reports_.empty()) {  // set aside by the passive thread: no wake-up will say so
    deliver_deferred();
    timeout_ms = 0;
  }
  transport_->poll(timeout_ms, [this] { receive_available(); });
  run_background();
}

void Engine::add_background(std::function<bool()> step) {
  if (!step()) background_.push_back(std::move(step));
}

// Steps every background task once; a task that finishes (or fails: its
// step stores the error for its request) leaves the list. Not reentrant: a
// user op run by a step that calls back into MPI does not step them again.
void Engine::run_background() {
  if (in_background_ || background_.empty()) return;
  in_background_ = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{in_background_};
  // Steps run on a list of their own: a step that starts a collective (a C
  // user op may, though MPI forbids it) adds to background_ meanwhile.
  std::vector<std::function<bool()>> round;
  round.swap(background_);
  std::vector<std::function<bool()>> still;
  for (auto& step : round)
    if (!step()) still.push_back(std::move(step));
  for (auto& step : background_) still.push_back(std::move(step));
  background_.swap(still);
}

void Engine::check_abort(const Waiting& what) {
  if (interrupted_) {
    if (deadlocked_) say_stranded_races();
    fail(ErrClass::Interrupted, what.call, "interrupted while " + what.describe());
  }
  if (failed_wait_ && failed_wait_->first == wait_serial_) {
    Error e = std::move(failed_wait_->second);
    failed_wait_.reset();
    throw Error::with_code(e.code(), what.call, e.message());
  }
  check_peers(what);
}

void Engine::check_peers(const Waiting& what) const {
  for (const auto* ranks : {&what.needs, &what.group})
    for (int r : *ranks)
      if (is_dead(r))
        fail(ErrClass::ProcFailed, what.call,
             "rank " + std::to_string(r) + " of COMM_WORLD has died; was " + what.describe());
}

// Optional spin-then-block. Sleeping in a poll costs a cross-core wake-up
// (20-35 µs on 2-vCPU machines) on top of libzmq's own I/O-thread hand-off;
// with LUMPI_SPIN_US=N a wait first polls ZMQ_EVENTS (which, unlike a
// zmq_recv(ZMQ_DONTWAIT) loop, makes libzmq process its pending commands at
// once) for up to N µs, yielding between polls, and only then blocks. The
// default is 0 (block at once): on a 2-core machine shared by the ranks'
// main threads and libzmq's I/O threads, a spinning rank delays the very
// I/O thread that must deliver its message, and measured round trips turned
// bimodal (22 µs or 220-1600 µs) for every budget tried (10, 20, 50, 150 µs);
// blocking stays within 1.1x of raw ZeroMQ (tests/bench/README.md).
static int spin_budget_us() {
  static const int us = [] {
    const char* v = std::getenv("LUMPI_SPIN_US");
    return v ? std::max(0, std::atoi(v)) : 0;
  }();
  return us;
}

bool Engine::spin_for_input(int budget_us) {
  if (budget_us <= 0) return false;
  auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(budget_us);
  do {
    if (transport_->data_ready()) return true;
    sched_yield();
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

void Engine::wait(const std::function<bool()>& done, const Waiting& what) {
  poll_ended();
  const Waiting* outer = blocked_;
  blocked_ = &what;
  ++wait_serial_;
  struct Restore {
    const Waiting*& slot;
    const Waiting* value;
    ~Restore() { slot = value; }
  } restore{blocked_, outer};
  receive_available();
  run_background();
  if (!done()) block_until(done, what);
}

// The blocked part of wait(): after notice_ms without completing, the
// notice (once), and when the wait so announced ends (or raises), the
// notice again with nullptr. (A wait nested in another, a user op's, leaves
// the outer one looking unblocked: a deadlock missed, never a false one.)
void Engine::block_until(const std::function<bool()>& done, const Waiting& what) {
  using Clock = std::chrono::steady_clock;
  auto notice_at = Clock::now() + std::chrono::milliseconds(notice_ms_);
  struct Told {
    Engine& e;
    bool told = false;
    ~Told() {
      if (told && e.notice_) e.notice_(nullptr);
    }
  } told{*this};
  while (!done()) {
    check_abort(what);
    int timeout_ms = 100;
    if (notice_ && !told.told) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(notice_at - Clock::now()).count();
      if (left <= 0) {
        told.told = true;
        notice_(&what);
      } else {
        timeout_ms = int(left);
      }
    }
    // progress(0) also serves the control socket, so a flood of data never
    // hides an interrupt.
    progress(spin_for_input(spin_budget_us()) ? 0 : timeout_ms);
  }
}

void Engine::say_stranded_races() {
  if (checking_)
    for (const Race& r : races_.stranded(matcher_.unexpected())) found_race(r);
}

void Engine::interrupt(bool deadlocked) {
  interrupted_ = true;
  deadlocked_ = deadlocked;
}

const Waiting* Engine::blocked() const { return blocked_ ? blocked_ : poll_->current(); }

void Engine::poll_failed(const Waiting& what) {
  if (!notice_) return;  // no coordinator to tell
  const bool was_told = poll_->told();
  if (poll_->failed(what)) {
    ++wait_serial_;
    notice_(poll_->current());
  } else if (was_told && !poll_->told()) {
    notice_(nullptr);
  }
}

void Engine::poll_ended() {
  if (poll_->end() && notice_) notice_(nullptr);
}

void Engine::fail_wait(uint64_t serial, Error e) {
  if (serial == wait_serial_ && blocked_) failed_wait_.emplace(serial, std::move(e));
}

void Engine::discard_epoch(uint32_t epoch) {
  discarded_epochs_.insert(epoch);
  matcher_.drop_epoch(epoch);
  matcher_.abandon_posted(epoch);
  interrupted_ = deadlocked_ = false;
}

void Engine::mark_dead(int world_rank) { dead_.insert(world_rank); }

void Engine::name_context(uint64_t base, std::shared_ptr<const std::string> name) {
  if (context_names_.size() >= prune_names_at_) {  // drop the names of communicators now gone
    std::erase_if(context_names_, [](const auto& kv) { return kv.second.expired(); });
    prune_names_at_ = 2 * context_names_.size() + 64;
  }
  context_names_[base] = std::move(name);
}

std::string Engine::context_name(uint64_t base) const {
  auto it = context_names_.find(base);
  if (it == context_names_.end()) return "";
  auto name = it->second.lock();
  return name ? *name : "";
}

uint64_t Engine::propose_context() {
  // COMM_WORLD's and COMM_SELF's bases are small (core/comm/comm.hpp); proposals live above 2^32.
  return (uint64_t(rank_ + 1) << 32) | ++context_counter_;
}

void Engine::describe_rma(uint64_t id, std::function<std::vector<PendingRma>()> describe) {
  rma_describers_[id] = std::move(describe);
}

std::vector<Engine::PendingRma> Engine::pending_rma() const {
  std::vector<PendingRma> out;
  for (const auto& [id, describe] : rma_describers_)
    for (PendingRma& p : describe()) out.push_back(std::move(p));
  return out;
}

}  // namespace lumpi::core
