// lua/ops.cpp: applies MPI's predefined reduction operations to Lua values.
//
// One job: validate an operand (check_operand) and combine two operands
// (push_combined) for MPI_SUM ... MPI_MINLOC, with Lua's own arithmetic.
// Errors are thrown as core::Error; no function here raises a Lua error
// except on memory exhaustion, because it only uses raw accesses
// (lua_rawgeti, lua_rawlen, lua_next) and lua_arith / lua_compare on values
// already known to be numbers, which never reach a metamethod.
//
// Choices where the MPI text leaves room (MPI-2.2 §5.9, reference §1.3):
// - Logical ops (LAND/LOR/LXOR) take booleans and, as MPI allows the "C
//   integer" class for them, integers (non-zero is true, the result is the
//   integer 0 or 1 as in C). Floats are rejected (MPI_FLOAT + MPI_LAND is not
//   a valid pair). Combining a boolean with an integer is MPI_ERR_TYPE: in
//   MPI that is two ranks passing different datatypes (MPI_C_BOOL vs MPI_INT),
//   and in Lua 0 is true, so guessing would hide a bug.
// - Bitwise ops take integers only; a float, even 4.0, is MPI_ERR_OP.
// - An op applied to a type it is not defined for is MPI_ERR_OP, naming the
//   value (and its element number inside a sequence). A table that is not a
//   proper sequence (holes, non-integer keys) is also MPI_ERR_OP: the op is
//   not defined for it.
// - Between two valid operands: different lengths are MPI_ERR_COUNT (MPI's
//   count must be equal on all ranks); different shapes (number vs sequence,
//   pair vs sequence of pairs, boolean vs integer) are MPI_ERR_TYPE (the
//   type signatures differ).
// - MAX/MIN keep the first operand (lower ranks) unless the second is
//   strictly greater/smaller, like math.max; so ties and NaN keep `a`.
//   MAXLOC/MINLOC: equal values (or NaN) take the pair with the smaller index
//   (the first on equal indices); the result is a new {value, index} table
//   holding the winning pair's value and index unchanged.
#include "lua/ops.hpp"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <cstdio>
#include <string>

#include "core/base/error.hpp"
#include "lua/codec.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;

namespace {

// Which rule set an op follows.
enum class Family { Arith, Order, Logical, Bitwise, Loc };

// The kind of a scalar Lua value, as far as reductions care.
enum class Kind { Int, Float, Bool, Other };

Family family(OpKind op) {
  switch (op) {
    case OpKind::Sum: case OpKind::Prod: return Family::Arith;
    case OpKind::Max: case OpKind::Min: return Family::Order;
    case OpKind::Land: case OpKind::Lor: case OpKind::Lxor: return Family::Logical;
    case OpKind::Maxloc: case OpKind::Minloc: return Family::Loc;
    default: return Family::Bitwise;  // BAND, BOR, BXOR
  }
}

Kind kind_of(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? Kind::Int : Kind::Float;
    case LUA_TBOOLEAN: return Kind::Bool;
    default: return Kind::Other;
  }
}

// --- messages -------------------------------------------------------------

// A float as Lua prints it ("2.5", "4.0", "1e+100", "inf").
std::string format_float(lua_Number x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.14g", double(x));
  std::string s = buf;
  if (std::isfinite(x) && s.find_first_not_of("-0123456789") == std::string::npos) s += ".0";
  return s;
}

// The type and value at idx for a message, without conversions or
// metamethods: {"integer", "5"}, {"string", "\"abc\""}, {"table", ""}.
struct Parts {
  std::string type, value;
};

Parts parts(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) return {"integer", std::to_string(lua_tointeger(L, idx))};
      return {"float", format_float(lua_tonumber(L, idx))};
    case LUA_TBOOLEAN: return {"boolean", lua_toboolean(L, idx) ? "true" : "false"};
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);  // already a string: no conversion
      std::string text(s, len < 40 ? len : 40);
      return {"string", "\"" + text + (len > 40 ? "...\"" : "\"")};
    }
    default: return {lua_typename(L, lua_type(L, idx)), ""};
  }
}

// "integer 5", "float 2.5", "boolean true", "table", "nil".
std::string describe(lua_State* L, int idx) {
  const Parts p = parts(L, idx);
  return p.value.empty() ? p.type : p.type + " " + p.value;
}

// "float operand 2.5", "table operand".
std::string describe_operand(lua_State* L, int idx) {
  const Parts p = parts(L, idx);
  return p.type + " operand" + (p.value.empty() ? "" : " " + p.value);
}

// " (element 3 of the sequence)" for sequence elements, "" at top level.
std::string where(lua_Integer elem) {
  return elem == 0 ? std::string() : " (element " + std::to_string(elem) + " of the sequence)";
}

[[noreturn]] void fail_not_defined(lua_State* L, int idx, OpKind op, std::string_view func,
                                   lua_Integer elem) {
  fail(ErrClass::Op, func,
       std::string(op_name(op)) + " is not defined for " + describe_operand(L, idx) + where(elem));
}

// --- validation -------------------------------------------------------------

bool scalar_allowed(Family f, Kind k) {
  switch (f) {
    case Family::Arith:
    case Family::Order: return k == Kind::Int || k == Kind::Float;
    case Family::Logical: return k == Kind::Bool || k == Kind::Int;
    case Family::Bitwise: return k == Kind::Int;
    case Family::Loc: return false;
  }
  return false;
}

// Fails unless the value at idx is a scalar that `op` accepts.
void check_scalar(lua_State* L, int idx, OpKind op, std::string_view func, lua_Integer elem) {
  if (!scalar_allowed(family(op), kind_of(L, idx))) fail_not_defined(L, idx, op, func, elem);
}

// The key at the stack top, for a message: "3", "\"n\"", "a table".
std::string describe_key(lua_State* L) {
  if (lua_type(L, -1) == LUA_TSTRING) return "\"" + std::string(lua_tostring(L, -1)) + "\"";
  if (lua_isinteger(L, -1)) return std::to_string(lua_tointeger(L, -1));
  return describe(L, -1);
}

// Length of the table at idx (absolute), failing unless its keys are exactly
// integers 1..n (holes show up later as nil elements). `what` names the
// table in the message ("sequence" or "{value, index} pair").
lua_Integer checked_length(lua_State* L, int idx, OpKind op, std::string_view func,
                           lua_Integer elem, const char* what) {
  const auto n = lua_Integer(lua_rawlen(L, idx));
  lua_pushnil(L);  // -- push the first key for lua_next
  while (lua_next(L, idx) != 0) {  // -- pops the key, pushes the next key and its value
    lua_pop(L, 1);  // -- drop the value, keep the key for the next round
    const bool in_range =
        lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n;
    if (!in_range)
      fail(ErrClass::Op, func,
           std::string(op_name(op)) + " is not defined for a table with key " + describe_key(L) +
               "; operands must be a " + what + where(elem));
  }
  return n;
}

// Fails unless the value at idx (absolute) is a {value, index} pair: a table
// of exactly two elements, a number and an integer.
void check_pair(lua_State* L, int idx, OpKind op, std::string_view func, lua_Integer elem) {
  if (lua_type(L, idx) != LUA_TTABLE)
    fail(ErrClass::Op, func,
         std::string(op_name(op)) + " is not defined for " + describe_operand(L, idx) +
             "; it takes {value, index} pairs or sequences of them" + where(elem));
  if (checked_length(L, idx, op, func, elem, "{value, index} pair") != 2)
    fail(ErrClass::Op, func,
         std::string(op_name(op)) + " is not defined for a table of " +
             std::to_string(lua_rawlen(L, idx)) +
             (lua_rawlen(L, idx) == 1 ? " element" : " elements") +
             "; it takes {value, index} pairs" + where(elem));
  lua_rawgeti(L, idx, 1);  // -- push pair[1], the value
  lua_rawgeti(L, idx, 2);  // -- push pair[2], the index
  if (lua_type(L, -2) != LUA_TNUMBER)
    fail(ErrClass::Op, func,
         std::string(op_name(op)) + " is not defined for " + describe(L, -2) +
             " as the value of a {value, index} pair" + where(elem));
  if (!lua_isinteger(L, -1))
    fail(ErrClass::Op, func,
         std::string(op_name(op)) + " is not defined for " + describe(L, -1) +
             " as the index of a {value, index} pair; the index must be an integer" + where(elem));
  lua_pop(L, 2);  // -- drop value and index
}

// True if the table at idx looks like a single pair (its first element is a
// number) rather than a sequence of pairs. Only meaningful for tables.
bool looks_like_pair(lua_State* L, int idx) {
  lua_rawgeti(L, idx, 1);  // -- push t[1]
  const bool pair = lua_type(L, -1) == LUA_TNUMBER;
  lua_pop(L, 1);
  return pair;
}

// Validates every element of the sequence at idx (absolute): scalars for most
// ops, pairs for MAXLOC/MINLOC.
void check_sequence(lua_State* L, int idx, OpKind op, std::string_view func) {
  const lua_Integer n = checked_length(L, idx, op, func, 0, "sequence");
  const bool loc = family(op) == Family::Loc;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // -- push t[i]
    const int e = lua_gettop(L);
    if (loc)
      check_pair(L, e, op, func, i);
    else
      check_scalar(L, e, op, func, i);
    lua_pop(L, 1);  // -- drop t[i]
  }
}

// Restores the stack height if a check or a combination throws, so a caught
// error leaves the caller's stack as it was.
template <typename Body>
void keeping_stack_on_error(lua_State* L, std::string_view func, Body body) {
  const int top = lua_gettop(L);
  if (!lua_checkstack(L, 8)) fail(ErrClass::NoMem, func, "out of Lua stack space for a reduction");
  try {
    body();
  } catch (...) {
    lua_settop(L, top);
    throw;
  }
}

// --- combination -------------------------------------------------------------

// "integer 5" / "sequence of 3 elements" for shape-mismatch messages.
std::string describe_shape(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return describe(L, idx);
  return "sequence of " + std::to_string(lua_rawlen(L, idx)) + " elements";
}

[[noreturn]] void fail_shapes(lua_State* L, int a, int b, OpKind op, std::string_view func) {
  fail(ErrClass::Type, func,
       std::string(op_name(op)) + " operands differ in shape: " + describe_shape(L, a) + " vs " +
           describe_shape(L, b));
}

[[noreturn]] void fail_lengths(lua_Integer na, lua_Integer nb, OpKind op, std::string_view func) {
  fail(ErrClass::Count, func,
       std::string(op_name(op)) + " operands differ in length: " + std::to_string(na) + " vs " +
           std::to_string(nb) + " elements");
}

// Pushes x op y with Lua's arithmetic (lua_arith on numbers never reaches a
// metamethod, so it cannot raise).
void push_arith(lua_State* L, int x, int y, int lua_op) {
  lua_pushvalue(L, x);  // -- push x
  lua_pushvalue(L, y);  // -- push y
  lua_arith(L, lua_op);  // -- pop both, push x op y
}

// Pushes the logical combination of two booleans or two integers.
void push_logical(lua_State* L, OpKind op, int x, int y, std::string_view func,
                  lua_Integer elem) {
  const Kind kx = kind_of(L, x), ky = kind_of(L, y);
  if (kx != ky)
    fail(ErrClass::Type, func,
         std::string(op_name(op)) + " operands differ in type: " + describe(L, x) + " vs " +
             describe(L, y) + where(elem));
  const bool bx = kx == Kind::Bool ? lua_toboolean(L, x) : lua_tointeger(L, x) != 0;
  const bool by = ky == Kind::Bool ? lua_toboolean(L, y) : lua_tointeger(L, y) != 0;
  const bool r = op == OpKind::Land ? (bx && by) : op == OpKind::Lor ? (bx || by) : (bx != by);
  if (kx == Kind::Bool)
    lua_pushboolean(L, r);
  else
    lua_pushinteger(L, r ? 1 : 0);
}

// Pushes x op y for two scalars (absolute indices), checking both first.
void push_scalar(lua_State* L, OpKind op, int x, int y, std::string_view func,
                 lua_Integer elem) {
  check_scalar(L, x, op, func, elem);
  check_scalar(L, y, op, func, elem);
  switch (op) {
    case OpKind::Sum: return push_arith(L, x, y, LUA_OPADD);
    case OpKind::Prod: return push_arith(L, x, y, LUA_OPMUL);
    case OpKind::Band: return push_arith(L, x, y, LUA_OPBAND);
    case OpKind::Bor: return push_arith(L, x, y, LUA_OPBOR);
    case OpKind::Bxor: return push_arith(L, x, y, LUA_OPBXOR);
    // lua_compare on two numbers is a raw comparison (exact for int vs float).
    case OpKind::Max: return lua_pushvalue(L, lua_compare(L, x, y, LUA_OPLT) ? y : x);
    case OpKind::Min: return lua_pushvalue(L, lua_compare(L, y, x, LUA_OPLT) ? y : x);
    case OpKind::Land:
    case OpKind::Lor:
    case OpKind::Lxor: return push_logical(L, op, x, y, func, elem);
    default: break;  // MAXLOC, MINLOC
  }
  fail_not_defined(L, x, op, func, elem);  // unreachable: Loc rejects scalars
}

// True if pair pa wins over pair pb (absolute indices of checked pairs).
bool first_pair_wins(lua_State* L, OpKind op, int pa, int pb) {
  lua_rawgeti(L, pa, 1);  // -- push va
  lua_rawgeti(L, pb, 1);  // -- push vb
  const int va = lua_gettop(L) - 1, vb = lua_gettop(L);
  const bool a_better = op == OpKind::Maxloc ? lua_compare(L, vb, va, LUA_OPLT)
                                             : lua_compare(L, va, vb, LUA_OPLT);
  const bool b_better = op == OpKind::Maxloc ? lua_compare(L, va, vb, LUA_OPLT)
                                             : lua_compare(L, vb, va, LUA_OPLT);
  lua_pop(L, 2);  // -- drop va, vb
  if (a_better != b_better) return a_better;
  lua_rawgeti(L, pa, 2);  // -- push ia
  lua_rawgeti(L, pb, 2);  // -- push ib
  const bool a_smaller_or_equal = lua_tointeger(L, -2) <= lua_tointeger(L, -1);
  lua_pop(L, 2);  // -- drop ia, ib
  return a_smaller_or_equal;  // tie (or NaN): the smaller index wins
}

// Pushes a new {value, index} table combining the pairs at pa and pb.
void push_pair(lua_State* L, OpKind op, int pa, int pb, std::string_view func,
               lua_Integer elem) {
  check_pair(L, pa, op, func, elem);
  check_pair(L, pb, op, func, elem);
  const int win = first_pair_wins(L, op, pa, pb) ? pa : pb;
  lua_createtable(L, 2, 0);   // -- push the result pair
  lua_rawgeti(L, win, 1);     // -- push win[1]
  lua_rawseti(L, -2, 1);      // -- result[1] = win[1], pop it
  lua_rawgeti(L, win, 2);     // -- push win[2]
  lua_rawseti(L, -2, 2);      // -- result[2] = win[2], pop it
}

// Pushes a new sequence whose element i is a[i] op b[i]; `element` pushes
// the combination of two elements.
template <typename Element>
void push_elementwise(lua_State* L, OpKind op, int a, int b, std::string_view func,
                      Element element) {
  const auto na = lua_Integer(lua_rawlen(L, a)), nb = lua_Integer(lua_rawlen(L, b));
  if (na != nb) fail_lengths(na, nb, op, func);
  if (na > 0x7fffffff) fail(ErrClass::Count, func, "sequence too long for a reduction");
  lua_createtable(L, int(na), 0);  // -- push the result sequence
  const int res = lua_gettop(L);
  for (lua_Integer i = 1; i <= na; ++i) {
    lua_rawgeti(L, a, i);  // -- push a[i]
    lua_rawgeti(L, b, i);  // -- push b[i]
    element(res + 1, res + 2, i);  // -- push a[i] op b[i]
    lua_rawseti(L, res, i);  // -- result[i] = a[i] op b[i], pop it
    lua_pop(L, 2);  // -- drop a[i], b[i]
  }
}

void push_loc_combined(lua_State* L, OpKind op, int a, int b, std::string_view func) {
  const bool ta = lua_type(L, a) == LUA_TTABLE, tb = lua_type(L, b) == LUA_TTABLE;
  if (!ta) check_pair(L, a, op, func, 0);  // fails: not a table
  if (!tb) check_pair(L, b, op, func, 0);
  const bool pa = looks_like_pair(L, a), pb = looks_like_pair(L, b);
  if (pa != pb) fail_shapes(L, a, b, op, func);
  if (pa) return push_pair(L, op, a, b, func, 0);
  push_elementwise(L, op, a, b, func,
                   [&](int x, int y, lua_Integer i) { push_pair(L, op, x, y, func, i); });
}

void push_plain_combined(lua_State* L, OpKind op, int a, int b, std::string_view func) {
  const bool ta = lua_type(L, a) == LUA_TTABLE, tb = lua_type(L, b) == LUA_TTABLE;
  if (!ta && !tb) return push_scalar(L, op, a, b, func, 0);
  if (ta != tb) {
    // Report an operand the op is not defined for before a shape mismatch.
    check_scalar(L, ta ? b : a, op, func, 0);
    fail_shapes(L, a, b, op, func);
  }
  push_elementwise(L, op, a, b, func,
                   [&](int x, int y, lua_Integer i) { push_scalar(L, op, x, y, func, i); });
}

}  // namespace

bool op_from_name(std::string_view name, OpKind* out) {
  if (name.substr(0, 4) == "MPI_") name.remove_prefix(4);
  for (OpKind k : kReductionOps) {
    if (std::string_view(core::op_name(k)).substr(4) == name) {
      *out = k;
      return true;
    }
  }
  return false;
}

void check_operand(lua_State* L, int idx, OpKind op, std::string_view func) {
  idx = lua_absindex(L, idx);
  keeping_stack_on_error(L, func, [&] {
    if (family(op) == Family::Loc) {
      if (lua_type(L, idx) == LUA_TTABLE && !looks_like_pair(L, idx))
        check_sequence(L, idx, op, func);
      else
        check_pair(L, idx, op, func, 0);
    } else if (lua_type(L, idx) == LUA_TTABLE) {
      check_sequence(L, idx, op, func);
    } else {
      check_scalar(L, idx, op, func, 0);
    }
  });
}

void push_combined(lua_State* L, OpKind op, int a, int b, std::string_view func) {
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  keeping_stack_on_error(L, func, [&] {
    if (family(op) == Family::Loc)
      push_loc_combined(L, op, a, b, func);
    else
      push_plain_combined(L, op, a, b, func);
  });
}

// ---- packed fast path ---------------------------------------------------------------

namespace {

// Lua's integer arithmetic wraps around; so does unsigned arithmetic in C++.
int64_t wrap_add(int64_t x, int64_t y) { return int64_t(uint64_t(x) + uint64_t(y)); }
int64_t wrap_mul(int64_t x, int64_t y) { return int64_t(uint64_t(x) * uint64_t(y)); }

template <class T>
bool combine_values(OpKind op, const char* a, const char* b, char* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    T x, y, r;
    std::memcpy(&x, a + 8 * i, 8);
    std::memcpy(&y, b + 8 * i, 8);
    switch (op) {
      case OpKind::Sum:
        if constexpr (std::is_integral_v<T>) r = wrap_add(x, y); else r = x + y;
        break;
      case OpKind::Prod:
        if constexpr (std::is_integral_v<T>) r = wrap_mul(x, y); else r = x * y;
        break;
      case OpKind::Max: r = y > x ? y : x; break;  // the lower operand wins ties (and NaN)
      case OpKind::Min: r = y < x ? y : x; break;
      default:
        if constexpr (std::is_integral_v<T>) {
          if (op == OpKind::Band) r = x & y;
          else if (op == OpKind::Bor) r = x | y;
          else if (op == OpKind::Bxor) r = x ^ y;
          else return false;
        } else {
          return false;
        }
    }
    std::memcpy(out + 8 * i, &r, 8);
  }
  return true;
}

}  // namespace

std::optional<std::string> combine_packed(OpKind op, std::string_view a, std::string_view b) {
  auto pa = view_packed(a), pb = view_packed(b);
  if (!pa || !pb || pa->integers != pb->integers || pa->count != pb->count) return std::nullopt;
  size_t at = 0;
  std::string out = packed_encoding(pa->integers, pa->count, &at);
  bool ok = pa->integers ? combine_values<int64_t>(op, pa->data, pb->data, out.data() + at, pa->count)
                         : combine_values<double>(op, pa->data, pb->data, out.data() + at, pa->count);
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace lumpi::lua
