// tests/fuzz/fuzz_engine.cpp: whole data-plane messages from a peer, through
// a real core::Engine.
//
// The input is a list of multipart messages (frames.hpp), pushed over an
// inproc PUSH socket into an Engine (world rank 0 of 3; its peers' endpoints
// are inproc sinks). The engine must drop every malformed message (wrong
// frame count, bad header, source out of range) and deliver every
// well-formed one: after the input, receives posted for the well-formed
// data messages, in order, must each match the message sent (MPI's
// non-overtaking rule), and nothing else may be left unexpected. A
// well-formed SendCancel withdraws the message it names (MPI_Cancel of a
// send, §3.8.4), which is then not expected.
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "core/base/constants.hpp"
#include "core/engine/engine.hpp"
#include "core/transport/transport.hpp"
#include "core/base/error.hpp"
#include "core/transport/wire.hpp"
#include "tests/fuzz/frames.hpp"

using namespace lumpi::core;

namespace {

constexpr int kSize = 3;
constexpr uint64_t kSentinelContext = ~uint64_t(0);

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_engine: %s\n", what);
    std::abort();
  }
}

struct Rig {
  std::unique_ptr<Engine> engine;
  std::unique_ptr<zmq::socket_t> push;
  std::vector<std::unique_ptr<zmq::socket_t>> sinks;  // peers 1, 2: where acks go
  Rig() {
    std::string base = "inproc://fuzz-" + std::to_string(getpid());
    engine = std::make_unique<Engine>(0, kSize, base + "-0");
    std::vector<std::string> eps{engine->endpoint()};
    for (int r = 1; r < kSize; ++r) {
      auto s = std::make_unique<zmq::socket_t>(engine->transport().context(), zmq::socket_type::pull);
      s->set(zmq::sockopt::linger, 0);
      s->bind(base + "-" + std::to_string(r));
      eps.push_back(base + "-" + std::to_string(r));
      sinks.push_back(std::move(s));
    }
    engine->set_peer_endpoints(eps);
    push = std::make_unique<zmq::socket_t>(engine->transport().context(), zmq::socket_type::push);
    push->set(zmq::sockopt::sndhwm, 0);
    push->set(zmq::sockopt::linger, 0);
    push->connect(engine->endpoint());
  }
  // libFuzzer's timer signal can interrupt a receive (EINTR): it is made again.
  void drain_sinks() {
    for (auto& s : sinks) {
      zmq::message_t m;
      for (;;) {
        try {
          if (!s->recv(m, zmq::recv_flags::dontwait)) break;
        } catch (const zmq::error_t& e) {
          if (e.num() != EINTR) throw;
        }
      }
    }
  }
  // The same for a send into the engine.
  void send(zmq::const_buffer b, zmq::send_flags f) {
    for (;;) {
      try {
        push->send(b, f);
        return;
      } catch (const zmq::error_t& e) {
        if (e.num() != EINTR) throw;
      }
    }
  }
};

Rig& rig() {
  static Rig r;
  return r;
}

// The message the engine must deliver for `frames`, or nullopt if it must drop it.
std::optional<Envelope> deliverable(const std::vector<std::string>& frames) {
  if (frames.size() != 2) return std::nullopt;
  std::string why;
  auto env = decode_header(frames[0], &why);
  if (!env || env->source >= kSize) return std::nullopt;
  return env;
}

// A peer's SendCancel withdraws its first unmatched message with that
// sequence number (no receive is posted before the end, so every earlier
// one is unmatched); seq 0 names no send.
void withdraw(std::vector<std::pair<Envelope, std::string>>& expected, const Envelope& cancel) {
  for (auto it = expected.begin(); it != expected.end(); ++it)
    if (cancel.seq != 0 && it->first.source == cancel.source && it->first.seq == cancel.seq) {
      expected.erase(it);
      return;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Rig& t = rig();
  Engine& e = *t.engine;
  std::vector<std::pair<Envelope, std::string>> expected;
  for (const auto& frames : lumpi::fuzz::messages_of(data, size)) {
    if (frames.size() > 16) continue;
    std::string why;
    if (auto env = decode_header(frames[0], &why); env && env->context == kSentinelContext)
      continue;  // the harness's own context: such a message would be taken for the sentinel
    for (size_t i = 0; i < frames.size(); ++i)
      t.send(zmq::buffer(frames[i]), i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    auto env = deliverable(frames);
    if (env && env->kind == MsgKind::Data) expected.emplace_back(*env, frames[1]);
    if (env && env->kind == MsgKind::SendCancel) withdraw(expected, *env);
  }
  // A sentinel sent last: once it has matched, everything before it was handled.
  Envelope s;
  s.context = kSentinelContext;
  s.source = 1;
  std::string header = encode_header(s);
  t.send(zmq::buffer(header), zmq::send_flags::sndmore);
  t.send(zmq::str_buffer("end"), zmq::send_flags::none);
  PostedRecv sentinel;
  sentinel.context = kSentinelContext;
  sentinel.source = 1;
  sentinel.tag = 0;
  e.post(&sentinel);
  for (int i = 0; i < 2000 && !sentinel.done; ++i) e.progress(5);
  check(sentinel.done, "the sentinel message never arrived");
  // Every well-formed data message, in order, with its own body. (A peer's
  // tag equal to ANY_TAG would make our receive a wildcard: those messages
  // are only dropped below.)
  std::set<uint32_t> epochs;
  for (const auto& [env, body] : expected) {
    epochs.insert(env.epoch);
    if (env.tag == ANY_TAG) continue;
    PostedRecv r;
    r.context = env.context;
    r.source = env.source;
    r.tag = env.tag;
    check(e.post(&r), "a well-formed message was not delivered");
    check(r.msg.env.seq == env.seq && r.msg.env.epoch == env.epoch,
          "messages overtook each other");
    check(r.msg.body.str() == body, "a message's body changed on the way");
  }
  for (uint32_t ep : epochs) e.matcher().drop_epoch(ep);
  check(e.matcher().unexpected_count() == 0, "a message was delivered that should not have been");
  check(e.matcher().posted_count() == 0, "a receive is still posted");
  // Acks for synchronous sends must not pile up across inputs.
  for (const auto& frames : lumpi::fuzz::messages_of(data, size)) {
    auto env = deliverable(frames);
    if (env && env->kind == MsgKind::SsendAck) e.take_ack(env->seq);
    if (env && env->kind == MsgKind::SendCancelled) e.take_cancel_answer(env->seq);
  }
  for (const auto& [env, body] : expected)
    if (env.source == 0 && env.wants_ack) e.take_ack(env.seq);
  t.drain_sinks();
  return 0;
}
