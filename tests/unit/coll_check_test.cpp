// tests/unit/coll_check_test.cpp: the collective-mismatch verdict of
// --check (core/check/coll_check.hpp): calls that agree give none; a
// different collective, root, op or type signature gives the MPI error
// class every member raises and a report naming the ranks' calls.
#include <doctest/doctest.h>

#include "core/check/coll_check.hpp"
#include "tests/unit/api_world.hpp"
#include "core/datatype/datatype.hpp"

using namespace lumpi::core;
using namespace lumpi::core::check;

namespace {

const TypePtr kInt = Datatype::basic(Basic::Int);
const TypePtr kFloat = Datatype::basic(Basic::Float);

CollCall bcast(int count, const TypePtr& t, int root) {
  return describe("MPI_Bcast", root, "", {count, t}, {});  // as the doors describe it
}

CollCall gather(int sendcount, int recvcount, int root, bool is_root) {
  return describe("MPI_Gather", root, "", {sendcount, kInt}, is_root ? Side{recvcount, kInt} : Side{});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("calls that agree have no verdict") {
  CHECK(compare({bcast(4, kInt, 0), bcast(4, kInt, 0), bcast(4, kInt, 0)}, "w").text.empty());
  CHECK(compare({gather(1, 1, 0, true), gather(1, 1, 0, false)}, "w").text.empty());
}

TEST_CASE("different roots are MPI_ERR_ROOT, naming both calls") {
  Verdict v = compare({bcast(1, kInt, 0), bcast(1, kInt, 0), bcast(1, kInt, 1)}, "w");
  CHECK(v.cls == ErrClass::Root);
  CHECK(has(v.text, "collective mismatch on 'w': rank 0 calls MPI_Bcast(count=1, datatype=MPI_INT, root=0), "
                    "rank 2 calls MPI_Bcast(count=1, datatype=MPI_INT, root=1): the roots differ (0 and 1)"));
  CHECK(has(v.text, "MPI-3.1 §5.1"));
}

TEST_CASE("different type signatures are MPI_ERR_TYPE") {
  Verdict v = compare({bcast(1, kInt, 0), bcast(1, kFloat, 0)}, "w");
  CHECK(v.cls == ErrClass::Type);
  CHECK(has(v.text, "the type signatures differ"));
  CHECK(compare({bcast(4, kInt, 0), bcast(2, kInt, 0)}, "w").cls == ErrClass::Type);
}

TEST_CASE("a root whose receive disagrees with its own send shows its call once") {
  Verdict v = compare({gather(1, 2, 0, true), gather(1, 2, 0, false), gather(1, 2, 0, false)}, "w");
  CHECK(v.cls == ErrClass::Type);
  CHECK(has(v.text, "rank 0 calls MPI_Gather(sendcount=1, sendtype=MPI_INT, recvcount=2, recvtype=MPI_INT, root=0): "
                    "rank 0 sends 1 x MPI_INT per block, rank 0 receives 2 x MPI_INT"));
  CHECK(!has(v.text, "root=0), rank 0 calls"));
}

TEST_CASE("MPI_IN_PLACE at some members of an all-or-none call is MPI_ERR_ARG") {
  auto allgather = [](bool in_place, const char* call = "MPI_Allgather") {
    return describe(call, -1, "", in_place ? Side{} : Side{1, kInt}, {1, kInt});
  };
  Verdict v = compare({allgather(true), allgather(false), allgather(false)}, "w");
  CHECK(v.cls == ErrClass::Arg);
  CHECK(has(v.text, "rank 0 passes MPI_IN_PLACE as sendbuf and rank 1 does not: MPI_Allgather takes it at all "
                    "processes or at none (MPI-3.1 §5.7, §5.8)"));
  CHECK(compare({allgather(false), allgather(false), allgather(true, "MPI_Allgather")}, "w").cls == ErrClass::Arg);
  CHECK(compare({allgather(true, "MPI_Ialltoall"), allgather(false, "MPI_Ialltoall")}, "w").cls == ErrClass::Arg);
  CHECK(compare({allgather(true), allgather(true), allgather(true)}, "w").text.empty());
  CHECK(compare({allgather(false), allgather(false)}, "w").text.empty());
  // rooted calls: only the root may pass it, so a root in place and the others not agree
  CHECK(compare({gather(1, 1, 0, true), gather(1, 1, 0, false)}, "w").text.empty());
  CollCall root_in_place = describe("MPI_Gather", 0, "", {}, {1, kInt});
  CHECK(compare({root_in_place, gather(1, 1, 0, false)}, "w").text.empty());
}

TEST_CASE("the v forms compare each pair's amount where the counts are given") {
  // MPI_Gatherv at 3 ranks: each sends 2 ints; the root expects {2, 2, 3}
  auto gatherv = [](int me, std::vector<std::int64_t> recvcounts) {
    Side send{2, kInt};
    Side recv{1, kInt, true, std::move(recvcounts)};
    return describe("MPI_Gatherv", 0, "", send, me == 0 ? recv : Side{}, true);
  };
  Verdict v = compare({gatherv(0, {2, 2, 3}), gatherv(1, {}), gatherv(2, {})}, "w");
  CHECK(v.cls == ErrClass::Type);
  CHECK(has(v.text, "rank 2 sends 2 x MPI_INT to rank 0, which receives 3 x MPI_INT from it"));
  CHECK(compare({gatherv(0, {2, 2, 2}), gatherv(1, {}), gatherv(2, {})}, "w").text.empty());
  // MPI_Alltoallv at 2 ranks: rank 0 sends {1, 2}, rank 1 sends {3, 4}; receives must be the transpose
  auto alltoallv = [](std::vector<std::int64_t> s, std::vector<std::int64_t> r) {
    return describe("MPI_Alltoallv", -1, "", Side{1, kInt, true, std::move(s)}, Side{1, kInt, true, std::move(r)},
                    true);
  };
  CHECK(compare({alltoallv({1, 2}, {1, 3}), alltoallv({3, 4}, {2, 4})}, "w").text.empty());
  CHECK(has(compare({alltoallv({1, 2}, {1, 3}), alltoallv({3, 4}, {1, 4})}, "w").text,
            "rank 0 sends 2 x MPI_INT to rank 1, which receives 1 x MPI_INT from it"));
  // no counts given (the C++ and Lua doors): only the basic types, as before
  CHECK(compare({alltoallv({}, {}), alltoallv({3, 4}, {1, 4})}, "w").text.empty());
}

TEST_CASE("different collectives are MPI_ERR_OTHER") {
  CollCall barrier = describe("MPI_Barrier", -1, "", {}, {});
  Verdict v = compare({bcast(1, kInt, 0), barrier}, "w");
  CHECK(v.cls == ErrClass::Other);
  CHECK(has(v.text, "rank 1 calls MPI_Barrier(): different collectives"));
}

// A nonblocking collective whose verdict is a mismatch raises it from its
// wait, and after that it writes nothing into the caller's buffers: the
// wait was the caller's last word on them (CI once caught the result landing
// in a variable whose scope had ended).
TEST_CASE("a nonblocking collective's mismatch lands nothing afterwards") {
  for (int n : {2, 3, 5}) {
    CAPTURE(n);
    const int failed = lumpi::test::run_world(
        n,
        [n](lumpi::Intracomm& w) {
          const int me = w.Get_rank();
          int sum = -1;
          lumpi::Request q = w.Iallreduce(&me, &sum, 1, lumpi::INT, me == n - 1 ? lumpi::MIN : lumpi::SUM);
          const bool raised = lumpi::test::raises(lumpi::ERR_OP, "MPI_Iallreduce", "reduction ops differ",
                                                  [&] { q.Wait(); });
          for (int i = 0; i < 3; ++i) w.Barrier();  // the partners' data has long arrived
          if (sum != -1) std::fprintf(stderr, "rank %d: the result landed after the error (%d)\n", me, sum);
          return raised && sum == -1;
        },
        true);
    CHECK(failed == 0);
  }
}
