// lua/win.hpp: what lua/bind_win.cpp (windows, their synchronization and
// queries), lua/bind_win_ops.cpp (their operations) and
// lua/bind_win_flavors.cpp (shared and dynamic windows) share.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "core/rma/win.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {

// Pushes a new window userdata holding w, exposing the buffer at buf_idx
// (0: none, a dynamic window).
void push_win(lua_State* L, core::WinPtr w, int buf_idx);
// The arguments 2 to 5 of win_allocate and win_allocate_shared: size,
// disp_unit [, info [, datatype]], checked (the size a multiple of the
// datatype's extent).
struct AllocArgs {
  std::int64_t size = 0;
  int disp_unit = 1;
  std::map<std::string, std::string> info;
  core::TypePtr type;  // a predefined type, mpi.BYTE by default
};
AllocArgs check_alloc_args(lua_State* L, const char* func);
// The predefined datatype at idx that a window's buffer holds (MPI_ERR_TYPE otherwise).
core::TypePtr check_element_type(lua_State* L, int idx, const char* func);
// The window at idx; MPI_ERR_WIN if it is none or was freed.
core::Win& check_win(lua_State* L, int idx, std::string_view func);
// Drops the buffers the window at idx keeps for its pending gets: they completed.
void clear_pending(lua_State* L, int idx);
// Keeps the buffer at buf_idx with the window at win_idx until its next
// completion: an operation writes into it.
void keep_pending(lua_State* L, int win_idx, int buf_idx);
// The Win methods of the operations (bind_win_ops.cpp).
std::span<const Reg> win_operations();
// The Win methods and Comm methods of the flavours (bind_win_flavors.cpp).
std::span<const Reg> win_flavor_methods();
std::span<const Reg> comm_win_flavors();
// Sets mpi.REPLACE and mpi.NO_OP in the table at -1 (bind_win_ops.cpp).
void open_win_ops(lua_State* L);

}  // namespace lumpi::lua
