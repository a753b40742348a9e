// lua/module.hpp: opening the `mpi` module in a rank's Lua state.
#pragma once

#include <lua.hpp>

#include "lua/binding.hpp"

namespace lumpi::lua {

// Installs the global `mpi`, the metatables, and `require("lumpi.test")`.
// `rt` must outlive the state.
void open_mpi(lua_State* L, Runtime* rt);

// Loads an embedded Lua source by name ("test") and pushes its chunk.
bool load_embedded(lua_State* L, const char* name);

}  // namespace lumpi::lua
