// tests/unit/codec_test.cpp: Lua value codec round trips, error paths, and
// decoding of truncated and garbage bytes.
#include <doctest/doctest.h>

#include <cmath>
#include <lua.hpp>
#include <random>
#include <string>

#include "core/base/error.hpp"
#include "lua/codec.hpp"

using lumpi::core::ErrClass;
using lumpi::core::Error;
namespace codec = lumpi::lua;

namespace {

struct State {
  lua_State* L = luaL_newstate();
  State() { luaL_openlibs(L); }
  ~State() { lua_close(L); }
  // Evaluates `expr`, round-trips its value, and checks the decoded value
  // equals the original by a Lua deep comparison that tells integers from floats.
  bool round_trip(const std::string& expr) {
    std::string code =
        "local function eq(a, b) "
        "  if type(a) ~= type(b) or math.type(a) ~= math.type(b) then return false end "
        "  if type(a) ~= 'table' then return a == b or (a ~= a and b ~= b) end "
        "  for k, v in pairs(a) do if not eq(v, b[k]) then return false end end "
        "  for k in pairs(b) do if a[k] == nil then return false end end "
        "  return true end "
        "return eq, (" + expr + ")";
    REQUIRE(luaL_dostring(L, code.c_str()) == LUA_OK);
    std::string bytes = codec::encode(L, -1, "test");
    codec::decode(L, bytes);
    lua_call(L, 2, 1);
    bool ok = lua_toboolean(L, -1);
    lua_settop(L, 0);
    return ok;
  }
  ErrClass encode_error(const std::string& expr, std::string* message) {
    REQUIRE(luaL_dostring(L, ("return " + expr).c_str()) == LUA_OK);
    try {
      codec::encode(L, -1, "MPI_Send");
    } catch (const Error& e) {
      *message = e.message();
      lua_settop(L, 0);
      return e.cls();
    }
    lua_settop(L, 0);
    return ErrClass::Success;
  }
};

}  // namespace

TEST_CASE("scalars round trip with integer and float kept apart") {
  State s;
  CHECK(s.round_trip("nil"));
  CHECK(s.round_trip("true"));
  CHECK(s.round_trip("false"));
  CHECK(s.round_trip("0"));
  CHECK(s.round_trip("math.maxinteger"));
  CHECK(s.round_trip("math.mininteger"));
  CHECK(s.round_trip("1.0"));
  CHECK(s.round_trip("-0.0"));
  CHECK(s.round_trip("1/0"));
  CHECK(s.round_trip("-1/0"));
  CHECK(s.round_trip("0/0"));
  CHECK(s.round_trip("2^53"));
  CHECK(s.round_trip("3.141592653589793"));
}

TEST_CASE("integer 1 does not decode as float 1.0") {
  State s;
  luaL_dostring(s.L, "return 1");
  std::string b = codec::encode(s.L, -1, "t");
  codec::decode(s.L, b);
  CHECK(lua_isinteger(s.L, -1));
}

TEST_CASE("strings are binary safe") {
  State s;
  CHECK(s.round_trip("''"));
  CHECK(s.round_trip("'\\0\\1\\255 with zero\\0inside'"));
  CHECK(s.round_trip("string.rep('x', 100000)"));
}

TEST_CASE("tables round trip: sequences, maps, nesting, mixed keys, holes") {
  State s;
  CHECK(s.round_trip("{}"));
  CHECK(s.round_trip("{1, 2, 3}"));
  CHECK(s.round_trip("{1.5, 2.5, -3.25}"));
  CHECK(s.round_trip("{1, 2.5, 3}"));
  CHECK(s.round_trip("{a = 1, b = {c = {d = 'deep'}}}"));
  CHECK(s.round_trip("{1, 2, x = 'y', [true] = false, [2.5] = 'half'}"));
  CHECK(s.round_trip("{1, nil, 3}"));
  CHECK(s.round_trip("{[10] = 'ten', [-1] = 'minus'}"));
  CHECK(s.round_trip("{{1, 2}, {3, {4, {5}}}}"));
  CHECK(s.round_trip("{1, 2, 3, n = 3}"));
}

TEST_CASE("a shared subtable is sent twice, not rejected") {
  State s;
  CHECK(s.round_trip("(function() local t = {1} return {t, t} end)()"));
}

TEST_CASE("functions, userdata, threads and cycles raise MPI_ERR_TYPE naming the path") {
  State s;
  std::string msg;
  CHECK(s.encode_error("print", &msg) == ErrClass::Type);
  CHECK(msg.find("value is a function") != std::string::npos);
  CHECK(s.encode_error("{a = {1, 2, print}}", &msg) == ErrClass::Type);
  CHECK(msg.find("value.a[3]") != std::string::npos);
  CHECK(s.encode_error("{['a b'] = coroutine.create(print)}", &msg) == ErrClass::Type);
  CHECK(msg.find("value[\"a b\"]") != std::string::npos);
  CHECK(s.encode_error("io.stdout", &msg) == ErrClass::Type);
  CHECK(s.encode_error("(function() local t = {} t.self = t return t end)()", &msg) == ErrClass::Type);
  CHECK(msg.find("cycle") != std::string::npos);
}

TEST_CASE("encoding leaves the Lua stack as it was") {
  State s;
  luaL_dostring(s.L, "return {1, {2, x = 3}, y = 'z'}");
  int top = lua_gettop(s.L);
  codec::encode(s.L, -1, "t");
  CHECK(lua_gettop(s.L) == top);
}

TEST_CASE("every truncation of a valid encoding is rejected, never crashes") {
  State s;
  luaL_dostring(s.L, "return {1, 2.5, 'str', {a = true, b = {1, 2, 3}}, [7] = 'x'}");
  std::string b = codec::encode(s.L, -1, "t");
  lua_settop(s.L, 0);
  for (size_t n = 0; n < b.size(); ++n) {
    CHECK_THROWS_AS(codec::decode(s.L, std::string_view(b.data(), n)), Error);
    CHECK(lua_gettop(s.L) == 0);
  }
}

TEST_CASE("trailing bytes, unknown types and absurd counts are rejected") {
  State s;
  CHECK_THROWS_AS(codec::decode(s.L, std::string("NN")), Error);
  CHECK_THROWS_AS(codec::decode(s.L, std::string("Z")), Error);
  CHECK_THROWS_AS(codec::decode(s.L, std::string("S\xff\xff\xff\xff\x0f", 6)), Error);
  CHECK_THROWS_AS(codec::decode(s.L, std::string("A\xff\xff\xff\xff\x0f", 6)), Error);
  CHECK_THROWS_AS(codec::decode(s.L, std::string("H\x00\xff\xff\xff\xff\x0f", 7)), Error);
  CHECK_THROWS_AS(codec::decode(s.L, std::string("H\x00\x01NN", 5)), Error);  // nil key
  CHECK(lua_gettop(s.L) == 0);
}

TEST_CASE("random garbage never crashes the decoder") {
  State s;
  std::mt19937 rng(42);
  for (int i = 0; i < 20000; ++i) {
    std::string g(size_t(rng() % 24), '\0');
    for (auto& ch : g) ch = "NFTIDSARH\x00\x01\x7f\x80\xff"[rng() % 14];
    try {
      codec::decode(s.L, g);
      lua_settop(s.L, 0);
    } catch (const Error& e) {
      CHECK(e.cls() == ErrClass::Other);
      CHECK(lua_gettop(s.L) == 0);
    }
  }
}

TEST_CASE("an encoded error decodes by raising it, with its class and function") {
  State s;
  std::string b = codec::encode_error(Error(ErrClass::Count, "MPI_Scatter", "values has 1 elements"));
  try {
    codec::decode(s.L, b);
    FAIL("decode returned");
  } catch (const Error& e) {
    CHECK(e.cls() == ErrClass::Count);
    CHECK(e.func() == "MPI_Scatter");
    CHECK(e.message().find("values has 1 elements") != std::string::npos);
  }
  CHECK(lua_gettop(s.L) == 0);
  CHECK_THROWS_AS(codec::decode(s.L, std::string("H\x01\x00", 3) + b), Error);  // not inside a table
  CHECK(lua_gettop(s.L) == 0);
}
