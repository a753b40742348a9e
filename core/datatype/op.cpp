// core/datatype/op.cpp: the predefined operations on typed bytes
// (core/datatype/op.hpp states the rules).
#include "core/datatype/op.hpp"

#include <complex>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/base/error.hpp"

namespace lumpi::core {

namespace {

enum Class : unsigned { kCInteger = 1, kFortranInteger = 2, kFloat = 4, kComplex = 8, kLogical = 16, kByte = 32 };

unsigned class_of(Basic b) {
  switch (b) {
    case Basic::Char: case Basic::Wchar: case Basic::Packed: case Basic::Character: return 0;
    case Basic::Float: case Basic::Double: case Basic::LongDouble:
    case Basic::Real: case Basic::DoublePrecision: case Basic::Real4: case Basic::Real8: return kFloat;
    case Basic::CFloatComplex: case Basic::CDoubleComplex: case Basic::CLongDoubleComplex:
    case Basic::CxxFloatComplex: case Basic::CxxDoubleComplex: case Basic::CxxLongDoubleComplex:
    case Basic::Complex: case Basic::DoubleComplex: case Basic::Complex8: case Basic::Complex16:
      return kComplex;
    case Basic::CBool: case Basic::CxxBool: case Basic::Logical: return kLogical;
    case Basic::Byte: return kByte;
    case Basic::Aint: case Basic::Offset: case Basic::Count:
    case Basic::Integer: case Basic::Integer1: case Basic::Integer2: case Basic::Integer4: case Basic::Integer8:
      return kFortranInteger;
    default: return kCInteger;
  }
}

unsigned classes_for(Op op) {
  switch (op) {
    case Op::Max: case Op::Min: return kCInteger | kFortranInteger | kFloat;
    case Op::Sum: case Op::Prod: return kCInteger | kFortranInteger | kFloat | kComplex;
    case Op::Land: case Op::Lor: case Op::Lxor: return kCInteger | kLogical;
    case Op::Band: case Op::Bor: case Op::Bxor: return kCInteger | kFortranInteger | kByte;
    case Op::Replace: case Op::NoOp: return ~0u;
    default: return 0;  // MAXLOC, MINLOC: pairs only
  }
}

// a op t, `a` from the lower rank (accumulate: the origin's), t the other.
template <class T>
T combine(Op op, T a, T t) {
  if (op == Op::Replace) return a;
  if (op == Op::NoOp) return t;
  if constexpr (is_complex_type<T>) {
    return op == Op::Sum ? a + t : a * t;
  } else if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case Op::Land: return a && t;
      case Op::Lor: return a || t;
      default: return a != t;  // LXOR
    }
  } else {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      using U = std::make_unsigned_t<T>;  // wrap around, without C++'s undefined signed overflow
      if (op == Op::Sum) return T(U(U(t) + U(a)));
      if (op == Op::Prod) return T(U(U(t) * U(a)));
    }
    switch (op) {
      case Op::Sum: return T(t + a);
      case Op::Prod: return T(t * a);
      case Op::Max: return t < a ? a : t;
      case Op::Min: return a < t ? a : t;
      case Op::Land: return T((t != T(0)) && (a != T(0)));
      case Op::Lor: return T((t != T(0)) || (a != T(0)));
      case Op::Lxor: return T((t != T(0)) != (a != T(0)));
      default: break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case Op::Band: return T(t & a);
        case Op::Bor: return T(t | a);
        default: return T(t ^ a);  // BXOR
      }
    }
    return t;
  }
}

template <class T>
void apply_n(Op op, const char* in, char* inout, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    T a, t;
    std::memcpy(&a, in + i * std::int64_t(sizeof(T)), sizeof(T));
    std::memcpy(&t, inout + i * std::int64_t(sizeof(T)), sizeof(T));
    t = combine<T>(op, a, t);
    std::memcpy(inout + i * std::int64_t(sizeof(T)), &t, sizeof(T));
  }
}

// MAXLOC/MINLOC on n packed pairs {T value; I index} (index right after
// the value): the better value wins; equal values take the lower index.
template <class T, class I>
void apply_loc(Op op, const char* in, char* inout, std::int64_t n) {
  constexpr std::int64_t each = std::int64_t(sizeof(T) + sizeof(I));
  for (std::int64_t i = 0; i < n; ++i) {
    T u, v;
    I iu, iv;
    const char* a = in + i * each;
    char* b = inout + i * each;
    std::memcpy(&u, a, sizeof(T));
    std::memcpy(&iu, a + sizeof(T), sizeof(I));
    std::memcpy(&v, b, sizeof(T));
    std::memcpy(&iv, b + sizeof(T), sizeof(I));
    const bool a_better = op == Op::Maxloc ? v < u : u < v;
    if (a_better || (u == v && iu < iv)) std::memcpy(b, a, size_t(each));
  }
}

// The basic type every element of t is made of, or Count_ if several.
Basic single_basic(const Datatype& t) {
  Basic b = Basic::Count_;
  for (const Run& r : t.runs()) {
    if (b != Basic::Count_ && r.basic != b) return Basic::Count_;
    b = r.basic;
  }
  return b;
}

[[noreturn]] void refuse(Op op, const std::string& type, std::string_view func) {
  fail(ErrClass::Op, func, std::string(op_name(op)) + " is not defined on " + type + " (MPI-3.1 §5.9.2)");
}

}  // namespace

const char* op_name(Op op) {
  static const char* const names[] = {"MPI_SUM",  "MPI_PROD", "MPI_MAX",     "MPI_MIN",    "MPI_LAND",
                                      "MPI_LOR",  "MPI_LXOR", "MPI_BAND",    "MPI_BOR",    "MPI_BXOR",
                                      "MPI_REPLACE", "MPI_NO_OP", "MPI_MAXLOC", "MPI_MINLOC"};
  static_assert(sizeof names / sizeof names[0] == size_t(Op::Count_));
  return op < Op::Count_ ? names[int(op)] : "unknown op";
}

void check_reduce_op(Op op, const Datatype& t, std::string_view func) {
  if (op >= Op::Count_) fail(ErrClass::Op, func, "op is not a predefined op");
  if (op == Op::Replace || op == Op::NoOp)
    fail(ErrClass::Op, func,
         std::string(op_name(op)) + " can be used only in one-sided accumulate calls, not in reductions "
                                    "(MPI-2.2 Annex B.1 item 23)");
  const bool loc = op == Op::Maxloc || op == Op::Minloc;
  if (loc != t.pair_of().has_value())
    refuse(op, t.name().empty() ? "this derived datatype" : t.name(), func);
  if (loc || t.runs().empty()) return;
  Basic b = single_basic(t);
  if (b == Basic::Count_)
    fail(ErrClass::Type, func,
         "datatype " + (t.name().empty() ? std::string("(derived)") : t.name()) +
             " mixes basic types; a predefined op takes a datatype made of one basic type (MPI-3.1 §5.9.2, §11.3.4)");
  if (!(classes_for(op) & class_of(b)))
    refuse(op, t.predefined() ? t.name() : std::string("a datatype made of ") + basic_info(b).name, func);
}

void check_accumulate_op(Op op, Basic b, std::string_view func) {
  if (op >= Op::Count_ || op == Op::Maxloc || op == Op::Minloc)
    fail(ErrClass::Op, func, "op is not a predefined op accumulate takes");
  if (!(classes_for(op) & class_of(b))) refuse(op, basic_info(b).name, func);
}

void apply_basic(Op op, Basic b, const char* in, char* inout, std::int64_t n) {
  with_basic(b, [&]<class T>() { apply_n<T>(op, in, inout, n); });
}

void apply_packed(Op op, const Datatype& t, const char* in, char* inout, std::int64_t count) {
  if (auto p = t.pair_of()) {
    const PairInfo& pi = pair_info(*p);
    with_basic(pi.value, [&]<class T>() {
      if constexpr (!is_complex_type<T>) {  // (pair values are real)
        if (pi.index == Basic::Int) return apply_loc<T, int>(op, in, inout, count);
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, float> || std::is_same_v<T, double>)
          apply_loc<T, T>(op, in, inout, count);  // Fortran's pairs: the index is of the value's type
      }
    });
    return;
  }
  // checked: one basic type, count * nbasic of them in a row
  if (!t.runs().empty()) apply_basic(op, t.runs().front().basic, in, inout, count * t.layout().nbasic);
}

}  // namespace lumpi::core
