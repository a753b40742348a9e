// lua/attr.hpp: attribute caching for every kind of object that carries
// attributes (seed §6.7) over the core's one store (core/base/attr.hpp,
// which keeps the rules); lua/bind_attr.cpp converts Lua values, keyvals and
// callbacks. Callbacks get the object's Lua value in place of the
// communicator: copy f(oldobj, kv, extra_state, value) -> keep, newvalue;
// delete f(obj, kv, value, extra_state).
#pragma once

#include <lua.hpp>

#include <cstdint>

#include "core/base/attr.hpp"

namespace lumpi::lua {

namespace attr = core::attr;
using AttrKind = attr::Kind;

// An object's attributes: its kind and a serial never reused in the
// process (Comm::serial(), Datatype::serial(), Win::serial()).
struct AttrObj {
  AttrKind kind;
  std::uint64_t serial;
};

// mpi.X_create_keyval{copy=, delete=, extra_state=} (table at argument 1):
// pushes the keyval, returns 1.
int create_keyval(lua_State* L, AttrKind k, const char* func);
// mpi.X_free_keyval(kv) (keyval at argument 1): returns 0.
int free_keyval(lua_State* L, AttrKind k, const char* func);

// obj:set_attr(kv, v), obj:get_attr(kv), obj:delete_attr(kv): the object at
// obj_idx, the keyval at argument 2, the value at argument 3. Raise
// core::Error; a delete callback that raises leaves the attribute attached.
void set_attr(lua_State* L, int obj_idx, AttrObj o, const char* func);
int get_attr(lua_State* L, AttrObj o, const char* func);  // pushes value, found; returns 2
void delete_attr(lua_State* L, int obj_idx, AttrObj o, const char* func);

// Runs the copy callbacks of old's attributes (object at old_idx) and
// attaches the kept values to new_obj; a raising callback throws, and
// new_obj gets nothing.
void copy_attrs(lua_State* L, int old_idx, AttrObj old_obj, AttrObj new_obj, const char* func);
// Runs the delete callbacks of o (object at idx), newest first, and removes
// its attributes; throws at the first callback that raises, leaving the rest
// attached.
void delete_attrs(lua_State* L, int idx, AttrObj o, const char* func);
// Drops o's attributes without callbacks (its last handle is collected).
void forget_attrs(lua_State* L, AttrObj o);

// The window attribute the keyval at idx stands for: 0 WIN_BASE, 1
// WIN_SIZE, 2 WIN_DISP_UNIT, 3 WIN_CREATE_FLAVOR, 4 WIN_MODEL; -1 for any
// other value (lua/bind_win.cpp answers these, the store holds none).
int predefined_win_attr(lua_State* L, int idx);

// Sets the predefined callbacks <prefix>NULL_COPY_FN, <prefix>DUP_FN and
// <prefix>NULL_DELETE_FN in the table at -1 (prefix "TYPE_", "WIN_"...).
void set_attr_callbacks(lua_State* L, const char* prefix);

}  // namespace lumpi::lua
