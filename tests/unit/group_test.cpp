// tests/unit/group_test.cpp: unit tests for core/comm/group (MPI group algebra, seed §6.3).
#include <doctest/doctest.h>

#include <functional>
#include <numeric>
#include <string>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/comm/group.hpp"

using namespace lumpi::core;
using namespace lumpi::core::group;

namespace {

// World ranks 0..n-1, the group of a world of n processes.
Members world(int n) {
  Members g(n);
  std::iota(g.begin(), g.end(), 0);
  return g;
}

// Runs `call`, requires it to throw core::Error with `cls` and `func`, and
// returns the message so a test can check what it names.
std::string error_of(const std::function<void()>& call, ErrClass cls,
                     std::string_view func) {
  try {
    call();
  } catch (const Error& e) {
    CHECK(e.cls() == cls);
    CHECK(e.func() == func);
    CHECK(e.message().find('\n') == std::string::npos);
    return e.message();
  }
  FAIL("expected core::Error from " << func);
  return {};
}

const Members kEmpty{};

}  // namespace

// ---------------------------------------------------------------- rank_of

TEST_CASE("rank_of gives the index of a world rank in the group") {
  const Members g{5, 2, 9};
  CHECK(rank_of(g, 5) == 0);
  CHECK(rank_of(g, 2) == 1);
  CHECK(rank_of(g, 9) == 2);
}

TEST_CASE("rank_of gives UNDEFINED for non-members and for the empty group") {
  CHECK(rank_of(Members{5, 2, 9}, 3) == UNDEFINED);
  CHECK(rank_of(kEmpty, 0) == UNDEFINED);
}

// ---------------------------------------------------------------- translate

TEST_CASE("translate maps each rank of group1 to the same process's rank in group2") {
  const Members g1 = world(6);
  const Members g2{4, 2, 0};
  CHECK(translate(g1, {0, 2, 4}, g2) == std::vector<int>{2, 1, 0});
}

TEST_CASE("translate gives UNDEFINED for processes absent from group2") {
  CHECK(translate(world(6), {1, 4, 5}, Members{4, 2, 0}) ==
        std::vector<int>{UNDEFINED, 0, UNDEFINED});
}

TEST_CASE("translate maps PROC_NULL to PROC_NULL") {
  CHECK(translate(world(3), {PROC_NULL, 1, PROC_NULL}, Members{1}) ==
        std::vector<int>{PROC_NULL, 0, PROC_NULL});
}

TEST_CASE("translate of no ranks gives no ranks") {
  CHECK(translate(world(3), {}, world(3)).empty());
  CHECK(translate(kEmpty, {}, kEmpty).empty());
}

TEST_CASE("translate into the empty group gives UNDEFINED except for PROC_NULL") {
  CHECK(translate(world(3), {0, PROC_NULL, 2}, kEmpty) ==
        std::vector<int>{UNDEFINED, PROC_NULL, UNDEFINED});
}

TEST_CASE("translate into the same group is the identity") {
  CHECK(translate(Members{7, 3, 5}, {2, 0, 1}, Members{7, 3, 5}) ==
        std::vector<int>{2, 0, 1});
}

TEST_CASE("translate from world ranks into a subset group, as in the text's use case") {
  const Members sub = incl(world(10), {2, 4, 6, 8});
  CHECK(translate(world(10), {0, 2, 4, 6, 8, 9}, sub) ==
        std::vector<int>{UNDEFINED, 0, 1, 2, 3, UNDEFINED});
}

TEST_CASE("translate rejects a rank at or past the size of group1 with MPI_ERR_RANK") {
  const std::string msg = error_of([] { translate(world(4), {0, 1, 7}, world(8)); },
                                   ErrClass::Rank, "MPI_Group_translate_ranks");
  CHECK(msg == "ranks[2] = 7 is out of range for group1 of size 4");
  error_of([] { translate(world(4), {4}, world(8)); }, ErrClass::Rank,
           "MPI_Group_translate_ranks");
}

TEST_CASE("translate rejects negative ranks other than PROC_NULL with MPI_ERR_RANK") {
  for (int bad : {-5, ANY_SOURCE, ROOT, UNDEFINED}) {
    CAPTURE(bad);
    const std::string msg = error_of([bad] { translate(world(4), {bad}, world(4)); },
                                     ErrClass::Rank, "MPI_Group_translate_ranks");
    CHECK(msg.find("ranks[0] = " + std::to_string(bad)) == 0);
  }
}

TEST_CASE("translate rejects any rank when group1 is empty, except PROC_NULL") {
  error_of([] { translate(kEmpty, {0}, world(4)); }, ErrClass::Rank,
           "MPI_Group_translate_ranks");
  CHECK(translate(kEmpty, {PROC_NULL}, world(4)) == std::vector<int>{PROC_NULL});
}

// ---------------------------------------------------------------- compare

TEST_CASE("compare gives Ident for the same members in the same order") {
  CHECK(compare(Members{3, 1, 2}, Members{3, 1, 2}) == Relation::Ident);
}

TEST_CASE("compare gives Ident for two empty groups") {
  CHECK(compare(kEmpty, Members{}) == Relation::Ident);
}

TEST_CASE("compare gives Similar for the same members in a different order") {
  CHECK(compare(Members{3, 1, 2}, Members{1, 2, 3}) == Relation::Similar);
}

TEST_CASE("compare gives Unequal for different members or different sizes") {
  CHECK(compare(Members{3, 1, 2}, Members{3, 1, 4}) == Relation::Unequal);
  CHECK(compare(Members{3, 1, 2}, Members{3, 1}) == Relation::Unequal);
  CHECK(compare(Members{3, 1}, Members{3, 1, 2}) == Relation::Unequal);
  CHECK(compare(kEmpty, Members{0}) == Relation::Unequal);
}

TEST_CASE("compare is by content: incl of every rank in order is Ident to the group") {
  const Members g{8, 6, 4};
  CHECK(compare(incl(g, {0, 1, 2}), g) == Relation::Ident);
  CHECK(compare(incl(g, {2, 0, 1}), g) == Relation::Similar);
}

// ---------------------------------------------------------------- union

TEST_CASE("union keeps group1 order then appends new members of group2 in group2 order") {
  CHECK(set_union(Members{5, 1, 3}, Members{4, 3, 0, 5, 2}) == Members{5, 1, 3, 4, 0, 2});
}

TEST_CASE("union is not commutative: a with b and b with a are Similar") {
  const Members a{0, 1, 2}, b{3, 2, 1};
  CHECK(set_union(a, b) == Members{0, 1, 2, 3});
  CHECK(set_union(b, a) == Members{3, 2, 1, 0});
  CHECK(compare(set_union(a, b), set_union(b, a)) == Relation::Similar);
}

TEST_CASE("union is associative") {
  const Members a{4, 0}, b{1, 4, 7}, c{7, 2, 0, 9};
  CHECK(set_union(set_union(a, b), c) == set_union(a, set_union(b, c)));
}

TEST_CASE("union with itself or with the empty group gives the other group unchanged") {
  const Members a{2, 0, 1};
  CHECK(set_union(a, a) == a);
  CHECK(set_union(a, kEmpty) == a);
  CHECK(set_union(kEmpty, a) == a);
  CHECK(set_union(kEmpty, kEmpty).empty());
}

// ---------------------------------------------------------------- intersection

TEST_CASE("intersection keeps the members of group1 that are in group2, in group1 order") {
  CHECK(intersection(Members{5, 1, 3, 0}, Members{0, 3, 9, 5}) == Members{5, 3, 0});
}

TEST_CASE("intersection is not commutative: order follows the first group") {
  const Members a{0, 1, 2}, b{2, 1, 7};
  CHECK(intersection(a, b) == Members{1, 2});
  CHECK(intersection(b, a) == Members{2, 1});
}

TEST_CASE("intersection is associative") {
  const Members a{4, 0, 7, 2}, b{2, 7, 4, 9}, c{7, 2, 4};
  CHECK(intersection(intersection(a, b), c) == intersection(a, intersection(b, c)));
}

TEST_CASE("intersection of disjoint groups or with the empty group is empty") {
  CHECK(intersection(Members{0, 1}, Members{2, 3}).empty());
  CHECK(intersection(Members{0, 1}, kEmpty).empty());
  CHECK(intersection(kEmpty, Members{0, 1}).empty());
}

TEST_CASE("intersection of a group with itself is the group") {
  const Members a{3, 0, 2};
  CHECK(intersection(a, a) == a);
}

// ---------------------------------------------------------------- difference

TEST_CASE("difference keeps the members of group1 not in group2, in group1 order") {
  CHECK(difference(Members{5, 1, 3, 0, 2}, Members{3, 9, 5}) == Members{1, 0, 2});
}

TEST_CASE("difference of a group with itself is empty") {
  CHECK(difference(Members{3, 0, 2}, Members{2, 3, 0}).empty());
}

TEST_CASE("difference with the empty group is the group; the empty group minus anything is empty") {
  const Members a{3, 0, 2};
  CHECK(difference(a, kEmpty) == a);
  CHECK(difference(kEmpty, a).empty());
}

// ---------------------------------------------------------------- incl

TEST_CASE("incl puts the process with rank ranks[i] at rank i of the new group") {
  const Members g{10, 11, 12, 13, 14};
  CHECK(incl(g, {3, 0, 4}) == Members{13, 10, 14});
}

TEST_CASE("incl can reorder a group") {
  CHECK(incl(Members{10, 11, 12}, {2, 1, 0}) == Members{12, 11, 10});
}

TEST_CASE("incl of no ranks gives the empty group") {
  CHECK(incl(world(4), {}).empty());
  CHECK(incl(kEmpty, {}).empty());
}

TEST_CASE("incl of ranks 2 4 6 8 of a world of ten gives those processes, as in Example 4") {
  const Members sub = incl(world(10), {2, 4, 6, 8});
  CHECK(sub == Members{2, 4, 6, 8});
  CHECK(rank_of(sub, 6) == 2);
  CHECK(rank_of(sub, 3) == UNDEFINED);
}

TEST_CASE("incl rejects a rank past the end of the group with MPI_ERR_RANK") {
  const std::string msg =
      error_of([] { incl(world(4), {0, 1, 2, 7}); }, ErrClass::Rank, "MPI_Group_incl");
  CHECK(msg == "ranks[3] = 7 is out of range for a group of size 4");
  error_of([] { incl(world(4), {4}); }, ErrClass::Rank, "MPI_Group_incl");
}

TEST_CASE("incl rejects negative ranks, PROC_NULL included, with MPI_ERR_RANK") {
  error_of([] { incl(world(4), {-3}); }, ErrClass::Rank, "MPI_Group_incl");
  const std::string msg =
      error_of([] { incl(world(4), {1, PROC_NULL}); }, ErrClass::Rank, "MPI_Group_incl");
  CHECK(msg == "ranks[1] = -1 is out of range for a group of size 4");
}

TEST_CASE("incl rejects any rank of the empty group with MPI_ERR_RANK") {
  error_of([] { incl(kEmpty, {0}); }, ErrClass::Rank, "MPI_Group_incl");
}

TEST_CASE("incl rejects a duplicate rank with MPI_ERR_RANK naming both positions") {
  const std::string msg =
      error_of([] { incl(world(4), {2, 0, 2}); }, ErrClass::Rank, "MPI_Group_incl");
  CHECK(msg == "ranks[2] = 2 repeats ranks[0]");
}

TEST_CASE("incl rejects more ranks than the group has, since one must repeat") {
  error_of([] { incl(world(2), {0, 1, 0}); }, ErrClass::Rank, "MPI_Group_incl");
}

// ---------------------------------------------------------------- excl

TEST_CASE("excl removes the listed ranks and keeps group order whatever the order of ranks") {
  const Members g{10, 11, 12, 13, 14};
  CHECK(excl(g, {3, 0}) == Members{11, 12, 14});
  CHECK(excl(g, {0, 3}) == Members{11, 12, 14});
}

TEST_CASE("excl of no ranks gives the same group") {
  const Members g{3, 1, 2};
  CHECK(excl(g, {}) == g);
  CHECK(compare(excl(g, {}), g) == Relation::Ident);
  CHECK(excl(kEmpty, {}).empty());
}

TEST_CASE("excl of every rank gives the empty group") {
  CHECK(excl(Members{3, 1, 2}, {2, 0, 1}).empty());
}

TEST_CASE("excl of rank 0 from the world group leaves the others, as in commslave") {
  const Members grprem = excl(world(5), {0});
  CHECK(grprem == Members{1, 2, 3, 4});
  CHECK(rank_of(grprem, 0) == UNDEFINED);
  CHECK(rank_of(grprem, 2) == 1);
  CHECK(compare(grprem, world(5)) == Relation::Unequal);
}

TEST_CASE("excl rejects an out-of-range rank with MPI_ERR_RANK") {
  const std::string msg =
      error_of([] { excl(world(4), {1, 4}); }, ErrClass::Rank, "MPI_Group_excl");
  CHECK(msg == "ranks[1] = 4 is out of range for a group of size 4");
  error_of([] { excl(world(4), {-2}); }, ErrClass::Rank, "MPI_Group_excl");
  error_of([] { excl(kEmpty, {0}); }, ErrClass::Rank, "MPI_Group_excl");
}

TEST_CASE("excl rejects a duplicate rank with MPI_ERR_RANK") {
  const std::string msg =
      error_of([] { excl(world(4), {1, 3, 1}); }, ErrClass::Rank, "MPI_Group_excl");
  CHECK(msg == "ranks[2] = 1 repeats ranks[0]");
}

// ---------------------------------------------------------------- range_incl

TEST_CASE("range_incl expands a positive stride up to and including last") {
  CHECK(range_incl(world(10), {{0, 9, 3}}) == Members{0, 3, 6, 9});
  CHECK(range_incl(world(10), {{0, 8, 3}}) == Members{0, 3, 6});
}

TEST_CASE("range_incl expands a negative stride downwards") {
  CHECK(range_incl(world(10), {{9, 0, -3}}) == Members{9, 6, 3, 0});
  CHECK(range_incl(world(10), {{7, 2, -2}}) == Members{7, 5, 3});
}

TEST_CASE("range_incl with first equal to last gives that one rank for any nonzero stride") {
  CHECK(range_incl(world(10), {{1, 1, 1}}) == Members{1});
  CHECK(range_incl(world(10), {{4, 4, -7}}) == Members{4});
}

TEST_CASE("range_incl concatenates the triplets in order") {
  CHECK(range_incl(world(10), {{0, 8, 4}, {1, 9, 4}}) == Members{0, 4, 8, 1, 5, 9});
}

TEST_CASE("range_incl picks processes by rank in the group, not by world rank") {
  const Members g{20, 21, 22, 23, 24};
  CHECK(range_incl(g, {{4, 0, -2}}) == Members{24, 22, 20});
}

TEST_CASE("range_incl of no triplets gives the empty group") {
  CHECK(range_incl(world(4), {}).empty());
  CHECK(range_incl(kEmpty, {}).empty());
}

TEST_CASE("range_incl checks only computed ranks, so last may lie outside the group") {
  CHECK(range_incl(world(4), {{0, 100, 200}}) == Members{0});
  CHECK(range_incl(world(4), {{3, -50, -100}}) == Members{3});
}

TEST_CASE("range_incl equals incl of the expanded ranks") {
  const Members g{9, 8, 7, 6, 5, 4};
  CHECK(range_incl(g, {{5, 1, -2}, {0, 2, 2}}) == incl(g, {5, 3, 1, 0, 2}));
  CHECK(range_incl(g, {{3, 3, 1}, {1, 1, 1}}) == incl(g, {3, 1}));
}

TEST_CASE("range_incl rejects stride 0 with MPI_ERR_ARG") {
  const std::string msg = error_of([] { range_incl(world(10), {{0, 9, 0}}); },
                                   ErrClass::Arg, "MPI_Group_range_incl");
  CHECK(msg == "ranges[0] = {0, 9, 0} has stride 0");
  error_of([] { range_incl(world(10), {{3, 3, 0}}); }, ErrClass::Arg,
           "MPI_Group_range_incl");
}

TEST_CASE("range_incl rejects first above last with a positive stride with MPI_ERR_ARG") {
  const std::string msg = error_of([] { range_incl(world(10), {{1, 1, 1}, {5, 2, 1}}); },
                                   ErrClass::Arg, "MPI_Group_range_incl");
  CHECK(msg.find("ranges[1] = {5, 2, 1}") == 0);
}

TEST_CASE("range_incl rejects first below last with a negative stride with MPI_ERR_ARG") {
  const std::string msg = error_of([] { range_incl(world(10), {{2, 5, -1}}); },
                                   ErrClass::Arg, "MPI_Group_range_incl");
  CHECK(msg.find("ranges[0] = {2, 5, -1}") == 0);
}

TEST_CASE("range_incl rejects a computed rank past the end of the group with MPI_ERR_RANK") {
  const std::string msg = error_of([] { range_incl(world(10), {{0, 10, 1}}); },
                                   ErrClass::Rank, "MPI_Group_range_incl");
  CHECK(msg == "ranges[0] = {0, 10, 1} computes rank 10, out of range for a group of size 10");
}

TEST_CASE("range_incl rejects a negative computed rank with MPI_ERR_RANK") {
  const std::string msg = error_of([] { range_incl(world(10), {{3, -1, -2}}); },
                                   ErrClass::Rank, "MPI_Group_range_incl");
  CHECK(msg == "ranges[0] = {3, -1, -2} computes rank -1, out of range for a group of size 10");
}

TEST_CASE("range_incl rejects a first rank outside the group with MPI_ERR_RANK") {
  error_of([] { range_incl(world(4), {{4, 4, 1}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
  error_of([] { range_incl(kEmpty, {{0, 0, 1}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
}

TEST_CASE("range_incl rejects a rank computed by two triplets with MPI_ERR_RANK") {
  const std::string msg = error_of([] { range_incl(world(10), {{0, 4, 2}, {4, 6, 1}}); },
                                   ErrClass::Rank, "MPI_Group_range_incl");
  CHECK(msg == "ranges[1] = {4, 6, 1} computes rank 4, already computed by ranges[0]");
}

TEST_CASE("range_incl rejects a triplet repeated verbatim with MPI_ERR_RANK") {
  error_of([] { range_incl(world(10), {{2, 2, 1}, {2, 2, 1}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
}

TEST_CASE("range_incl reports a zero stride in a later triplet before a bad rank in an earlier one") {
  error_of([] { range_incl(world(4), {{0, 9, 1}, {0, 1, 0}}); }, ErrClass::Arg,
           "MPI_Group_range_incl");
}

TEST_CASE("range_incl handles extreme triplets without overflow or long loops") {
  constexpr int kMax = 2147483647, kMin = -2147483647 - 1;
  error_of([=] { range_incl(world(4), {{0, kMax, 1}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
  error_of([=] { range_incl(world(4), {{3, kMin, -1}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
  CHECK(range_incl(world(4), {{2, kMax, kMax}}) == Members{2});
  CHECK(range_incl(world(4), {{1, -5, kMin}}) == Members{1});
  // floor((kMin - 1) / kMin) = 1, so 1 + kMin is computed, and it is invalid.
  error_of([=] { range_incl(world(4), {{1, kMin, kMin}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
  error_of([=] { range_incl(world(4), {{kMin, kMax, kMax}}); }, ErrClass::Rank,
           "MPI_Group_range_incl");
}

// ---------------------------------------------------------------- range_excl

TEST_CASE("range_excl removes the computed ranks and keeps group order") {
  CHECK(range_excl(world(10), {{0, 9, 2}}) == Members{1, 3, 5, 7, 9});
  CHECK(range_excl(world(10), {{9, 1, -4}, {0, 0, 1}}) == Members{2, 3, 4, 6, 7, 8});
}

TEST_CASE("range_excl of no triplets gives the same group") {
  const Members g{4, 2, 0};
  CHECK(range_excl(g, {}) == g);
  CHECK(range_excl(kEmpty, {}).empty());
}

TEST_CASE("range_excl of every rank gives the empty group") {
  CHECK(range_excl(world(5), {{4, 0, -1}}).empty());
}

TEST_CASE("range_excl equals excl of the expanded ranks") {
  const Members g{9, 8, 7, 6, 5, 4};
  CHECK(range_excl(g, {{5, 1, -2}}) == excl(g, {5, 3, 1}));
}

TEST_CASE("range_excl rejects stride 0 and a direction mismatch with MPI_ERR_ARG") {
  error_of([] { range_excl(world(10), {{0, 9, 0}}); }, ErrClass::Arg,
           "MPI_Group_range_excl");
  error_of([] { range_excl(world(10), {{6, 2, 2}}); }, ErrClass::Arg,
           "MPI_Group_range_excl");
  error_of([] { range_excl(world(10), {{2, 6, -2}}); }, ErrClass::Arg,
           "MPI_Group_range_excl");
}

TEST_CASE("range_excl rejects out-of-range and repeated computed ranks with MPI_ERR_RANK") {
  error_of([] { range_excl(world(10), {{0, 10, 5}}); }, ErrClass::Rank,
           "MPI_Group_range_excl");
  const std::string msg = error_of([] { range_excl(world(10), {{0, 9, 3}, {9, 0, -9}}); },
                                   ErrClass::Rank, "MPI_Group_range_excl");
  CHECK(msg == "ranges[1] = {9, 0, -9} computes rank 9, already computed by ranges[0]");
}
