// tests/unit/engine_test.cpp: two engines in one process talking over real
// ipc sockets: delivery, self-sends, synchronous-send acks, and malformed
// data messages from a peer that must be dropped without harm.
#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

#include "core/comm/comm.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/transport/transport.hpp"

using namespace lumpi::core;

namespace {

struct TwoEngines {
  std::string dir;
  std::unique_ptr<Engine> a, b;
  TwoEngines() {
    dir = "/tmp/lumpi-unit-" + std::to_string(getpid());
    std::filesystem::create_directory(dir);
    a = std::make_unique<Engine>(0, 2, "ipc://" + dir + "/0");
    b = std::make_unique<Engine>(1, 2, "ipc://" + dir + "/1");
    a->set_peer_endpoints({a->endpoint(), b->endpoint()});
    b->set_peer_endpoints({a->endpoint(), b->endpoint()});
  }
  ~TwoEngines() {
    a.reset();
    b.reset();
    std::filesystem::remove_all(dir);
  }
};

Envelope env(int source, int tag) {
  Envelope e;
  e.context = context_of(1, Lane::P2P);
  e.source = source;
  e.tag = tag;
  return e;
}

std::string take(Engine& e, int source, int tag) {
  PostedRecv r;
  r.context = context_of(1, Lane::P2P);
  r.source = source;
  r.tag = tag;
  e.post(&r);
  Waiting w;
  w.call = "test";
  e.wait([&] { return r.done; }, w);
  return r.msg.body.str();
}

}  // namespace

TEST_CASE("a message crosses from one engine to another") {
  TwoEngines t;
  t.a->send(1, env(0, 5), Body(std::string("hello")));
  CHECK(take(*t.b, 0, 5) == "hello");
}

TEST_CASE("a send to oneself is delivered without a socket") {
  TwoEngines t;
  t.a->send(0, env(0, 1), Body(std::string("me")));
  CHECK(t.a->matcher().unexpected_count() == 1);
  CHECK(take(*t.a, 0, 1) == "me");
}

TEST_CASE("a synchronous send is acked when its receive matches") {
  TwoEngines t;
  Envelope e = env(0, 2);
  e.wants_ack = true;
  e.seq = t.a->next_seq();
  t.a->send(1, e, Body(std::string("sync")));
  CHECK(take(*t.b, 0, 2) == "sync");
  Waiting w;
  w.call = "test";
  t.a->wait([&] { return t.a->take_ack(e.seq); }, w);
}

TEST_CASE("malformed data messages are dropped and the engine keeps working") {
  TwoEngines t;
  zmq::socket_t raw(t.a->transport().context(), zmq::socket_type::push);
  raw.set(zmq::sockopt::linger, 0);
  raw.connect(t.b->endpoint());
  raw.send(zmq::str_buffer("short"), zmq::send_flags::none);                  // one frame, no body
  raw.send(zmq::str_buffer("garbage header"), zmq::send_flags::sndmore);     // wrong size
  raw.send(zmq::str_buffer("body"), zmq::send_flags::none);
  std::string h = encode_header(env(7, 1));                                   // source out of range
  raw.send(zmq::buffer(h), zmq::send_flags::sndmore);
  raw.send(zmq::str_buffer("x"), zmq::send_flags::none);
  std::string ok = encode_header(env(0, 3));                                  // three frames
  raw.send(zmq::buffer(ok), zmq::send_flags::sndmore);
  raw.send(zmq::str_buffer("a"), zmq::send_flags::sndmore);
  raw.send(zmq::str_buffer("b"), zmq::send_flags::none);
  for (int i = 0; i < 20; ++i) t.b->progress(5);
  CHECK(t.b->matcher().unexpected_count() == 0);
  t.a->send(1, env(0, 4), Body(std::string("after")));
  CHECK(take(*t.b, 0, 4) == "after");
  raw.close();
}

TEST_CASE("a wait on a dead peer fails with MPI_ERR_PROC_FAILED") {
  TwoEngines t;
  t.b->mark_dead(0);
  PostedRecv r;
  r.context = context_of(1, Lane::P2P);
  r.source = 0;
  r.tag = 0;
  t.b->post(&r);
  Waiting w;
  w.call = "MPI_Recv";
  w.needs = {0};
  try {
    t.b->wait([&] { return r.done; }, w);
    FAIL("the wait returned");
  } catch (const Error& e) {
    CHECK(e.cls() == ErrClass::ProcFailed);
  }
  t.b->matcher().cancel(&r);
}

TEST_CASE("an interrupted wait raises, and the epoch's messages are discarded") {
  TwoEngines t;
  t.b->begin_command(3);
  t.a->begin_command(3);
  t.a->send(1, [] { Envelope e = env(0, 9); e.epoch = 3; return e; }(), Body(std::string("stale")));
  t.b->interrupt(false);
  Waiting w;
  w.call = "MPI_Recv";
  CHECK_THROWS_AS(t.b->wait([] { return false; }, w), Error);
  for (int i = 0; i < 10; ++i) t.b->progress(5);
  t.b->discard_epoch(3);
  CHECK(t.b->matcher().unexpected_count() == 0);
  Envelope late = env(0, 9);
  late.epoch = 3;
  t.a->send(1, late, Body(std::string("late")));
  for (int i = 0; i < 10; ++i) t.b->progress(5);
  CHECK(t.b->matcher().unexpected_count() == 0);
}
