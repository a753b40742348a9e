// lua/bind_win.cpp: windows in Lua (seed chapter 11, §6.7.3 window
// attributes, §6.8 naming; API.md's naming rule): comm:win_create and
// comm:win_allocate (the shared and dynamic flavours are
// lua/bind_win_flavors.cpp's), and the Win methods of every synchronization (fence;
// post, start, complete, wait, test; lock, unlock, lock_all, unlock_all,
// flush, flush_all, flush_local, flush_local_all, sync), info, free,
// get_group, names, attributes (lua/attr.hpp's machinery, kind Win) and
// the error handler. The operations are lua/bind_win_ops.cpp's; the
// windows themselves core/rma/win's.
//
// Argument order is MPI's with the window as the object:
// MPI_Put(origin_addr, origin_count, origin_datatype, target_rank,
// target_disp, target_count, target_datatype, win) ->
// win:put(buffer, count, datatype, target_rank, target_disp, target_count,
// target_datatype). A window exposes an mpi.buffer: win_create takes one,
// win_allocate makes one and returns it with the window. The Win userdata
// keeps the exposed buffer (user value 1), until the next fence, unlock,
// flush or complete the buffers its gets write into (user value 2), and
// the buffers attached to a dynamic window (user value 3), so the garbage
// collector cannot take memory an operation still writes.
//
// Error handler: a window carries its own (ERRORS_RAISE by default, like
// every lumpi object); binding.cpp's boundary asks test_win for it when
// argument 1 is a window, and calls a user handler (mpi.win_create_errhandler,
// lua/bind_errh.cpp) as fn(win, code).
#include <string>

#include "core/base/constants.hpp"
#include "core/rma/win.hpp"
#include "lua/attr.hpp"
#include "lua/bind_op.hpp"
#include "lua/binding.hpp"
#include "lua/typed.hpp"
#include "lua/win.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::Win;
using core::WinPtr;

namespace {

constexpr const char* kWinMeta = "lumpi.Win";

struct WinBox {
  WinPtr win;
};

WinBox* test_box(lua_State* L, int idx) { return test_userdata<WinBox>(L, idx, kWinMeta); }

// The window at idx, even if freed.
Win& check_win_any(lua_State* L, int idx, std::string_view func) {
  WinBox* b = test_box(L, idx);
  if (!b || !b->win) fail(ErrClass::Win, func, std::string("expected a window, got ") + luaL_typename(L, idx));
  return *b->win;
}

AttrObj win_obj(const Win& w) { return {AttrKind::Win, w.serial()}; }


// An optional integer argument that must fit an int.
int opt_assert(lua_State* L, int idx, const char* func) { return opt_int(L, idx, 0, "assert", func, ErrClass::Assert); }

// ---- creation --------------------------------------------------------------------

// comm:win_create(buffer [, disp_unit [, info]]) -> win. disp_unit defaults
// to the buffer's element extent.
int c_win_create(lua_State* L) {
  const char* func = "MPI_Win_create";
  core::Comm& c = check_comm(L, 1, func);
  BufferMemory m;
  if (!test_buffer_memory(L, 2, &m))
    fail(ErrClass::Buffer, func, std::string("buffer must be an mpi.buffer, got ") + luaL_typename(L, 2));
  int unit = opt_int(L, 3, int(m.type->extent()), "disp_unit", func, ErrClass::Disp);
  auto hints = check_info(L, 4, "info", func);
  WinPtr w = Win::create(c, m.data, m.bytes, unit, func);
  w->set_info(hints);
  push_win(L, std::move(w), 2);
  return 1;
}

// comm:win_allocate(size, disp_unit [, info [, datatype]]) -> win, buffer:
// size bytes, seen from Lua as a buffer of datatype (default mpi.BYTE;
// size must then be a multiple of its size).
int c_win_allocate(lua_State* L) {
  const char* func = "MPI_Win_allocate";
  core::Comm& c = check_comm(L, 1, func);
  AllocArgs a = check_alloc_args(L, func);
  BufferMemory m = push_buffer(L, a.type, a.size / a.type->extent());  // the window's memory
  int buf = lua_gettop(L);
  WinPtr w = Win::create(c, m.data, m.bytes, a.disp_unit, func, core::WIN_FLAVOR_ALLOCATE);
  w->set_info(a.info);
  push_win(L, std::move(w), buf);
  lua_insert(L, buf);  // win, buffer
  return 2;
}

// ---- synchronization -----------------------------------------------------------------

int w_fence(lua_State* L) {
  const char* func = "MPI_Win_fence";
  Win& w = check_win(L, 1, func);
  w.fence(opt_assert(L, 2, func));
  clear_pending(L, 1);
  return 0;
}

// win:lock(lock_type, rank [, assert])
int w_lock(lua_State* L) {
  const char* func = "MPI_Win_lock";
  Win& w = check_win(L, 1, func);
  int type = check_int(L, 2, "lock_type", func, ErrClass::Locktype);
  int rank = check_int(L, 3, "rank", func, ErrClass::Rank);
  w.lock(type, rank, opt_assert(L, 4, func));
  return 0;
}

int w_unlock(lua_State* L) {
  const char* func = "MPI_Win_unlock";
  Win& w = check_win(L, 1, func);
  w.unlock(check_int(L, 2, "rank", func, ErrClass::Rank));
  clear_pending(L, 1);
  return 0;
}

int w_flush(lua_State* L) {
  const char* func = "MPI_Win_flush";
  Win& w = check_win(L, 1, func);
  w.flush(check_int(L, 2, "rank", func, ErrClass::Rank));
  clear_pending(L, 1);
  return 0;
}

// win:lock_all([assert])
int w_lock_all(lua_State* L) {
  const char* func = "MPI_Win_lock_all";
  check_win(L, 1, func).lock_all(opt_assert(L, 2, func));
  return 0;
}

int w_unlock_all(lua_State* L) {
  check_win(L, 1, "MPI_Win_unlock_all").unlock_all();
  clear_pending(L, 1);
  return 0;
}

int w_flush_all(lua_State* L) {
  check_win(L, 1, "MPI_Win_flush_all").flush_all();
  clear_pending(L, 1);
  return 0;
}

int w_flush_local(lua_State* L) {
  const char* func = "MPI_Win_flush_local";
  Win& w = check_win(L, 1, func);
  w.flush_local(check_int(L, 2, "rank", func, ErrClass::Rank));
  clear_pending(L, 1);
  return 0;
}

int w_flush_local_all(lua_State* L) {
  check_win(L, 1, "MPI_Win_flush_local_all").flush_local_all();
  clear_pending(L, 1);
  return 0;
}

// win:sync(): serves what has arrived, so the window's memory shows it.
int w_sync(lua_State* L) {
  check_win(L, 1, "MPI_Win_sync").sync();
  return 0;
}

// win:post(group [, assert]), win:start(group [, assert])
int w_post(lua_State* L) {
  const char* func = "MPI_Win_post";
  Win& w = check_win(L, 1, func);
  w.post(check_group(L, 2, func).members, opt_assert(L, 3, func));
  return 0;
}

int w_start(lua_State* L) {
  const char* func = "MPI_Win_start";
  Win& w = check_win(L, 1, func);
  w.start(check_group(L, 2, func).members, opt_assert(L, 3, func));
  return 0;
}

int w_complete(lua_State* L) {
  check_win(L, 1, "MPI_Win_complete").complete();
  clear_pending(L, 1);
  return 0;
}

int w_wait(lua_State* L) {
  check_win(L, 1, "MPI_Win_wait").wait();
  return 0;
}

// win:test() -> true when the exposure epoch ended (as wait), else false
int w_test(lua_State* L) {
  lua_pushboolean(L, check_win(L, 1, "MPI_Win_test").test());
  return 1;
}

// win:get_info() -> {key = value}: every hint lumpi knows, as set or by default.
int w_get_info(lua_State* L) {
  auto info = check_win(L, 1, "MPI_Win_get_info").get_info();
  lua_createtable(L, 0, int(info.size()));
  for (const auto& [k, v] : info) set_string(L, k.c_str(), v);
  return 1;
}

int w_set_info(lua_State* L) {
  const char* func = "MPI_Win_set_info";
  Win& w = check_win(L, 1, func);
  w.set_info(check_info(L, 2, "info", func));
  return 0;
}

// win:free(): the delete callbacks of its attributes run first (seed §6.7.3).
int w_free(lua_State* L) {
  const char* func = "MPI_Win_free";
  Win& w = check_win(L, 1, func);
  w.check_free(func);
  delete_attrs(L, 1, win_obj(w), func);
  w.free();
  return 0;
}

// ---- queries, names, attributes, error handler ---------------------------------------

int w_get_group(lua_State* L) {
  push_group(L, check_win(L, 1, "MPI_Win_get_group").group());
  return 1;
}

int w_get_name(lua_State* L) {
  lua_pushstring(L, check_win(L, 1, "MPI_Win_get_name").name().c_str());
  return 1;
}

int w_set_name(lua_State* L) {
  const char* func = "MPI_Win_set_name";
  Win& w = check_win(L, 1, func);
  w.set_name(check_string(L, 2, "name", func));
  return 0;
}

int w_set_attr(lua_State* L) {
  const char* func = "MPI_Win_set_attr";
  set_attr(L, 1, win_obj(check_win(L, 1, func)), func);
  return 0;
}

// win:get_attr(kv) -> value, found; the predefined window attributes too.
int w_get_attr(lua_State* L) {
  const char* func = "MPI_Win_get_attr";
  Win& w = check_win(L, 1, func);
  switch (predefined_win_attr(L, 2)) {
    case 0: lua_getiuservalue(L, 1, 1); break;  // WIN_BASE: the exposed buffer
    case 1: lua_pushinteger(L, w.size()); break;
    case 2: lua_pushinteger(L, w.disp_unit()); break;
    case 3: lua_pushinteger(L, w.flavor()); break;
    case 4: lua_pushinteger(L, w.model()); break;
    default: return get_attr(L, win_obj(w), func);
  }
  lua_pushboolean(L, 1);
  return 2;
}

int w_delete_attr(lua_State* L) {
  const char* func = "MPI_Win_delete_attr";
  delete_attr(L, 1, win_obj(check_win(L, 1, func)), func);
  return 0;
}

int l_win_create_keyval(lua_State* L) { return create_keyval(L, AttrKind::Win, "MPI_Win_create_keyval"); }
int l_win_free_keyval(lua_State* L) { return free_keyval(L, AttrKind::Win, "MPI_Win_free_keyval"); }

// win:set_errhandler(h): a predefined handler or one made by
// mpi.win_create_errhandler (a communicator's handler: MPI_ERR_ARG, §8.3.2).
int w_set_errhandler(lua_State* L) {
  const char* func = "MPI_Win_set_errhandler";
  Win& w = check_win(L, 1, func);
  w.set_errhandler(check_errhandler(L, 2, core::HandlerObject::Win, func));
  return 0;
}

// win:get_errhandler() -> "errors_raise" | "errors_return" | "errors_are_fatal" | errhandler
int w_get_errhandler(lua_State* L) {
  push_errhandler(L, check_win(L, 1, "MPI_Win_get_errhandler").errhandler());
  return 1;
}

// win:call_errhandler(code): delivers an error of `code` on the window, as a
// failing call on it would (MPI_Win_call_errhandler, §8.3.6).
int w_call_errhandler(lua_State* L) {
  check_win(L, 1, "MPI_Win_call_errhandler");
  raise_error_code(L, "MPI_Win_call_errhandler", "win:call_errhandler");
}

// win:memory() -> buffer: the exposed buffer (what :draw win shows); a
// dynamic window has none: nil and why.
int w_memory(lua_State* L) {
  if (check_win_any(L, 1, "win:memory").flavor() == core::WIN_FLAVOR_DYNAMIC) {
    lua_pushnil(L);
    lua_pushliteral(L, "a dynamic window exposes the buffers attached to it (win:attach), no one buffer");
    return 2;
  }
  lua_getiuservalue(L, 1, 1);
  return 1;
}

// ---- metamethods ---------------------------------------------------------------------

int win_gc(lua_State* L) {
  WinBox* b = test_box(L, 1);
  if (b && b->win) {
    if (!b->win->freed()) forget_attrs(L, win_obj(*b->win));
    b->~WinBox();
  }
  return 0;
}

int win_tostring(lua_State* L) {
  WinBox* b = test_box(L, 1);
  lua_pushstring(L, b && b->win ? b->win->describe().c_str() : "win (null)");
  return 1;
}

const Reg kMethods[] = {
    {"fence", wrap<w_fence>},
    {"lock", wrap<w_lock>},
    {"unlock", wrap<w_unlock>},
    {"flush", wrap<w_flush>},
    {"lock_all", wrap<w_lock_all>},
    {"unlock_all", wrap<w_unlock_all>},
    {"flush_all", wrap<w_flush_all>},
    {"flush_local", wrap<w_flush_local>},
    {"flush_local_all", wrap<w_flush_local_all>},
    {"sync", wrap<w_sync>},
    {"post", wrap<w_post>},
    {"start", wrap<w_start>},
    {"complete", wrap<w_complete>},
    {"wait", wrap<w_wait>},
    {"test", wrap<w_test>},
    {"get_info", wrap<w_get_info>},
    {"set_info", wrap<w_set_info>},
    {"free", wrap<w_free>},
    {"get_group", wrap<w_get_group>},
    {"get_name", wrap<w_get_name>},
    {"set_name", wrap<w_set_name>},
    {"set_attr", wrap<w_set_attr>},
    {"get_attr", wrap<w_get_attr>},
    {"delete_attr", wrap<w_delete_attr>},
    {"set_errhandler", wrap<w_set_errhandler>},
    {"get_errhandler", wrap<w_get_errhandler>},
    {"call_errhandler", wrap<w_call_errhandler>},
    {"memory", wrap<w_memory>},
};

const Reg kCommMethods[] = {
    {"win_create", wrap<c_win_create>},
    {"win_allocate", wrap<c_win_allocate>},
};

const Reg kModuleFuncs[] = {
    {"win_create_keyval", wrap<l_win_create_keyval>},
    {"win_free_keyval", wrap<l_win_free_keyval>},
};

}  // namespace

// The user values of a window: 1 the exposed buffer (nil for a dynamic
// window), 2 the buffers pending gets write into, 3 a dynamic window's
// attached buffers by address (lua/bind_win_flavors.cpp).
void push_win(lua_State* L, WinPtr w, int buf_idx) {
  buf_idx = buf_idx ? lua_absindex(L, buf_idx) : 0;
  push_userdata(L, kWinMeta, WinBox{std::move(w)}, 3);
  if (buf_idx) lua_pushvalue(L, buf_idx);
  else lua_pushnil(L);
  lua_setiuservalue(L, -2, 1);  // the exposed buffer, pops
  lua_newtable(L);
  lua_setiuservalue(L, -2, 2);  // origin buffers of pending gets, pops
  lua_newtable(L);
  lua_setiuservalue(L, -2, 3);  // attached buffers, pops
}

// size >= 0 (MPI_ERR_SIZE), a multiple of the predefined datatype's extent,
// disp_unit > 0 (MPI_ERR_DISP), the info table.
AllocArgs check_alloc_args(lua_State* L, const char* func) {
  AllocArgs a;
  a.size = check_integer(L, 2, "size", func);
  if (a.size < 0) fail(ErrClass::Size, func, "size = " + std::to_string(a.size) + " must not be negative");
  a.disp_unit = check_int(L, 3, "disp_unit", func, ErrClass::Disp);
  if (a.disp_unit <= 0)
    fail(ErrClass::Disp, func, "disp_unit = " + std::to_string(a.disp_unit) + " must be positive");
  a.info = check_info(L, 4, "info", func);
  a.type = lua_isnoneornil(L, 5) ? core::Datatype::basic(core::Basic::Byte) : check_element_type(L, 5, func);
  if (a.size % a.type->extent() != 0)
    fail(ErrClass::Size, func,
         "size = " + std::to_string(a.size) + " is not a multiple of " + a.type->name() + "'s " +
             std::to_string(a.type->extent()) + " bytes");
  if (a.size > (std::int64_t(1) << 40))
    fail(ErrClass::NoMem, func, "size = " + std::to_string(a.size) + " is too large");
  return a;
}

core::TypePtr check_element_type(lua_State* L, int idx, const char* func) {
  core::TypePtr t = check_usable_type(L, idx, func);
  if (!t->predefined() || t->extent() <= 0) fail(ErrClass::Type, func, "datatype must be a predefined type");
  return t;
}

// The window at idx; MPI_ERR_WIN if it is none or was freed.
core::Win& check_win(lua_State* L, int idx, std::string_view func) {
  Win& w = check_win_any(L, idx, func);
  w.check_usable(func);
  return w;
}

// Drops the pending gets' buffers of the window at idx: they completed.
void clear_pending(lua_State* L, int idx) {
  lua_newtable(L);
  lua_setiuservalue(L, idx, 2);
}

core::Win* test_win(lua_State* L, int idx) {
  WinBox* b = test_box(L, idx);
  return b ? b->win.get() : nullptr;
}

// Stack on entry: mpi at -3, Comm methods at -2, Group methods at -1.
void open_win(lua_State* L) {
  new_metatable(L, kWinMeta, "Win", {.gc = win_gc, .tostring = win_tostring}, kMethods);
  lua_getfield(L, -1, "__index");
  set_funcs(L, win_operations());  // put, get, the accumulate family (bind_win_ops.cpp)
  set_funcs(L, win_flavor_methods());  // attach, detach, shared_query (bind_win_flavors.cpp)
  lua_pop(L, 2);
  set_funcs(L, kCommMethods, -2);  // Comm methods
  set_funcs(L, comm_win_flavors(), -2);  // win_create_dynamic, win_allocate_shared
  lua_pushvalue(L, -3);  // mpi
  set_funcs(L, kModuleFuncs);
  set_attr_callbacks(L, "WIN_");
  const std::pair<const char*, int> ints[] = {
      {"LOCK_EXCLUSIVE", core::LOCK_EXCLUSIVE}, {"LOCK_SHARED", core::LOCK_SHARED},
      {"MODE_NOCHECK", core::MODE_NOCHECK}, {"MODE_NOSTORE", core::MODE_NOSTORE}, {"MODE_NOPUT", core::MODE_NOPUT},
      {"MODE_NOPRECEDE", core::MODE_NOPRECEDE}, {"MODE_NOSUCCEED", core::MODE_NOSUCCEED},
      {"WIN_FLAVOR_CREATE", core::WIN_FLAVOR_CREATE}, {"WIN_FLAVOR_ALLOCATE", core::WIN_FLAVOR_ALLOCATE},
      {"WIN_FLAVOR_DYNAMIC", core::WIN_FLAVOR_DYNAMIC}, {"WIN_FLAVOR_SHARED", core::WIN_FLAVOR_SHARED},
      {"WIN_SEPARATE", core::WIN_SEPARATE}, {"WIN_UNIFIED", core::WIN_UNIFIED}};
  for (auto [name, v] : ints) set_int(L, name, v);
  open_win_ops(L);  // mpi.REPLACE, mpi.NO_OP
  lua_pop(L, 1);  // mpi
}

}  // namespace lumpi::lua
