// lua/bind_attr.cpp: attribute caching (seed §6.7, API.md §8) on every kind
// of object that carries attributes: the communicator methods here, the
// generic machinery (lua/attr.hpp) for the other kinds (datatypes:
// lua/bind_datatype.cpp).
//
// Keyvals and attributes are Lua values, so they live in the Lua state, not
// in core: a keyval is a userdata box (freeing it turns every reference into
// a freed handle) whose record sits in registry["lumpi.keyvals"][id] =
// {handle=, copy=, delete=, extra=, refs=, freed=, kind=}; a keyval serves one
// kind of object (using it on another is MPI_ERR_KEYVAL). The attributes of
// an object sit in registry[attrs table of its kind][serial][id] = {value},
// keyed by the object's serial, which is never reused, so a new object never
// sees a stale attribute. Callbacks run under lua_pcall: a callback that
// raises makes the MPI call fail with the callback's error class, and
// nothing long-jumps over a C++ frame. A keyval freed while attached stays
// alive (refs counts its attachments) until its last attribute goes. A
// communicator whose last Lua handle is collected without free drops its
// attributes without callbacks (forget_attrs), so nothing piles up.
//
// Choices the seed leaves open: deleting an attribute that is not attached is
// a no-op; predefined attributes (TAG_UB, HOST, IO, WTIME_IS_GLOBAL, and
// LASTUSEDCODE on COMM_WORLD only) are
// readable on every communicator and cannot be set, deleted or freed
// (MPI_ERR_KEYVAL); callbacks run in keyval creation order.
#include <algorithm>

#include "core/base/constants.hpp"
#include "lua/attr.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;

constexpr const char* kKeyvalMeta = "lumpi.Keyval";
constexpr const char* kKeyvalsKey = "lumpi.keyvals";

// Per kind: the registry table of attributes, and names for messages.
struct KindInfo {
  const char* attrs_key;
  const char* objects;  // "communicators"
};
const KindInfo kKinds[] = {{"lumpi.attrs", "communicators"},
                           {"lumpi.attrs.type", "datatypes"},
                           {"lumpi.attrs.win", "windows"}};
const KindInfo& kind_info(AttrKind k) { return kKinds[int(k)]; }

// Predefined keyvals have ids below kFirstUserKeyval; 0 is KEYVAL_INVALID.
enum Predefined : int { kInvalid = 0, kTagUb = 1, kHost = 2, kIo = 3, kWtimeIsGlobal = 4, kLastUsedCode = 5,
                        // the window attributes (seed §6.7.3), read by lua/bind_win.cpp
                        kWinBase = 8, kWinSize = 9, kWinDispUnit = 10, kWinCreateFlavor = 11,
                        kWinModel = 12 };
constexpr int kFirstUserKeyval = 16;

struct KeyvalBox {
  int id;
  bool freed;
};

int g_next_keyval = kFirstUserKeyval;  // ids are never reused in a process
lua_Integer g_set_clock = 0;             // orders attributes by when they were set

// ---- registry tables (luaL_getsubtable pushes registry[key], made on first use) ------

// Pushes the record of keyval id (nil once forgotten).
void push_record(lua_State* L, int id) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, kKeyvalsKey);
  lua_rawgeti(L, -1, id);  // push keyvals[id]
  lua_remove(L, -2);       // drop keyvals
}

// Pushes the attribute table of an object: nil if it has none, unless
// `create`.
void push_attrs(lua_State* L, AttrObj c, bool create) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, kind_info(c.kind).attrs_key);
  if (lua_rawgeti(L, -1, c.serial) != LUA_TTABLE && create) {  // push attrs[serial]
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, c.serial);  // attrs[serial] = t, pops the copy
  }
  lua_remove(L, -2);  // drop the registry's attrs table
}

// The keyval ids attached to c, in creation order, or the most recently set
// first (box[2] is the time of setting).
std::vector<int> attached_ids(lua_State* L, AttrObj c, bool newest_first = false) {
  std::vector<std::pair<lua_Integer, int>> found;  // (order, id)
  push_attrs(L, c, false);
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {  // stack: attrs key box
      lua_rawgeti(L, -1, 2);   // push the time of setting
      const int id = int(lua_tointeger(L, -3));
      found.emplace_back(newest_first ? -lua_tointeger(L, -1) : id, id);
      lua_pop(L, 2);  // pop the time and the box, keep the key
    }
  }
  lua_pop(L, 1);  // attrs (or nil)
  std::sort(found.begin(), found.end());
  std::vector<int> ids;
  for (const auto& f : found) ids.push_back(f.second);
  return ids;
}

// Stores value box (at top, popped) as attribute id of c, or removes it when
// the top is nil; a stored box gets the time of setting as box[2].
void store_attr(lua_State* L, AttrObj c, int id) {
  if (lua_istable(L, -1)) {
    lua_pushinteger(L, ++g_set_clock);
    lua_rawseti(L, -2, 2);  // box[2] = now
  }
  push_attrs(L, c, true);
  lua_insert(L, -2);      // attrs box
  lua_rawseti(L, -2, id);  // attrs[id] = box, pops box
  lua_pop(L, 1);
}

// Adds delta to keyval id's attachment count; forgets a freed keyval whose
// last attachment went away.
void add_refs(lua_State* L, int id, int delta) {
  push_record(L, id);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  lua_getfield(L, -1, "refs");
  lua_Integer refs = lua_tointeger(L, -1) + delta;
  lua_pop(L, 1);
  set_int(L, "refs", refs);
  lua_getfield(L, -1, "freed");
  bool freed = lua_toboolean(L, -1);
  lua_pop(L, 2);  // the flag and the record
  if (freed && refs <= 0) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, kKeyvalsKey);
    lua_pushnil(L);
    lua_rawseti(L, -2, id);  // keyvals[id] = nil
    lua_pop(L, 1);
  }
}

// ---- keyval handles -----------------------------------------------------------------

KeyvalBox* test_keyval(lua_State* L, int idx) { return test_userdata<KeyvalBox>(L, idx, kKeyvalMeta); }

// The keyval at idx: valid and not freed (predefined ones included).
KeyvalBox& check_keyval(lua_State* L, int idx, const char* func) {
  KeyvalBox* kv = test_keyval(L, idx);
  if (!kv) fail(ErrClass::Keyval, func, std::string("expected a keyval, got ") + luaL_typename(L, idx));
  if (kv->id == kInvalid) fail(ErrClass::Keyval, func, "keyval is mpi.KEYVAL_INVALID");
  if (kv->freed) fail(ErrClass::Keyval, func, "the keyval has been freed");
  return *kv;
}

void check_user_keyval(const KeyvalBox& kv, const char* func) {
  if (kv.id < kFirstUserKeyval)
    fail(ErrClass::Keyval, func, "keyval is a predefined attribute, which cannot be set, deleted or freed");
}

// The kind of object keyval id was created for (predefined ones:
// communicators, but the window attributes).
AttrKind keyval_kind(lua_State* L, int id) {
  if (id >= kWinBase && id <= kWinModel) return AttrKind::Win;
  if (id < kFirstUserKeyval) return AttrKind::Comm;
  push_record(L, id);
  AttrKind k = AttrKind::Comm;
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "kind");
    k = AttrKind(lua_tointeger(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return k;
}

// MPI_ERR_KEYVAL unless keyval kv was created for objects of kind k.
void check_kind(lua_State* L, const KeyvalBox& kv, AttrKind k, const char* func) {
  AttrKind has = keyval_kind(L, kv.id);
  if (has != k)
    fail(ErrClass::Keyval, func,
         std::string("the keyval was created for ") + kind_info(has).objects + ", not " + kind_info(k).objects);
}

// The keyval at idx, usable on objects of kind k.
KeyvalBox& check_keyval_for(lua_State* L, int idx, AttrKind k, const char* func) {
  KeyvalBox& kv = check_keyval(L, idx, func);
  check_kind(L, kv, k, func);
  return kv;
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

// Runs the delete callback of keyval id for the value in box (at box_idx),
// on the comm at comm_idx. Throws if the callback raises.
void run_delete(lua_State* L, int comm_idx, int id, int box_idx, const char* func) {
  push_record(L, id);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  int rec = lua_gettop(L);
  if (lua_getfield(L, rec, "delete") == LUA_TNIL) {  // push the delete function
    lua_pop(L, 2);
    return;
  }
  lua_pushvalue(L, comm_idx);       // comm
  lua_getfield(L, rec, "handle");   // kv
  lua_rawgeti(L, box_idx, 1);       // value
  lua_getfield(L, rec, "extra");    // extra_state
  lua_remove(L, rec);               // fn comm kv value extra
  call_callback(L, 4, 0, func, "delete", id);
}

// Removes attribute id from c (comm userdata at comm_idx), running its delete
// callback first; if that raises, the attribute stays and the error is thrown.
void delete_one(lua_State* L, int comm_idx, AttrObj c, int id, const char* func) {
  int top = lua_gettop(L);
  push_attrs(L, c, false);
  if (!lua_istable(L, -1) || lua_rawgeti(L, -1, id) != LUA_TTABLE) {  // push attrs[id]
    lua_settop(L, top);
    return;  // nothing attached: a no-op
  }
  run_delete(L, comm_idx, id, lua_gettop(L), func);
  lua_settop(L, top);
  lua_pushnil(L);
  store_attr(L, c, id);
  add_refs(L, id, -1);
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

// Keyval creation for objects of kind k: arguments as mpi.comm_create_keyval.
int create_keyval_impl(lua_State* L, AttrKind k, const char* func) {
  if (lua_isnoneornil(L, 1)) lua_newtable(L), lua_replace(L, 1);
  if (!lua_istable(L, 1)) fail(ErrClass::Arg, func, "expected a table {copy=, delete=, extra_state=}");
  check_callback(L, "copy", func);
  check_callback(L, "delete", func);
  int id = g_next_keyval++;
  lua_createtable(L, 0, 7);  // the record
  int rec = lua_gettop(L);
  push_keyval(L, id);
  lua_pushvalue(L, -1);
  lua_setfield(L, rec, "handle");  // record.handle = kv (kv stays on top)
  lua_getfield(L, 1, "copy");
  if (lua_isnil(L, -1)) lua_pop(L, 1), lua_pushcfunction(L, null_copy_fn);
  lua_setfield(L, rec, "copy");
  lua_getfield(L, 1, "delete");
  lua_setfield(L, rec, "delete");
  lua_getfield(L, 1, "extra_state");
  lua_setfield(L, rec, "extra");
  lua_pushinteger(L, 0);
  lua_setfield(L, rec, "refs");
  lua_pushinteger(L, int(k));
  lua_setfield(L, rec, "kind");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, kKeyvalsKey);
  lua_pushvalue(L, rec);
  lua_rawseti(L, -2, id);  // keyvals[id] = record
  lua_pop(L, 1);
  return 1;  // the kv
}

// True while keyval id's record exists (not yet freed, or freed but still
// attached somewhere).
bool record_exists(lua_State* L, int id) {
  push_record(L, id);
  bool exists = lua_istable(L, -1);
  lua_pop(L, 1);
  return exists;
}

// Every reference becomes freed; the record lives on while attributes still
// use it. Freeing it again meanwhile (say from its own delete callback) does
// nothing more; once the last attribute is gone it is MPI_ERR_KEYVAL. The
// same rule as the C and C++ APIs (core/api/api_attr.cpp, seed §6.7.2).
int free_keyval_impl(lua_State* L, AttrKind k, const char* func) {
  KeyvalBox* box = test_keyval(L, 1);
  if (box && box->freed && box->id != kInvalid && box->id >= kFirstUserKeyval && record_exists(L, box->id)) {
    check_kind(L, *box, k, func);
    return 0;
  }
  KeyvalBox& kv = check_keyval(L, 1, func);
  check_user_keyval(kv, func);
  check_kind(L, kv, k, func);
  kv.freed = true;
  push_record(L, kv.id);
  if (lua_istable(L, -1)) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "freed");
  }
  lua_pop(L, 1);
  add_refs(L, kv.id, 0);
  return 0;
}

// mpi.comm_create_keyval{copy=, delete=, extra_state=}
int l_create_keyval(lua_State* L) { return create_keyval_impl(L, AttrKind::Comm, "MPI_Comm_create_keyval"); }

// mpi.comm_free_keyval(kv)
int l_free_keyval(lua_State* L) { return free_keyval_impl(L, AttrKind::Comm, "MPI_Comm_free_keyval"); }

AttrObj comm_obj(const core::Comm& c) { return {AttrKind::Comm, lua_Integer(c.serial())}; }

void push_predefined(lua_State* L, int id) {
  switch (id) {
    case kTagUb: lua_pushinteger(L, core::TAG_UB); break;
    case kHost: lua_pushinteger(L, core::PROC_NULL); break;   // no host process
    case kIo: lua_pushinteger(L, core::ANY_SOURCE); break;    // every rank can do I/O
    case kWtimeIsGlobal: lua_pushboolean(L, 0); break;        // clocks are per host
    case kLastUsedCode: lua_pushinteger(L, core::last_used_code()); break;
    default: lua_pushnil(L);
  }
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

// ---- the generic machinery (lua/attr.hpp) -------------------------------------------------

int predefined_win_attr(lua_State* L, int idx) {
  KeyvalBox* kv = test_keyval(L, idx);
  if (!kv || kv->id < kWinBase || kv->id > kWinModel) return -1;
  return kv->id - kWinBase;
}

int create_keyval(lua_State* L, AttrKind k, const char* func) { return create_keyval_impl(L, k, func); }
int free_keyval(lua_State* L, AttrKind k, const char* func) { return free_keyval_impl(L, k, func); }

// obj:set_attr(kv, v), object at obj_idx: replacing a value runs the old
// value's delete callback.
void set_attr(lua_State* L, int obj_idx, AttrObj o, const char* func) {
  KeyvalBox& kv = check_keyval_for(L, 2, o.kind, func);
  check_user_keyval(kv, func);
  delete_one(L, obj_idx, o, kv.id, func);  // the old value's delete callback, if any
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, 1);  // box[1] = v
  store_attr(L, o, kv.id);
  add_refs(L, kv.id, 1);
}

// obj:get_attr(kv): pushes value, found.
int get_attr(lua_State* L, AttrObj o, const char* func) {
  KeyvalBox& kv = check_keyval_for(L, 2, o.kind, func);
  // MPI_LASTUSEDCODE is an attribute of COMM_WORLD only (MPI-3.1 §8.5).
  if (kv.id == kLastUsedCode && !(o.kind == AttrKind::Comm && runtime(L).world &&
                                  o.serial == lua_Integer(runtime(L).world->serial()))) {
    lua_pushnil(L);
    lua_pushboolean(L, 0);
    return 2;
  }
  if (kv.id < kFirstUserKeyval) {
    push_predefined(L, kv.id);
    lua_pushboolean(L, 1);
    return 2;
  }
  push_attrs(L, o, false);
  if (lua_istable(L, -1) && lua_rawgeti(L, -1, kv.id) == LUA_TTABLE) {  // push attrs[id]
    lua_rawgeti(L, -1, 1);
    lua_pushboolean(L, 1);
    return 2;
  }
  lua_pushnil(L);
  lua_pushboolean(L, 0);
  return 2;
}

void delete_attr(lua_State* L, int obj_idx, AttrObj o, const char* func) {
  KeyvalBox& kv = check_keyval_for(L, 2, o.kind, func);
  check_user_keyval(kv, func);
  delete_one(L, obj_idx, o, kv.id, func);
}

void set_attr_callbacks(lua_State* L, const char* prefix) {
  const std::pair<const char*, lua_CFunction> callbacks[] = {
      {"NULL_COPY_FN", null_copy_fn}, {"DUP_FN", dup_fn}, {"NULL_DELETE_FN", null_delete_fn}};
  for (auto [name, fn] : callbacks) {
    lua_pushcfunction(L, fn);
    lua_setfield(L, -2, (std::string(prefix) + name).c_str());
  }
}

// ---- for the constructors and the destructor (bind_comm_create.cpp) ---------------------

// Runs the copy callback of every attribute of `oldc` (userdata at old_idx)
// and attaches the kept values to `newc`. If a callback raises, the values
// already copied are deleted again (their delete callbacks run, errors
// ignored) and the callback's error is thrown.
void copy_attrs(lua_State* L, int old_idx, AttrObj oldc, int new_idx, AttrObj newc, const char* func) {
  old_idx = lua_absindex(L, old_idx);
  new_idx = lua_absindex(L, new_idx);
  std::vector<int> copied;
  for (int id : attached_ids(L, oldc)) {
    push_record(L, id);
    int rec = lua_gettop(L);
    push_attrs(L, oldc, false);
    lua_rawgeti(L, -1, id);          // the value box
    lua_getfield(L, rec, "copy");    // fn
    lua_pushvalue(L, old_idx);       // oldcomm
    lua_getfield(L, rec, "handle");  // kv
    lua_getfield(L, rec, "extra");   // extra_state
    lua_rawgeti(L, rec + 2, 1);      // value
    if (lua_pcall(L, 4, 2, 0) != LUA_OK) {
      core::Error e = callback_error(L, func, "copy", id);
      lua_settop(L, rec - 1);
      for (int done : copied) {
        try {
          delete_one(L, new_idx, newc, done, func);
        } catch (const core::Error&) {  // the copy's failure is the one reported
        }
      }
      throw e;
    }
    bool keep = lua_toboolean(L, -2);
    if (keep) {
      lua_createtable(L, 1, 0);
      lua_insert(L, -2);
      lua_rawseti(L, -2, 1);  // box[1] = newvalue
      store_attr(L, newc, id);
      add_refs(L, id, 1);
      copied.push_back(id);
    }
    lua_settop(L, rec - 1);
  }
}

// Runs every delete callback of c (userdata at comm_idx) and removes its
// attributes; throws at the first callback that raises, leaving that
// attribute and the rest attached.
void delete_attrs(lua_State* L, int comm_idx, AttrObj c, const char* func) {
  comm_idx = lua_absindex(L, comm_idx);
  for (int id : attached_ids(L, c)) delete_one(L, comm_idx, c, id, func);
}

void delete_attrs_newest_first(lua_State* L, int obj_idx, AttrObj c, const char* func) {
  obj_idx = lua_absindex(L, obj_idx);
  for (int id : attached_ids(L, c, true)) delete_one(L, obj_idx, c, id, func);
}

// A communicator that was never freed loses its last Lua handle: nothing can
// reach its attributes again, so their values go (no delete callback runs:
// the communicator was not freed, and a finalizer must not raise).
void forget_attrs(lua_State* L, AttrObj c) {
  for (int id : attached_ids(L, c)) add_refs(L, id, -1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, kind_info(c.kind).attrs_key);
  lua_pushnil(L);
  lua_rawseti(L, -2, c.serial);  // attrs[serial] = nil
  lua_pop(L, 1);
}

// The communicator forms (lua/binding.hpp).
void copy_attrs(lua_State* L, int old_idx, const core::Comm& oldc, int new_idx, const core::Comm& newc,
                const char* func) {
  copy_attrs(L, old_idx, comm_obj(oldc), new_idx, comm_obj(newc), func);
}
void delete_attrs(lua_State* L, int comm_idx, const core::Comm& c, const char* func) {
  delete_attrs(L, comm_idx, comm_obj(c), func);
}
void forget_attrs(lua_State* L, const core::Comm& c) { forget_attrs(L, comm_obj(c)); }
void delete_attrs_newest_first(lua_State* L, int comm_idx, const core::Comm& c, const char* func) {
  delete_attrs_newest_first(L, comm_idx, comm_obj(c), func);
}

void open_attr(lua_State* L) {
  // Stack: mpi at -3, Comm methods at -2, Group methods at -1.
  new_metatable(L, kKeyvalMeta, "keyval", {.tostring = kv_tostring});
  lua_pop(L, 1);
  set_funcs(L, kMethods, -2);  // Comm methods
  lua_pushvalue(L, -3);  // mpi
  set_funcs(L, kModuleFuncs);
  const std::pair<const char*, int> predefined[] = {
      {"KEYVAL_INVALID", kInvalid}, {"TAG_UB", kTagUb}, {"HOST", kHost}, {"IO", kIo},
      {"WTIME_IS_GLOBAL", kWtimeIsGlobal}, {"LASTUSEDCODE", kLastUsedCode}, {"WIN_BASE", kWinBase},
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
