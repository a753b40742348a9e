// tests/unit/op_test.cpp: the predefined ops (core/datatype/op.hpp)
// against hand-computed results, and which op suits
// which basic type (seed §5.9.2's groups; MPI_ERR_OP otherwise).
#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/datatype/op.hpp"

using lumpi::core::apply_basic;
using lumpi::core::Basic;
using lumpi::core::check_accumulate_op;
using lumpi::core::ErrClass;
using lumpi::core::Error;
using lumpi::core::Op;

namespace {

template <class T>
std::vector<T> run(Op op, Basic b, std::vector<T> origin, std::vector<T> target) {
  apply_basic(op, b, reinterpret_cast<const char*>(origin.data()), reinterpret_cast<char*>(target.data()),
               std::int64_t(target.size()));
  return target;
}

ErrClass class_of_check(Op op, Basic b) {
  try {
    check_accumulate_op(op, b, "MPI_Accumulate");
  } catch (const Error& e) {
    return e.cls();
  }
  return ErrClass::Success;
}

}  // namespace

TEST_CASE("accumulate ops on ints: target = origin op target, element by element") {
  std::vector<int> o{1, -2, 7, 0}, t{10, 20, -3, 5};
  CHECK(run(Op::Sum, Basic::Int, o, t) == std::vector<int>{11, 18, 4, 5});
  CHECK(run(Op::Prod, Basic::Int, o, t) == std::vector<int>{10, -40, -21, 0});
  CHECK(run(Op::Max, Basic::Int, o, t) == std::vector<int>{10, 20, 7, 5});
  CHECK(run(Op::Min, Basic::Int, o, t) == std::vector<int>{1, -2, -3, 0});
  CHECK(run(Op::Replace, Basic::Int, o, t) == o);
  CHECK(run(Op::Band, Basic::Int, std::vector<int>{6, 5}, std::vector<int>{3, 3}) == std::vector<int>{2, 1});
  CHECK(run(Op::Bor, Basic::Int, std::vector<int>{6, 5}, std::vector<int>{3, 3}) == std::vector<int>{7, 7});
  CHECK(run(Op::Bxor, Basic::Int, std::vector<int>{6, 5}, std::vector<int>{3, 3}) == std::vector<int>{5, 6});
  CHECK(run(Op::Land, Basic::Int, std::vector<int>{0, 2, 2}, std::vector<int>{1, 0, 3}) ==
        std::vector<int>{0, 0, 1});
  CHECK(run(Op::Lxor, Basic::Int, std::vector<int>{0, 2, 2}, std::vector<int>{1, 0, 3}) ==
        std::vector<int>{1, 1, 0});
}

TEST_CASE("accumulate ops on doubles, unsigned bytes and C_BOOL") {
  CHECK(run(Op::Sum, Basic::Double, std::vector<double>{0.5, 1e10}, std::vector<double>{0.25, -1e10}) ==
        std::vector<double>{0.75, 0.0});
  CHECK(run(Op::Max, Basic::Double, std::vector<double>{-1.5}, std::vector<double>{-2.5}) ==
        std::vector<double>{-1.5});
  CHECK(run(Op::Sum, Basic::Uint8, std::vector<std::uint8_t>{200}, std::vector<std::uint8_t>{100}) ==
        std::vector<std::uint8_t>{44});  // wraps modulo 256, as C's unsigned arithmetic
  // C_BOOL is one byte (bool), 0 or 1
  CHECK(run(Op::Lor, Basic::CBool, std::vector<char>{0, 1}, std::vector<char>{0, 0}) == std::vector<char>{0, 1});
  CHECK(run(Op::Land, Basic::CBool, std::vector<char>{1, 1}, std::vector<char>{0, 1}) == std::vector<char>{0, 1});
}

TEST_CASE("which op suits which basic type (MPI_ERR_OP otherwise)") {
  CHECK(class_of_check(Op::Sum, Basic::Double) == ErrClass::Success);
  CHECK(class_of_check(Op::Band, Basic::Float) == ErrClass::Op);
  CHECK(class_of_check(Op::Band, Basic::Byte) == ErrClass::Success);
  CHECK(class_of_check(Op::Sum, Basic::Byte) == ErrClass::Op);
  CHECK(class_of_check(Op::Land, Basic::CBool) == ErrClass::Success);
  CHECK(class_of_check(Op::Max, Basic::CBool) == ErrClass::Op);
  CHECK(class_of_check(Op::Replace, Basic::LongDouble) == ErrClass::Success);
  CHECK(class_of_check(Op::Count_, Basic::Int) == ErrClass::Op);
}

TEST_CASE("the rest of the table: text types, Fortran integers, complex, logical") {
  CHECK(class_of_check(Op::Sum, Basic::Char) == ErrClass::Op);  // MPI_CHAR takes no op
  CHECK(class_of_check(Op::Max, Basic::Wchar) == ErrClass::Op);
  CHECK(class_of_check(Op::Bxor, Basic::Aint) == ErrClass::Success);
  CHECK(class_of_check(Op::Land, Basic::Offset) == ErrClass::Op);  // Fortran integer: no logical ops
  CHECK(class_of_check(Op::Prod, Basic::CDoubleComplex) == ErrClass::Success);
  CHECK(class_of_check(Op::Max, Basic::CFloatComplex) == ErrClass::Op);
  CHECK(class_of_check(Op::Lxor, Basic::CxxBool) == ErrClass::Success);
  CHECK(class_of_check(Op::Maxloc, Basic::Double) == ErrClass::Op);  // accumulate takes no MAXLOC
  CHECK(class_of_check(Op::NoOp, Basic::Int) == ErrClass::Success);
}

namespace {

ErrClass reduce_check(Op op, const lumpi::core::TypePtr& t) {
  try {
    lumpi::core::check_reduce_op(op, *t, "MPI_Reduce");
    return ErrClass::Success;
  } catch (const Error& e) {
    return e.cls();
  }
}

}  // namespace

TEST_CASE("reductions: MAXLOC only on pairs, REPLACE never, derived types of one basic type") {
  using lumpi::core::Datatype;
  using lumpi::core::Pair;
  CHECK(reduce_check(Op::Maxloc, Datatype::pair(Pair::DoubleInt)) == ErrClass::Success);
  CHECK(reduce_check(Op::Maxloc, Datatype::basic(Basic::Int)) == ErrClass::Op);
  CHECK(reduce_check(Op::Sum, Datatype::pair(Pair::TwoInt)) == ErrClass::Op);
  CHECK(reduce_check(Op::Replace, Datatype::basic(Basic::Int)) == ErrClass::Op);
  CHECK(reduce_check(Op::NoOp, Datatype::basic(Basic::Int)) == ErrClass::Op);
  auto col = Datatype::vector(3, 1, 4, Datatype::basic(Basic::Double));
  col->commit();
  CHECK(reduce_check(Op::Sum, col) == ErrClass::Success);
  CHECK(reduce_check(Op::Band, col) == ErrClass::Op);
  auto mixed = Datatype::create_struct({1, 1}, {0, 8}, {Datatype::basic(Basic::Double), Datatype::basic(Basic::Int)});
  mixed->commit();
  CHECK(reduce_check(Op::Sum, mixed) == ErrClass::Type);
}

TEST_CASE("MAXLOC and MINLOC on packed pairs: the better value, ties to the lower index (§5.9.4)") {
  using lumpi::core::Datatype;
  using lumpi::core::Pair;
  auto t = Datatype::pair(Pair::ShortInt);  // packed: short (2 bytes) then int, 6 bytes each
  CHECK(t->size() == 6);
  auto packed = [](std::vector<std::pair<short, int>> v) {
    std::string s;
    for (auto [x, i] : v) {
      s.append(reinterpret_cast<const char*>(&x), 2);
      s.append(reinterpret_cast<const char*>(&i), 4);
    }
    return s;
  };
  std::string in = packed({{5, 3}, {2, 9}, {4, 1}}), io = packed({{5, 7}, {8, 0}, {4, 6}});
  lumpi::core::apply_packed(Op::Maxloc, *t, in.data(), io.data(), 3);
  CHECK(io == packed({{5, 3}, {8, 0}, {4, 1}}));
  io = packed({{5, 7}, {8, 0}, {4, 6}});
  lumpi::core::apply_packed(Op::Minloc, *t, in.data(), io.data(), 3);
  CHECK(io == packed({{5, 3}, {2, 9}, {4, 1}}));
}

TEST_CASE("complex SUM and PROD") {
  std::vector<std::complex<double>> a{{1, 2}}, b{{3, -1}};
  lumpi::core::apply_basic(Op::Prod, Basic::CDoubleComplex, reinterpret_cast<const char*>(a.data()),
                           reinterpret_cast<char*>(b.data()), 1);
  CHECK(b[0] == std::complex<double>(5, 5));
}
