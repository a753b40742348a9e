// lua/codec.hpp: Lua values to bytes and back, for every message a rank sends.
//
// Encodable: nil, booleans, integers and floats (kept apart), binary-safe
// strings, and tables of these (nested, no cycles). Sequences of numbers use
// a packed form. Anything else raises core::Error(MPI_ERR_TYPE) naming the
// path of the offending part ("value.a[3]"). Decoding checks every size
// before use and raises core::Error(MPI_ERR_OTHER) on malformed bytes; it
// never trusts the sender.
#pragma once

#include <lua.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.hpp"

namespace lumpi::lua {

// Appends the encoding of the value at `idx` to `out`. `root` names the value
// in error messages ("value"). Leaves the stack as it was, also when it raises.
void encode(lua_State* L, int idx, std::string& out, std::string_view func,
            std::string_view root = "value");
std::string encode(lua_State* L, int idx, std::string_view func, std::string_view root = "value");

// An encoding of `e` that can travel where a value is expected: decoding it
// raises e (its class and function, the message saying another rank failed).
// Collectives send it in place of a contribution that could not be encoded,
// so the other ranks raise too instead of waiting for data that never comes.
std::string encode_error(const core::Error& e);

// A packed sequence of numbers (the codec's form for a sequence of two or
// more integers, or of two or more floats), viewed in place: `count`
// little-endian 8-byte values at `data`. Lets predefined reductions combine
// number sequences without building Lua tables (lua/ops combine_packed).
struct PackedNumbers {
  bool integers;
  size_t count;
  const char* data;
};
// The view, or nullopt when `bytes` is not exactly one packed sequence.
std::optional<PackedNumbers> view_packed(std::string_view bytes);
// The encoding of a packed sequence of `count` values, with the values'
// bytes left zero for the caller to fill at offset `*values_at`.
std::string packed_encoding(bool integers, size_t count, size_t* values_at);

// Pushes the value encoded in `bytes` (which must hold exactly one value).
void decode(lua_State* L, std::string_view bytes);

}  // namespace lumpi::lua
