// tests/unit/deadlock_test.cpp: the wait-for graph of repl/view/deadlock.hpp:
// cycles, waits for idle/finished/dead ranks, collectives on the same or
// different calls and communicators, wildcards, and the queues' text.
#include <doctest/doctest.h>

#include "repl/view/deadlock.hpp"

using namespace lumpi::repl;
using lumpi::launcher::QueueEntry;
using State = RankView::State;

namespace {

constexpr uint64_t kWorld = 1;

RankView recv_from(int source, int tag, uint64_t ctx = kWorld, const std::string& comm = "w") {
  RankView v;
  v.state = State::Blocked;
  v.where = "waiting in MPI_Recv(source=" + std::to_string(source) + ", tag=" + std::to_string(tag) + ") on '" +
            comm + "'";
  v.wait.call = "MPI_Recv";
  v.wait.comm = comm;
  v.wait.context = ctx;
  v.wait.has_tag = true;
  v.wait.tag = tag;
  v.wait.waits = {source};
  return v;
}

RankView any_recv(std::vector<int> group) {
  RankView v = recv_from(0, 1);
  v.where = "waiting in MPI_Recv(source=ANY_SOURCE, tag=1) on 'w'";
  v.wait.any = true;
  v.wait.waits = std::move(group);
  return v;
}

RankView ssend_to(int dest) {
  RankView v;
  v.state = State::Blocked;
  v.where = "waiting in MPI_Ssend(dest=" + std::to_string(dest) + ", tag=0) on 'w'";
  v.wait.call = "MPI_Ssend";
  v.wait.comm = "w";
  v.wait.context = kWorld;
  v.wait.waits = {dest};
  return v;
}

RankView coll(const std::string& call, std::vector<int> group, int peer, uint64_t ctx = kWorld) {
  RankView v;
  v.state = State::Blocked;
  v.where = "waiting in " + call + "() on 'w'";
  v.wait.call = call;
  v.wait.comm = "w";
  v.wait.context = ctx;
  v.wait.waits = {peer};
  v.wait.group = std::move(group);
  return v;
}

RankView with_state(State s, std::string why = "") {
  RankView v;
  v.state = s;
  v.why = std::move(why);
  return v;
}

std::string all(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace

TEST_CASE("deadlock: a receive-receive cycle is named with both calls") {
  auto d = diagnose({{0, recv_from(1, 5)}, {1, recv_from(0, 5)}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] ==
        "deadlock: 0 -> 1 -> 0: rank 0 in MPI_Recv(source=1, tag=5) on 'w' waits for 1, "
        "rank 1 in MPI_Recv(source=0, tag=5) on 'w' waits for 0");
}

TEST_CASE("deadlock: the issue's example, a barrier and a receive at 3 ranks") {
  auto d = diagnose({{0, coll("MPI_Barrier", {0, 1, 2}, 2)},
                     {1, coll("MPI_Barrier", {0, 1, 2}, 0)},
                     {2, recv_from(0, 5)}});
  REQUIRE(d.size() == 2);
  CHECK(d[0] ==
        "deadlock: 0 -> 2 -> 0: rank 0 in MPI_Barrier on 'w' waits for 2, "
        "rank 2 in MPI_Recv(source=0, tag=5) on 'w' waits for 0");
  CHECK(d[1] == "also stuck: rank 1 in MPI_Barrier on 'w' waits for 2");
}

TEST_CASE("deadlock: synchronous sends waiting for each other") {
  auto d = diagnose({{0, ssend_to(1)}, {1, ssend_to(0)}, {2, with_state(State::Idle, "finished the command")}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].find("deadlock: 0 -> 1 -> 0: rank 0 in MPI_Ssend(dest=1, tag=0) on 'w' waits for 1") == 0);
}

TEST_CASE("deadlock: collectives in different orders form a cycle") {
  auto d = diagnose({{0, coll("MPI_Barrier", {0, 1}, 1)}, {1, coll("MPI_Allreduce", {0, 1}, 0)}});
  REQUIRE(d.size() == 2);
  CHECK(d[0] == "deadlock: 0 -> 1 -> 0: rank 0 in MPI_Barrier on 'w' waits for 1, rank 1 in MPI_Allreduce on 'w' waits for 0");
  CHECK(d[1].find("collective mismatch: rank 1 in MPI_Allreduce on 'w', rank 0 in MPI_Barrier on 'w': ") == 0);
}

TEST_CASE("deadlock: the same call on another communicator is not the same collective") {
  auto d = diagnose({{0, coll("MPI_Barrier", {0, 1}, 1, kWorld)}, {1, coll("MPI_Barrier", {0, 1}, 0, 77)}});
  REQUIRE(d.size() == 2);
  CHECK(d[0].find("deadlock: 0 -> 1 -> 0") == 0);
  CHECK(d[1].find("collective mismatch: ") == 0);
}

TEST_CASE("deadlock: a wrong root is named as a mismatch of the same collective") {
  RankView a = coll("MPI_Reduce", {0, 1, 2}, 1), b = coll("MPI_Reduce", {0, 1, 2}, 1);
  a.where = "waiting in MPI_Reduce(root=0) on 'w'";
  b.where = "waiting in MPI_Reduce(root=2) on 'w'";
  auto d = diagnose({{0, a}, {1, with_state(State::Idle, "finished the command")}, {2, b}});
  REQUIRE(d.size() == 3);
  CHECK(d[0] == "deadlock: rank 0 in MPI_Reduce(root=0) on 'w' waits for 1: rank 1 is idle (finished the command)");
  CHECK(d[2] == "mismatch: MPI_Reduce on 'w' called with different arguments: root=0 at rank 0, root=2 at rank 2");
}

TEST_CASE("deadlock: synchronous sends get no unmatched-message hint") {
  RankView s0 = ssend_to(1), s1 = ssend_to(0);
  s0.queue = {QueueEntry{false, 1, 0, kWorld * 4, 3, "w", ""}};
  auto d = diagnose({{0, s0}, {1, s1}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].find("unmatched") == std::string::npos);
}

TEST_CASE("deadlock: a rank that skipped a barrier is idle; the others wait for it") {
  auto d = diagnose({{0, coll("MPI_Barrier", {0, 1, 2}, 1)},
                     {1, with_state(State::Idle, "finished the command")},
                     {2, coll("MPI_Barrier", {0, 1, 2}, 0)}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "deadlock: ranks 0,2 in MPI_Barrier on 'w' wait for 1: rank 1 is idle (finished the command)");
}

TEST_CASE("deadlock: a wrong tag: the receiver waits for an idle sender, and its unmatched message is named") {
  RankView r = recv_from(0, 6);
  r.queue = {QueueEntry{false, 0, 5, kWorld * 4, 8, "w", ""}, QueueEntry{false, 0, 9, kWorld * 4 + 1, 4, "w", ""}};
  auto d = diagnose({{0, with_state(State::Idle, "finished the command")}, {1, r}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] ==
        "deadlock: rank 1 in MPI_Recv(source=0, tag=6) on 'w' waits for 0: rank 0 is idle (finished the "
        "command) (rank 1 has unmatched messages from 0 with tag 5)");
}

TEST_CASE("deadlock: a rank waited for names its last MPI error, idle, finished or in another call") {
  const lumpi::launcher::MpiError err{"MPI_ERR_OP", "MPI_Allreduce", "unknown op \"nope\""};
  RankView idle = with_state(State::Idle, "finished the command"), done = with_state(State::Finishing);
  idle.last_error = done.last_error = err;
  auto d = diagnose({{0, coll("MPI_Allreduce", {0, 1, 2}, 2)}, {1, coll("MPI_Allreduce", {0, 1, 2}, 2)}, {2, idle}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "deadlock: ranks 0-1 in MPI_Allreduce on 'w' wait for 2: rank 2 is idle (finished the command); "
                "its last MPI error: MPI_ERR_OP in MPI_Allreduce: unknown op \"nope\"");
  d = diagnose({{0, recv_from(1, 1)}, {1, done}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "deadlock: rank 0 in MPI_Recv(source=1, tag=1) on 'w' waits for 1: rank 1 is finished (its program "
                "ended); its last MPI error: MPI_ERR_OP in MPI_Allreduce: unknown op \"nope\"");
  RankView barrier = coll("MPI_Barrier", {0, 1}, 0);
  barrier.last_error = err;
  d = diagnose({{0, coll("MPI_Allreduce", {0, 1}, 1)}, {1, barrier}});
  REQUIRE(d.size() == 2);
  CHECK(d[0] == "deadlock: 0 -> 1 -> 0: rank 0 in MPI_Allreduce on 'w' waits for 1, rank 1 in MPI_Barrier on 'w' "
                "waits for 0; its last MPI error: MPI_ERR_OP in MPI_Allreduce: unknown op \"nope\"");
  CHECK(d[1].find("its last MPI error") == std::string::npos);
  // without an error, no clause
  d = diagnose({{0, coll("MPI_Allreduce", {0, 1}, 1)}, {1, with_state(State::Idle, "finished the command")}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "deadlock: rank 0 in MPI_Allreduce on 'w' waits for 1: rank 1 is idle (finished the command)");
}

TEST_CASE("deadlock: the waits a partner's error or different roots doom raise that error, and no others") {
  const lumpi::launcher::MpiError err{"MPI_ERR_OP", "MPI_Allreduce", "unknown op \"nope\""};
  RankView idle = with_state(State::Idle, "finished the command");
  idle.last_error = err;
  RankView a = coll("MPI_Allreduce", {0, 1, 2}, 2), b = coll("MPI_Allreduce", {0, 1, 2}, 2);
  a.serial = 7, b.serial = 9;
  auto f = wait_failures({{0, a}, {1, b}, {2, idle}});
  REQUIRE(f.size() == 2);
  CHECK(f[0].rank == 0);
  CHECK(f[0].serial == 7);
  CHECK(f[1].serial == 9);
  CHECK(f[0].error.text() == "MPI_ERR_OP in MPI_Allreduce: rank 2 of COMM_WORLD will not take part (its MPI_Allreduce "
                             "raised this error: unknown op \"nope\")");
  CHECK(wait_failure_lines(f) == std::vector<std::string>{"deadlock: ranks 0-1 raise the error of rank 2"});
  auto m = fail_msg(f[1], 4);
  CHECK(m.kind == lumpi::launcher::Kind::Fail);
  CHECK(m.epoch == 4);
  CHECK(m.serial == 9);
  CHECK(m.error == f[1].error);
  // an error in another call is named in the report, but fails no wait
  CHECK(wait_failures({{0, coll("MPI_Barrier", {0, 1, 2}, 2)}, {1, coll("MPI_Barrier", {0, 1, 2}, 2)}, {2, idle}})
            .empty());
  // no error, no failure; a rank that still runs dooms nothing
  CHECK(wait_failures({{0, a}, {1, b}, {2, with_state(State::Idle, "finished the command")}}).empty());
  CHECK(wait_failures({{0, a}, {1, b}, {2, with_state(State::Running)}}).empty());
  // different roots: every stuck rank of that collective raises MPI_ERR_ROOT
  RankView r0 = coll("MPI_Reduce", {0, 1, 2}, 1), r2 = coll("MPI_Reduce", {0, 1, 2}, 1);
  r0.where = "waiting in MPI_Reduce(root=0) on 'w'";
  r2.where = "waiting in MPI_Reduce(root=2) on 'w'";
  f = wait_failures({{0, r0}, {1, with_state(State::Idle, "finished the command")}, {2, r2}});
  REQUIRE(f.size() == 2);
  CHECK(f[1].rank == 2);
  CHECK(f[1].error.text() == "MPI_ERR_ROOT in MPI_Reduce: the ranks gave different roots (root=0 at rank 0, root=2 at "
                             "rank 2); MPI-3.1 §5.1: the root must have identical values on all processes");
  CHECK(wait_failure_lines(f) == std::vector<std::string>{"deadlock: ranks 0,2 raise MPI_ERR_ROOT (their roots differ)"});
}

TEST_CASE("deadlock: finished and dead peers are named as such") {
  auto d = diagnose({{0, recv_from(1, 1)}, {1, with_state(State::Finishing)}, {2, recv_from(3, 1)},
                     {3, with_state(State::Dead, "exit 3")}});
  REQUIRE(d.size() == 2);
  CHECK(d[0].find("rank 0 in MPI_Recv(source=1, tag=1) on 'w' waits for 1: rank 1 is finished") != std::string::npos);
  CHECK(d[1].find("waits for 3: rank 3 is dead (exit 3)") != std::string::npos);
}

TEST_CASE("deadlock: no diagnosis while a waited-for rank still runs or does not answer") {
  CHECK(diagnose({{0, recv_from(1, 1)}, {1, with_state(State::Running)}}).empty());
  CHECK(diagnose({{0, recv_from(1, 1)}, {1, with_state(State::Unknown)}}).empty());
  CHECK(diagnose({{0, recv_from(1, 1)}}).empty());  // rank 1 unknown
  // a chain that ends in a running rank is not stuck either
  CHECK(diagnose({{0, recv_from(1, 1)}, {1, recv_from(2, 1)}, {2, with_state(State::Running)}}).empty());
  // every member in the same collective: waiting on a live peer, no cycle claimed
  CHECK(diagnose({{0, coll("MPI_Barrier", {0, 1}, 1)}, {1, with_state(State::Running)}}).empty());
}

TEST_CASE("deadlock: a collective member that finished may have done its part: one live member is enough") {
  // MPI_Finalize's barrier at 4 ranks, seen under load: ranks 0 and 1 passed
  // it and ended, rank 2 is forwarding the release to rank 3 (running)
  std::map<int, RankView> views = {{0, with_state(State::Finishing)},
                                    {1, with_state(State::Finishing)},
                                    {2, with_state(State::Running)},
                                    {3, coll("MPI_Barrier", {0, 1, 2, 3}, 2)}};
  views[3].wait.waits = {0, 1, 2};
  CHECK(diagnose(views).empty());
  CHECK(stuck_ranks(views).empty());
  views[2] = with_state(State::Finishing);  // once none of them can act, it is stuck
  CHECK(stuck_ranks(views) == std::set<int>{3});
}

TEST_CASE("deadlock: a wildcard receive makes a possible deadlock, and a live sender none") {
  auto d = diagnose({{0, any_recv({1, 2})}, {1, recv_from(0, 1)}, {2, recv_from(0, 1)}});
  REQUIRE(!d.empty());
  CHECK(all(d).find("possible deadlock") == 0);
  CHECK(all(d).find("rank 0 in MPI_Recv(source=ANY_SOURCE, tag=1) on 'w' waits for any of 1-2") != std::string::npos);
  CHECK(diagnose({{0, any_recv({1, 2})}, {1, recv_from(0, 1)}, {2, with_state(State::Running)}}).empty());
  auto idle = diagnose({{0, any_recv({1, 2})}, {1, with_state(State::Idle, "finished the command")},
                        {2, with_state(State::Idle, "finished the command")}});
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].find("possible deadlock (a wildcard receive): rank 0 in") == 0);
  CHECK(idle[0].find("rank 1 is idle (finished the command), rank 2 is idle") != std::string::npos);
}

RankView lock_on(int target) {
  RankView v;
  v.state = State::Blocked;
  v.where = "waiting in MPI_Win_lock(target=" + std::to_string(target) + ")";
  v.wait.call = "MPI_Win_lock";
  v.wait.waits = {target};
  return v;
}

TEST_CASE("deadlock: a lock waits for its holder, not for the target, which answers while idle") {
  // MPI-3.1 §11.5.3: rank 0 holds the lock on 2 and waits for 1, which waits for that lock
  auto d = diagnose({{0, recv_from(1, 7)}, {1, lock_on(2)}, {2, with_state(State::Idle, "finished the command")}});
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "deadlock: 0 -> 1 -> 0: rank 0 in MPI_Recv(source=1, tag=7) on 'w' waits for 1, rank 1 in "
                "MPI_Win_lock(target=2) waits for any of 0,2 (whichever holds the lock)");
  // an idle target alone is no deadlock while another rank runs (it may hold the lock and unlock)
  CHECK(diagnose({{0, with_state(State::Running)}, {1, lock_on(2)}, {2, with_state(State::Idle)}}).empty());
  // everybody else has finished: the lock can never come
  auto idle = diagnose({{0, with_state(State::Idle, "finished the command")}, {1, lock_on(2)},
                        {2, with_state(State::Idle, "finished the command")}});
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].find("deadlock: rank 1 in MPI_Win_lock(target=2) waits for any of 0,2 (whichever holds the lock): "
                     "rank 0 is idle") == 0);
}

TEST_CASE("deadlock: every rank on a cycle is shown on one, the others as also stuck") {
  auto d = diagnose({{0, any_recv({1, 2})}, {1, recv_from(0, 3)}, {2, recv_from(0, 3)}, {3, recv_from(2, 3)}});
  REQUIRE(d.size() == 3);
  CHECK(d[0].find(": 0 -> 1 -> 0: ") != std::string::npos);
  CHECK(d[1].find(": 0 -> 2 -> 0: ") != std::string::npos);
  CHECK(d[2] == "also stuck: rank 3 in MPI_Recv(source=2, tag=3) on 'w' waits for 2");
}

TEST_CASE("deadlock: a longer cycle at an odd size, and two separate cycles") {
  auto d = diagnose({{0, recv_from(2, 0)}, {1, recv_from(0, 0)}, {2, recv_from(1, 0)}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].find("deadlock: 0 -> 2 -> 1 -> 0:") == 0);
  auto two = diagnose({{0, recv_from(1, 0)}, {1, recv_from(0, 0)}, {2, recv_from(3, 0)}, {3, recv_from(2, 0)},
                       {4, with_state(State::Idle)}});
  REQUIRE(two.size() == 2);
  CHECK(two[0].find("deadlock: 0 -> 1 -> 0") == 0);
  CHECK(two[1].find("deadlock: 2 -> 3 -> 2") == 0);
}

TEST_CASE("queue text: posted receives and unmatched messages, wildcards, lanes, unnamed communicators") {
  CHECK(queue_text({}) == "no posted receives, no unmatched messages");
  std::string t = queue_text({QueueEntry{true, -2, -4, kWorld * 4, -1, "MPI_COMM_WORLD", ""},
                              QueueEntry{false, 3, 7, 77 * 4, 1, "", ""},
                              QueueEntry{false, 1, 2, kWorld * 4 + 1, 16, "MPI_COMM_WORLD", ""}});
  CHECK(t ==
        "posted receive: source=ANY_SOURCE, tag=ANY_TAG on 'MPI_COMM_WORLD'\n"
        "unmatched message: from 3, tag=7 on 'unnamed communicator #77', 1 byte\n"
        "unmatched message: from 1, tag=2 on 'MPI_COMM_WORLD' (collective traffic), 16 bytes");
  CHECK(queue_text({QueueEntry{false, 2, 0, 12, -1, "counter", "2 MPI_Put issued to rank 2, not yet completed"}}) ==
        "one-sided on 'counter': 2 MPI_Put issued to rank 2, not yet completed");
}
