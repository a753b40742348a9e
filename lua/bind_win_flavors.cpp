// lua/bind_win_flavors.cpp: the window flavours beyond create and allocate
// in Lua (MPI-3.1 §11.2.3-4): shared-memory windows
// (comm:win_allocate_shared, win:shared_query) and dynamic windows
// (comm:win_create_dynamic, win:attach, win:detach). The windows
// themselves are core/rma/win_flavors.cpp's.
//
// A shared window's memory is one segment every rank maps; Lua sees a part
// of it as an mpi.buffer that views the segment (lua/typed.hpp's
// push_buffer_view) and keeps it mapped while the buffer lives, even after
// win:free. Plain indexing (b[i], b[i] = v) loads and stores there, so a
// rank reads what another stored after the two synchronized (a barrier
// after win:sync, say), as MPI's shared-memory model asks.
//
// A dynamic window exposes the buffers attached to it: attach returns the
// buffer's address, which the origins use as target_disp (the window's
// disp_unit is 1); mpi.get_address(buffer, i) gives the address of element
// i (lua/bind_buffer.cpp). The window keeps every attached buffer (its user value 3, by address)
// until detach, so the collector cannot take memory an origin may write.
#include <cstdint>
#include <string>

#include "core/base/constants.hpp"
#include "core/rma/win.hpp"
#include "lua/binding.hpp"
#include "lua/typed.hpp"
#include "lua/win.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::Win;
using core::WinPtr;

namespace {

// ---- shared-memory windows ---------------------------------------------------------

// comm:win_allocate_shared(size, disp_unit [, info [, datatype]]) -> win,
// buffer: this rank's size bytes of the segment, as a buffer of datatype
// (default mpi.BYTE). Every rank of comm must run on this host.
int c_win_allocate_shared(lua_State* L) {
  const char* func = "MPI_Win_allocate_shared";
  core::Comm& c = check_comm(L, 1, func);
  AllocArgs a = check_alloc_args(L, func);
  WinPtr w = Win::allocate_shared(c, a.size, a.disp_unit, func);
  w->set_info(a.info);
  push_buffer_view(L, a.type, a.size / a.type->extent(), static_cast<char*>(w->base()), w->memory());
  push_win(L, std::move(w), -1);
  lua_insert(L, -2);  // win, buffer
  return 2;
}

// win:shared_query(rank [, datatype]) -> buffer, size, disp_unit: rank's
// part of the segment (mpi.PROC_NULL: the first part that is not empty),
// as a buffer of datatype (default: the type of this rank's buffer) with
// as many whole elements as the part holds.
int w_shared_query(lua_State* L) {
  const char* func = "MPI_Win_shared_query";
  Win& w = check_win(L, 1, func);
  int rank = check_int(L, 2, "rank", func, ErrClass::Rank);
  Win::SharedPart part = w.shared_query(rank);
  core::TypePtr t;
  if (!lua_isnoneornil(L, 3)) {
    t = check_element_type(L, 3, func);
  } else {
    BufferMemory mine;
    lua_getiuservalue(L, 1, 1);  // the window's own buffer
    t = test_buffer_memory(L, -1, &mine) ? mine.type : core::Datatype::basic(core::Basic::Byte);
    lua_pop(L, 1);
  }
  push_buffer_view(L, t, part.size / t->extent(), static_cast<char*>(part.base), w.memory());
  lua_pushinteger(L, part.size);
  lua_pushinteger(L, part.disp_unit);
  return 3;
}

// ---- dynamic windows -------------------------------------------------------------------

// comm:win_create_dynamic([info]) -> win: no memory until buffers are attached.
int c_win_create_dynamic(lua_State* L) {
  const char* func = "MPI_Win_create_dynamic";
  core::Comm& c = check_comm(L, 1, func);
  auto hints = check_info(L, 2, "info", func);
  WinPtr w = Win::create_dynamic(c, func);
  w->set_info(hints);
  push_win(L, std::move(w), 0);
  return 1;
}

BufferMemory check_buffer(lua_State* L, int idx, const char* func) {
  BufferMemory m;
  if (!test_buffer_memory(L, idx, &m))
    fail(ErrClass::Buffer, func, std::string("buffer must be an mpi.buffer, got ") + luaL_typename(L, idx));
  return m;
}

lua_Integer address_of(const void* p) { return lua_Integer(reinterpret_cast<std::intptr_t>(p)); }

// win:attach(buffer) -> address: exposes the buffer's memory; address is
// its first element's, the target_disp origins use to reach it.
int w_attach(lua_State* L) {
  const char* func = "MPI_Win_attach";
  Win& w = check_win(L, 1, func);
  BufferMemory m = check_buffer(L, 2, func);
  w.attach(m.data, m.bytes);
  lua_getiuservalue(L, 1, 3);  // attached buffers
  lua_pushvalue(L, 2);
  lua_rawsetp(L, -2, m.data);  // attached[address] = buffer
  lua_pop(L, 1);
  lua_pushinteger(L, address_of(m.data));
  return 1;
}

// win:detach(buffer): the buffer is no longer exposed (MPI_ERR_RMA_ATTACH
// if it was not attached to win).
int w_detach(lua_State* L) {
  const char* func = "MPI_Win_detach";
  Win& w = check_win(L, 1, func);
  BufferMemory m = check_buffer(L, 2, func);
  lua_getiuservalue(L, 1, 3);  // attached buffers
  lua_rawgetp(L, -1, m.data);
  bool attached = lua_rawequal(L, -1, 2);
  lua_pop(L, 1);
  if (!attached && w.flavor() == core::WIN_FLAVOR_DYNAMIC)
    fail(ErrClass::RmaAttach, func, "buffer is not attached to win");
  w.detach(m.data);  // (MPI_ERR_RMA_FLAVOR for a window not dynamic)
  lua_pushnil(L);
  lua_rawsetp(L, -2, m.data);
  return 0;
}

const Reg kWinMethods[] = {
    {"shared_query", wrap<w_shared_query>},
    {"attach", wrap<w_attach>},
    {"detach", wrap<w_detach>},
};

const Reg kCommMethods[] = {
    {"win_allocate_shared", wrap<c_win_allocate_shared>},
    {"win_create_dynamic", wrap<c_win_create_dynamic>},
};

}  // namespace

std::span<const Reg> win_flavor_methods() { return kWinMethods; }
std::span<const Reg> comm_win_flavors() { return kCommMethods; }

}  // namespace lumpi::lua
