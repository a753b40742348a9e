// tests/unit/ops_packed_test.cpp: the packed fast path of reductions gives
// exactly the bytes of the Lua path (decode, push_combined, encode).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <lua.hpp>
#include <random>
#include <string>

#include "lua/codec.hpp"
#include "lua/ops.hpp"

using namespace lumpi::lua;

namespace {

struct Lua {
  lua_State* L = luaL_newstate();
  Lua() { luaL_openlibs(L); }
  ~Lua() { lua_close(L); }
  std::string enc(const std::string& expr) {
    REQUIRE(luaL_dostring(L, ("return " + expr).c_str()) == LUA_OK);
    std::string b = encode(L, -1, "test");
    lua_settop(L, 0);
    return b;
  }
  std::string slow(OpKind op, const std::string& a, const std::string& b) {
    decode(L, a);
    decode(L, b);
    push_combined(L, op, -2, -1, "test");
    std::string out = encode(L, -1, "test");
    lua_settop(L, 0);
    return out;
  }
};

std::string seq(const std::vector<std::string>& items) {
  std::string s = "{";
  for (const auto& i : items) s += i + ",";
  return s + "}";
}

}  // namespace

TEST_CASE("packed integer and float sequences combine exactly as the Lua path does") {
  Lua l;
  std::mt19937_64 rng(7);
  const OpKind int_ops[] = {OpKind::Sum, OpKind::Prod, OpKind::Max, OpKind::Min,
                            OpKind::Band, OpKind::Bor, OpKind::Bxor};
  const OpKind float_ops[] = {OpKind::Sum, OpKind::Prod, OpKind::Max, OpKind::Min};
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> xi, yi, xf, yf;
    for (int i = 0; i < 50; ++i) {
      xi.push_back(std::to_string(int64_t(rng())));  // wraps on overflow
      yi.push_back(std::to_string(int64_t(rng() % 7) - 3));
      xf.push_back(std::to_string(double(int64_t(rng() % 2000) - 1000) / 8.0));
      yf.push_back(i % 10 == 0 ? "0/0" : std::to_string(double(int64_t(rng() % 2000) - 1000) / 8.0));
    }
    xi.push_back("math.mininteger");
    yi.push_back("-1");
    std::string ai = l.enc(seq(xi)), bi = l.enc(seq(yi)), af = l.enc(seq(xf)), bf = l.enc(seq(yf));
    for (OpKind op : int_ops) {
      auto fast = combine_packed(op, ai, bi);
      REQUIRE(fast);
      CHECK(*fast == l.slow(op, ai, bi));
    }
    for (OpKind op : float_ops) {
      auto fast = combine_packed(op, af, bf);
      REQUIRE(fast);
      CHECK(*fast == l.slow(op, af, bf));
      auto back = combine_packed(op, bf, af);  // NaN first: the lower operand is kept
      REQUIRE(back);
      CHECK(*back == l.slow(op, bf, af));
    }
  }
}

TEST_CASE("the packed fast path declines what the Lua path must judge") {
  Lua l;
  std::string ints = l.enc("{1, 2, 3}"), floats = l.enc("{1.5, 2.5, 3.5}"), shorter = l.enc("{1, 2}");
  CHECK_FALSE(combine_packed(OpKind::Sum, ints, floats));     // mixed kinds
  CHECK_FALSE(combine_packed(OpKind::Sum, ints, shorter));    // lengths differ
  CHECK_FALSE(combine_packed(OpKind::Band, floats, floats));  // not defined for floats
  CHECK_FALSE(combine_packed(OpKind::Land, ints, ints));      // logical ops stay in Lua
  CHECK_FALSE(combine_packed(OpKind::Sum, l.enc("5"), l.enc("6")));
  CHECK_FALSE(combine_packed(OpKind::Sum, l.enc("{1, {2}}"), l.enc("{1, {2}}")));
  CHECK_FALSE(combine_packed(OpKind::Sum, ints.substr(0, ints.size() - 1), ints));  // truncated
}
