// tests/fuzz/fuzz_codec.cpp: the Lua value codec's decoder on bytes from a peer.
//
// Any input must either decode to exactly one Lua value or raise
// core::Error; nothing else (no crash, no other exception, no leak, no
// stack left behind). A value that decodes must encode again, and that
// encoding must decode. The packed-number view and its reduction fast path
// (lua/ops combine_packed, fed two peers' bytes) are driven on the same
// input split in two.
#include <lua.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/base/error.hpp"
#include "lua/codec.hpp"
#include "lua/ops.hpp"

using lumpi::core::Error;
namespace codec = lumpi::lua;

namespace {

lua_State* state() {
  static lua_State* L = [] {
    lua_State* s = luaL_newstate();
    luaL_openlibs(s);
    return s;
  }();
  return L;
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_codec: %s\n", what);
    std::abort();
  }
}

void decode_and_reencode(lua_State* L, std::string_view bytes) {
  try {
    codec::decode(L, bytes);
  } catch (const Error&) {
    check(lua_gettop(L) == 0, "decode left the stack changed after an error");
    return;
  }
  check(lua_gettop(L) == 1, "decode pushed other than one value");
  std::string again;
  try {
    again = codec::encode(L, -1, "fuzz");
  } catch (const Error& e) {
    std::fprintf(stderr, "fuzz_codec: a decoded value does not encode: %s\n", e.what());
    std::abort();
  }
  lua_settop(L, 0);
  try {
    codec::decode(L, again);
  } catch (const Error& e) {
    std::fprintf(stderr, "fuzz_codec: a re-encoded value does not decode: %s\n", e.what());
    std::abort();
  }
  lua_settop(L, 0);
}

void combine(std::string_view a, std::string_view b) {
  using lumpi::lua::OpKind;
  for (OpKind op : {OpKind::Sum, OpKind::Prod, OpKind::Max, OpKind::Min, OpKind::Band,
                    OpKind::Bor, OpKind::Bxor, OpKind::Land}) {
    auto r = codec::combine_packed(op, a, b);
    if (r) check(codec::view_packed(*r).has_value(), "combine_packed made a non-packed result");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lua_State* L = state();
  std::string_view in(reinterpret_cast<const char*>(data), size);
  decode_and_reencode(L, in);
  size_t half = size / 2;
  combine(in.substr(0, half), in.substr(half));
  static unsigned runs = 0;
  if (++runs % 256 == 0) lua_gc(L, LUA_GCCOLLECT);
  return 0;
}
