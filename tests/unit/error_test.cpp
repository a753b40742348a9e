// tests/unit/error_test.cpp: positions in core messages (core::at), counted
// by each door as its users count, and bytes a message quotes from a peer.
#include <doctest/doctest.h>

#include <string>

#include "core/base/error.hpp"

using namespace lumpi::core;

TEST_CASE("a position reads ranks[0] for C and C++, ranks[1] for Lua") {
  Error e(ErrClass::Rank, "MPI_Group_incl", at("ranks", 0) + " = 9 is out of range; " + at("ranges", 11));
  CHECK(e.message() == "ranks[0] = 9 is out of range; ranges[11]");
  CHECK(e.message_from(1) == "ranks[1] = 9 is out of range; ranges[12]");
  CHECK(std::string(e.what()) == "MPI_ERR_RANK in MPI_Group_incl: ranks[0] = 9 is out of range; ranges[11]");
}

TEST_CASE("a mark that at() did not write stays as it is") {
  const std::string quoted = std::string("key '\x1e") + "rak' and '\x1e" + std::string(25, '7') + "'";
  Error e(ErrClass::Arg, "decode", quoted);  // must not throw
  CHECK(e.message() == quoted);
  CHECK(e.message_from(1) == quoted);
}
