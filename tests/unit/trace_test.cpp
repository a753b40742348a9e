// tests/unit/trace_test.cpp: tracing (core/base/trace.hpp, repl/view/trace_view.hpp):
// the Lamport clock rides in the header and orders a receive after its send
// even when the receiver's own clock ran far ahead or behind; recording is
// off by default and the ring buffer keeps the newest events; the joined
// picture orders rows by logical clock whatever the hosts' wall clocks say.
#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

#include "core/comm/comm.hpp"
#include "core/engine/request.hpp"
#include "core/transport/wire.hpp"
#include "repl/view/trace_view.hpp"

using namespace lumpi;
using core::Engine;

namespace {

struct Pair {
  std::string dir;
  std::unique_ptr<Engine> a, b;
  Pair() {
    dir = "/tmp/lumpi-trace-unit-" + std::to_string(getpid());
    std::filesystem::create_directory(dir);
    a = std::make_unique<Engine>(0, 2, "ipc://" + dir + "/0");
    b = std::make_unique<Engine>(1, 2, "ipc://" + dir + "/1");
    a->set_peer_endpoints({a->endpoint(), b->endpoint()});
    b->set_peer_endpoints({a->endpoint(), b->endpoint()});
  }
  ~Pair() {
    a.reset();
    b.reset();
    std::filesystem::remove_all(dir);
  }
};

launcher::TraceEntry entry(std::string kind, uint64_t clock, long long wall, int peer, uint64_t msg,
                           std::string call = "MPI_Send") {
  return {std::move(kind), clock, wall, peer, 7, 1, msg, 3, std::move(call), "MPI_COMM_WORLD"};
}

}  // namespace

TEST_CASE("trace: the header carries the Lamport clock") {
  core::Envelope e;
  e.clock = (1ull << 60) + 5;
  std::string why;
  auto back = core::decode_header(core::encode_header(e), &why);
  REQUIRE(back);
  CHECK(back->clock == e.clock);
}

TEST_CASE("trace: a receive's clock is above its send's, however far apart the clocks were") {
  Pair p;
  auto wa = core::Comm::world(*p.a), wb = core::Comm::world(*p.b);
  p.a->tracer().set_on(true);
  p.b->tracer().set_on(true);
  for (int i = 0; i < 50; ++i) wa->send(core::Body(std::string("self")), 0, 1), (void)wa->recv(0, 1);  // a runs ahead
  uint64_t before = p.b->clock();
  wa->send(core::Body(std::string("x")), 1, 9);
  auto got = wb->recv(0, 9);
  CHECK(got.body.str() == "x");
  CHECK(p.b->clock() > 100);  // b jumped past a's clock
  CHECK(before < 5);
  auto sent = p.a->tracer().events(), recvd = p.b->tracer().events();
  REQUIRE(!sent.empty());
  REQUIRE(recvd.size() == 1);
  const core::TraceEvent& s = sent.back();
  const core::TraceEvent& r = recvd.back();
  CHECK(s.kind == core::TraceEvent::Kind::Send);
  CHECK(r.kind == core::TraceEvent::Kind::Recv);
  CHECK(r.msg == s.clock);  // the message's name: its send clock
  CHECK(r.clock > s.clock);
  CHECK(r.peer == 0);
  CHECK(r.tag == 9);
  CHECK(r.comm == "MPI_COMM_WORLD");
  // b now sends back: a's receive is above b's send, though a's clock was ahead
  wb->send(core::Body(std::string("y")), 0, 2);
  (void)wa->recv(1, 2);
  CHECK(p.a->tracer().events().back().clock > p.b->tracer().events().back().clock);
}

TEST_CASE("trace: off records nothing; the ring keeps the newest events") {
  Pair p;
  auto wa = core::Comm::world(*p.a);
  wa->send(core::Body(std::string("x")), 0, 1);
  (void)wa->recv(0, 1);
  CHECK(p.a->tracer().events().empty());
  CHECK(p.a->clock() > 0);  // the clock runs anyway: it costs an add
  core::Tracer t;
  t.set_on(true);
  for (size_t i = 0; i < core::Tracer::kCapacity + 10; ++i) {
    core::TraceEvent e;
    e.clock = i;
    t.record(e);
  }
  auto ev = t.events();
  CHECK(ev.size() == core::Tracer::kCapacity);
  CHECK(t.dropped() == 10);
  CHECK(ev.front().clock == 10);
  CHECK(ev.back().clock == core::Tracer::kCapacity + 9);
}

TEST_CASE("trace view: rows follow logical clocks, not skewed wall clocks") {
  std::map<int, launcher::ControlMsg> replies;
  replies[0].trace = {entry("send", 1, 9'000'000, 1, 1)};
  // rank 1's wall clock is far behind rank 0's: its receive looks earlier in wall time
  replies[1].trace = {entry("recv", 3, 5, 0, 1, "MPI_Recv"), entry("send", 4, 6, 0, 4)};
  replies[0].trace.push_back(entry("recv", 5, 9'000'100, 1, 4, "MPI_Recv"));
  repl::TraceModel m = repl::build_trace(2, replies);
  REQUIRE(m.rows.size() == 4);
  CHECK(m.rows[0].kind == repl::TraceRow::Kind::Send);
  CHECK(m.rows[1].kind == repl::TraceRow::Kind::Recv);
  CHECK(m.rows[1].msg == 1);
  CHECK(m.rows[3].msg == 2);
  std::string text = repl::trace_text(m, 80);
  CHECK(text.find("#1 send 0->1 tag 7 'MPI_COMM_WORLD'") != std::string::npos);
  CHECK(text.find("+") < text.find(">R"));
  std::string json = repl::trace_json(m);
  CHECK(json.find("\"ph\":\"s\",\"id\":1,\"pid\":0,\"tid\":0,\"ts\":1") != std::string::npos);
  CHECK(json.find("\"ph\":\"f\",\"bp\":\"e\",\"id\":1,\"pid\":0,\"tid\":1,\"ts\":3") != std::string::npos);
}

TEST_CASE("trace view: collectives join across ranks by communicator and order; a case's events") {
  std::map<int, launcher::ControlMsg> replies;
  for (int r = 0; r < 3; ++r) {
    auto b = entry("begin", 10 + r, 0, -1, 0, "MPI_Barrier");
    auto e = entry("end", 20 + r, 0, -1, 0, "MPI_Barrier");
    replies[r].trace = {entry("mark", 1, 0, -1, 0, "case 1"), b, e, entry("mark", 30, 0, -1, 0, "case 2"), b, e};
  }
  replies.erase(2);  // rank 2 sent nothing: it is named, not invented
  repl::TraceModel all = repl::build_trace(3, replies);
  CHECK(all.rows.size() == 2);
  CHECK(all.rows[0].ranks == std::vector<int>{0, 1});
  CHECK(all.missing == std::vector<int>{2});
  repl::TraceModel one = repl::build_trace(3, replies, "2");
  REQUIRE(one.rows.size() == 1);
  CHECK(one.rows[0].call == "MPI_Barrier");
  CHECK(one.rows[0].end_clock == 21);
  std::string svg = repl::trace_svg(one);
  CHECK(svg.find("data-rank=\"2\"") != std::string::npos);
  CHECK(repl::trace_text(one, 80).find("no trace from rank(s) 2") != std::string::npos);
}

TEST_CASE("trace view: one-sided operations are arrows named by the origin's call; an epoch is a band on its lane") {
  // rank 1 locks rank 0's window 'counter', puts, unlocks; rank 0 grants, serves, releases
  auto on = [](launcher::TraceEntry e) {
    e.comm = "counter";
    return e;
  };
  std::map<int, launcher::ControlMsg> replies;
  replies[1].trace = {on(entry("begin", 5, 0, 0, 1, "epoch MPI_Win_lock")), on(entry("send", 6, 0, 0, 6, "MPI_Put")),
                      on(entry("end", 12, 0, 0, 1, "epoch MPI_Win_lock"))};
  replies[0].trace = {on(entry("begin", 3, 0, 1, 2, "epoch MPI_Win_lock (target)")),
                      on(entry("recv", 8, 0, 1, 6, "MPI_Put")),  // the target knows the tag's name only
                      on(entry("end", 10, 0, 1, 2, "epoch MPI_Win_lock (target)")),
                      entry("send", 11, 0, 1, 11)};  // after the epoch: a plain send
  repl::TraceModel m = repl::build_trace(2, replies);
  REQUIRE(m.rows.size() == 5);
  CHECK(m.rows[0].kind == repl::TraceRow::Kind::Epoch);
  CHECK(m.rows[0].end_clock == 10);
  CHECK(m.rows[1].kind == repl::TraceRow::Kind::Epoch);
  CHECK(m.rows[1].end_clock == 12);
  std::string text = repl::trace_text(m, 80);
  CHECK(text.find("#1 MPI_Put 1->0 'counter'") != std::string::npos);
  CHECK(text.find("#1 MPI_Put 1->0 served 'counter'") != std::string::npos);
  CHECK(text.find("epoch MPI_Win_lock on 1 with 0 'counter'") != std::string::npos);
  // inside the epochs both lanes are ':'; the send after rank 0's epoch ended has '|' on lane 0's row
  std::string put_row = text.substr(text.find("   6  "), text.find('\n', text.find("   6  ")) - text.find("   6  "));
  CHECK(put_row.find(':') != std::string::npos);
  std::string after = text.substr(text.find("  11  "), 20);
  CHECK(after.find(':') != std::string::npos);   // rank 1's lock epoch is still open at clock 11
  CHECK(after.find('S') != std::string::npos);
  CHECK(text.find("E a one-sided epoch begins") != std::string::npos);
  std::string svg = repl::trace_svg(m);
  CHECK(svg.find("class=\"epoch\"") != std::string::npos);
  CHECK(repl::trace_json(m).find("\"cat\":\"rma\"") != std::string::npos);
}

TEST_CASE("trace view: a message race is a row on the receiver's lane naming the message that could have matched") {
  // ranks 1 and 2 send to rank 0, which receives from ANY_SOURCE and takes rank 1's first
  std::map<int, launcher::ControlMsg> replies;
  replies[1].trace = {entry("send", 1, 0, 0, 1)};
  replies[2].trace = {entry("send", 1, 0, 0, 1)};
  replies[0].trace = {entry("recv", 4, 0, 1, 1, "MPI_Recv"),
                      entry("race", 5, 0, 2, 1, "MPI_Recv(source=ANY_SOURCE, tag=7) on 'MPI_COMM_WORLD'"),
                      entry("recv", 6, 0, 2, 1, "MPI_Recv")};
  repl::TraceModel m = repl::build_trace(3, replies);
  REQUIRE(m.rows.size() == 5);
  const repl::TraceRow& race = m.rows[3];
  CHECK(race.kind == repl::TraceRow::Kind::Race);
  CHECK(race.rank == 0);
  CHECK(race.msg == m.rows[1].msg);  // rank 2's send, #2
  CHECK(m.rows[1].matched);          // the race row does not stand for its receive
  std::string text = repl::trace_text(m, 100);
  CHECK(text.find("race: #2 2->0 could have matched MPI_Recv(ANY_SOURCE) instead") != std::string::npos);
  CHECK(text.find("!...............?") != std::string::npos);
  CHECK(text.find("! a message race") != std::string::npos);
  CHECK(repl::trace_svg(m).find("class=\"race\" data-from=\"2\" data-to=\"0\"") != std::string::npos);
  CHECK(repl::trace_json(m).find("\"cat\":\"race\"") != std::string::npos);
  // without a race, no legend line for it
  replies[0].trace.erase(replies[0].trace.begin() + 1);
  CHECK(repl::trace_text(repl::build_trace(3, replies), 100).find("message race") == std::string::npos);
}
