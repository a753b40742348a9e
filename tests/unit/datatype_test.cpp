// tests/unit/datatype_test.cpp: unit tests for core/datatype: type-map
// arithmetic against hand-computed bounds (each also checked with Open MPI
// 4.1 where noted), envelope/contents round trips, pack/unpack, and every
// error a constructor or query raises.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/base/constants.hpp"
#include "core/datatype/datatype.hpp"
#include "core/base/error.hpp"

using namespace lumpi::core;

namespace {

const TypePtr kInt = Datatype::basic(Basic::Int);
const TypePtr kDouble = Datatype::basic(Basic::Double);
const TypePtr kChar = Datatype::basic(Basic::Char);
const TypePtr kShort = Datatype::basic(Basic::Short);

// size, lb, extent, true_lb, true_extent
struct Bounds {
  std::int64_t size, lb, extent, true_lb, true_extent;
  bool operator==(const Bounds&) const = default;
};

Bounds bounds(const TypePtr& t) { return {t->size(), t->lb(), t->extent(), t->true_lb(), t->true_extent()}; }

std::ostream& operator<<(std::ostream& os, const Bounds& b) {
  return os << "{size=" << b.size << " lb=" << b.lb << " extent=" << b.extent << " true_lb=" << b.true_lb
            << " true_extent=" << b.true_extent << "}";
}

std::string error_of(const std::function<void()>& call, ErrClass cls, std::string_view func) {
  try {
    call();
  } catch (const Error& e) {
    CHECK(class_name(e.cls()) == std::string(class_name(cls)));
    CHECK(e.func() == func);
    return e.message();
  }
  FAIL("expected core::Error from " << func);
  return {};
}

TypePtr committed(TypePtr t) {
  t->commit();
  return t;
}

// The byte offsets a committed type's map visits, in pack order.
std::vector<std::int64_t> offsets(const TypePtr& t) {
  std::vector<std::int64_t> out;
  for (const Block& b : t->blocks())
    for (std::int64_t i = 0; i < b.length; i += 4) out.push_back(b.offset + i);
  return out;
}

// Rebuilds a type from its envelope and contents.
TypePtr rebuild(const TypePtr& t) {
  TypeEnvelope e = t->envelope();
  TypeContents c = t->contents();
  REQUIRE(int(c.integers.size()) == e.num_integers);
  REQUIRE(int(c.addresses.size()) == e.num_addresses);
  REQUIRE(int(c.types.size()) == e.num_datatypes);
  const auto& I = c.integers;
  auto ints = [&](std::size_t from, std::size_t n) {
    return std::vector<int>(I.begin() + long(from), I.begin() + long(from + n));
  };
  switch (e.combiner) {
    case Combiner::Dup: return Datatype::dup(c.types[0]);
    case Combiner::Contiguous: return Datatype::contiguous(I[0], c.types[0]);
    case Combiner::Vector: return Datatype::vector(I[0], I[1], I[2], c.types[0]);
    case Combiner::Hvector: return Datatype::hvector(I[0], I[1], c.addresses[0], c.types[0]);
    case Combiner::Indexed:
      return Datatype::indexed(ints(1, size_t(I[0])), ints(1 + size_t(I[0]), size_t(I[0])), c.types[0]);
    case Combiner::Hindexed: return Datatype::hindexed(ints(1, size_t(I[0])), c.addresses, c.types[0]);
    case Combiner::IndexedBlock: return Datatype::indexed_block(I[1], ints(2, size_t(I[0])), c.types[0]);
    case Combiner::HindexedBlock: return Datatype::hindexed_block(I[1], c.addresses, c.types[0]);
    case Combiner::Struct: return Datatype::create_struct(ints(1, size_t(I[0])), c.addresses, c.types);
    case Combiner::Subarray: {
      std::size_t n = size_t(I[0]);
      return Datatype::subarray(ints(1, n), ints(1 + n, n), ints(1 + 2 * n, n), Order(I[1 + 3 * n]),
                                c.types[0]);
    }
    case Combiner::Resized: return Datatype::resized(c.types[0], c.addresses[0], c.addresses[1]);
    case Combiner::Darray: {
      std::size_t n = size_t(I[2]);
      DarrayArgs a{I[0], I[1], ints(3, n), {}, ints(3 + 2 * n, n), ints(3 + 3 * n, n), Order(I[3 + 4 * n])};
      for (int d : ints(3 + n, n)) a.distribs.push_back(Distribution(d));
      return Datatype::darray(a, c.types[0]);
    }
    case Combiner::Named: break;
  }
  FAIL("unexpected combiner");
  return nullptr;
}

}  // namespace

TEST_CASE("predefined types have C's sizes and MPI's default names") {
  CHECK(bounds(kInt) == Bounds{4, 0, 4, 0, 4});
  CHECK(kInt->name() == "MPI_INT");
  CHECK(Datatype::basic(Basic::UnsignedLongLong)->name() == "MPI_UNSIGNED_LONG_LONG");
  CHECK(Datatype::basic(Basic::CBool)->size() == 1);
  CHECK(Datatype::basic(Basic::Wchar)->size() == sizeof(wchar_t));
  CHECK(Datatype::basic(Basic::Packed)->size() == 1);
  CHECK(kInt->predefined());
  CHECK(kInt->committed());
  CHECK(Datatype::basic(Basic::Int) == kInt);  // one object per process
  CHECK(kInt->envelope().combiner == Combiner::Named);
  CHECK(kInt->envelope().num_integers == 0);
}

TEST_CASE("pair types are laid out as the C structs {value; int index}") {
  CHECK(Datatype::pair(Pair::TwoInt)->name() == "MPI_2INT");
  CHECK(bounds(Datatype::pair(Pair::TwoInt)) == Bounds{8, 0, 8, 0, 8});
  CHECK(bounds(Datatype::pair(Pair::FloatInt)) == Bounds{8, 0, 8, 0, 8});
  CHECK(bounds(Datatype::pair(Pair::DoubleInt)) == Bounds{12, 0, 16, 0, 12});
  CHECK(bounds(Datatype::pair(Pair::LongInt)) == Bounds{12, 0, 16, 0, 12});
  CHECK(bounds(Datatype::pair(Pair::ShortInt)) == Bounds{6, 0, 8, 0, 8});  // int at 4
  CHECK(bounds(Datatype::pair(Pair::LongDoubleInt)) == Bounds{20, 0, 32, 0, 20});
  CHECK(Datatype::pair(Pair::ShortInt)->layout().nbasic == 2);
}

TEST_CASE("contiguous and vector type maps") {
  CHECK(bounds(Datatype::contiguous(3, kInt)) == Bounds{12, 0, 12, 0, 12});
  CHECK(bounds(Datatype::contiguous(0, kInt)) == Bounds{0, 0, 0, 0, 0});
  // vector(3, 2, 4, INT): blocks at 0, 16, 32, each 8 bytes.
  CHECK(bounds(Datatype::vector(3, 2, 4, kInt)) == Bounds{24, 0, 40, 0, 40});
  CHECK(offsets(committed(Datatype::vector(3, 2, 4, kInt))) ==
        std::vector<std::int64_t>{0, 4, 16, 20, 32, 36});
}

TEST_CASE("vector with a negative stride extends below the buffer address") {
  // Blocks at 0, -16, -32: lb = -32, ub = 8 (Open MPI: lb=-32 extent=40).
  TypePtr t = committed(Datatype::vector(3, 2, -4, kInt));
  CHECK(bounds(t) == Bounds{24, -32, 40, -32, 40});
  CHECK(offsets(t) == std::vector<std::int64_t>{0, 4, -16, -12, -32, -28});
  std::int64_t lo, hi;
  t->span(2, &lo, &hi);  // the second element starts one extent (40) higher
  CHECK(lo == -32);
  CHECK(hi == 48);
}

TEST_CASE("hvector extent is rounded up to the alignment (MPI-3.1 §4.1.6 epsilon)") {
  // doubles at 0 and 5: span 13, rounded to a multiple of 8 (Open MPI: 16).
  CHECK(bounds(Datatype::hvector(2, 1, 5, kDouble)) == Bounds{16, 0, 16, 0, 13});
  CHECK(bounds(Datatype::hvector(2, 1, -12, kInt)) == Bounds{8, -12, 16, -12, 16});
}

TEST_CASE("indexed, hindexed and the block variants") {
  // indexed({2,1},{3,0},INT): ints 3,4 then 0: bytes 12..20 and 0..4.
  TypePtr t = committed(Datatype::indexed({2, 1}, {3, 0}, kInt));
  CHECK(bounds(t) == Bounds{12, 0, 20, 0, 20});
  CHECK(offsets(t) == std::vector<std::int64_t>{12, 16, 0});
  CHECK(bounds(Datatype::hindexed({1, 1}, {8, -4}, kInt)) == Bounds{8, -4, 16, -4, 16});
  CHECK(bounds(Datatype::indexed_block(2, {0, 5}, kDouble)) == Bounds{32, 0, 56, 0, 56});
  CHECK(bounds(Datatype::hindexed_block(1, {0, 6}, kShort)) == Bounds{4, 0, 8, 0, 8});
  // A zero blocklength adds no entries and no bounds (MPI-2.1 Ballot 4 item 20).
  CHECK(bounds(Datatype::indexed({0, 1}, {-100, 2}, kInt)) == Bounds{4, 8, 4, 8, 4});
}

TEST_CASE("struct extent is padded to its largest alignment") {
  auto st = [](std::vector<int> bl, std::vector<std::int64_t> d, std::vector<TypePtr> t) {
    return Datatype::create_struct(bl, d, t);
  };
  CHECK(bounds(st({1, 1}, {0, 8}, {kDouble, kChar})) == Bounds{9, 0, 16, 0, 9});
  CHECK(bounds(st({1, 1}, {0, 4}, {kInt, kChar})) == Bounds{5, 0, 8, 0, 5});
  CHECK(bounds(st({1, 1}, {4, 0}, {kChar, kDouble})) == Bounds{9, 0, 8, 0, 8});
  CHECK(bounds(st({1, 1}, {1, 3}, {kChar, kDouble})) == Bounds{9, 1, 16, 1, 10});
  CHECK(bounds(st({0, 1}, {-100, 0}, {kDouble, kInt})) == Bounds{4, 0, 4, 0, 4});
  // A block of an empty type still places its bounds (0, 0) at its
  // displacement, as Open MPI and MPICH both do.
  CHECK(bounds(st({1, 1}, {-50, 8}, {Datatype::contiguous(0, kInt), kInt})) == Bounds{4, -50, 64, 8, 4});
}

TEST_CASE("resized types carry markers that win over data in every type built on them") {
  TypePtr r = Datatype::resized(kInt, -4, 16);
  CHECK(bounds(r) == Bounds{4, -4, 16, 0, 4});
  // struct{r@0, double@20}: the markers decide lb and ub, no padding
  // (MPI-3.1 §4.1.7; Open MPI: lb=-4 extent=16).
  CHECK(bounds(Datatype::create_struct({1, 1}, {0, 20}, {r, kDouble})) == Bounds{12, -4, 16, 0, 28});
  // An extent smaller than the data: copies overlap in memory order.
  CHECK(bounds(Datatype::contiguous(3, Datatype::resized(kDouble, 0, 4))) == Bounds{24, 0, 12, 0, 16});
  // A negative extent: copies at 0, -8, -16.
  TypePtr neg = committed(Datatype::contiguous(3, Datatype::resized(kInt, 0, -8)));
  CHECK(bounds(neg) == Bounds{12, -16, 8, -16, 20});
  CHECK(offsets(neg) == std::vector<std::int64_t>{0, -8, -16});
}

TEST_CASE("subarray in C and Fortran order") {
  // 4x5 array of int, 2x3 block at (1,2).
  TypePtr c = committed(Datatype::subarray({4, 5}, {2, 3}, {1, 2}, Order::C, kInt));
  CHECK(bounds(c) == Bounds{24, 0, 80, 28, 32});
  CHECK(offsets(c) == std::vector<std::int64_t>{28, 32, 36, 48, 52, 56});  // row-major
  TypePtr f = committed(Datatype::subarray({4, 5}, {2, 3}, {1, 2}, Order::Fortran, kInt));
  CHECK(bounds(f) == Bounds{24, 0, 80, 36, 40});
  CHECK(offsets(f) == std::vector<std::int64_t>{36, 40, 52, 56, 68, 72});  // column-major
  // Over a resized type: element (1,2) at 7 * 16 (Open MPI: true_lb=112).
  CHECK(bounds(Datatype::subarray({4, 5}, {2, 3}, {1, 2}, Order::C, Datatype::resized(kInt, -4, 16))) ==
        Bounds{24, 0, 320, 112, 116});
  CHECK(bounds(Datatype::subarray({3, 3, 3}, {1, 1, 3}, {2, 1, 0}, Order::C, kChar)) ==
        Bounds{3, 0, 27, 21, 3});
}

// The elements (row-major indices of a gsizes array) a darray rank owns,
// from the rule of MPI-3.1 §4.1.4 written out element by element:
// index g of dimension i belongs to grid coordinate (g / darg) mod psize.
std::vector<std::int64_t> owned(const DarrayArgs& a, const std::vector<int>& darg) {
  const std::size_t n = a.gsizes.size();
  std::vector<int> coord(n);
  for (std::size_t k = n, r = std::size_t(a.rank); k-- > 0; r /= std::size_t(a.psizes[k]))
    coord[k] = int(r % std::size_t(a.psizes[k]));
  std::vector<std::int64_t> out;
  std::vector<int> g(n, 0);
  const std::int64_t total = std::accumulate(a.gsizes.begin(), a.gsizes.end(), std::int64_t(1), std::multiplies<>());
  for (std::int64_t e = 0; e < total; ++e) {
    std::int64_t rest = e, idx = 0, mul = 1;  // e counts in the order's storage order
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t i = a.order == Order::C ? n - 1 - k : k;
      g[i] = int(rest % a.gsizes[i]);
      rest /= a.gsizes[i];
      idx += g[i] * mul;
      mul *= a.gsizes[i];
    }
    bool mine = true;
    for (std::size_t i = 0; i < n; ++i) mine = mine && (g[i] / darg[i]) % a.psizes[i] == coord[i];
    if (mine) out.push_back(idx * 4);
  }
  return out;
}

TEST_CASE("darray: each rank holds the elements MPI-3.1 §4.1.4 gives it, in storage order") {
  struct Case {
    DarrayArgs a;
    std::vector<int> darg;  // the defaults resolved
  };
  const Distribution B = Distribution::Block, C = Distribution::Cyclic, N = Distribution::None;
  const int D = kDefaultDarg;
  std::vector<Case> cases = {
      {{6, 0, {5, 4}, {B, C}, {D, D}, {3, 2}, Order::C}, {2, 1}},
      {{6, 0, {5, 4}, {B, C}, {D, 2}, {3, 2}, Order::Fortran}, {2, 2}},
      {{4, 0, {7, 3, 2}, {C, N, B}, {2, D, D}, {2, 1, 2}, Order::C}, {2, 3, 1}},
      {{5, 0, {3}, {B}, {D}, {5}, Order::C}, {1}},  // ranks 3 and 4 own nothing
  };
  for (Case& c : cases) {
    std::vector<std::int64_t> all;
    for (int r = 0; r < c.a.size; ++r) {
      c.a.rank = r;
      CAPTURE(r);
      TypePtr t = committed(Datatype::darray(c.a, kInt));
      std::vector<std::int64_t> want = owned(c.a, c.darg);
      CHECK(offsets(t) == want);
      CHECK(t->size() == std::int64_t(want.size()) * 4);
      CHECK(t->lb() == 0);
      CHECK(t->extent() == std::accumulate(c.a.gsizes.begin(), c.a.gsizes.end(), std::int64_t(4), std::multiplies<>()));
      all.insert(all.end(), want.begin(), want.end());
    }
    std::sort(all.begin(), all.end());
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());  // a partition of the array
    CHECK(all.size() * 4 == std::size_t(committed(Datatype::darray(c.a, kInt))->extent()));
  }
}

TEST_CASE("darray errors name the argument") {
  const Distribution B = Distribution::Block, N = Distribution::None;
  auto err = [](const DarrayArgs& a) {
    return error_of([&] { Datatype::darray(a, kInt); }, ErrClass::Arg, "MPI_Type_create_darray");
  };
  CHECK(err({4, 4, {8}, {B}, {-1}, {4}, Order::C}).find("rank 4 is not in 0..3") != std::string::npos);
  CHECK(err({4, 0, {8}, {B}, {-1}, {3}, Order::C}).find("product of psizes") != std::string::npos);
  CHECK(err({4, 0, {8}, {B}, {1}, {4}, Order::C}).find("does not cover gsizes[0]") != std::string::npos);
  CHECK(err({2, 0, {8}, {N}, {-1}, {2}, Order::C}).find("psizes[0] = 2 must be 1") != std::string::npos);
  CHECK(err({1, 0, {8}, {Distribution(7)}, {-1}, {1}, Order::C}).find("distribs[0]") != std::string::npos);
  CHECK(err({1, 0, {0}, {B}, {-1}, {1}, Order::C}) == "gsizes[0] = 0 is not positive");
}

TEST_CASE("nested types: contiguous of a padded struct, vector of vectors") {
  TypePtr sc = Datatype::create_struct({1, 1}, {0, 2}, {kShort, kChar});
  CHECK(bounds(sc) == Bounds{3, 0, 4, 0, 3});
  CHECK(bounds(Datatype::contiguous(2, sc)) == Bounds{6, 0, 8, 0, 7});
  CHECK(bounds(Datatype::create_struct({1}, {0}, {sc})) == Bounds{3, 0, 4, 0, 3});
  // A 3x3 corner of a 5x5 int matrix from a vector of rows, then two of them 100 ints apart.
  TypePtr rows = Datatype::vector(3, 3, 5, kInt);
  CHECK(bounds(rows) == Bounds{36, 0, 52, 0, 52});
  TypePtr two = committed(Datatype::hvector(2, 1, 400, rows));
  CHECK(bounds(two) == Bounds{72, 0, 452, 0, 452});
  CHECK(two->blocks().size() == 6);
  CHECK(two->layout().nbasic == 18);
}

TEST_CASE("typemap flattens an uncommitted type without committing it") {
  TypePtr v = Datatype::vector(2, 2, 3, kInt);
  std::vector<Run> runs = v->typemap();
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].offset == 12);
  CHECK(runs[1].count == 2);
  CHECK(runs[1].basic == Basic::Int);
  CHECK(!v->committed());
  CHECK(v->blocks().empty());
}

TEST_CASE("commit merges adjacent blocks") {
  CHECK(committed(Datatype::contiguous(1000, kDouble))->blocks().size() == 1);
  CHECK(committed(Datatype::vector(10, 2, 2, kInt))->blocks().size() == 1);
  CHECK(committed(Datatype::indexed({1, 1, 1}, {0, 1, 3}, kInt))->blocks().size() == 2);
  // Different basic types in one block merge into one byte block, two runs.
  TypePtr s = committed(Datatype::create_struct({1, 1}, {0, 4}, {kInt, kInt}));
  CHECK(s->blocks().size() == 1);
  TypePtr m = committed(Datatype::create_struct({1, 1}, {0, 4}, {kInt, Datatype::basic(Basic::Float)}));
  CHECK(m->blocks().size() == 1);
  CHECK(m->runs().size() == 2);
}

TEST_CASE("envelope and contents describe the constructor call, and rebuild the type") {
  TypePtr r = Datatype::resized(kInt, -4, 16);
  std::vector<TypePtr> types = {
      Datatype::dup(kDouble),
      Datatype::contiguous(3, kInt),
      Datatype::vector(3, 2, -4, kInt),
      Datatype::hvector(2, 1, 5, kDouble),
      Datatype::indexed({2, 1}, {3, 0}, kInt),
      Datatype::hindexed({1, 1}, {8, -4}, kInt),
      Datatype::indexed_block(2, {0, 5}, kDouble),
      Datatype::hindexed_block(1, {0, 6}, kShort),
      Datatype::create_struct({1, 2}, {0, 20}, {r, kDouble}),
      Datatype::subarray({4, 5}, {2, 3}, {1, 2}, Order::Fortran, r),
      Datatype::darray({6, 4, {5, 4}, {Distribution::Block, Distribution::Cyclic}, {kDefaultDarg, 2}, {3, 2},
                        Order::Fortran},
                       r),
      r,
  };
  for (const TypePtr& t : types) {
    CAPTURE(combiner_name(t->envelope().combiner));
    TypePtr back = committed(rebuild(t));
    CHECK(bounds(back) == bounds(t));
    CHECK(offsets(back) == offsets(committed(t)));
    CHECK(back->envelope().combiner == t->envelope().combiner);
  }
  TypeEnvelope e = Datatype::subarray({4, 5}, {2, 3}, {1, 2}, Order::C, kInt)->envelope();
  CHECK(e.num_integers == 3 * 2 + 2);
  CHECK(e.num_addresses == 0);
  CHECK(e.num_datatypes == 1);
  CHECK(std::string(combiner_name(Combiner::Subarray)) == "MPI_COMBINER_SUBARRAY");
  TypeEnvelope s = Datatype::create_struct({1, 1, 1}, {0, 4, 8}, {kInt, kInt, kInt})->envelope();
  CHECK(s.num_integers == 4);
  CHECK(s.num_addresses == 3);
  CHECK(s.num_datatypes == 3);
}

TEST_CASE("contents returns the predefined objects themselves and new objects for derived ones") {
  TypePtr inner = committed(Datatype::contiguous(2, kInt));
  inner->set_name("pair of ints");
  TypePtr outer = Datatype::vector(2, 1, 3, inner);
  inner->free();  // the outer type still holds the map
  TypeContents c = outer->contents();
  REQUIRE(c.types.size() == 1);
  CHECK(c.types[0] != inner);
  CHECK(!c.types[0]->freed());
  CHECK(c.types[0]->committed());
  CHECK(c.types[0]->envelope().combiner == Combiner::Contiguous);
  CHECK(Datatype::contiguous(2, kInt)->contents().types[0] == kInt);
}

TEST_CASE("dup keeps the map and the committed state, not the name") {
  TypePtr v = committed(Datatype::vector(2, 1, 2, kInt));
  v->set_name("v");
  TypePtr d = Datatype::dup(v);
  CHECK(d->committed());
  CHECK(d->name().empty());
  CHECK(bounds(d) == bounds(v));
  CHECK(!Datatype::dup(Datatype::vector(2, 1, 2, kInt))->committed());
}

TEST_CASE("pack and unpack round trips") {
  int a[12];
  for (int i = 0; i < 12; ++i) a[i] = 100 + i;
  SUBCASE("vector of two elements") {
    TypePtr v = committed(Datatype::vector(2, 1, 3, kInt));  // ints 0, 3; extent 16
    std::string bytes;
    v->pack(a, 2, bytes, "MPI_Pack");
    REQUIRE(bytes.size() == 16);
    int got[4];
    std::memcpy(got, bytes.data(), 16);
    CHECK(std::vector<int>(got, got + 4) == std::vector<int>{100, 103, 104, 107});
    int b[12] = {0};
    v->unpack(bytes.data(), bytes.size(), b, 2, "MPI_Unpack");
    CHECK(std::vector<int>(b, b + 9) == std::vector<int>{100, 0, 0, 103, 104, 0, 0, 107, 0});
  }
  SUBCASE("negative stride, from the middle of the array") {
    TypePtr v = committed(Datatype::vector(3, 2, -4, kInt));
    std::string bytes;
    v->pack(a + 8, 1, bytes, "MPI_Pack");
    int got[6];
    std::memcpy(got, bytes.data(), 24);
    CHECK(std::vector<int>(got, got + 6) == std::vector<int>{108, 109, 104, 105, 100, 101});
  }
  SUBCASE("a struct with padding travels without its holes") {
    struct S {
      double d;
      char c;
    } s[2] = {{1.5, 'x'}, {2.5, 'y'}};
    TypePtr st = committed(Datatype::create_struct({1, 1}, {0, offsetof(S, c)}, {kDouble, kChar}));
    REQUIRE(st->extent() == std::int64_t(sizeof(S)));
    std::string bytes;
    st->pack(s, 2, bytes, "MPI_Pack");
    CHECK(bytes.size() == 18);
    S back[2] = {};
    st->unpack(bytes.data(), bytes.size(), back, 2, "MPI_Unpack");
    CHECK(back[1].d == 2.5);
    CHECK(back[1].c == 'y');
  }
  SUBCASE("a short message fills the first elements only") {
    TypePtr v = committed(Datatype::contiguous(2, kInt));
    int b[6] = {0};
    int src[3] = {7, 8, 9};
    v->unpack(reinterpret_cast<char*>(src), 12, b, 3, "MPI_Recv");
    CHECK(std::vector<int>(b, b + 6) == std::vector<int>{7, 8, 9, 0, 0, 0});
  }
}

// Pack and unpack fold equal blocks at equal distances (a matrix column is
// one strided run); the bytes must be those of the blocks taken one by one,
// also for a message that ends inside a block.
TEST_CASE("pack and unpack of strided blocks agree with the blocks one by one") {
  std::vector<unsigned char> src(16384);  // 3 elements of each type below fit from base
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 1);
  const TypePtr types[] = {
      committed(Datatype::vector(100, 1, 4, kDouble)),                            // 8-byte blocks
      committed(Datatype::vector(50, 1, 3, kInt)),                                // 4-byte blocks
      committed(Datatype::vector(30, 2, 5, kDouble)),                             // 16-byte blocks
      committed(Datatype::vector(40, 3, 4, kChar)),                               // 3-byte blocks
      committed(Datatype::vector(20, 1, -2, kDouble)),                            // backwards
      committed(Datatype::indexed({1, 1, 1, 2, 1}, {0, 2, 4, 7, 12}, kInt)),      // folds, then not
      committed(Datatype::resized(Datatype::contiguous(1, kDouble), 0, 24)),      // count strides it
  };
  for (const TypePtr& t : types) {
    CAPTURE(t->size());
    std::int64_t lo = 0, hi = 0;
    t->span(3, &lo, &hi);
    REQUIRE((lo >= -1024 && hi <= 16384 - 1024));
    const unsigned char* base = src.data() + 1024;  // room below for the backward vector
    std::string want;
    for (int i = 0; i < 3; ++i)
      for (const Block& b : t->blocks())
        want.append(reinterpret_cast<const char*>(base + i * t->extent() + b.offset), std::size_t(b.length));
    std::string got;
    t->pack(base, 3, got, "MPI_Pack");
    CHECK(got == want);
    for (std::size_t n : {want.size(), want.size() / 2 + 1, std::size_t(5)}) {  // whole, ending inside a block
      std::vector<unsigned char> back(src.size(), 0);
      t->unpack(want.data(), n, back.data() + 1024, 3, "MPI_Unpack");
      std::vector<unsigned char> expect(src.size(), 0);
      std::size_t left = n;
      for (int i = 0; i < 3 && left; ++i)
        for (const Block& b : t->blocks()) {
          std::size_t k = std::min(left, std::size_t(b.length));
          std::memcpy(expect.data() + 1024 + i * t->extent() + b.offset, base + i * t->extent() + b.offset, k);
          left -= k;
          if (!left) break;
        }
      CHECK(back == expect);
    }
  }
}

TEST_CASE("get_count and get_elements for whole and partial messages") {
  TypePtr st = committed(Datatype::create_struct({1, 1}, {0, 8}, {kDouble, kChar}));  // 9 bytes, 2 elements
  CHECK(st->count_of(18) == 2);
  CHECK(st->elements_of(18) == 4);
  CHECK(st->count_of(8) == UNDEFINED);
  CHECK(st->elements_of(8) == 1);
  CHECK(st->elements_of(4) == UNDEFINED);  // half a double
  CHECK(st->elements_of(17) == 3);
  TypePtr empty = committed(Datatype::contiguous(0, kInt));
  CHECK(empty->count_of(0) == 0);
  CHECK(empty->elements_of(0) == 0);
  CHECK(kInt->count_of(0) == 0);
  CHECK(kInt->count_of(6) == UNDEFINED);
}

TEST_CASE("constructor errors name the argument, with MPI's classes") {
  CHECK(error_of([] { Datatype::contiguous(-1, kInt); }, ErrClass::Count, "MPI_Type_contiguous")
            .find("count = -1") != std::string::npos);
  error_of([] { Datatype::vector(-2, 1, 1, kInt); }, ErrClass::Count, "MPI_Type_vector");
  CHECK(error_of([] { Datatype::vector(2, -1, 1, kInt); }, ErrClass::Arg, "MPI_Type_vector")
            .find("blocklength = -1") != std::string::npos);
  error_of([] { Datatype::hvector(-1, 1, 8, kInt); }, ErrClass::Count, "MPI_Type_create_hvector");
  CHECK(error_of([] { Datatype::indexed({1, -3}, {0, 4}, kInt); }, ErrClass::Arg, "MPI_Type_indexed")
            .find("blocklengths[1] = -3") != std::string::npos);
  error_of([] { Datatype::indexed({1, 1}, {0}, kInt); }, ErrClass::Arg, "MPI_Type_indexed");
  error_of([] { Datatype::hindexed({1}, {0, 8}, kInt); }, ErrClass::Arg, "MPI_Type_create_hindexed");
  error_of([] { Datatype::indexed_block(-1, {0}, kInt); }, ErrClass::Arg, "MPI_Type_create_indexed_block");
  error_of([] { Datatype::hindexed_block(-1, {0}, kInt); }, ErrClass::Arg, "MPI_Type_create_hindexed_block");
  error_of([] { Datatype::create_struct({1, 1}, {0, 4}, {kInt}); }, ErrClass::Arg, "MPI_Type_create_struct");
  CHECK(error_of([] { Datatype::create_struct({1, 1}, {0, 4}, {kInt, nullptr}); }, ErrClass::Type,
                 "MPI_Type_create_struct")
            .find("types[1]") != std::string::npos);
  error_of([] { Datatype::contiguous(1, nullptr); }, ErrClass::Type, "MPI_Type_contiguous");
  error_of([] { Datatype::resized(nullptr, 0, 4); }, ErrClass::Type, "MPI_Type_create_resized");
  error_of([] { Datatype::dup(nullptr); }, ErrClass::Type, "MPI_Type_dup");
  // Arguments are checked before the type: a bad count wins over a bad type.
  error_of([] { Datatype::contiguous(-1, nullptr); }, ErrClass::Count, "MPI_Type_contiguous");
}

TEST_CASE("subarray errors") {
  const char* f = "MPI_Type_create_subarray";
  error_of([] { Datatype::subarray({}, {}, {}, Order::C, kInt); }, ErrClass::Arg, f);
  error_of([] { Datatype::subarray({4, 5}, {2}, {0, 0}, Order::C, kInt); }, ErrClass::Arg, f);
  CHECK(error_of([] { Datatype::subarray({4, 0}, {1, 1}, {0, 0}, Order::C, kInt); }, ErrClass::Arg, f)
            .find("sizes[1] = 0") != std::string::npos);
  error_of([] { Datatype::subarray({4, 5}, {0, 1}, {0, 0}, Order::C, kInt); }, ErrClass::Arg, f);
  error_of([] { Datatype::subarray({4, 5}, {5, 1}, {0, 0}, Order::C, kInt); }, ErrClass::Arg, f);
  CHECK(error_of([] { Datatype::subarray({4, 5}, {2, 3}, {0, 3}, Order::C, kInt); }, ErrClass::Arg, f)
            .find("starts[1] = 3") != std::string::npos);
  error_of([] { Datatype::subarray({4}, {2}, {-1}, Order::C, kInt); }, ErrClass::Arg, f);
  error_of([] { Datatype::subarray({4}, {2}, {0}, Order(7), kInt); }, ErrClass::Arg, f);
}

TEST_CASE("freed and uncommitted types") {
  TypePtr t = Datatype::contiguous(2, kInt);
  int buf[2] = {1, 2};
  std::string out;
  CHECK(error_of([&] { t->pack(buf, 1, out, "MPI_Send"); }, ErrClass::Type, "MPI_Send")
            .find("not been committed") != std::string::npos);
  t->commit();
  t->commit();  // twice is fine
  error_of([&] { t->pack(buf, -1, out, "MPI_Send"); }, ErrClass::Count, "MPI_Send");
  error_of([&] { t->unpack("12345678abcd", 12, buf, 1, "MPI_Recv"); }, ErrClass::Truncate, "MPI_Recv");
  t->free();
  CHECK(t->freed());
  error_of([&] { t->free(); }, ErrClass::Type, "MPI_Type_free");
  error_of([&] { t->check_usable("MPI_Send"); }, ErrClass::Type, "MPI_Send");
  // An operation started before the free still completes (MPI-3.1 §4.1.9).
  int back[2] = {0, 0};
  t->unpack("\x07\0\0\0\x08\0\0\0", 8, back, 1, "MPI_Wait");
  CHECK(back[1] == 8);
  error_of([&] { Datatype::vector(1, 1, 1, t); }, ErrClass::Type, "MPI_Type_vector");
  CHECK(error_of([] { kInt->free(); }, ErrClass::Type, "MPI_Type_free").find("MPI_INT") != std::string::npos);
  error_of([] { Datatype::pair(Pair::TwoInt)->free(); }, ErrClass::Type, "MPI_Type_free");
  error_of([] { kInt->contents(); }, ErrClass::Type, "MPI_Type_get_contents");
}

TEST_CASE("a huge count stays one block; an overflowing extent is an error") {
  TypePtr big = committed(Datatype::contiguous(1 << 30, kDouble));
  CHECK(big->blocks().size() == 1);
  CHECK(big->size() == (std::int64_t(1) << 33));
  TypePtr huge = Datatype::contiguous(1 << 20, big);
  error_of([&] { Datatype::contiguous(1 << 30, huge); }, ErrClass::Arg, "MPI_Type_contiguous");
}

TEST_CASE("a stride or displacement that places no block cannot overflow") {
  // Extent -2^62: seven extents do not fit 64 bits (tests/fuzz's fuzz_datatype found this).
  const std::int64_t q = std::int64_t(1) << 62;
  TypePtr far = Datatype::resized(Datatype::basic(Basic::Short), -q, -q);
  TypePtr one = committed(Datatype::vector(1, 1, 7, far));  // one block: the stride is never used
  CHECK(one->size() == 2);
  CHECK(one->lb() == -q);
  error_of([&] { Datatype::vector(2, 1, 7, far); }, ErrClass::Arg, "MPI_Type_vector");
  CHECK(Datatype::indexed({0, 1}, {7, 0}, far)->size() == 2);
  CHECK(Datatype::indexed_block(0, {7}, far)->size() == 0);
  error_of([&] { Datatype::indexed({1}, {7}, far); }, ErrClass::Arg, "MPI_Type_indexed");
}

TEST_CASE("bounds that fit 64 bits but lie further apart than 2^63 are an error") {
  const std::int64_t q = std::int64_t(1) << 62;
  TypePtr ch = Datatype::basic(Basic::Char);
  // lb -2^63, ub 3: the extent does not fit (tests/fuzz's fuzz_datatype found this).
  error_of([&] { Datatype::hvector(3, 3, -q, ch); }, ErrClass::Arg, "MPI_Type_create_hvector");
  error_of([&] { Datatype::create_struct({1, 1}, {-q, q + 1}, {ch, ch}); }, ErrClass::Arg,
           "MPI_Type_create_struct");
  // Markers [0, 1] but data at -2^62 and 2^62: the true extent does not fit.
  TypePtr up = Datatype::resized(ch, q, 1), down = Datatype::resized(ch, -q, 1);
  error_of([&] { Datatype::create_struct({1, 1}, {-q, q}, {up, down}); }, ErrClass::Arg,
           "MPI_Type_create_struct");
  CHECK(Datatype::create_struct({1, 1}, {-q, 0}, {up, down})->true_extent() == q + 1);
}

TEST_CASE("every copy's bounds fit 64 bits, whichever constructor lists the copies") {
  // ub -2^63: a copy 12 bytes lower has its ub marker below -2^63, though the
  // type's own ub (the highest) fits (tests/fuzz's fuzz_datatype found this).
  const std::int64_t q = std::int64_t(1) << 62;
  TypePtr low = Datatype::resized(Datatype::basic(Basic::Char), -q, -q);
  error_of([&] { Datatype::hindexed({1, 1}, {-12, 0}, low); }, ErrClass::Arg, "MPI_Type_create_hindexed");
  error_of([&] { Datatype::hvector(2, 1, -12, low); }, ErrClass::Arg, "MPI_Type_create_hvector");
  CHECK(Datatype::hvector(2, 1, 12, low)->lb() == -q);
}

TEST_CASE("a darray process that owns nothing holds an empty map, whatever its other dimensions") {
  // gsizes {1, 2} over psizes {3, 1}: rank 2 owns no row. Its columns, two
  // copies of an old type of extent -2^62, would lie beyond -2^63 (tests/fuzz's
  // fuzz_datatype found this); the type is still valid, and empty.
  const std::int64_t q = std::int64_t(1) << 62;
  TypePtr far = Datatype::resized(Datatype::basic(Basic::Char), -q, -q);
  DarrayArgs a{3, 2, {1, 2}, {Distribution::Cyclic, Distribution::None}, {kDefaultDarg, kDefaultDarg}, {3, 1},
               Order::C};
  TypePtr t = committed(Datatype::darray(a, far));
  CHECK(t->size() == 0);
  CHECK(t->lb() == 0);
  CHECK(t->extent() == -2 * q);
  a.rank = 0;  // rank 0 owns the row, and its two copies do overflow
  error_of([&] { Datatype::darray(a, far); }, ErrClass::Arg, "MPI_Type_create_darray");
}
