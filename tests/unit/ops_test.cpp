// tests/unit/ops_test.cpp: unit tests for lua/ops (predefined reductions on Lua values).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "core/base/error.hpp"
#include "lua/ops.hpp"

using lumpi::core::ErrClass;
using lumpi::core::Error;
using lumpi::lua::check_operand;
using lumpi::lua::op_from_name;
using lumpi::core::op_name;  // the names of lua::OpKind, the core's Op
using lumpi::lua::OpKind;
using lumpi::lua::push_combined;

namespace {

// A fresh Lua state per test.
struct State {
  lua_State* L = luaL_newstate();
  State() { luaL_openlibs(L); }
  ~State() { lua_close(L); }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

// Pushes the value of the Lua expression `expr`.
void push_expr(lua_State* L, const std::string& expr) {
  const std::string chunk = "return " + expr;
  REQUIRE(luaL_loadstring(L, chunk.c_str()) == LUA_OK);  // -- push the chunk
  REQUIRE(lua_pcall(L, 0, 1, 0) == LUA_OK);              // -- replace it by its value
}

// The value at idx written so that integers and floats differ:
// 3, 3.0, true, {1, 2.5}, "s".
std::string repr(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: {
      if (lua_isinteger(L, idx)) return std::to_string(lua_tointeger(L, idx));
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.14g", lua_tonumber(L, idx));
      std::string s = buf;
      if (s.find_first_not_of("-0123456789") == std::string::npos) s += ".0";
      return s;
    }
    case LUA_TBOOLEAN: return lua_toboolean(L, idx) ? "true" : "false";
    case LUA_TSTRING: return "\"" + std::string(lua_tostring(L, idx)) + "\"";
    case LUA_TTABLE: {
      std::string s = "{";
      const auto n = lua_Integer(lua_rawlen(L, idx));
      for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, idx, i);  // -- push t[i]
        s += (i > 1 ? ", " : "") + repr(L, -1);
        lua_pop(L, 1);
      }
      return s + "}";
    }
    default: return lua_typename(L, lua_type(L, idx));
  }
}

// a ∘ b for two Lua expressions, as repr; checks both operands first and that
// exactly one value is pushed.
std::string combine(lua_State* L, OpKind op, const std::string& a, const std::string& b) {
  push_expr(L, a);
  push_expr(L, b);
  check_operand(L, -2, op, "MPI_Allreduce");
  check_operand(L, -1, op, "MPI_Allreduce");
  const int top = lua_gettop(L);
  push_combined(L, op, -2, -1, "MPI_Allreduce");
  REQUIRE(lua_gettop(L) == top + 1);
  std::string r = repr(L, -1);
  lua_pop(L, 3);
  return r;
}

struct Caught {
  ErrClass cls = ErrClass::Success;
  std::string func, message;
};

// The error check_operand raises for `value`; Success if none.
Caught check_error(lua_State* L, OpKind op, const std::string& value) {
  push_expr(L, value);
  const int top = lua_gettop(L);
  Caught c;
  try {
    check_operand(L, -1, op, "MPI_Reduce");
  } catch (const Error& e) {
    c = {e.cls(), e.func(), e.message()};
  }
  CHECK(lua_gettop(L) == top);
  lua_pop(L, 1);
  return c;
}

// The error push_combined raises for a ∘ b (without checking them first).
Caught combine_error(lua_State* L, OpKind op, const std::string& a, const std::string& b) {
  push_expr(L, a);
  push_expr(L, b);
  const int top = lua_gettop(L);
  Caught c;
  try {
    push_combined(L, op, -2, -1, "MPI_Reduce");
  } catch (const Error& e) {
    c = {e.cls(), e.func(), e.message()};
  }
  CHECK(lua_gettop(L) == top);
  lua_pop(L, 2);
  return c;
}

}  // namespace

TEST_CASE("op names are MPI's and can be looked up with or without the MPI_ prefix") {
  CHECK(std::string(op_name(OpKind::Sum)) == "MPI_SUM");
  CHECK(std::string(op_name(OpKind::Minloc)) == "MPI_MINLOC");
  OpKind k = OpKind::Sum;
  CHECK(op_from_name("BXOR", &k));
  CHECK(k == OpKind::Bxor);
  CHECK(op_from_name("MPI_MAXLOC", &k));
  CHECK(k == OpKind::Maxloc);
  CHECK_FALSE(op_from_name("REPLACE", &k));
  CHECK_FALSE(op_from_name("sum", &k));
  CHECK(k == OpKind::Maxloc);
}

TEST_CASE("SUM and PROD of integers stay integers") {
  State s;
  CHECK(combine(s.L, OpKind::Sum, "2", "3") == "5");
  CHECK(combine(s.L, OpKind::Prod, "2", "-3") == "-6");
}

TEST_CASE("SUM and PROD of floats and of an integer with a float give floats") {
  State s;
  CHECK(combine(s.L, OpKind::Sum, "1.5", "2.25") == "3.75");
  CHECK(combine(s.L, OpKind::Sum, "1", "2.0") == "3.0");
  CHECK(combine(s.L, OpKind::Prod, "2.0", "3") == "6.0");
  CHECK(combine(s.L, OpKind::Prod, "0.5", "0.5") == "0.25");
}

TEST_CASE("integer overflow wraps around like Lua arithmetic") {
  State s;
  CHECK(combine(s.L, OpKind::Sum, "math.maxinteger", "1") == "-9223372036854775808");
  CHECK(combine(s.L, OpKind::Sum, "math.mininteger", "-1") == "9223372036854775807");
  CHECK(combine(s.L, OpKind::Prod, "math.maxinteger", "2") == "-2");
}

TEST_CASE("MAX and MIN pick the winning value and keep it as it is") {
  State s;
  CHECK(combine(s.L, OpKind::Max, "3", "7") == "7");
  CHECK(combine(s.L, OpKind::Min, "3", "7") == "3");
  CHECK(combine(s.L, OpKind::Max, "1.5", "-2.5") == "1.5");
  CHECK(combine(s.L, OpKind::Min, "1.5", "-2.5") == "-2.5");
  CHECK(combine(s.L, OpKind::Max, "1", "2.0") == "2.0");
  CHECK(combine(s.L, OpKind::Max, "3", "2.0") == "3");
  CHECK(combine(s.L, OpKind::Min, "1", "2.0") == "1");
  CHECK(combine(s.L, OpKind::Min, "3", "2.0") == "2.0");
}

TEST_CASE("MAX and MIN keep the first operand on ties between an integer and a float") {
  State s;
  CHECK(combine(s.L, OpKind::Max, "1", "1.0") == "1");
  CHECK(combine(s.L, OpKind::Max, "1.0", "1") == "1.0");
  CHECK(combine(s.L, OpKind::Min, "2.0", "2") == "2.0");
}

TEST_CASE("MAX compares integers and floats exactly as Lua does") {
  State s;
  // 2^63 as a float is larger than every integer.
  CHECK(combine(s.L, OpKind::Max, "math.maxinteger", "2.0^63") == "9.2233720368548e+18");
  CHECK(combine(s.L, OpKind::Min, "math.maxinteger", "2.0^63") == "9223372036854775807");
  // 2^53 + 1 is not representable as a float; the integer is larger.
  CHECK(combine(s.L, OpKind::Max, "(1 << 53) + 1", "2.0^53") == "9007199254740993");
}

TEST_CASE("sequences of numbers combine element-wise into a new table") {
  State s;
  CHECK(combine(s.L, OpKind::Sum, "{1, 2, 3}", "{10, 20.5, 30}") == "{11, 22.5, 33}");
  CHECK(combine(s.L, OpKind::Prod, "{2, 3}", "{4, 0.5}") == "{8, 1.5}");
  CHECK(combine(s.L, OpKind::Max, "{1, 9, 3.5}", "{4, 2, 3}") == "{4, 9, 3.5}");
  CHECK(combine(s.L, OpKind::Min, "{1, 9, 3.5}", "{4, 2, 3}") == "{1, 2, 3}");
  CHECK(combine(s.L, OpKind::Sum, "{math.maxinteger}", "{1}") == "{-9223372036854775808}");

  push_expr(s.L, "{1, 2}");
  push_expr(s.L, "{3, 4}");
  push_combined(s.L, OpKind::Sum, -2, -1, "MPI_Reduce");
  CHECK(lua_istable(s.L, -1));
  CHECK_FALSE(lua_rawequal(s.L, -1, -2));
  CHECK_FALSE(lua_rawequal(s.L, -1, -3));
  CHECK(repr(s.L, -3) == "{1, 2}");  // operands are not modified
  CHECK(repr(s.L, -2) == "{3, 4}");
}

TEST_CASE("empty sequences combine to an empty sequence") {
  State s;
  CHECK(combine(s.L, OpKind::Sum, "{}", "{}") == "{}");
  CHECK(combine(s.L, OpKind::Land, "{}", "{}") == "{}");
  CHECK(combine(s.L, OpKind::Maxloc, "{}", "{}") == "{}");
}

TEST_CASE("LAND, LOR and LXOR combine booleans") {
  State s;
  const char* b[] = {"false", "true"};
  for (int x = 0; x < 2; ++x) {
    for (int y = 0; y < 2; ++y) {
      CHECK(combine(s.L, OpKind::Land, b[x], b[y]) == b[x && y]);
      CHECK(combine(s.L, OpKind::Lor, b[x], b[y]) == b[x || y]);
      CHECK(combine(s.L, OpKind::Lxor, b[x], b[y]) == b[x != y]);
    }
  }
}

TEST_CASE("LAND, LOR and LXOR combine sequences of booleans element-wise") {
  State s;
  CHECK(combine(s.L, OpKind::Land, "{true, true, false}", "{true, false, false}") ==
        "{true, false, false}");
  CHECK(combine(s.L, OpKind::Lor, "{true, true, false}", "{true, false, false}") ==
        "{true, true, false}");
  CHECK(combine(s.L, OpKind::Lxor, "{true, true, false}", "{true, false, false}") ==
        "{false, true, false}");
}

TEST_CASE("logical ops on integers treat non-zero as true and give 0 or 1 as in C") {
  State s;
  CHECK(combine(s.L, OpKind::Land, "2", "7") == "1");
  CHECK(combine(s.L, OpKind::Land, "2", "0") == "0");
  CHECK(combine(s.L, OpKind::Lor, "0", "-5") == "1");
  CHECK(combine(s.L, OpKind::Lor, "0", "0") == "0");
  CHECK(combine(s.L, OpKind::Lxor, "3", "4") == "0");
  CHECK(combine(s.L, OpKind::Lxor, "3", "0") == "1");
  CHECK(combine(s.L, OpKind::Land, "{1, 0}", "{5, 5}") == "{1, 0}");
}

TEST_CASE("BAND, BOR and BXOR combine integers and sequences of integers") {
  State s;
  CHECK(combine(s.L, OpKind::Band, "12", "10") == "8");
  CHECK(combine(s.L, OpKind::Bor, "12", "10") == "14");
  CHECK(combine(s.L, OpKind::Bxor, "12", "10") == "6");
  CHECK(combine(s.L, OpKind::Band, "-1", "5") == "5");
  CHECK(combine(s.L, OpKind::Bxor, "math.mininteger", "-1") == "9223372036854775807");
  CHECK(combine(s.L, OpKind::Bor, "{1, 2, 4}", "{2, 2, 8}") == "{3, 2, 12}");
}

TEST_CASE("MAXLOC and MINLOC pick the pair with the larger or smaller value") {
  State s;
  CHECK(combine(s.L, OpKind::Maxloc, "{5, 0}", "{7, 1}") == "{7, 1}");
  CHECK(combine(s.L, OpKind::Maxloc, "{8, 0}", "{7, 1}") == "{8, 0}");
  CHECK(combine(s.L, OpKind::Minloc, "{5, 0}", "{7, 1}") == "{5, 0}");
  CHECK(combine(s.L, OpKind::Minloc, "{8.5, 0}", "{-7, 1}") == "{-7, 1}");
  CHECK(combine(s.L, OpKind::Maxloc, "{2.5, 3}", "{2, 1}") == "{2.5, 3}");
}

TEST_CASE("MAXLOC and MINLOC ties take the smaller index whatever the operand order") {
  State s;
  CHECK(combine(s.L, OpKind::Maxloc, "{5, 3}", "{5, 1}") == "{5, 1}");
  CHECK(combine(s.L, OpKind::Maxloc, "{5, 1}", "{5, 3}") == "{5, 1}");
  CHECK(combine(s.L, OpKind::Minloc, "{5, 3}", "{5, 1}") == "{5, 1}");
  CHECK(combine(s.L, OpKind::Minloc, "{5, 1}", "{5, 3}") == "{5, 1}");
  // An integer and a float of equal value tie; the winner's value is kept as it is.
  CHECK(combine(s.L, OpKind::Maxloc, "{5, 4}", "{5.0, 2}") == "{5.0, 2}");
}

TEST_CASE("MAXLOC and MINLOC combine sequences of pairs element-wise") {
  State s;
  CHECK(combine(s.L, OpKind::Maxloc, "{{1, 0}, {9, 0}, {4, 2}}", "{{2, 1}, {3, 1}, {4, 1}}") ==
        "{{2, 1}, {9, 0}, {4, 1}}");
  CHECK(combine(s.L, OpKind::Minloc, "{{1, 0}, {9, 0}, {4, 2}}", "{{2, 1}, {3, 1}, {4, 1}}") ==
        "{{1, 0}, {3, 1}, {4, 1}}");
}

TEST_CASE("the MAXLOC result is a new pair table") {
  State s;
  push_expr(s.L, "{5, 0}");
  push_expr(s.L, "{7, 1}");
  push_combined(s.L, OpKind::Maxloc, -2, -1, "MPI_Reduce");
  CHECK(repr(s.L, -1) == "{7, 1}");
  CHECK_FALSE(lua_rawequal(s.L, -1, -2));
  CHECK_FALSE(lua_rawequal(s.L, -1, -3));
}

TEST_CASE("valid operands pass check_operand") {
  State s;
  CHECK(check_error(s.L, OpKind::Sum, "3").cls == ErrClass::Success);
  CHECK(check_error(s.L, OpKind::Sum, "{1, 2.5, 3}").cls == ErrClass::Success);
  CHECK(check_error(s.L, OpKind::Lxor, "{true, 1}").cls == ErrClass::Success);
  CHECK(check_error(s.L, OpKind::Bor, "{}").cls == ErrClass::Success);
  CHECK(check_error(s.L, OpKind::Minloc, "{2.5, 3}").cls == ErrClass::Success);
  CHECK(check_error(s.L, OpKind::Minloc, "{{2.5, 3}, {1, 0}}").cls == ErrClass::Success);
}

TEST_CASE("BAND on a float is MPI_ERR_OP naming the operand") {
  State s;
  const Caught c = check_error(s.L, OpKind::Band, "2.5");
  CHECK(c.cls == ErrClass::Op);
  CHECK(c.func == "MPI_Reduce");
  CHECK(c.message == "MPI_BAND is not defined for float operand 2.5");
  CHECK(check_error(s.L, OpKind::Bxor, "4.0").message ==
        "MPI_BXOR is not defined for float operand 4.0");
}

TEST_CASE("an element the op is not defined for is MPI_ERR_OP naming the element") {
  State s;
  const Caught c = check_error(s.L, OpKind::Bor, "{1, 2, 2.5}");
  CHECK(c.cls == ErrClass::Op);
  CHECK(c.message == "MPI_BOR is not defined for float operand 2.5 (element 3 of the sequence)");
  CHECK(check_error(s.L, OpKind::Sum, "{1, 'x'}").message ==
        "MPI_SUM is not defined for string operand \"x\" (element 2 of the sequence)");
  CHECK(check_error(s.L, OpKind::Sum, "{1, {2}}").message ==
        "MPI_SUM is not defined for table operand (element 2 of the sequence)");
}

TEST_CASE("SUM, PROD, MAX and MIN reject booleans, strings and other types with MPI_ERR_OP") {
  State s;
  CHECK(check_error(s.L, OpKind::Sum, "true").message ==
        "MPI_SUM is not defined for boolean operand true");
  CHECK(check_error(s.L, OpKind::Sum, "'10'").message ==
        "MPI_SUM is not defined for string operand \"10\"");
  CHECK(check_error(s.L, OpKind::Prod, "nil").message == "MPI_PROD is not defined for nil operand");
  CHECK(check_error(s.L, OpKind::Max, "false").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Min, "print").cls == ErrClass::Op);
}

TEST_CASE("logical ops reject strings and floats with MPI_ERR_OP") {
  State s;
  CHECK(check_error(s.L, OpKind::Land, "'yes'").message ==
        "MPI_LAND is not defined for string operand \"yes\"");
  CHECK(check_error(s.L, OpKind::Lor, "1.0").message ==
        "MPI_LOR is not defined for float operand 1.0");
  CHECK(check_error(s.L, OpKind::Lxor, "{true, 0.5}").cls == ErrClass::Op);
}

TEST_CASE("bitwise ops reject booleans with MPI_ERR_OP") {
  State s;
  CHECK(check_error(s.L, OpKind::Band, "true").cls == ErrClass::Op);
}

TEST_CASE("MAXLOC and MINLOC reject anything but pairs with MPI_ERR_OP") {
  State s;
  Caught c = check_error(s.L, OpKind::Maxloc, "5");
  CHECK(c.cls == ErrClass::Op);
  CHECK(c.message ==
        "MPI_MAXLOC is not defined for integer operand 5; it takes {value, index} pairs or "
        "sequences of them");
  c = check_error(s.L, OpKind::Maxloc, "{5, 1.5}");
  CHECK(c.cls == ErrClass::Op);
  CHECK(c.message.find("float 1.5 as the index") != std::string::npos);
  c = check_error(s.L, OpKind::Minloc, "{{'a', 1}}");
  CHECK(c.cls == ErrClass::Op);
  CHECK(c.message.find("string \"a\" as the value") != std::string::npos);
  CHECK(c.message.find("element 1 of the sequence") != std::string::npos);
  CHECK(check_error(s.L, OpKind::Minloc, "{5, 1, 2}").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Minloc, "{5}").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Minloc, "{{1, 0}, 7}").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Minloc, "{true, 0}").cls == ErrClass::Op);
}

TEST_CASE("a table that is not a sequence is MPI_ERR_OP") {
  State s;
  Caught c = check_error(s.L, OpKind::Sum, "{x = 1}");
  CHECK(c.cls == ErrClass::Op);
  CHECK(c.message == "MPI_SUM is not defined for a table with key \"x\"; operands must be a sequence");
  CHECK(check_error(s.L, OpKind::Sum, "{1, 2, n = 2}").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Sum, "{1, nil, 3}").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Sum, "{[2] = 1}").cls == ErrClass::Op);
  CHECK(check_error(s.L, OpKind::Maxloc, "{5, 1, v = 2}").cls == ErrClass::Op);
}

TEST_CASE("sequences of different lengths are MPI_ERR_COUNT") {
  State s;
  Caught c = combine_error(s.L, OpKind::Sum, "{1, 2, 3}", "{1, 2}");
  CHECK(c.cls == ErrClass::Count);
  CHECK(c.message == "MPI_SUM operands differ in length: 3 vs 2 elements");
  CHECK(combine_error(s.L, OpKind::Maxloc, "{{1, 0}}", "{}").cls == ErrClass::Count);
}

TEST_CASE("a number against a sequence is MPI_ERR_TYPE") {
  State s;
  Caught c = combine_error(s.L, OpKind::Sum, "5", "{1, 2}");
  CHECK(c.cls == ErrClass::Type);
  CHECK(c.message == "MPI_SUM operands differ in shape: integer 5 vs sequence of 2 elements");
  CHECK(combine_error(s.L, OpKind::Max, "{1}", "1").cls == ErrClass::Type);
}

TEST_CASE("a pair against a sequence of pairs is MPI_ERR_TYPE") {
  State s;
  CHECK(combine_error(s.L, OpKind::Maxloc, "{5, 0}", "{{5, 0}, {6, 1}}").cls == ErrClass::Type);
  CHECK(combine_error(s.L, OpKind::Minloc, "{}", "{5, 0}").cls == ErrClass::Type);
}

TEST_CASE("a boolean against an integer in a logical op is MPI_ERR_TYPE") {
  State s;
  Caught c = combine_error(s.L, OpKind::Land, "true", "1");
  CHECK(c.cls == ErrClass::Type);
  CHECK(c.message == "MPI_LAND operands differ in type: boolean true vs integer 1");
  c = combine_error(s.L, OpKind::Lor, "{true, true}", "{false, 0}");
  CHECK(c.cls == ErrClass::Type);
  CHECK(c.message.find("element 2 of the sequence") != std::string::npos);
}

TEST_CASE("push_combined still rejects operands the op is not defined for") {
  State s;
  CHECK(combine_error(s.L, OpKind::Sum, "1", "'2'").cls == ErrClass::Op);
  CHECK(combine_error(s.L, OpKind::Band, "{1, 2}", "{1, 2.5}").cls == ErrClass::Op);
  CHECK(combine_error(s.L, OpKind::Band, "2.5", "{1}").cls == ErrClass::Op);
  CHECK(combine_error(s.L, OpKind::Maxloc, "3", "{3, 1}").cls == ErrClass::Op);
  CHECK(combine_error(s.L, OpKind::Maxloc, "{3, 1}", "{3, 'x'}").cls == ErrClass::Op);
}

TEST_CASE("the stack height is unchanged except for the pushed result") {
  State s;
  lua_pushinteger(s.L, 99);  // an unrelated value below the operands
  push_expr(s.L, "{{1, 0}, {2, 1}}");
  push_expr(s.L, "{{3, 2}, {0, 3}}");
  const int top = lua_gettop(s.L);
  check_operand(s.L, -1, OpKind::Maxloc, "MPI_Reduce");
  check_operand(s.L, top - 1, OpKind::Maxloc, "MPI_Reduce");
  CHECK(lua_gettop(s.L) == top);
  push_combined(s.L, OpKind::Maxloc, top - 1, -1, "MPI_Reduce");
  CHECK(lua_gettop(s.L) == top + 1);
  CHECK(repr(s.L, -1) == "{{3, 2}, {2, 1}}");
  CHECK(repr(s.L, top - 1) == "{{1, 0}, {2, 1}}");
  CHECK(repr(s.L, top) == "{{3, 2}, {0, 3}}");
  CHECK(lua_tointeger(s.L, 1) == 99);

  // Failures leave the stack as it was.
  push_expr(s.L, "{1, 2}");
  const int before = lua_gettop(s.L);
  CHECK_THROWS_AS(push_combined(s.L, OpKind::Sum, -1, top, "MPI_Reduce"), Error);
  CHECK_THROWS_AS(check_operand(s.L, top, OpKind::Sum, "MPI_Reduce"), Error);
  CHECK(lua_gettop(s.L) == before);
}
