// tests/unit/error_test.cpp: positions in core messages (core::at), counted
// by each door as its users count, bytes a message quotes from a peer, and
// the last error deliver() handed to the program.
#include <doctest/doctest.h>

#include <string>

#include "core/base/errhandler.hpp"
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

TEST_CASE("deliver keeps the last error's message under every handler, until forgotten") {
  forget_delivered();
  CHECK(last_delivered().code == 0);
  auto user = std::make_shared<UserErrhandler>(HandlerObject::Comm);
  const Error errors[] = {Error(ErrClass::Op, "MPI_Allreduce", "unknown op \"nope\""),
                          Error(ErrClass::Rank, "MPI_Send", "dest 9 is not a rank of the communicator"),
                          Error(ErrClass::Tag, "MPI_Recv", "tag -7 is negative")};
  const Errhandler handlers[] = {HandlerKind::Raise, HandlerKind::Return, Errhandler(user)};
  for (int i = 0; i < 3; ++i) {
    deliver(handlers[i], delivered(errors[i]));
    CHECK(last_delivered().text() == errors[i].what());
    CHECK(last_delivered().call == errors[i].func());
  }
  forget_delivered();
  CHECK(last_delivered().code == 0);
}
