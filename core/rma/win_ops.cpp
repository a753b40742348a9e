// core/rma/win_ops.cpp: the predefined ops of MPI_Accumulate on basic C types,
// element by element in the target's window memory. Pure: sends nothing.
// Which op suits which type follows seed §5.9.2's groups: SUM, PROD, MAX,
// MIN on integers and floating types; LAND, LOR, LXOR on integers and
// C_BOOL; BAND, BOR, BXOR on integers and BYTE; REPLACE on every type.
#include <cstring>
#include <type_traits>

#include "core/base/error.hpp"
#include "core/rma/win.hpp"

namespace lumpi::core {

namespace {

enum Group : unsigned { kInteger = 1, kFloat = 2, kBool = 4, kByte = 8 };

unsigned group_of(Basic b) {
  switch (b) {
    case Basic::Float: case Basic::Double: case Basic::LongDouble: return kFloat;
    case Basic::CBool: return kBool;
    case Basic::Byte: case Basic::Packed: return kByte;
    default: return kInteger;
  }
}

unsigned groups_for(RmaOp op) {
  switch (op) {
    case RmaOp::Sum: case RmaOp::Prod: case RmaOp::Max: case RmaOp::Min: return kInteger | kFloat;
    case RmaOp::Land: case RmaOp::Lor: case RmaOp::Lxor: return kInteger | kBool;
    case RmaOp::Band: case RmaOp::Bor: case RmaOp::Bxor: return kInteger | kByte;
    default: return kInteger | kFloat | kBool | kByte;
  }
}

template <class T>
T combine(RmaOp op, T a, T t) {  // a: the origin's, t: the target's
  if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case RmaOp::Land: return a && t;
      case RmaOp::Lor: return a || t;
      case RmaOp::Lxor: return a != t;
      default: return a;  // REPLACE
    }
  } else {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      // wrap around as the hardware does, without C++'s undefined signed overflow
      using U = std::make_unsigned_t<T>;
      if (op == RmaOp::Sum) return T(U(U(t) + U(a)));
      if (op == RmaOp::Prod) return T(U(U(t) * U(a)));
    }
    switch (op) {
      case RmaOp::Sum: return T(t + a);
      case RmaOp::Prod: return T(t * a);
      case RmaOp::Max: return t < a ? a : t;
      case RmaOp::Min: return a < t ? a : t;
      case RmaOp::Land: return T((t != T(0)) && (a != T(0)));
      case RmaOp::Lor: return T((t != T(0)) || (a != T(0)));
      case RmaOp::Lxor: return T((t != T(0)) != (a != T(0)));
      default: break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case RmaOp::Band: return T(t & a);
        case RmaOp::Bor: return T(t | a);
        case RmaOp::Bxor: return T(t ^ a);
        default: break;
      }
    }
    return a;  // REPLACE
  }
}

template <class T>
void apply(RmaOp op, const char* src, char* dst, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    T a, t;
    std::memcpy(&a, src + i * std::int64_t(sizeof(T)), sizeof(T));
    std::memcpy(&t, dst + i * std::int64_t(sizeof(T)), sizeof(T));
    t = combine<T>(op, a, t);
    std::memcpy(dst + i * std::int64_t(sizeof(T)), &t, sizeof(T));
  }
}

}  // namespace

const char* rma_op_name(RmaOp op) {
  static const char* const names[] = {"MPI_SUM", "MPI_PROD", "MPI_MAX",  "MPI_MIN",  "MPI_LAND",   "MPI_LOR",
                                      "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_REPLACE"};
  return op < RmaOp::Count_ ? names[int(op)] : "unknown op";
}

void check_rma_op(RmaOp op, Basic b, std::string_view func) {
  if (op >= RmaOp::Count_) fail(ErrClass::Op, func, "op is not a predefined op");
  if (!(groups_for(op) & group_of(b)))
    fail(ErrClass::Op, func, std::string(rma_op_name(op)) + " is not defined on " + basic_info(b).name);
}

void apply_rma_op(RmaOp op, Basic b, const char* src, char* dst, std::int64_t n) {
  with_basic(b, [&]<class T>() { apply<T>(op, src, dst, n); });
}

}  // namespace lumpi::core
