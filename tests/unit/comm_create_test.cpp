// tests/unit/comm_create_test.cpp: the local parts of core/comm/comm_create:
// communicator comparison (seed §6.4.1, §6.6.1), info hints (§6.4.4) and
// the free checks (§6.2.4). No message is sent; one Engine on an inproc
// endpoint stands in for the process.
#include <doctest/doctest.h>

#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

using namespace lumpi::core;

namespace {

Engine& engine() {
  static Engine e(0, 8, "inproc://comm-create-test");
  return e;
}

CommPtr intra(uint64_t base, group::Members m) {
  return std::make_shared<Comm>(engine(), base, std::move(m), group::Members{}, false);
}

CommPtr inter(uint64_t base, group::Members local, group::Members remote) {
  return std::make_shared<Comm>(engine(), base, std::move(local), std::move(remote), true);
}

ErrClass class_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.cls();
  }
  return ErrClass::Success;
}

}  // namespace

TEST_CASE("compare is ident only for the same object") {
  auto a = intra(100, {0, 1, 2});
  CHECK(comm_compare(*a, *a) == CommRelation::Ident);
  auto b = intra(101, {0, 1, 2});
  CHECK(comm_compare(*a, *b) == CommRelation::Congruent);
}

TEST_CASE("compare gives similar for a reordered group and unequal otherwise") {
  auto a = intra(100, {0, 1, 2});
  CHECK(comm_compare(*a, *intra(102, {2, 0, 1})) == CommRelation::Similar);
  CHECK(comm_compare(*a, *intra(103, {0, 1})) == CommRelation::Unequal);
  CHECK(comm_compare(*a, *intra(104, {0, 1, 3})) == CommRelation::Unequal);
}

TEST_CASE("compare of an intra- and an intercommunicator is unequal") {
  auto a = intra(100, {0, 1});
  auto x = inter(105, {0, 1}, {2, 3});
  CHECK(comm_compare(*a, *x) == CommRelation::Unequal);
  CHECK(comm_compare(*x, *a) == CommRelation::Unequal);
}

TEST_CASE("intercommunicators combine the local and remote relations") {
  auto x = inter(105, {0, 1}, {2, 3});
  CHECK(comm_compare(*x, *inter(106, {0, 1}, {2, 3})) == CommRelation::Congruent);
  CHECK(comm_compare(*x, *inter(107, {1, 0}, {2, 3})) == CommRelation::Similar);
  CHECK(comm_compare(*x, *inter(108, {0, 1}, {3, 2})) == CommRelation::Similar);
  CHECK(comm_compare(*x, *inter(109, {1, 0}, {3, 2})) == CommRelation::Similar);
  CHECK(comm_compare(*x, *inter(110, {0, 1}, {2, 4})) == CommRelation::Unequal);
  CHECK(comm_compare(*x, *inter(111, {1, 0}, {2})) == CommRelation::Unequal);
}

TEST_CASE("relation names are the API's strings") {
  CHECK(std::string(relation_name(CommRelation::Ident)) == "ident");
  CHECK(std::string(relation_name(CommRelation::Congruent)) == "congruent");
  CHECK(std::string(relation_name(CommRelation::Similar)) == "similar");
  CHECK(std::string(relation_name(CommRelation::Unequal)) == "unequal");
}

TEST_CASE("hints list every used key with its default") {
  auto c = intra(120, {0});
  Hints h = hints_used(*c);
  CHECK(h.size() == 4);
  CHECK(h["mpi_assert_no_any_tag"] == "false");
  CHECK(h["mpi_assert_no_any_source"] == "false");
  CHECK(h["mpi_assert_exact_length"] == "false");
  CHECK(h["mpi_assert_allow_overtaking"] == "false");
}

TEST_CASE("setting a subset of hints leaves the others; unknown keys and bad values are ignored") {
  auto c = intra(121, {0});
  set_hints(*c, {{"mpi_assert_no_any_tag", "TRUE"}, {"unknown", "x"}});
  set_hints(*c, {{"mpi_assert_exact_length", "true"}, {"mpi_assert_no_any_source", "maybe"}});
  Hints h = hints_used(*c);
  CHECK(h.size() == 4);
  CHECK(h["mpi_assert_no_any_tag"] == "true");
  CHECK(h["mpi_assert_exact_length"] == "true");
  CHECK(h["mpi_assert_no_any_source"] == "false");
  CHECK(h.count("unknown") == 0);
}

TEST_CASE("COMM_WORLD and COMM_SELF cannot be freed; a freed communicator cannot be freed again") {
  auto w = Comm::world(engine());
  auto s = Comm::self(engine());
  CHECK(class_of([&] { comm_free(*w); }) == ErrClass::Comm);
  CHECK(class_of([&] { comm_free(*s); }) == ErrClass::Comm);
  CHECK_FALSE(w->freed());
  auto c = intra(130, {0});
  comm_free(*c);
  CHECK(c->freed());
  CHECK(class_of([&] { comm_free(*c); }) == ErrClass::Comm);
  CHECK(class_of([&] { c->check_usable("MPI_Comm_size"); }) == ErrClass::Comm);
}

TEST_CASE("a pending communicator is unusable until completed") {
  auto c = intra(0, {0});
  c->set_pending();
  CHECK(class_of([&] { c->check_usable("MPI_Comm_size"); }) == ErrClass::Comm);
  c->complete_pending(140);
  CHECK(c->base() == 140);
  CHECK(class_of([&] { c->check_usable("MPI_Comm_size"); }) == ErrClass::Success);
}

TEST_CASE("split rejects a negative colour other than UNDEFINED before communicating") {
  auto c = intra(150, {0, 1});
  CHECK(class_of([&] { comm_split(*c, -2, 0); }) == ErrClass::Arg);
}

TEST_CASE("create_group rejects wildcard tags, intercommunicators and foreign groups locally") {
  auto c = intra(160, {0, 1});
  CHECK(class_of([&] { comm_create_group(*c, {0}, ANY_TAG); }) == ErrClass::Tag);
  CHECK(class_of([&] { comm_create_group(*c, {0}, TAG_UB + 1); }) == ErrClass::Tag);
  CHECK(class_of([&] { comm_create_group(*c, {5}, 0); }) == ErrClass::Group);
  CHECK(class_of([&] { comm_create_group(*inter(161, {0}, {1}), {0}, 0); }) == ErrClass::Comm);
  CHECK(comm_create_group(*c, {1}, 0) == nullptr);  // not a member: local, nil
}

TEST_CASE("intercomm_create and merge check their arguments locally") {
  auto local = intra(170, {0, 1});
  auto peer = intra(171, {0, 1, 2, 3});
  CHECK(class_of([&] { intercomm_create(*local, 2, peer.get(), 2, 0); }) == ErrClass::Rank);
  CHECK(class_of([&] { intercomm_create(*local, 0, peer.get(), 2, ANY_TAG); }) == ErrClass::Tag);
  CHECK(class_of([&] { intercomm_create(*local, 0, peer.get(), 4, 0); }) == ErrClass::Rank);
  CHECK(class_of([&] { intercomm_create(*local, 0, peer.get(), 0, 0); }) == ErrClass::Rank);
  CHECK(class_of([&] { intercomm_create(*local, 0, nullptr, 2, 0); }) == ErrClass::Comm);
  CHECK(class_of([&] { intercomm_create(*inter(172, {0}, {1}), 0, peer.get(), 1, 0); }) == ErrClass::Comm);
  CHECK(class_of([&] { intercomm_merge(*local, true); }) == ErrClass::Comm);
}

TEST_CASE("split_type rejects unknown types and intercommunicators locally") {
  auto c = intra(180, {0, 1});
  CHECK(class_of([&] { comm_split_type(*c, false, "bogus", 0, {}); }) == ErrClass::Arg);
  CHECK(class_of([&] { comm_split_type(*inter(181, {0}, {1}), false, "shared", 0, {}); }) == ErrClass::Comm);
}
