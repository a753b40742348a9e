// lua/win.hpp: what lua/bind_win.cpp (windows, their synchronization and
// queries) and lua/bind_win_ops.cpp (their operations) share.
#pragma once

#include <span>
#include <string_view>

#include "core/rma/win.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {

// The window at idx; MPI_ERR_WIN if it is none or was freed.
core::Win& check_win(lua_State* L, int idx, std::string_view func);
// Drops the buffers the window at idx keeps for its pending gets: they completed.
void clear_pending(lua_State* L, int idx);
// Keeps the buffer at buf_idx with the window at win_idx until its next
// completion: an operation writes into it.
void keep_pending(lua_State* L, int win_idx, int buf_idx);
// The Win methods of the operations (bind_win_ops.cpp).
std::span<const Reg> win_operations();
// Sets mpi.REPLACE and mpi.NO_OP in the table at -1 (bind_win_ops.cpp).
void open_win_ops(lua_State* L);

}  // namespace lumpi::lua
