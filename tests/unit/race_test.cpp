// tests/unit/race_test.cpp: the message-race check (core/engine/race.hpp):
// a message from another source that fits a completed wildcard receive and
// was not sent after it matched (its Lamport clock is not larger) is named,
// once, when a receive that could not have swapped with the wildcard one
// takes it; anything the receive could never have had is not.
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

TEST_CASE("race: another sender's message, waiting when the wildcard receive completed, then taken by name") {
  RaceCheck c;
  std::list<Message> waiting;
  waiting.push_back(Message{env(2, 9, 1), {}});
  CHECK_FALSE(c.completed(took(1, 5), waiting));  // a race only once the other order would strand something
  auto r = c.taken_by_name(env(2, 9, 1));
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
  CHECK_FALSE(c.taken_by_name(env(3, 9, 1)));  // that receive was reported: once
}

TEST_CASE("race: interchangeable wildcard receives are silent") {
  RaceCheck c;
  WildcardMatch first = took(1, 5), second = took(2, 5);
  first.taken = env(1, 9, 1);
  second.taken = env(2, 9, 2);  // could have matched the first (clock 2 <= 5), which the second could have had
  second.number = 4;
  CHECK_FALSE(c.completed(first, {}));
  CHECK_FALSE(c.completed(second, {}));

  RaceCheck tags;  // a wildcard receive of another tag could not have had the first message: a race
  WildcardMatch other_tag = took(2, 5, 7);
  other_tag.taken = env(2, 9, 2);
  other_tag.taken->tag = 7;
  WildcardMatch any_tag = took(1, 5, ANY_TAG);
  any_tag.taken = env(1, 9, 1);
  CHECK_FALSE(tags.completed(any_tag, {}));
  CHECK(tags.completed(other_tag, {}));
}

TEST_CASE("race: a rival left unreceived where a deadlock stopped the rank is said, once") {
  RaceCheck c;
  std::list<Message> waiting;
  waiting.push_back(Message{env(2, 9, 1), {}});
  CHECK_FALSE(c.completed(took(1, 5), waiting));
  auto found = c.stranded(waiting);
  REQUIRE(found.size() == 1);
  CHECK(found[0].text.find("received the message rank 11 sent, and the one rank 12 sent could have matched it as well") !=
        std::string::npos);
  CHECK(found[0].text.find("and rank 12's is still unreceived where the run stopped") != std::string::npos);
  CHECK(found[0].text.find("LUMPI_RACE=0:3:2") != std::string::npos);
  CHECK(c.stranded(waiting).empty());

  RaceCheck none;  // a message no wildcard receive could have had
  std::list<Message> late;
  late.push_back(Message{env(2, 9, 6), {}});
  CHECK_FALSE(none.completed(took(1, 5), late));
  CHECK(none.stranded(late).empty());
}

TEST_CASE("race: a later arrival counts only if its send did not come after the match") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 5), {}));
  for (const Envelope& e : {env(2, 9, 6), env(1, 9, 2), env(2, 8, 2), env(2, 9, 2, kCtx + 4)}) {
    c.arrived(e);  // sent after the match, the same sender (non-overtaking), another tag, another communicator
    CHECK_FALSE(c.taken_by_name(e));
  }
  Envelope concurrent = env(2, 9, 5);
  concurrent.seq = 1;
  c.arrived(concurrent);
  CHECK(c.taken_by_name(concurrent));
}

TEST_CASE("race: a named receive's message matched on arrival, before the wildcard receive was noted complete") {
  RaceCheck c;
  WildcardMatch first = took(1, 5);
  first.taken = env(1, 9, 1);
  CHECK_FALSE(c.completed(first, {}));
  auto r = c.taken_by_name(env(2, 9, 2));  // never waiting unmatched, never seen by arrived()
  REQUIRE(r);
  CHECK(r->text.find("LUMPI_RACE=0:3:2") != std::string::npos);  // the first receive takes rank 2's instead

  RaceCheck caused;  // the named receive's message was sent after the wildcard matched (a larger clock): no race
  CHECK_FALSE(caused.completed(first, {}));
  CHECK_FALSE(caused.taken_by_name(env(2, 9, 7)));
}

TEST_CASE("race: an ANY_TAG receive takes any tag; the same receive is said once") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 5, ANY_TAG), {}));
  c.arrived(env(2, 3, 1));
  CHECK(c.taken_by_name(env(2, 3, 1)));
  Envelope third = env(3, 3, 1);
  c.arrived(third);
  CHECK_FALSE(c.taken_by_name(third));  // the same receive as before
}

TEST_CASE("race: only the last kKeep wildcard receives are kept") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 5), {}));
  for (size_t i = 0; i < RaceCheck::kKeep; ++i) CHECK_FALSE(c.completed(took(1, 100, 7), {}));
  c.arrived(env(2, 9, 1));
  CHECK_FALSE(c.taken_by_name(env(2, 9, 1)));  // the tag-9 receive is no longer kept
}

TEST_CASE("race: when more messages are suspected than kept, the oldest suspicion goes first") {
  RaceCheck c;
  CHECK_FALSE(c.completed(took(1, 1000), {}));
  auto from = [](int source, uint64_t seq) {
    Envelope e = env(source, 9, 1);
    e.seq = seq;
    return e;
  };
  for (uint64_t s = 0; s < 4 * RaceCheck::kKeep; ++s) c.arrived(from(5, 100 + s));
  c.arrived(from(2, 1));      // the newest, with the smallest key
  c.arrived(from(5, 10000));  // one more: the oldest is dropped, not the smallest key
  for (size_t i = 0; i < RaceCheck::kKeep; ++i) CHECK_FALSE(c.completed(took(1, 100, 7), {}));  // the receive goes
  CHECK(c.taken_by_name(from(2, 1)));  // its suspicion of rank 2's message stays
}

TEST_CASE("race: LUMPI_RACE's choices for one rank; other ranks' and malformed entries are left out") {
  auto m = parse_replay("0:3:2,1:1:0,0:5:1", 0);
  CHECK(m == std::map<uint64_t, int>{{3, 2}, {5, 1}});
  CHECK(parse_replay("0:3:2,1:1:0", 1) == std::map<uint64_t, int>{{1, 0}});
  CHECK(parse_replay(nullptr, 0).empty());
  CHECK(parse_replay("", 0).empty());
  CHECK(parse_replay("0:0:1,0:2:-1,0:x:1,0:2:1x,0:2", 0).empty());
}
