// tests/unit/match_test.cpp: envelope matching and MPI's ordering rules.
#include <doctest/doctest.h>

#include "core/base/constants.hpp"
#include "core/engine/match.hpp"

using namespace lumpi::core;

namespace {

Message msg(uint64_t ctx, int source, int tag, const std::string& body, uint32_t epoch = 0) {
  Message m;
  m.env.context = ctx;
  m.env.source = source;
  m.env.tag = tag;
  m.env.epoch = epoch;
  m.body = Body(std::string(body));
  return m;
}

PostedRecv recv(uint64_t ctx, int source, int tag) {
  PostedRecv r;
  r.context = ctx;
  r.source = source;
  r.tag = tag;
  return r;
}

std::string body(const PostedRecv& r) { return r.msg.body.str(); }

}  // namespace

TEST_CASE("an unexpected message is kept until a matching receive is posted") {
  Matcher m;
  CHECK(m.arrive(msg(4, 1, 7, "a")) == nullptr);
  auto r = recv(4, 1, 7);
  CHECK(m.post(&r));
  CHECK(body(r) == "a");
  CHECK(m.unexpected_count() == 0);
}

TEST_CASE("a posted receive is completed by the first matching arrival") {
  Matcher m;
  auto r = recv(4, ANY_SOURCE, ANY_TAG);
  CHECK_FALSE(m.post(&r));
  CHECK(m.arrive(msg(4, 2, 3, "x")) == &r);
  CHECK(r.done);
  CHECK(m.posted_count() == 0);
}

TEST_CASE("context, source and tag must all agree; wildcards only for source and tag") {
  Matcher m;
  m.arrive(msg(4, 1, 7, "wrong context"));
  m.arrive(msg(8, 2, 7, "wrong source"));
  m.arrive(msg(8, 1, 6, "wrong tag"));
  m.arrive(msg(8, 1, 7, "right"));
  auto r = recv(8, 1, 7);
  CHECK(m.post(&r));
  CHECK(body(r) == "right");
  CHECK(m.unexpected_count() == 3);
}

TEST_CASE("messages from one sender in one context never overtake each other") {
  Matcher m;
  for (int i = 0; i < 5; ++i) m.arrive(msg(4, 1, i % 2, std::to_string(i)));
  auto any = recv(4, 1, ANY_TAG);
  m.post(&any);
  CHECK(body(any) == "0");
  auto tag1 = recv(4, 1, 1);
  m.post(&tag1);
  CHECK(body(tag1) == "1");
  auto next = recv(4, ANY_SOURCE, ANY_TAG);
  m.post(&next);
  CHECK(body(next) == "2");
}

TEST_CASE("receives posted first are matched in posting order") {
  Matcher m;
  auto r1 = recv(4, ANY_SOURCE, 5), r2 = recv(4, ANY_SOURCE, 5);
  m.post(&r1);
  m.post(&r2);
  CHECK(m.arrive(msg(4, 0, 5, "first")) == &r1);
  CHECK(m.arrive(msg(4, 0, 5, "second")) == &r2);
  CHECK(body(r1) == "first");
  CHECK(body(r2) == "second");
}

TEST_CASE("probe finds the oldest match without taking it") {
  Matcher m;
  m.arrive(msg(4, 3, 1, "p"));
  const Message* p = m.probe(4, ANY_SOURCE, ANY_TAG);
  REQUIRE(p);
  CHECK(p->env.source == 3);
  CHECK(m.unexpected_count() == 1);
  CHECK(m.probe(4, 2, ANY_TAG) == nullptr);
}

TEST_CASE("a cancelled receive no longer matches") {
  Matcher m;
  auto r = recv(4, ANY_SOURCE, ANY_TAG);
  m.post(&r);
  CHECK(m.cancel(&r));
  CHECK_FALSE(m.cancel(&r));
  CHECK(m.arrive(msg(4, 0, 0, "late")) == nullptr);
  CHECK_FALSE(r.done);
}

TEST_CASE("dropping an interrupted epoch forgets its messages and abandons posted receives") {
  Matcher m;
  m.arrive(msg(4, 0, 0, "old", 1));
  m.arrive(msg(4, 0, 0, "stale", 2));
  auto r = recv(4, 5, 5);
  r.epoch = 2;
  auto earlier = recv(4, 6, 6);
  earlier.epoch = 1;
  m.post(&r);
  m.post(&earlier);
  m.drop_epoch(2);
  m.abandon_posted(2);
  CHECK(r.abandoned);
  CHECK_FALSE(earlier.abandoned);
  CHECK(m.posted_count() == 1);
  m.cancel(&earlier);
  CHECK(m.unexpected_count() == 1);
  auto any = recv(4, ANY_SOURCE, ANY_TAG);
  m.post(&any);
  CHECK(body(any) == "old");
}
