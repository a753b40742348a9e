// tests/unit/protocol_test.cpp: the control protocol (launcher/protocol/protocol.hpp):
// every kind survives encode/decode, malformed frames are refused with a
// reason (never a crash), and launcher/README.md's table matches the code.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "launcher/protocol/protocol.hpp"

using namespace lumpi::launcher;

namespace {

// One message of each kind with every field it carries set to something
// that is not its default.
std::vector<ControlMsg> samples() {
  std::vector<ControlMsg> v;
  auto add = [&](Kind k, auto fill) {
    ControlMsg m = msg(k);
    fill(m);
    v.push_back(m);
  };
  add(Kind::Hello, [](ControlMsg& m) {
    m.rank = 6, m.pid = 4242, m.text = "node-1", m.endpoint = "ipc:///tmp/lumpi-x/rank-6";
  });
  add(Kind::Result, [](ControlMsg& m) { m.epoch = 4000000000u, m.ok = true, m.text = "[0] 1\n\t2", m.values = true; });
  add(Kind::Result, [](ControlMsg& m) { m.epoch = 0, m.ok = false, m.text = "", m.values = false; });
  add(Kind::Result, [](ControlMsg& m) { m.epoch = 5, m.incomplete = true, m.text = "'end' expected near <eof>"; });
  add(Kind::Output, [](ControlMsg& m) { m.text = std::string("with\0nul", 8); });
  add(Kind::Status, [](ControlMsg& m) { m.text = "waiting in MPI_Recv(source 1, tag 2)"; });
  add(Kind::Status, [](ControlMsg& m) {
    m.text = "waiting in MPI_Recv(source=ANY_SOURCE, tag=ANY_TAG) on 'a b'";
    m.state = RankState::Blocked;
    m.wait = WaitInfo{"MPI_Recv", "a b", (1ull << 40) + 3, true, -4, true, {0, 2, 16777216}, {}};
    m.queue = {QueueEntry{true, -2, -4, 4, -1, "MPI_COMM_WORLD", ""},
               QueueEntry{false, 3, 2147483647, (1ull << 62) + 1, 1ll << 40, std::string("n\0ul", 4), ""}};
  });
  add(Kind::Status, [](ControlMsg& m) {  // a split's message arrived early: constructor traffic
    m.text = "waiting in MPI_Comm_split() on 'w'";
    m.state = RankState::Blocked;
    m.wait = WaitInfo{"MPI_Comm_split", "w", 1, true, -(1 << 20) - 24, false, {1}, {}};
    m.queue = {QueueEntry{false, 2, -(1 << 20) - 24, 6, 21, "w", ""}, QueueEntry{false, 1, INT32_MIN, 6, 0, "w", ""}};
  });
  add(Kind::Status, [](ControlMsg& m) {  // a window's pending operations (core/rma)
    m.text = "idle";
    m.queue = {QueueEntry{false, 2, 0, 12, -1, "counter", "2 MPI_Put issued to rank 2, not yet completed"}};
  });
  add(Kind::Status, [](ControlMsg& m) {
    m.text = "waiting in MPI_Barrier() on 'w'";
    m.state = RankState::Blocked;
    m.wait = WaitInfo{"MPI_Barrier", "w", 1, false, 0, false, {2}, {0, 1, 2}};
  });
  add(Kind::Status, [](ControlMsg& m) { m.text = "finishing", m.state = RankState::Finishing; });
  add(Kind::Status, [](ControlMsg& m) {  // a wait's serial and the message counts
    m.text = "waiting in MPI_Ssend(dest=1, tag=0)";
    m.state = RankState::Blocked;
    m.serial = 1ull << 40;
    m.counts = {{0, 3, (1ull << 63)}, {5, 0, 1}};
  });
  add(Kind::Wait, [](ControlMsg& m) {
    m.text = "waiting in MPI_Barrier() on 'w'", m.state = RankState::Blocked, m.serial = 7;
    m.counts = {{1, 2}, {2, 1}};
    m.wait = WaitInfo{"MPI_Barrier", "w", 1, false, 0, false, {1}, {0, 1}};
  });
  add(Kind::Wait, [](ControlMsg& m) { m.text = "running", m.state = RankState::Running, m.serial = 8; });
  add(Kind::Wait, [](ControlMsg& m) {  // a rank blocked after an error it was handed
    m.text = "waiting in MPI_Barrier() on 'w'", m.state = RankState::Blocked, m.serial = 2;
    m.error = MpiError{"MPI_ERR_OP", "MPI_Allreduce", "unknown op \"nope\""};
    m.wait = WaitInfo{"MPI_Barrier", "w", 1, false, 0, false, {0}, {0, 1}};
  });
  add(Kind::Status, [](ControlMsg& m) { m.text = "idle", m.error.message = std::string("two\nlines, a n\0ul", 17); });
  add(Kind::Report, [](ControlMsg& m) { m.check_class = "collective-mismatch", m.text = "MPI_ERR_OTHER ..."; });
  add(Kind::Check, [](ControlMsg& m) { m.text = "on"; });
  add(Kind::Status, [](ControlMsg& m) { m.text = "running Lua code", m.state = RankState::Running; });
  add(Kind::Tree, [](ControlMsg& m) { m.text = "Machine\n  Core L#0 [0]\n"; });
  add(Kind::Event, [](ControlMsg& m) { m.list = {"case", "3", "name", "fail", ""}; });
  add(Kind::Event, [](ControlMsg&) {});
  add(Kind::Trace, [](ControlMsg& m) {
    m.dropped = 3;
    m.trace = {TraceEntry{"send", 7, 123456789, 2, 5, 1, 7, 12, "MPI_Send", "MPI_COMM_WORLD"},
               TraceEntry{"begin", (1ull << 63), -5, 0, 0, (1ull << 40) + 1, 0, -1, "MPI_Bcast", std::string("a\0b", 3)},
               TraceEntry{"recv", 9, 0, 16777216, -4, 2, 3, 1ll << 40, "MPI_Wait", ""}};
  });
  add(Kind::Trace, [](ControlMsg&) {});
  add(Kind::TraceQuery, [](ControlMsg& m) { m.text = "get"; });
  add(Kind::TraceQuery, [](ControlMsg& m) { m.text = "clear"; });
  add(Kind::Abort, [](ControlMsg& m) { m.code = -7, m.text = "gave up"; });
  add(Kind::Finished, [](ControlMsg& m) { m.code = 3; });
  add(Kind::Bye, [](ControlMsg& m) { m.code = 255; });
  add(Kind::Start, [](ControlMsg& m) { m.list = {"ipc:///a/rank-0", "ipc:///a/rank-1", "tcp://h:5"}; });
  add(Kind::Exec, [](ControlMsg& m) { m.epoch = 9, m.mode = Mode::Script, m.text = "x.lua", m.list = {"a", ""}; });
  add(Kind::Exec, [](ControlMsg& m) { m.epoch = 10, m.mode = Mode::Text, m.text = "return 1"; });
  add(Kind::Exec, [](ControlMsg& m) { m.epoch = 11, m.mode = Mode::Check, m.text = "function f("; });
  add(Kind::Exec, [](ControlMsg& m) { m.epoch = 12, m.mode = Mode::Repl, m.text = ""; });
  add(Kind::Interrupt, [](ControlMsg& m) {
    m.epoch = 77;
    m.code = 1;
  });
  add(Kind::StatusQuery, [](ControlMsg&) {});
  add(Kind::RaceQuery, [](ControlMsg&) {});
  add(Kind::TreeQuery, [](ControlMsg& m) { m.list = {"0=0-1", "1=2"}; });
  add(Kind::Dead, [](ControlMsg& m) { m.rank = 3; });
  add(Kind::Fail, [](ControlMsg& m) { m.epoch = 4, m.serial = 17, m.error = {"MPI_ERR_OP", "MPI_Allreduce", "unknown op"}; });
  add(Kind::Quit, [](ControlMsg&) {});
  add(Kind::Attach, [](ControlMsg&) {});
  add(Kind::Detach, [](ControlMsg&) {});
  add(Kind::Kill, [](ControlMsg& m) { m.rank = 5; });
  add(Kind::Refused, [](ControlMsg& m) { m.text = "another REPL is attached"; });
  add(Kind::Died, [](ControlMsg& m) { m.rank = 2, m.code = -2; });
  add(Kind::Ping, [](ControlMsg&) {});
  return v;
}

bool refused(const Frames& f, const std::string& reason_part = "") {
  std::string why;
  auto m = decode(f, &why);
  if (m) return false;
  CHECK(!why.empty());
  if (!reason_part.empty()) CHECK_MESSAGE(why.find(reason_part) != std::string::npos, why);
  return true;
}

}  // namespace

TEST_CASE("protocol: every kind round-trips through encode and decode") {
  std::map<Kind, int> seen;
  for (const ControlMsg& m : samples()) {
    CAPTURE(kind_name(m.kind));
    Frames f = encode(m);
    REQUIRE(!f.empty());
    CHECK(f[0] == kind_name(m.kind));
    std::string why;
    auto back = decode(f, &why);
    REQUIRE_MESSAGE(back, why);
    CHECK(*back == m);
    ++seen[m.kind];
  }
  CHECK(int(seen.size()) == kKindCount);  // no kind without a sample
}

TEST_CASE("protocol: modes by name") {
  for (Mode m : {Mode::Repl, Mode::Script, Mode::Text, Mode::Check}) CHECK(parse_mode(mode_name(m)) == m);
  CHECK(!parse_mode("call"));  // never sent by anyone: not part of the protocol
  CHECK(!parse_mode(""));
  CHECK(!parse_mode("REPL"));
}

TEST_CASE("protocol: malformed messages are refused with a reason") {
  CHECK(refused({}, "empty"));
  CHECK(refused({""}, "unknown kind"));
  CHECK(refused({"hello!"}, "unknown kind"));
  CHECK(refused({"HELLO", "0", "1", "h", "e"}, "unknown kind"));
  // wrong number of frames
  CHECK(refused({"hello", "0", "1", "h"}, "needs 4"));
  CHECK(refused({"hello", "0", "1", "h", "e", "extra"}, "needs 4"));
  CHECK(refused({"quit", "now"}, "needs 0"));
  CHECK(refused({"status?", ""}, "needs 0"));
  CHECK(refused({"result", "1", "ok", "text"}, "needs 4"));
  CHECK(refused({"exec", "1", "repl"}, "needs at least 3"));
  CHECK(refused({"interrupt", "1"}, "needs 2"));
  CHECK(refused({"dead"}, "needs 1"));
  // numbers
  CHECK(refused({"dead", "-1"}, "bad rank"));
  CHECK(refused({"dead", "1x"}, "bad rank"));
  CHECK(refused({"dead", " 1"}, "bad rank"));
  CHECK(refused({"dead", ""}, "bad rank"));
  CHECK(refused({"dead", "99999999999999999999999"}, "bad rank"));
  CHECK(refused({"dead", "16777217"}, "bad rank"));
  CHECK(refused({"interrupt", "4294967296", "0"}, "bad epoch"));
  CHECK(refused({"interrupt", "-0", "0"}, "bad epoch") == false);  // "-0" is 0: accepted
  CHECK(refused({"interrupt", "+1", "0"}, "bad epoch"));
  CHECK(refused({"hello", "0", "0", "h", "e"}, "bad pid"));
  CHECK(refused({"abort", "2147483648", "x"}, "bad exit code"));
  CHECK(refused({"finished", "1.5"}, "bad exit code"));
  // flags and modes
  CHECK(refused({"result", "1", "OK", "t", "0"}, "neither ok, error nor incomplete"));
  CHECK(refused({"result", "1", "ok", "t", "yes"}, "values flag"));
  CHECK(refused({"exec", "1", "call", "x"}, "unknown exec mode"));
  CHECK(refused({"exec", "1", "", "x"}, "unknown exec mode"));
  // status: state, structured wait, queue entries
  const Frames st = {"status", "t", "blocked", "4", "1,2", "2,1", "", "", "", "MPI_Recv", "w", "1", "5", "0", "1", "0,1"};
  CHECK(!refused(st));
  CHECK(refused({"status", "t"}, "needs at least 15"));
  CHECK(refused({"check", "maybe"}, "neither on nor off"));
  auto with = [&](size_t i, std::string v) {
    Frames f = st;
    f[i] = std::move(v);
    return f;
  };
  CHECK(refused(with(2, "asleep"), "unknown state"));
  CHECK(!refused(with(8, "unknown op \"nope\"")));  // the last error's parts: any text
  CHECK(refused(with(11, "-1"), "bad context"));
  CHECK(refused(with(11, "18446744073709551616"), "bad context"));
  CHECK(refused(with(12, "-2147483649"), "bad tag"));  // any int is a tag (internal ones are negative)
  CHECK(refused(with(12, ""), "bad tag"));
  CHECK(refused(with(13, "2"), "any flag"));
  CHECK(refused(with(14, "1,"), "bad rank list"));
  CHECK(refused(with(15, "a"), "bad rank list"));
  CHECK(refused(with(15, "0,-1"), "bad rank list"));
  CHECK(refused(with(3, "x"), "bad wait serial"));
  CHECK(refused(with(4, "1,-1"), "bad message counts"));
  Frames q = st;
  q.insert(q.end(), {"posted", "-2", "-4", "4", "-1", "w", ""});
  CHECK(!refused(q));
  CHECK(refused(Frames(q.begin(), q.end() - 1), "groups of 7"));
  auto entry = [&](size_t i, std::string v) {
    Frames f = q;
    f[st.size() + i] = std::move(v);
    return f;
  };
  CHECK(refused(entry(0, "queued"), "neither posted, arrived nor rma"));
  CHECK(refused(entry(0, "rma"), "rma goes with its description"));  // rma without one
  CHECK(refused(entry(6, "1 MPI_Put"), "rma goes with its description"));  // a posted receive with one
  CHECK(refused(entry(1, "-3"), "bad queue source"));
  CHECK(refused(entry(2, "-"), "bad queue tag"));
  CHECK(refused(entry(3, "x"), "bad queue context"));
  CHECK(refused(entry(4, "-2"), "bad queue size"));
  // trace? and trace
  CHECK(refused({"trace?"}, "needs 1"));
  CHECK(refused({"trace?", "dump"}, "unknown trace action"));
  CHECK(refused({"trace?", "ON"}, "unknown trace action"));
  const Frames tr = {"trace", "0", "send", "1", "2", "3", "4", "5", "6", "7", "MPI_Send", "w"};
  CHECK(!refused(tr));
  CHECK(refused({"trace"}, "needs at least 1"));
  CHECK(refused({"trace", "-1"}, "bad dropped count"));
  CHECK(refused(Frames(tr.begin(), tr.end() - 1), "groups of 10"));
  auto ev = [&](size_t i, std::string v) {
    Frames f = tr;
    f[2 + i] = std::move(v);
    return f;
  };
  CHECK(refused(ev(0, "sent"), "unknown trace event"));
  CHECK(refused(ev(1, "-1"), "bad trace clock"));
  CHECK(refused(ev(2, "x"), "bad trace time"));
  CHECK(refused(ev(3, "-3"), "bad trace peer"));
  CHECK(refused(ev(4, "-5"), "bad trace tag"));
  CHECK(refused(ev(5, ""), "bad trace context"));
  CHECK(refused(ev(6, "1.5"), "bad trace message"));
  CHECK(refused(ev(7, "-2"), "bad trace size"));
}

TEST_CASE("protocol: decode never throws on arbitrary frames") {
  // A small deterministic fuzz: every kind name followed by 0..6 frames drawn
  // from awkward values. Nothing may throw or crash; anything accepted must
  // re-encode to the same frames.
  const std::vector<std::string> awkward = {"", "0", "1", "-1", "4294967295", "ok", "error", "repl",
                                            "check", std::string(1, '\0'), "\xff\xfe", "rank-1",
                                            std::string(300, '9'), "0=1", "x"};
  const char* kinds[] = {"hello", "result", "output", "status", "tree", "event", "abort", "finished",
                         "start", "exec", "interrupt", "status?", "tree?", "dead", "quit", "trace",
                         "trace?", "nope"};
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1103515245u + 12345u; };
  int accepted = 0;
  for (const char* k : kinds) {
    for (int trial = 0; trial < 400; ++trial) {
      Frames f{k};
      int n = int(next() % 7);
      for (int i = 0; i < n; ++i) f.push_back(awkward[next() % awkward.size()]);
      std::string why;
      std::optional<ControlMsg> m;
      CHECK_NOTHROW(m = decode(f, &why));
      if (m) {
        ++accepted;
        CHECK(encode(*m) == f);
      } else {
        CHECK(!why.empty());
      }
      CHECK_NOTHROW(decode(f, nullptr));
    }
  }
  CHECK(accepted > 0);
}

TEST_CASE("protocol: launcher/README.md's table matches the code") {
  std::ifstream in(std::string(LUMPI_SOURCE_DIR) + "/launcher/README.md");
  REQUIRE(in);
  // Rows look like: | `hello` | rank -> coordinator | `rank pid host endpoint` |
  std::map<std::string, std::string> table;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      size_t a = cell.find_first_not_of(" `"), b = cell.find_last_not_of(" `");
      cells.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
    }
    if (cells.size() >= 3) table[cells[0]] = cells[2];
  }
  for (int k = 0; k < kKindCount; ++k) {
    CAPTURE(kind_name(Kind(k)));
    REQUIRE(table.count(kind_name(Kind(k))));
    std::string doc = field_doc(Kind(k));
    CHECK(table[kind_name(Kind(k))] == (doc.empty() ? "-" : doc));
  }
  CHECK(int(table.size()) == kKindCount);
}
