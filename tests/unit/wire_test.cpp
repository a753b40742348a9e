// tests/unit/wire_test.cpp: envelope header encoding and rejection of bad frames.
#include <doctest/doctest.h>

#include "core/transport/wire.hpp"

using namespace lumpi::core;

TEST_CASE("an envelope survives encoding") {
  Envelope e;
  e.context = 0x123456789abcdefULL;
  e.source = 63;
  e.tag = 1 << 29;
  e.epoch = 77;
  e.kind = MsgKind::SsendAck;
  e.wants_ack = true;
  e.seq = 99;
  std::string why;
  auto d = decode_header(encode_header(e), &why);
  REQUIRE(d);
  CHECK(d->context == e.context);
  CHECK(d->source == 63);
  CHECK(d->tag == e.tag);
  CHECK(d->epoch == 77);
  CHECK(d->kind == MsgKind::SsendAck);
  CHECK(d->wants_ack);
  CHECK(d->seq == 99);
}

TEST_CASE("headers of the wrong size are rejected with a reason") {
  std::string good = encode_header(Envelope{});
  std::string why;
  for (size_t n = 0; n < good.size(); ++n) CHECK_FALSE(decode_header(good.substr(0, n), &why));
  CHECK(why.find("expected 40") != std::string::npos);
  CHECK_FALSE(decode_header(good + "x", &why));
}

TEST_CASE("bad magic, unknown kinds, unknown flags and negative sources are rejected") {
  std::string why;
  std::string h = encode_header(Envelope{});
  std::string bad = h;
  bad[0] = 'X';
  CHECK_FALSE(decode_header(bad, &why));
  CHECK(why == "bad magic number");
  bad = h;
  bad[2] = 9;
  CHECK_FALSE(decode_header(bad, &why));
  bad = h;
  bad[3] = 4;
  CHECK_FALSE(decode_header(bad, &why));
  Envelope neg;
  neg.source = -5;
  CHECK_FALSE(decode_header(encode_header(neg), &why));
}

TEST_CASE("contexts of one communicator are distinct per lane") {
  CHECK(context_of(7, Lane::P2P) != context_of(7, Lane::Coll));
  CHECK(context_of(7, Lane::Coll) != context_of(7, Lane::Internal));
  CHECK(context_of(7, Lane::Internal) != context_of(8, Lane::P2P));
}

TEST_CASE("a --check type signature survives encoding; a header without one is unchanged") {
  Envelope e;
  e.wants_ack = true;
  CHECK(encode_header(e).size() == kHeaderSize);
  e.sig = WireSig{4, 0xfeedULL, -3, "MPI_Send of 2 x MPI_INT"};
  std::string h = encode_header(e);
  CHECK(h.size() == kHeaderSize + kSigSize + e.sig.text.size());
  std::string why;
  auto d = decode_header(h, &why);
  REQUIRE(d);
  CHECK(d->wants_ack);
  CHECK(d->sig.kind == 4);
  CHECK(d->sig.unit == 0xfeedULL);
  CHECK(d->sig.reps == -3);
  CHECK(d->sig.text == "MPI_Send of 2 x MPI_INT");
  CHECK(encode_header(*d) == h);
}

TEST_CASE("a signature extension cut short or of an unknown kind is rejected") {
  Envelope e;
  e.sig = WireSig{3, 1, 1, ""};
  std::string h = encode_header(e);
  std::string why;
  for (size_t n = kHeaderSize; n < h.size(); ++n) CHECK_FALSE(decode_header(h.substr(0, n), &why));
  CHECK(why.find("expected at least 57") != std::string::npos);
  std::string bad = h;
  bad[40] = 5;
  CHECK_FALSE(decode_header(bad, &why));
  CHECK(why == "unknown signature kind 5");
  bad[40] = 0;
  CHECK_FALSE(decode_header(bad, &why));
}
