// core/engine.cpp: data sockets, delivery and the blocking wait loop.
#include "core/engine.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/constants.hpp"
#include "core/error.hpp"

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
  return s;
}

Engine::Engine(int world_rank, int world_size, const std::string& bind_endpoint)
    : rank_(world_rank), size_(world_size), ctx_(1), in_(ctx_, zmq::socket_type::pull) {
  in_.set(zmq::sockopt::rcvhwm, 0);
  in_.set(zmq::sockopt::linger, 0);
  in_.bind(bind_endpoint);
  endpoint_ = in_.get(zmq::sockopt::last_endpoint);
  out_.resize(world_size);
}

Engine::~Engine() {
  for (auto& s : out_)
    if (s) s->close();
  in_.close();
}

void Engine::set_peer_endpoints(std::vector<std::string> endpoints) {
  peer_endpoints_ = std::move(endpoints);
}

zmq::socket_t& Engine::peer_socket(int dest) {
  auto& s = out_.at(dest);
  if (!s) {
    if (dest >= int(peer_endpoints_.size()) || peer_endpoints_[dest].empty())
      fail(ErrClass::Intern, "send", "no endpoint known for rank " + std::to_string(dest));
    s = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::push);
    s->set(zmq::sockopt::sndhwm, 0);
    s->set(zmq::sockopt::linger, 2000);  // deliver what is queued at exit, but never hang
    s->connect(peer_endpoints_[dest]);
  }
  return *s;
}

void Engine::send(int dest, const Envelope& env, zmq::message_t body) {
  if (dest == rank_) {  // to self: skip the socket, order is kept trivially
    deliver(Message{env, std::move(body)});
    return;
  }
  if (is_dead(dest)) return;  // nothing can be delivered; receivers of it fail on their own
  zmq::socket_t& s = peer_socket(dest);
  std::string header = encode_header(env);
  s.send(zmq::buffer(header), zmq::send_flags::sndmore);
  s.send(std::move(body), zmq::send_flags::none);
}

bool Engine::take_ack(uint64_t seq) { return acks_.erase(seq) != 0; }

void Engine::deliver(Message m) {
  if (m.env.kind == MsgKind::SsendAck) {
    acks_.insert(m.env.seq);
    return;
  }
  if (discarded_epochs_.count(m.env.epoch)) return;
  bool wants_ack = m.env.wants_ack;
  int source = m.env.source;
  uint64_t seq = m.env.seq;
  if (matcher_.arrive(std::move(m)) && wants_ack) {
    Envelope ack;
    ack.kind = MsgKind::SsendAck;
    ack.source = rank_;
    ack.seq = seq;
    ack.epoch = epoch_;
    send(source, ack, zmq::message_t());
  }
}

bool Engine::post(PostedRecv* r) {
  r->epoch = epoch_;
  if (!matcher_.post(r)) return false;
  if (r->msg.env.wants_ack) {
    Envelope ack;
    ack.kind = MsgKind::SsendAck;
    ack.source = rank_;
    ack.seq = r->msg.env.seq;
    ack.epoch = epoch_;
    send(r->msg.env.source, ack, zmq::message_t());
  }
  return true;
}

void Engine::receive_available() {
  for (;;) {
    zmq::message_t header;
    if (!in_.recv(header, zmq::recv_flags::dontwait)) return;
    std::string why;
    std::optional<Envelope> env;
    zmq::message_t body;
    bool complete = header.more() && in_.recv(body, zmq::recv_flags::none) && !body.more();
    while (in_.get(zmq::sockopt::rcvmore)) {  // drain frames of a malformed message
      zmq::message_t extra;
      (void)in_.recv(extra, zmq::recv_flags::none);
      complete = false;
    }
    if (complete) env = decode_header(header.to_string_view(), &why);
    else why = "wrong number of frames";
    if (!env || env->source >= size_) {
      if (env) why = "source rank " + std::to_string(env->source) + " out of range";
      std::fprintf(stderr, "lumpi-rank %d: dropped malformed data message: %s\n", rank_,
                   why.c_str());
      continue;
    }
    deliver(Message{*env, std::move(body)});
  }
}

void Engine::watch(zmq::socket_ref s, std::function<void()> on_readable) {
  watched_ = s;
  on_watched_ = std::move(on_readable);
}

void Engine::progress(int timeout_ms) {
  zmq::pollitem_t items[2] = {{in_.handle(), 0, ZMQ_POLLIN, 0},
                              {watched_.handle(), 0, ZMQ_POLLIN, 0}};
  int n = watched_ ? 2 : 1;
  zmq::poll(items, n, std::chrono::milliseconds(timeout_ms));
  if (items[0].revents & ZMQ_POLLIN) receive_available();
  if (n == 2 && (items[1].revents & ZMQ_POLLIN) && on_watched_) on_watched_();
}

void Engine::check_abort(const Waiting& what) {
  if (interrupted_)
    fail(ErrClass::Interrupted, what.call, "interrupted while " + what.describe());
  check_peers(what);
}

void Engine::check_peers(const Waiting& what) const {
  for (const auto* ranks : {&what.needs, &what.group})
    for (int r : *ranks)
      if (is_dead(r))
        fail(ErrClass::ProcFailed, what.call,
             "rank " + std::to_string(r) + " of COMM_WORLD has died; was " + what.describe());
}

// Optional spin-then-block. Sleeping in zmq_poll costs a cross-core wake-up
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
    if (in_.get(zmq::sockopt::events) & ZMQ_POLLIN) return true;
    sched_yield();
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

void Engine::wait(const std::function<bool()>& done, const Waiting& what) {
  const Waiting* outer = blocked_;
  blocked_ = &what;
  struct Restore {
    const Waiting*& slot;
    const Waiting* value;
    ~Restore() { slot = value; }
  } restore{blocked_, outer};
  receive_available();
  while (!done()) {
    check_abort(what);
    // progress(0) also serves the control socket, so a flood of data never
    // hides an interrupt.
    progress(spin_for_input(spin_budget_us()) ? 0 : 100);
  }
}

void Engine::interrupt() { interrupted_ = true; }

void Engine::discard_epoch(uint32_t epoch) {
  discarded_epochs_.insert(epoch);
  matcher_.drop_epoch(epoch);
  matcher_.abandon_posted(epoch);
  interrupted_ = false;
}

void Engine::mark_dead(int world_rank) { dead_.insert(world_rank); }

uint64_t Engine::propose_context() {
  // Bases 1 and 2 are COMM_WORLD and COMM_SELF; proposals live above 2^32.
  return (uint64_t(rank_ + 1) << 32) | ++context_counter_;
}

}  // namespace lumpi::core
