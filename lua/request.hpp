// lua/request.hpp: what point-to-point (lua/bind_p2p.cpp) tells
// lua/bind_request.cpp, which owns every request value, beyond push_request
// (lua/binding.hpp): typed receives.
#pragma once

#include <lua.hpp>

#include "lua/typed.hpp"

namespace lumpi::lua {

// Makes the request on top (just pushed by push_request, a receive) a typed
// receive: its message lands in target, whose buffer (at buffer_idx) stays
// with the request.
void set_typed_target(lua_State* L, const Typed& target, int buffer_idx);

}  // namespace lumpi::lua
