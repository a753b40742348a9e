// lua/bind_attr.cpp: attribute caching (seed §6.7, API.md §8) for the Lua
// door: the communicator methods here, the functions of lua/attr.hpp for the
// other kinds (datatypes: lua/bind_datatype.cpp, windows: lua/bind_win.cpp).
//
// Every rule lives in the core's one store (core/base/attr.hpp): keyval
// numbers and kinds, replacing a value, freeing a keyval still in use, copy
// callbacks on dup, delete callbacks on free (newest first), forgetting an
// object that goes away without a free. This file only converts:
// - a value is a registry reference (luaL_ref) in the core's word, released
//   when the core lets go of the value: after its delete callback succeeded,
//   or when the core drops it without one (forget, the copies of a failed
//   dup);
// - a keyval is a userdata box around the core's number. Freeing it turns
//   every reference into a freed handle (Lua's form of MPI setting the
//   caller's variable to KEYVAL_INVALID); freeing a freed one again is the
//   core's free, allowed while attributes still use the keyval;
// - a keyval's Lua functions, extra state and box sit in the registry, held
//   by the callbacks the core keeps (LuaKeyval) until it drops the keyval;
// - the object the core hands back to the callbacks is a Call: the Lua
//   thread, the stack slot of the object's value and the MPI function.
// A callback runs under lua_pcall; one that raises fails the MPI call with
// its message and class (MPI_ERR_OTHER for a plain Lua error).
//
// Predefined attributes (TAG_UB, HOST, IO, WTIME_IS_GLOBAL, and LASTUSEDCODE
// on COMM_WORLD only) are the core's too (attr::predefined gives their
// values; set, delete and free refuse them with MPI_ERR_KEYVAL).
#include <cstdint>
#include <memory>

#include "lua/attr.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;

constexpr const char* kKeyvalMeta = "lumpi.Keyval";

// Predefined keyvals have the core's numbers below 16 (attr::kTagUb ...); 0 is KEYVAL_INVALID.
enum Predefined : int { kInvalid = 0,
                        // the window attributes (seed §6.7.3), read by lua/bind_win.cpp
                        kWinBase = 8, kWinSize = 9, kWinDispUnit = 10, kWinCreateFlavor = 11,
                        kWinModel = 12 };

struct KeyvalBox {
  int id;
  bool freed;
};

// A registry reference as the core's word, and back.
attr::Value as_value(int ref) { return reinterpret_cast<attr::Value>(std::intptr_t(ref)); }
int as_ref(attr::Value v) { return int(reinterpret_cast<std::intptr_t>(v)); }

// The object the callbacks get: the object's value at obj_idx (absolute) of
// L. copies collects the references copy callbacks made, which a failing
// dup releases.
struct Call {
  lua_State* L;
  int obj_idx;
  const char* func;
  std::vector<int> copies;
};

// A keyval's registry references, released with the core's last copy of its
// callbacks (the keyval freed and no attribute left).
struct LuaKeyval {
  lua_State* main;
  int copy, del, extra, box;
  ~LuaKeyval() {
    for (int ref : {copy, del, extra, box}) luaL_unref(main, LUA_REGISTRYINDEX, ref);
  }
};

void push_ref(lua_State* L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }

// ---- keyval handles -----------------------------------------------------------------

KeyvalBox* test_keyval(lua_State* L, int idx) { return test_userdata<KeyvalBox>(L, idx, kKeyvalMeta); }

// The keyval at idx: a keyval, not KEYVAL_INVALID, not freed unless freed_ok
// (the core checks its kind and whether it still exists).
KeyvalBox& check_keyval(lua_State* L, int idx, const char* func, bool freed_ok = false) {
  KeyvalBox* kv = test_keyval(L, idx);
  if (!kv) fail(ErrClass::Keyval, func, std::string("expected a keyval, got ") + luaL_typename(L, idx));
  if (kv->id == kInvalid) fail(ErrClass::Keyval, func, "keyval is mpi.KEYVAL_INVALID");
  if (kv->freed && !freed_ok) fail(ErrClass::Keyval, func, "the keyval has been freed");
  return *kv;
}

KeyvalBox* push_keyval(lua_State* L, int id) { return push_userdata(L, kKeyvalMeta, KeyvalBox{id, false}); }

// ---- callbacks ----------------------------------------------------------------------

// The error a callback raised (on top of the stack, popped) as the failure
// of `func`: the callback error's class if it is an MPI error object,
// MPI_ERR_OTHER for a plain Lua error.
core::Error callback_error(lua_State* L, const char* func, const char* which, int id) {
  core::Error e(ErrClass::Other, func, "");
  std::string msg;
  bool is_mpi = test_error(L, -1, &e);
  if (is_mpi) msg = e.what();
  else msg = lua_tostring(L, -1) ? lua_tostring(L, -1) : luaL_typename(L, -1);
  lua_pop(L, 1);
  return core::Error(is_mpi ? e.cls() : ErrClass::Other, func,
                     std::string(which) + " callback of keyval " + std::to_string(id) + " failed: " + msg);
}

// Calls the function below its nargs arguments under lua_pcall; a raised
// error is thrown as callback_error.
void call_callback(lua_State* L, int nargs, int nresults, const char* func, const char* which, int id) {
  if (lua_pcall(L, nargs, nresults, 0) != LUA_OK) throw callback_error(L, func, which, id);
}

// copy f(oldobj, kv, extra_state, value) -> keep, newvalue
int run_copy(const LuaKeyval& k, attr::Object from, int id, attr::Value in, attr::Value& out, bool& keep) {
  Call& c = *static_cast<Call*>(from);
  push_ref(c.L, k.copy);
  lua_pushvalue(c.L, c.obj_idx);
  push_ref(c.L, k.box);
  push_ref(c.L, k.extra);
  push_ref(c.L, as_ref(in));
  call_callback(c.L, 4, 2, c.func, "copy", id);
  keep = lua_toboolean(c.L, -2);
  if (keep) {
    c.copies.push_back(luaL_ref(c.L, LUA_REGISTRYINDEX));  // pops newvalue
    out = as_value(c.copies.back());
  }
  lua_pop(c.L, keep ? 1 : 2);
  return 0;
}

// delete f(obj, kv, value, extra_state); the value's reference goes once it
// succeeded (a raising one leaves the attribute attached).
int run_delete(const LuaKeyval& k, attr::Object on, int id, attr::Value v) {
  Call& c = *static_cast<Call*>(on);
  if (k.del != LUA_REFNIL) {
    push_ref(c.L, k.del);
    lua_pushvalue(c.L, c.obj_idx);
    push_ref(c.L, k.box);
    push_ref(c.L, as_ref(v));
    push_ref(c.L, k.extra);
    call_callback(c.L, 4, 0, c.func, "delete", id);
  }
  luaL_unref(c.L, LUA_REGISTRYINDEX, as_ref(v));
  return 0;
}

// ---- mpi functions ----------------------------------------------------------------------

int null_copy_fn(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}

int dup_fn(lua_State* L) {
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 4);  // the value, unchanged
  return 2;
}

int null_delete_fn(lua_State*) { return 0; }

// A callback argument: nil (the default), a function, or a predefined one.
void check_callback(lua_State* L, const char* field, const char* func) {
  lua_getfield(L, 1, field);
  if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
    fail(ErrClass::Arg, func, std::string(field) + " must be a function, got " + luaL_typename(L, -1));
  lua_pop(L, 1);
}

// A registry reference to field of the table at 1 (LUA_REFNIL for nil).
int field_ref(lua_State* L, const char* field) {
  lua_getfield(L, 1, field);
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

// mpi.comm_create_keyval{copy=, delete=, extra_state=}
int l_create_keyval(lua_State* L) { return create_keyval(L, AttrKind::Comm, "MPI_Comm_create_keyval"); }

// mpi.comm_free_keyval(kv)
int l_free_keyval(lua_State* L) { return free_keyval(L, AttrKind::Comm, "MPI_Comm_free_keyval"); }

AttrObj comm_obj(const core::Comm& c) { return {AttrKind::Comm, c.serial()}; }

// Pushes the predefined communicator attribute id of o: value, found.
int push_predefined(lua_State* L, int id, AttrObj o) {
  int value = 0;
  const bool found = attr::predefined(id, runtime(L).world && o.serial == runtime(L).world->serial(), value);
  if (!found) lua_pushnil(L);
  else if (id == attr::kWtimeIsGlobal) lua_pushboolean(L, value);  // a flag in Lua
  else lua_pushinteger(L, value);
  lua_pushboolean(L, found);
  return 2;
}

// c:set_attr(kv, v)
int c_set_attr(lua_State* L) {
  const char* func = "MPI_Comm_set_attr";
  set_attr(L, 1, comm_obj(check_comm(L, 1, func)), func);
  return 0;
}

// c:get_attr(kv) -> value, found
int c_get_attr(lua_State* L) {
  const char* func = "MPI_Comm_get_attr";
  return get_attr(L, comm_obj(check_comm(L, 1, func)), func);
}

int c_delete_attr(lua_State* L) {
  const char* func = "MPI_Comm_delete_attr";
  delete_attr(L, 1, comm_obj(check_comm(L, 1, func)), func);
  return 0;
}

int kv_tostring(lua_State* L) {
  KeyvalBox* kv = test_keyval(L, 1);
  if (kv->id == kInvalid) lua_pushliteral(L, "keyval (invalid)");
  else if (kv->freed) lua_pushliteral(L, "keyval (freed)");
  else lua_pushfstring(L, "keyval %d", kv->id);
  return 1;
}

const Reg kModuleFuncs[] = {
    {"comm_create_keyval", wrap<l_create_keyval>},
    {"comm_free_keyval", wrap<l_free_keyval>},
};

const Reg kMethods[] = {
    {"set_attr", wrap<c_set_attr>},
    {"get_attr", wrap<c_get_attr>},
    {"delete_attr", wrap<c_delete_attr>},
};

}  // namespace

// ---- lua/attr.hpp -----------------------------------------------------------------------

int predefined_win_attr(lua_State* L, int idx) {
  KeyvalBox* kv = test_keyval(L, idx);
  if (!kv || kv->id < kWinBase || kv->id > kWinModel) return -1;
  return kv->id - kWinBase;
}

// Keyval creation for objects of kind k: arguments as mpi.comm_create_keyval.
int create_keyval(lua_State* L, AttrKind k, const char* func) {
  if (lua_isnoneornil(L, 1)) lua_newtable(L), lua_replace(L, 1);
  if (!lua_istable(L, 1)) fail(ErrClass::Arg, func, "expected a table {copy=, delete=, extra_state=}");
  check_callback(L, "copy", func);
  check_callback(L, "delete", func);
  KeyvalBox* box = push_keyval(L, kInvalid);
  lua_pushvalue(L, -1);
  std::shared_ptr<const LuaKeyval> lk(new LuaKeyval{main_thread(L), field_ref(L, "copy"), field_ref(L, "delete"),
                                                    field_ref(L, "extra_state"), luaL_ref(L, LUA_REGISTRYINDEX)});
  attr::Callbacks cb;
  if (lk->copy != LUA_REFNIL)  // none: the core's NULL_COPY_FN
    cb.copy = [lk](attr::Object from, int id, attr::Value in, attr::Value& out, bool& keep) {
      return run_copy(*lk, from, id, in, out, keep);
    };
  cb.del = [lk](attr::Object on, int id, attr::Value v) { return run_delete(*lk, on, id, v); };
  box->id = attr::create_keyval(k, std::move(cb));
  return 1;  // the box
}

// Every reference becomes freed; freeing it again is the core's rule (§6.7.2):
// nothing more while attributes use it, MPI_ERR_KEYVAL once they are gone.
int free_keyval(lua_State* L, AttrKind k, const char* func) {
  KeyvalBox& kv = check_keyval(L, 1, func, true);
  attr::free_keyval(k, kv.id, func);
  kv.freed = true;
  return 0;
}

// obj:set_attr(kv, v): the value's reference goes again if the core refuses it.
void set_attr(lua_State* L, int obj_idx, AttrObj o, const char* func) {
  int id = check_keyval(L, 2, func).id;
  Call call{L, lua_absindex(L, obj_idx), func, {}};
  lua_pushvalue(L, 3);
  int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  try {
    attr::set(o.kind, &call, o.serial, id, as_value(ref), func);
  } catch (...) {
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    throw;
  }
}

// obj:get_attr(kv): pushes value, found.
int get_attr(lua_State* L, AttrObj o, const char* func) {
  int id = check_keyval(L, 2, func).id;
  if (o.kind == AttrKind::Comm && id >= attr::kTagUb && id <= attr::kLastUsedCode) return push_predefined(L, id, o);
  attr::Value v = nullptr;
  bool found = attr::get(o.kind, o.serial, id, v, func);
  push_ref(L, found ? as_ref(v) : LUA_NOREF);
  lua_pushboolean(L, found);
  return 2;
}

void delete_attr(lua_State* L, int obj_idx, AttrObj o, const char* func) {
  int id = check_keyval(L, 2, func).id;
  Call call{L, lua_absindex(L, obj_idx), func, {}};
  attr::remove(o.kind, &call, o.serial, id, func);
}

void set_attr_callbacks(lua_State* L, const char* prefix) {
  const std::pair<const char*, lua_CFunction> callbacks[] = {
      {"NULL_COPY_FN", null_copy_fn}, {"DUP_FN", dup_fn}, {"NULL_DELETE_FN", null_delete_fn}};
  for (auto [name, fn] : callbacks) {
    lua_pushcfunction(L, fn);
    lua_setfield(L, -2, (std::string(prefix) + name).c_str());
  }
}

// The core drops the copies of a failed dup: their references go here.
void copy_attrs(lua_State* L, int old_idx, AttrObj old_obj, AttrObj new_obj, const char* func) {
  Call call{L, lua_absindex(L, old_idx), func, {}};
  attr::Copies copies;
  try {
    copies = attr::copy_all(old_obj.kind, &call, old_obj.serial, func);
  } catch (...) {
    for (int ref : call.copies) luaL_unref(L, LUA_REGISTRYINDEX, ref);
    throw;
  }
  attr::attach(new_obj.kind, new_obj.serial, copies);
}

void delete_attrs(lua_State* L, int idx, AttrObj o, const char* func) {
  Call call{L, lua_absindex(L, idx), func, {}};
  attr::delete_all(o.kind, &call, o.serial, func);
}

void forget_attrs(lua_State* L, AttrObj o) {
  for (attr::Value v : attr::forget(o.kind, o.serial)) luaL_unref(L, LUA_REGISTRYINDEX, as_ref(v));
}

// The communicator forms (lua/binding.hpp).
void copy_attrs(lua_State* L, int old_idx, const core::Comm& oldc, const core::Comm& newc, const char* func) {
  copy_attrs(L, old_idx, comm_obj(oldc), comm_obj(newc), func);
}
void delete_attrs(lua_State* L, int comm_idx, const core::Comm& c, const char* func) {
  delete_attrs(L, comm_idx, comm_obj(c), func);
}
void forget_attrs(lua_State* L, const core::Comm& c) { forget_attrs(L, comm_obj(c)); }

void open_attr(lua_State* L) {
  // Stack: mpi at -3, Comm methods at -2, Group methods at -1.
  new_metatable(L, kKeyvalMeta, "keyval", {.tostring = kv_tostring});
  lua_pop(L, 1);
  set_funcs(L, kMethods, -2);  // Comm methods
  lua_pushvalue(L, -3);  // mpi
  set_funcs(L, kModuleFuncs);
  const std::pair<const char*, int> predefined[] = {
      {"KEYVAL_INVALID", kInvalid}, {"TAG_UB", attr::kTagUb}, {"HOST", attr::kHost}, {"IO", attr::kIo},
      {"WTIME_IS_GLOBAL", attr::kWtimeIsGlobal}, {"LASTUSEDCODE", attr::kLastUsedCode}, {"WIN_BASE", kWinBase},
      {"WIN_SIZE", kWinSize}, {"WIN_DISP_UNIT", kWinDispUnit}, {"WIN_CREATE_FLAVOR", kWinCreateFlavor},
      {"WIN_MODEL", kWinModel}};
  for (auto [name, id] : predefined) {
    push_keyval(L, id);
    lua_setfield(L, -2, name);
  }
  // The predefined callbacks, also under their deprecated MPI-1 names (seed §6.7.2).
  set_attr_callbacks(L, "COMM_");
  set_attr_callbacks(L, "");
  lua_pop(L, 1);
}

}  // namespace lumpi::lua
