// tests/unit/win_ops_test.cpp: the element-wise ops of MPI_Accumulate
// (core/rma/win_ops.cpp) against hand-computed results, and which op suits
// which basic type (seed §5.9.2's groups; MPI_ERR_OP otherwise).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/base/error.hpp"
#include "core/rma/win.hpp"

using lumpi::core::apply_rma_op;
using lumpi::core::Basic;
using lumpi::core::check_rma_op;
using lumpi::core::ErrClass;
using lumpi::core::Error;
using lumpi::core::RmaOp;

namespace {

template <class T>
std::vector<T> run(RmaOp op, Basic b, std::vector<T> origin, std::vector<T> target) {
  apply_rma_op(op, b, reinterpret_cast<const char*>(origin.data()), reinterpret_cast<char*>(target.data()),
               std::int64_t(target.size()));
  return target;
}

ErrClass class_of_check(RmaOp op, Basic b) {
  try {
    check_rma_op(op, b, "MPI_Accumulate");
  } catch (const Error& e) {
    return e.cls();
  }
  return ErrClass::Success;
}

}  // namespace

TEST_CASE("accumulate ops on ints: target = origin op target, element by element") {
  std::vector<int> o{1, -2, 7, 0}, t{10, 20, -3, 5};
  CHECK(run(RmaOp::Sum, Basic::Int, o, t) == std::vector<int>{11, 18, 4, 5});
  CHECK(run(RmaOp::Prod, Basic::Int, o, t) == std::vector<int>{10, -40, -21, 0});
  CHECK(run(RmaOp::Max, Basic::Int, o, t) == std::vector<int>{10, 20, 7, 5});
  CHECK(run(RmaOp::Min, Basic::Int, o, t) == std::vector<int>{1, -2, -3, 0});
  CHECK(run(RmaOp::Replace, Basic::Int, o, t) == o);
  CHECK(run(RmaOp::Band, Basic::Int, std::vector<int>{6, 5}, std::vector<int>{3, 3}) == std::vector<int>{2, 1});
  CHECK(run(RmaOp::Bor, Basic::Int, std::vector<int>{6, 5}, std::vector<int>{3, 3}) == std::vector<int>{7, 7});
  CHECK(run(RmaOp::Bxor, Basic::Int, std::vector<int>{6, 5}, std::vector<int>{3, 3}) == std::vector<int>{5, 6});
  CHECK(run(RmaOp::Land, Basic::Int, std::vector<int>{0, 2, 2}, std::vector<int>{1, 0, 3}) ==
        std::vector<int>{0, 0, 1});
  CHECK(run(RmaOp::Lxor, Basic::Int, std::vector<int>{0, 2, 2}, std::vector<int>{1, 0, 3}) ==
        std::vector<int>{1, 1, 0});
}

TEST_CASE("accumulate ops on doubles, unsigned bytes and C_BOOL") {
  CHECK(run(RmaOp::Sum, Basic::Double, std::vector<double>{0.5, 1e10}, std::vector<double>{0.25, -1e10}) ==
        std::vector<double>{0.75, 0.0});
  CHECK(run(RmaOp::Max, Basic::Double, std::vector<double>{-1.5}, std::vector<double>{-2.5}) ==
        std::vector<double>{-1.5});
  CHECK(run(RmaOp::Sum, Basic::Uint8, std::vector<std::uint8_t>{200}, std::vector<std::uint8_t>{100}) ==
        std::vector<std::uint8_t>{44});  // wraps modulo 256, as C's unsigned arithmetic
  // C_BOOL is one byte (bool), 0 or 1
  CHECK(run(RmaOp::Lor, Basic::CBool, std::vector<char>{0, 1}, std::vector<char>{0, 0}) == std::vector<char>{0, 1});
  CHECK(run(RmaOp::Land, Basic::CBool, std::vector<char>{1, 1}, std::vector<char>{0, 1}) == std::vector<char>{0, 1});
}

TEST_CASE("which op suits which basic type (MPI_ERR_OP otherwise)") {
  CHECK(class_of_check(RmaOp::Sum, Basic::Double) == ErrClass::Success);
  CHECK(class_of_check(RmaOp::Band, Basic::Float) == ErrClass::Op);
  CHECK(class_of_check(RmaOp::Band, Basic::Byte) == ErrClass::Success);
  CHECK(class_of_check(RmaOp::Sum, Basic::Byte) == ErrClass::Op);
  CHECK(class_of_check(RmaOp::Land, Basic::CBool) == ErrClass::Success);
  CHECK(class_of_check(RmaOp::Max, Basic::CBool) == ErrClass::Op);
  CHECK(class_of_check(RmaOp::Replace, Basic::LongDouble) == ErrClass::Success);
  CHECK(class_of_check(RmaOp::Count_, Basic::Int) == ErrClass::Op);
}
