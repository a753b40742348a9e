// tests/unit/race_test.cpp: the message-race check (core/engine/race.hpp):
// a message from another source that fits a completed wildcard receive and
// was not sent after it matched (its Lamport clock is not larger) is named,
// once; anything the receive could never have had is not.
#include <doctest/doctest.h>

#include "core/base/constants.hpp"
#include "core/engine/race.hpp"

using namespace lumpi::core;

namespace {

constexpr uint64_t kCtx = 8;  // a point-to-point lane

Envelope env(int source, int tag, uint64_t clock, uint64_t ctx = kCtx) {
  Envelope e;
  e.context = ctx;
  e.source = source;
  e.tag = tag;
  e.clock = clock;
  return e;
}

// A receive from ANY_SOURCE with `tag` that took rank `took`'s message when its clock was `clock`.
WildcardMatch took(int source, uint64_t clock, int tag = 9) {
  return {kCtx, tag, source, clock, "MPI_Recv(source=ANY_SOURCE, tag=9) on 'w'", [](int r) { return r + 10; }, 0, 3,
          false, {}};
}

}  // namespace

TEST_CASE("race: another sender's message waiting unmatched when the wildcard receive completed is named") {
  RaceCheck c;
  std::list<Message> waiting;
  waiting.push_back(Message{env(2, 9, 1), {}});
  auto r = c.completed(took(1, 5), waiting);
  REQUIRE(r);
  CHECK(r->text.rfind("MPI_Recv(source=ANY_SOURCE, tag=9) on 'w' received the message rank 11 sent, and the one rank 12 "
                      "sent could have matched it as well",
                      0) == 0);
  CHECK(r->text.find("MPI-3.1 §3.5") != std::string::npos);
  CHECK(r->text.find("(to run it with the other order: LUMPI_RACE=0:3:2)") != std::string::npos);
  // what :trace draws: the other message, by its sender and send clock
  CHECK(r->other == 2);
  CHECK(r->other_clock == 1);
  CHECK(r->call == "MPI_Recv(source=ANY_SOURCE, tag=9) on 'w'");
  CHECK_FALSE(c.arrived(env(3, 9, 1)));  // that receive was reported: once
}

TEST_CASE("race: a later arrival counts only if its send did not come after the match") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 5), {}));
  CHECK_FALSE(c.arrived(env(2, 9, 6)));   // sent after the match (a larger clock)
  CHECK_FALSE(c.arrived(env(1, 9, 2)));   // the same sender: non-overtaking, no race
  CHECK_FALSE(c.arrived(env(2, 8, 2)));   // another tag
  CHECK_FALSE(c.arrived(env(2, 9, 2, kCtx + 4)));  // another communicator
  CHECK(c.arrived(env(2, 9, 5)));          // concurrent: could have matched
}

TEST_CASE("race: two wildcard receives posted together: the second's message could have matched the first") {
  RaceCheck c;
  WildcardMatch first = took(1, 5), second = took(2, 5);
  first.taken = env(1, 9, 1);
  second.taken = env(2, 9, 2);  // sent concurrently with the first's match (clock 2 <= 5)
  second.number = 4;
  CHECK_FALSE(c.completed(first, {}));
  auto r = c.completed(second, {});
  REQUIRE(r);
  CHECK(r->other == 2);
  CHECK(r->text.find("received the message rank 11 sent, and the one rank 12 sent") != std::string::npos);
  CHECK(r->text.find("LUMPI_RACE=0:3:2") != std::string::npos);  // the first receive takes rank 2's instead

  RaceCheck caused;  // the second message was sent after the first receive matched (a larger clock): no race
  WildcardMatch after = took(2, 9);
  after.taken = env(2, 9, 7);
  CHECK_FALSE(caused.completed(first, {}));
  CHECK_FALSE(caused.completed(after, {}));
}

TEST_CASE("race: an ANY_TAG receive takes any tag; the same text is said once") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 5, ANY_TAG), {}));
  CHECK(c.arrived(env(2, 3, 1)));
  CHECK_FALSE(c.completed(took(1, 5, ANY_TAG), {}));
  CHECK_FALSE(c.arrived(env(2, 3, 1)));  // the same receive, senders and text as before
}

TEST_CASE("race: only the last kKeep wildcard receives are kept") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 5), {}));
  for (size_t i = 0; i < RaceCheck::kKeep; ++i) CHECK_FALSE(c.completed(took(1, 100, 7), {}));
  CHECK_FALSE(c.arrived(env(2, 9, 1)));  // the tag-9 receive is no longer kept
}

TEST_CASE("race: LUMPI_RACE's choices for one rank; other ranks' and malformed entries are left out") {
  auto m = parse_replay("0:3:2,1:1:0,0:5:1", 0);
  CHECK(m == std::map<uint64_t, int>{{3, 2}, {5, 1}});
  CHECK(parse_replay("0:3:2,1:1:0", 1) == std::map<uint64_t, int>{{1, 0}});
  CHECK(parse_replay(nullptr, 0).empty());
  CHECK(parse_replay("", 0).empty());
  CHECK(parse_replay("0:0:1,0:2:-1,0:x:1,0:2:1x,0:2", 0).empty());
}
