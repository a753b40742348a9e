// core/rma/win_acc.cpp: the origin's end of the accumulate family
// (MPI-3.1 §11.3.4): accumulate, get_accumulate, fetch_and_op,
// compare_and_swap, and the request-based raccumulate and rget_accumulate
// (§11.3.5). The element-wise ops are core/datatype/op.hpp's, applied by
// the target (win.cpp), which serves one operation at a time: each is
// atomic per element, and those of one origin apply in issue order (§11.7).
#include <optional>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/rma/win_state.hpp"

namespace lumpi::core {

using namespace rma;

namespace {

// The single basic type a committed type is made of; MPI_ERR_TYPE if several.
Basic single_basic(const Datatype& t, std::string_view func, const char* what) {
  const auto& runs = t.runs();
  if (runs.empty()) return Basic::Byte;
  Basic b = runs.front().basic;
  for (const Run& r : runs)
    if (r.basic != b)
      fail(ErrClass::Type, func,
           std::string(what) + " mixes basic types; accumulate needs one predefined type throughout");
  return b;
}

// The pair type (MPI_DOUBLE_INT ...) t is made of, if it is made of one:
// a predefined pair, or a derived type all of whose leaves are that pair.
std::optional<Pair> pair_unit(const Datatype& t) {
  if (t.pair_of()) return t.pair_of();
  if (t.predefined()) return std::nullopt;
  std::optional<Pair> unit;
  for (const TypePtr& child : t.contents().types) {
    std::optional<Pair> c = pair_unit(*child);
    if (!c || (unit && *unit != *c)) return std::nullopt;
    unit = c;
  }
  return unit;
}

// The types compare_and_swap takes (§11.3.4.3): C integer, Fortran
// integer, logical and byte; not floating point, complex nor text.
bool swappable(Basic b) {
  switch (b) {
    case Basic::Float: case Basic::Double: case Basic::LongDouble: case Basic::Real: case Basic::DoublePrecision:
    case Basic::Real4: case Basic::Real8: case Basic::CFloatComplex: case Basic::CDoubleComplex:
    case Basic::CLongDoubleComplex: case Basic::CxxFloatComplex: case Basic::CxxDoubleComplex:
    case Basic::CxxLongDoubleComplex: case Basic::Complex: case Basic::DoubleComplex: case Basic::Complex8:
    case Basic::Complex16: case Basic::Char: case Basic::Wchar: case Basic::Character: case Basic::Count_:
      return false;
    default:
      return true;
  }
}

}  // namespace

// Both types made of one basic type, the same, that op takes, or of one
// pair type, the same, with MAXLOC, MINLOC, REPLACE or NO_OP (otype null:
// no origin data, NO_OP); anything when no data moves. The pair's code travels with the operation: 0
// for none, else the pair + 1.
std::uint64_t Win::check_acc_types(const TypePtr& otype, const TypePtr& ttype, std::int64_t tcount, Op op,
                                   std::string_view func) const {
  if (op >= Op::Count_) fail(ErrClass::Op, func, "op is not a predefined op accumulate takes");
  if (tcount * ttype->size() == 0) return 0;  // no data: empty signatures match, nothing is combined
  std::optional<Pair> tp = pair_unit(*ttype);
  if (tp || (otype && pair_unit(*otype))) {
    if (otype && pair_unit(*otype) != tp)
      fail(ErrClass::Type, func, "origin_datatype and target_datatype are not made of the same pair type");
    if (op != Op::Maxloc && op != Op::Minloc && op != Op::Replace && op != Op::NoOp)
      fail(ErrClass::Op, func, std::string(op_name(op)) + " is not defined on pair types (MAXLOC, MINLOC, REPLACE, NO_OP are)");
    return std::uint64_t(*tp) + 1;
  }
  Basic tb = single_basic(*ttype, func, "target_datatype");
  if (otype) {
    Basic ob = single_basic(*otype, func, "origin_datatype");
    if (ob != tb && !otype->runs().empty() && !ttype->runs().empty())
      fail(ErrClass::Type, func,
           std::string("origin_datatype is made of ") + basic_info(ob).name + ", target_datatype of " +
               basic_info(tb).name + "; accumulate needs the same basic type");
  }
  check_accumulate_op(op, tb, func);
  return 0;
}

void Win::accumulate(const void* origin, std::int64_t count, const TypePtr& otype, int target,
                     std::int64_t disp, std::int64_t tcount, const TypePtr& ttype, Op op) {
  const char* func = "MPI_Accumulate";
  check_usable(func);
  if (op >= Op::Count_) fail(ErrClass::Op, func, "op is not a predefined op accumulate takes");
  check_data(count, otype, tcount, ttype, func, "origin_count", "origin_datatype");
  std::uint64_t pair = check_acc_types(otype, ttype, tcount, op, func);
  if (!check_target(target, disp, tcount, ttype, func)) return;
  note_buffer(origin, count, otype, target, false, func);
  std::string body = op_header(disp, target, tcount, ttype) + Packer().u64(uint64_t(op)).u64(pair).take();
  append_data(body, origin, count, otype, func);
  send_op(kAcc, target, std::move(body), 0, func);
}

std::uint64_t Win::issue_get_accumulate(const void* origin, std::int64_t count, const TypePtr& otype, void* result,
                                        std::int64_t rcount, const TypePtr& rtype, int target, std::int64_t disp,
                                        std::int64_t tcount, const TypePtr& ttype, Op op, std::string_view func) {
  check_usable(func);
  if (op >= Op::Count_) fail(ErrClass::Op, func, "op is not a predefined op accumulate takes");
  check_data(rcount, rtype, tcount, ttype, func, "result_count", "result_datatype");
  const bool noop = op == Op::NoOp;  // the origin arguments are ignored
  if (!noop) check_data(count, otype, tcount, ttype, func, "origin_count", "origin_datatype");
  std::uint64_t pair = check_acc_types(noop ? nullptr : otype, ttype, tcount, op, func);
  if (!check_target(target, disp, tcount, ttype, func)) return 0;
  std::string body = op_header(disp, target, tcount, ttype) + Packer().u64(uint64_t(op)).u64(pair).take();
  append_data(body, origin, noop ? 0 : count, noop ? ttype : otype, func);
  std::uint64_t seq = expect(result, rcount, rtype);
  if (func != "MPI_Rget_accumulate") {
    if (!noop) note_buffer(origin, count, otype, target, false, "MPI_Get_accumulate");
    note_buffer(result, rcount, rtype, target, true, func == "MPI_Fetch_and_op" ? "MPI_Fetch_and_op" : "MPI_Get_accumulate", seq);
  }
  send_op(kGetAcc, target, std::move(body), seq, func);
  return seq;
}

void Win::get_accumulate(const void* origin, std::int64_t count, const TypePtr& otype, void* result,
                         std::int64_t rcount, const TypePtr& rtype, int target, std::int64_t disp,
                         std::int64_t tcount, const TypePtr& ttype, Op op, std::string_view func) {
  issue_get_accumulate(origin, count, otype, result, rcount, rtype, target, disp, tcount, ttype, op, func);
}

void Win::fetch_and_op(const void* origin, void* result, const TypePtr& type, int target, std::int64_t disp, Op op) {
  const char* func = "MPI_Fetch_and_op";
  if (type && !type->predefined()) fail(ErrClass::Type, func, "datatype must be a predefined type, not " + type->name());
  issue_get_accumulate(origin, 1, type, result, 1, type, target, disp, 1, type, op, func);
}

void Win::compare_and_swap(const void* origin, const void* compare, void* result, const TypePtr& type, int target,
                           std::int64_t disp) {
  const char* func = "MPI_Compare_and_swap";
  check_usable(func);
  if (!type) fail(ErrClass::Type, func, "datatype is null");
  type->check_usable(func, "datatype");
  if (!type->predefined() || type->runs().size() != 1 || !swappable(type->runs()[0].basic))
    fail(ErrClass::Type, func,
         "datatype " + type->name() + " is not a predefined integer, logical or byte type (§11.3.4.3)");
  if (!check_target(target, disp, 1, type, func)) return;
  std::string body = op_header(disp, target, 1, type);
  append_data(body, compare, 1, type, func);
  append_data(body, origin, 1, type, func);
  send_op(kCas, target, std::move(body), expect(result, 1, type), func);
}

RequestPtr Win::raccumulate(const void* origin, std::int64_t count, const TypePtr& otype, int target,
                            std::int64_t disp, std::int64_t tcount, const TypePtr& ttype, Op op) {
  check_passive(target, "MPI_Raccumulate");
  state_->request_based = true;  // (its request frees the buffer: not the epoch's to watch)
  try {
    accumulate(origin, count, otype, target, disp, tcount, ttype, op);
  } catch (...) {
    state_->request_based = false;
    throw;
  }
  state_->request_based = false;
  return Request::done();  // the data is in the message: the origin buffer is free
}

RequestPtr Win::rget_accumulate(const void* origin, std::int64_t count, const TypePtr& otype, void* result,
                                std::int64_t rcount, const TypePtr& rtype, int target, std::int64_t disp,
                                std::int64_t tcount, const TypePtr& ttype, Op op) {
  const char* func = "MPI_Rget_accumulate";
  check_passive(target, func);
  std::uint64_t seq =
      issue_get_accumulate(origin, count, otype, result, rcount, rtype, target, disp, tcount, ttype, op, func);
  return seq ? answered(seq, func) : Request::done();
}

}  // namespace lumpi::core
