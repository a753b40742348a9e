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
#include <string>
#include <string_view>

#include "core/error.hpp"

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

// Pushes the value encoded in `bytes` (which must hold exactly one value).
void decode(lua_State* L, std::string_view bytes);

}  // namespace lumpi::lua
