// tests/unit/world_test.cpp: World (launcher/coordinator/world.hpp) drops malformed
// control messages with a line on stderr and keeps going; wiring waits for
// every hello; kill() ends a rank that then shows up as a Death event.
// The "ranks" are /bin/sleep, which never joins: the test speaks for them
// through its own DEALER sockets.
#include <doctest/doctest.h>

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "launcher/coordinator/world.hpp"

using namespace lumpi::launcher;

namespace {

// Captures what this process writes to stderr while alive.
struct StderrCapture {
  char path[32] = "/tmp/lumpi-world-test-XXXXXX";
  int saved = -1;
  StderrCapture() {
    int fd = mkstemp(path);
    std::fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    close(fd);
  }
  std::string text() {
    std::fflush(stderr);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  ~StderrCapture() {
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    unlink(path);
  }
};

struct FakeRank {
  zmq::socket_t s;
  FakeRank(zmq::context_t& ctx, const World& w, const std::string& identity) : s(ctx, zmq::socket_type::dealer) {
    s.set(zmq::sockopt::routing_id, identity);
    s.set(zmq::sockopt::linger, 0);
    s.connect(w.control_endpoint());
  }
  void say(const Frames& f) { send_frames(s, f); }
};

std::optional<World::Event> next_message(World& w, int ms) {
  for (int waited = 0; waited < ms; waited += 20)
    if (auto ev = w.next(20)) return ev;
  return std::nullopt;
}

World::Options sleepers(int n) {
  World::Options o;
  o.size = n;
  o.exe = "/bin/sleep";
  o.args = {"30"};
  return o;
}

}  // namespace

TEST_CASE("world: malformed control messages are dropped with a line on stderr") {
  StderrCapture err;
  World w(sleepers(2));
  zmq::context_t ctx(1);
  FakeRank r0(ctx, w, "rank-0"), stranger(ctx, w, "rank-9"), odd(ctx, w, "nobody");
  r0.say({"bogus", "x"});
  r0.say({"result", "1", "maybe", "t", "0"});
  r0.say({"output"});
  stranger.say({"output", "from a rank that does not exist"});
  odd.say({"output", "from no rank at all"});
  r0.say({"output", "still heard"});
  auto ev = next_message(w, 3000);
  REQUIRE(ev);
  CHECK(ev->kind == World::Event::Kind::Message);
  CHECK(ev->rank == 0);
  CHECK(ev->msg.kind == Kind::Output);
  CHECK(ev->msg.text == "still heard");
  // The other sockets' messages keep no order with rank-0's: wait for them (3 s at most).
  for (int i = 0; i < 150 && err.text().find("'nobody'") == std::string::npos; ++i) w.next(20);
  for (int i = 0; i < 150 && err.text().find("'rank-9'") == std::string::npos; ++i) w.next(20);
  std::string log = err.text();
  CHECK(log.find("dropped malformed control message: from rank 0: unknown kind 'bogus'") != std::string::npos);
  CHECK(log.find("neither ok, error nor incomplete") != std::string::npos);
  CHECK(log.find("output needs 1 field(s), got 0") != std::string::npos);
  CHECK(log.find("unknown sender 'rank-9'") != std::string::npos);
  CHECK(log.find("unknown sender 'nobody'") != std::string::npos);
}

TEST_CASE("world: wired once every rank said hello; a hello naming another rank is refused") {
  StderrCapture err;
  World w(sleepers(2));
  zmq::context_t ctx(1);
  FakeRank r0(ctx, w, "rank-0"), r1(ctx, w, "rank-1");
  r1.say({"hello", "0", "123", "h", "ipc:///x/rank-0"});  // rank-1 claims to be rank 0
  r0.say({"hello", "0", "123", "h", "ipc:///x/rank-0"});
  for (int i = 0; i < 20; ++i) w.next(20);
  CHECK(!w.wired());
  CHECK(err.text().find("hello from rank-1 names rank 0") != std::string::npos);
  r1.say({"hello", "1", "124", "h", "ipc:///x/rank-1"});
  for (int i = 0; i < 50 && !w.wired(); ++i) w.next(20);
  CHECK(w.wired());
  CHECK(w.rank(1).endpoint == "ipc:///x/rank-1");
  // each fake rank got the endpoint table
  Frames start = recv_frames(r0.s, true);
  auto msg = decode(start, nullptr);
  REQUIRE(msg);
  CHECK(msg->kind == Kind::Start);
  CHECK(msg->list == std::vector<std::string>{"ipc:///x/rank-0", "ipc:///x/rank-1"});
}

TEST_CASE("world: kill ends one rank, which comes back as a Death event") {
  World w(sleepers(2));
  CHECK(w.alive_count() == 2);
  w.kill(1);
  auto ev = next_message(w, 3000);
  REQUIRE(ev);
  CHECK(ev->kind == World::Event::Kind::Death);
  CHECK(ev->rank == 1);
  CHECK(describe_wait_status(w.rank(1).wait_status) == "signal 9 (SIGKILL)");
  CHECK(w.alive(0));
}
