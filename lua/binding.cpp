// lua/binding.cpp: the boundary (error objects, argument checks) and the
// userdata boxes for communicators and groups.
#include "lua/binding.hpp"

#include <atomic>
#include <cctype>
#include <cmath>
#include <string_view>

#include "core/rma/win.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;

namespace {
constexpr const char* kRuntimeKey = "lumpi.runtime";
constexpr const char* kErrorMeta = "lumpi.Error";
}  // namespace

constexpr char kGroupMeta[] = "lumpi.Group";

Runtime& runtime(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kRuntimeKey);  // push the light userdata
  auto* rt = static_cast<Runtime*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return *rt;
}

lua_State* main_thread(lua_State* L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);  // push the thread
  lua_State* m = lua_tothread(L, -1);
  lua_pop(L, 1);
  return m;
}

void set_runtime(lua_State* L, Runtime* rt) {
  lua_pushlightuserdata(L, rt);
  lua_setfield(L, LUA_REGISTRYINDEX, kRuntimeKey);  // registry[key] = rt, pop
}

// ---- error objects ------------------------------------------------------------------

namespace {
// Core's message as a Lua user wrote the call: positions in sequences count
// from 1 (core::at) and the special values are the mpi module's
// (MPI_UNDEFINED -> mpi.UNDEFINED). Class and function names stay MPI's.
std::string in_lua_words(const core::Error& e) {
  static constexpr std::string_view kConstants[] = {
      "UNDEFINED", "ANY_TAG", "ANY_SOURCE", "PROC_NULL", "ROOT", "UNWEIGHTED", "WEIGHTS_EMPTY", "IN_PLACE"};
  std::string s = e.message_from(1);
  for (std::size_t i = 0; (i = s.find("MPI_", i)) != std::string::npos; i += 4) {
    for (std::string_view c : kConstants) {
      std::size_t end = i + 4 + c.size();
      if (end > s.size() || s.compare(i + 4, c.size(), c) != 0) continue;
      if (end == s.size() || !(std::isalnum((unsigned char)s[end]) || s[end] == '_')) {
        s.replace(i, 4, "mpi.");
        break;
      }
    }
  }
  return s;
}
}  // namespace

void push_error(lua_State* L, const core::Error& e) {
  lua_createtable(L, 0, 4);
  set_string(L, "class", core::class_name(e.cls()));
  set_int(L, "code", e.code());
  set_string(L, "func", e.func());
  set_string(L, "message", in_lua_words(e));
  luaL_setmetatable(L, kErrorMeta);  // errors share one metatable with __tostring
}

bool test_error(lua_State* L, int idx, core::Error* e) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return false;  // push its metatable
  luaL_getmetatable(L, kErrorMeta);                                      // push ours
  bool same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  if (!same) return false;
  lua_getfield(L, idx, "class");
  lua_getfield(L, idx, "func");
  lua_getfield(L, idx, "message");
  lua_getfield(L, idx, "code");
  auto str = [&](int i) {
    const char* s = lua_tostring(L, i);
    return std::string(s ? s : "");
  };
  core::ErrClass cls = core::class_from_name(str(-4));
  int isnum = 0;
  lua_Integer code = lua_tointegerx(L, -1, &isnum);
  // The code stays when it is a valid code of that class (an added one).
  if (isnum && code > int(ErrClass::LastCode) && code < INT32_MAX && core::is_error_code(int(code)) &&
      core::error_class_of(int(code)) == int(cls))
    *e = core::Error::with_code(int(code), str(-3), str(-2));
  else
    *e = core::Error(cls, str(-3), str(-2));
  lua_pop(L, 4);
  return true;
}

namespace {
int error_tostring(lua_State* L) {
  core::Error e(ErrClass::Unknown, "", "");
  if (test_error(L, 1, &e)) lua_pushstring(L, e.what());
  else lua_pushstring(L, "error");
  return 1;
}
}  // namespace

core::HandlerKind push_current_exception(lua_State* L) {
  try {
    throw;
  } catch (const core::Error& e) {
    push_error(L, e);
  } catch (const std::bad_alloc&) {
    push_error(L, core::Error(ErrClass::NoMem, "lumpi", "out of memory"));
  } catch (const std::exception& e) {
    push_error(L, core::Error(ErrClass::Intern, "lumpi", e.what()));
  }
  // A call not made on a communicator (groups, ops, dims_create...) answers
  // to COMM_WORLD's handler, as MPI says and Open MPI does.
  core::Win* w = test_win(L, 1);
  core::Errhandler eh = core::Errhandler::Raise;
  bool on_arg = w || comm_errhandler_at(L, 1, &eh);
  if (w) eh = w->errhandler();
  else if (!on_arg && runtime(L).world) eh = runtime(L).world->errhandler();
  core::Error e(ErrClass::Unknown, "", "");
  test_error(L, -1, &e);
  core::HandlerKind h = core::deliver(eh, core::delivered(e));
  if (h == core::HandlerKind::User) {
    push_errhandler_fn(L, eh.user().get());
    if (lua_isnil(L, -1)) {  // made by another state or door: raise
      lua_pop(L, 1);
      return core::HandlerKind::Raise;
    }
    if (on_arg) lua_pushvalue(L, 1);
    else push_comm(L, runtime(L).world);
  }
  return h;
}

int call_user_errhandler(lua_State* L) {
  // stack: ... err fn comm
  lua_getfield(L, -3, "code");
  lua_call(L, 2, 0);  // fn(comm, code)
  lua_pushnil(L);
  lua_insert(L, -2);  // nil, err
  return 2;
}

// ---- argument checks -------------------------------------------------------------------

namespace {
[[noreturn]] void bad_arg(lua_State* L, int idx, std::string_view what, std::string_view func,
                          const char* expected) {
  fail(ErrClass::Arg, func,
       std::string(what) + " must be " + expected + ", got " + luaL_typename(L, idx));
}
}  // namespace

lua_Integer check_integer(lua_State* L, int idx, std::string_view what, std::string_view func) {
  int isnum = 0;
  lua_Integer v = lua_tointegerx(L, idx, &isnum);
  if (!isnum) {
    if (lua_type(L, idx) == LUA_TNUMBER)
      fail(ErrClass::Arg, func,
           std::string(what) + " must be an integer, got " + std::to_string(lua_tonumber(L, idx)));
    bad_arg(L, idx, what, func, "an integer");
  }
  return v;
}

lua_Integer opt_integer(lua_State* L, int idx, lua_Integer def, std::string_view what,
                        std::string_view func) {
  return lua_isnoneornil(L, idx) ? def : check_integer(L, idx, what, func);
}

int check_int(lua_State* L, int idx, std::string_view what, std::string_view func, ErrClass cls) {
  lua_Integer v = check_integer(L, idx, what, func);
  if (v < INT32_MIN || v > INT32_MAX)
    fail(cls, func, std::string(what) + " = " + std::to_string(v) + " is out of range");
  return int(v);
}

int opt_int(lua_State* L, int idx, int def, std::string_view what, std::string_view func,
            ErrClass cls) {
  return lua_isnoneornil(L, idx) ? def : check_int(L, idx, what, func, cls);
}

bool opt_boolean(lua_State* L, int idx, bool def, std::string_view what, std::string_view func) {
  if (lua_isnoneornil(L, idx)) return def;
  if (!lua_isboolean(L, idx)) bad_arg(L, idx, what, func, "a boolean");
  return lua_toboolean(L, idx);
}

std::string check_string(lua_State* L, int idx, std::string_view what, std::string_view func) {
  if (lua_type(L, idx) != LUA_TSTRING) bad_arg(L, idx, what, func, "a string");
  size_t n;
  const char* s = lua_tolstring(L, idx, &n);
  return std::string(s, n);
}

namespace {
// A sequence of integers that fit a T.
template <class T>
std::vector<T> check_sequence_of(lua_State* L, int idx, std::string_view what, std::string_view func) {
  if (!lua_istable(L, idx)) bad_arg(L, idx, what, func, "a sequence of integers");
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  std::vector<T> out;
  out.reserve(size_t(n));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // push t[i]
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || lua_Integer(T(v)) != v)  // not an integer, or out of T's range
      fail(ErrClass::Arg, func, std::string(what) + "[" + std::to_string(i) + "] must be an integer");
    out.push_back(T(v));
  }
  return out;
}
}  // namespace

std::vector<int> check_int_sequence(lua_State* L, int idx, std::string_view what, std::string_view func) {
  return check_sequence_of<int>(L, idx, what, func);
}

std::vector<std::int64_t> check_int64_sequence(lua_State* L, int idx, std::string_view what,
                                               std::string_view func) {
  return check_sequence_of<std::int64_t>(L, idx, what, func);
}

std::vector<bool> check_bool_sequence(lua_State* L, int idx, std::string_view what,
                                      std::string_view func) {
  if (!lua_istable(L, idx)) bad_arg(L, idx, what, func, "a sequence of booleans");
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  std::vector<bool> out;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // push t[i]
    bool ok = lua_isboolean(L, -1);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!ok)
      fail(ErrClass::Arg, func, std::string(what) + "[" + std::to_string(i) + "] must be a boolean");
    out.push_back(v);
  }
  return out;
}

void set_int(lua_State* L, const char* key, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, key);  // t[key] = v, pop
}

void set_string(lua_State* L, const char* key, std::string_view v) {
  lua_pushlstring(L, v.data(), v.size());
  lua_setfield(L, -2, key);  // t[key] = v, pop
}

std::map<std::string, std::string> check_info(lua_State* L, int idx, std::string_view what,
                                              std::string_view func) {
  std::map<std::string, std::string> out;
  if (lua_isnoneornil(L, idx)) return out;
  if (!lua_istable(L, idx))
    fail(ErrClass::Info, func, std::string(what) + " must be a table of strings, got " + luaL_typename(L, idx));
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {  // stack: key value
    if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
      fail(ErrClass::Info, func, std::string(what) + " keys and values must be strings");
    out[lua_tostring(L, -2)] = lua_tostring(L, -1);
    lua_pop(L, 1);  // pop the value, keep the key
  }
  return out;
}

// ---- communicator boxes ------------------------------------------------------------------
// A communicator value (the handle) carries the metatable of its class
// (lua/classes.cpp); every one of those metatables holds kCommMark, which is
// how test_comm knows a communicator whatever its class. The handle has no
// finalizer: it points to an owner, a userdata of its own (its first user
// value) whose __gc lets go of the C++ communicator. c:free() empties the
// owner and hands it to a small pool that the next push_comm reuses, so a
// freed communicator leaves no finalizable garbage behind. That matters
// under Lua 5.4's generational collector: an object with a finalizer that a
// full collection (collectgarbage("collect"), or a major one) finds dead is
// kept as an old object until the next major collection, and counted in the
// base that decides when that comes; two such objects per create/free cycle
// made the Lua heap climb to megabytes between collections, and the rank's
// resident size with it (tests/bench/README.md, "Soak").

namespace {
struct CommBox {               // the owner
  core::CommPtr comm;          // null once freed
  core::Errhandler errhandler;  // a user-defined handler the freed communicator had
};
struct CommHandle {
  CommBox* box;                // the owner (its first user value), or null once freed
  core::HandlerKind freed_kind;  // the predefined handler a freed handle answers to
};

const char kCommMark = 0;  // its address keys the mark in the metatables
constexpr const char* kOwnerMeta = "lumpi.CommOwner";
constexpr const char* kOwnerPoolKey = "lumpi.comm.owners";  // emptied owners for reuse
constexpr lua_Integer kOwnerPoolMax = 64;  // beyond this, an emptied owner is left to the collector
std::atomic<long> g_owners_made{0}, g_owners_live{0};  // for lumpi.host.live (tests)

CommHandle* test_handle(lua_State* L, int idx) {
  void* p = lua_touserdata(L, idx);
  if (!p || lua_islightuserdata(L, idx) || !lua_getmetatable(L, idx)) return nullptr;  // push mt
  bool is_comm = lua_rawgetp(L, -1, &kCommMark) == LUA_TBOOLEAN;                     // push mark
  lua_pop(L, 2);
  return is_comm ? static_cast<CommHandle*>(p) : nullptr;
}

CommBox* test_box(lua_State* L, int idx) {
  CommHandle* h = test_handle(L, idx);
  return h ? h->box : nullptr;
}

// Pushes an empty owner: one from the pool, else a new one.
CommBox* push_owner(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kOwnerPoolKey) == LUA_TTABLE) {  // push the pool
    lua_Integer n = lua_Integer(lua_rawlen(L, -1));
    if (n > 0) {
      lua_rawgeti(L, -1, n);  // push pool[n]
      lua_pushnil(L);
      lua_rawseti(L, -3, n);  // pool[n] = nil
      lua_remove(L, -2);      // drop the pool
      return static_cast<CommBox*>(lua_touserdata(L, -1));
    }
  }
  lua_pop(L, 1);
  CommBox* box = push_userdata(L, kOwnerMeta, CommBox{});
  ++g_owners_made, ++g_owners_live;
  return box;
}

// Puts the emptied owner at idx into the pool, if there is room.
void pool_owner(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_getfield(L, LUA_REGISTRYINDEX, kOwnerPoolKey) != LUA_TTABLE) {  // push the pool
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kOwnerPoolKey);
  }
  lua_Integer n = lua_Integer(lua_rawlen(L, -1));
  if (n < kOwnerPoolMax) {
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, n + 1);  // pool[n+1] = owner
  }
  lua_pop(L, 1);
}
}  // namespace

long comm_owners_made() { return g_owners_made.load(); }
long comm_owners_live() { return g_owners_live.load(); }

int push_comm(lua_State* L, core::CommPtr c) {
  if (!c) {
    lua_pushnil(L);
    return 1;
  }
  const char* meta = comm_class_meta(*c);
  CommBox* box = push_owner(L);
  box->comm = std::move(c);
  auto* h = static_cast<CommHandle*>(lua_newuserdatauv(L, sizeof(CommHandle), 1));
  *h = CommHandle{box, core::HandlerKind::Raise};
  lua_insert(L, -2);
  lua_setiuservalue(L, -2, 1);  // handle.uservalue[1] = owner, pop
  luaL_setmetatable(L, meta);
  return 1;
}

core::Comm* test_comm(lua_State* L, int idx) {
  auto* box = test_box(L, idx);
  return box ? box->comm.get() : nullptr;
}

core::CommPtr test_comm_ptr(lua_State* L, int idx) {
  auto* box = test_box(L, idx);
  return box ? box->comm : nullptr;
}

core::Comm& check_comm_handle(lua_State* L, int idx, std::string_view func) {
  auto* h = test_handle(L, idx);
  if (!h)
    fail(ErrClass::Comm, func,
         std::string("expected a communicator, got ") + luaL_typename(L, idx));
  if (!h->box || !h->box->comm) fail(ErrClass::Comm, func, "the communicator has been freed");
  return *h->box->comm;
}

core::CommPtr check_comm_ptr(lua_State* L, int idx, std::string_view func) {
  check_comm_handle(L, idx, func).check_usable(func);
  return test_comm_ptr(L, idx);
}

core::Comm& check_comm(lua_State* L, int idx, std::string_view func) {
  return *check_comm_ptr(L, idx, func);
}

// A predefined handler stays in the handle and the owner goes to the pool; a
// user-defined one stays in the owner, which the handle then keeps.
void release_comm(lua_State* L, int idx) {
  auto* h = test_handle(L, idx);
  if (!h || !h->box || !h->box->comm) return;
  core::Errhandler eh = h->box->comm->errhandler();
  h->box->comm.reset();
  if (eh.kind() == core::HandlerKind::User) {
    h->box->errhandler = std::move(eh);
    return;
  }
  h->freed_kind = eh.kind();
  h->box = nullptr;
  lua_getiuservalue(L, idx, 1);  // push the owner
  pool_owner(L, -1);
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_setiuservalue(L, idx, 1);  // the handle lets go of it
}

bool comm_errhandler_at(lua_State* L, int idx, core::Errhandler* eh) {
  auto* h = test_handle(L, idx);
  if (!h) return false;
  if (!h->box) *eh = core::Errhandler(h->freed_kind);
  else *eh = h->box->comm ? h->box->comm->errhandler() : h->box->errhandler;
  return true;
}

std::string comm_class_at(lua_State* L, int idx) {
  if (!test_handle(L, idx) || luaL_getmetafield(L, idx, "__name") == LUA_TNIL) return "";  // push name
  std::string s = lua_tostring(L, -1);
  lua_pop(L, 1);
  return s;
}

namespace {
// The owner's finalizer: its handle was collected without c:free(). The
// last owner of a communicator (no other handle, request or runtime slot
// holds it) takes its attributes along.
int owner_gc(lua_State* L) {
  auto* box = test_userdata<CommBox>(L, 1, kOwnerMeta);
  if (!box) return 0;
  if (box->comm && box->comm.use_count() == 1) forget_attrs(L, *box->comm);
  box->~CommBox();
  --g_owners_live;  // releases local memory only; never communicates
  return 0;
}
// Two freed handles are equal, as two MPI_COMM_NULLs are.
int comm_eq(lua_State* L) {
  auto *a = test_handle(L, 1), *b = test_handle(L, 2);
  auto comm = [](CommHandle* h) { return h->box ? h->box->comm : nullptr; };
  lua_pushboolean(L, a && b && comm(a) == comm(b));
  return 1;
}
// "Cartcomm 'name' size=4 rank=1 intra topo=cart 2x2": the class, then
// core's description after its leading "comm".
int comm_tostring(lua_State* L) {
  core::Comm* c = test_comm(L, 1);
  std::string s = comm_class_at(L, 1);
  if (!c || c->freed()) {
    s += " (freed)";
  } else {
    std::string d = c->describe();
    s += d.compare(0, 4, "comm") == 0 ? d.substr(4) : " " + d;
  }
  lua_pushstring(L, s.c_str());
  return 1;
}
}  // namespace

void set_comm_metamethods(lua_State* L) {
  if (luaL_newmetatable(L, kOwnerMeta)) set_metamethods(L, {.gc = owner_gc});  // once: the owners' metatable
  lua_pop(L, 1);
  set_metamethods(L, {.eq = comm_eq, .tostring = comm_tostring});
  lua_pushboolean(L, true);
  lua_rawsetp(L, -2, &kCommMark);  // mt[&kCommMark] = true, pop
}

// ---- group boxes ---------------------------------------------------------------------------

namespace {
struct GroupBox {
  std::shared_ptr<GroupState> state;
};
}  // namespace

void push_group(lua_State* L, core::group::Members m) {
  push_userdata(L, kGroupMeta, GroupBox{std::make_shared<GroupState>(GroupState{std::move(m), false})});
}

GroupState& check_group(lua_State* L, int idx, std::string_view func) {
  auto* box = test_userdata<GroupBox>(L, idx, kGroupMeta);
  if (!box)
    fail(ErrClass::Group, func, std::string("expected a group, got ") + luaL_typename(L, idx));
  if (box->state->freed) fail(ErrClass::Group, func, "the group has been freed");
  return *box->state;
}

// Frees the group at idx: every Lua reference to it becomes a freed handle,
// and its member list goes now rather than at collection.
void free_group(lua_State* L, int idx, std::string_view func) {
  GroupState& g = check_group(L, idx, func);
  g.freed = true;
  core::group::Members().swap(g.members);
}

// ---- registration ------------------------------------------------------------------------

void set_funcs(lua_State* L, std::span<const Reg> regs, int idx) {
  lua_pushvalue(L, idx);  // the table
  for (const Reg& r : regs) {
    lua_pushcfunction(L, r.fn);
    lua_setfield(L, -2, r.name);  // t[name] = fn, pop
  }
  lua_pop(L, 1);
}

namespace {

// A finalizer runs wherever the collector steps, also in user code outside
// every MPI call; one that drops a request, a communicator or a window
// reaches the core, so it runs inside MPI (core/base/call_lock.hpp).
// Upvalue 1: the finalizer.
int gc_in_mpi(lua_State* L) {
  auto gc = reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(1)));
  core::InMpi in_mpi;
  return gc(L);  // (finalizers do not raise)
}

}  // namespace

void set_metamethods(lua_State* L, Metamethods mm) {
  if (mm.gc) {
    lua_pushlightuserdata(L, reinterpret_cast<void*>(mm.gc));
    lua_pushcclosure(L, gc_in_mpi, 1);
    lua_setfield(L, -2, "__gc");  // meta.__gc = the guarded finalizer, pop
  }
  const std::pair<const char*, lua_CFunction> fns[] = {{"__eq", mm.eq}, {"__tostring", mm.tostring}};
  for (auto [field, fn] : fns) {
    if (!fn) continue;
    lua_pushcfunction(L, fn);
    lua_setfield(L, -2, field);  // meta[field] = fn, pop
  }
}

void new_metatable(lua_State* L, const char* meta, const char* name, Metamethods mm,
                   std::span<const Reg> methods) {
  luaL_newmetatable(L, meta);
  set_metamethods(L, mm);
  if (name) set_string(L, "__name", name);
  if (methods.empty()) return;
  lua_newtable(L);
  set_funcs(L, methods);
  lua_setfield(L, -2, "__index");  // meta.__index = methods, pop
}

// Creates the error and group metatables; leaves the Comm and Group method
// tables on the stack.
void open_metatables(lua_State* L) {
  new_metatable(L, kErrorMeta, nullptr, {.tostring = error_tostring});
  lua_pop(L, 1);

  lua_newtable(L);  // the Comm methods; open_comm_classes hands them out to the classes

  new_metatable(L, kGroupMeta, "group", {.gc = destroy_userdata<GroupBox, kGroupMeta>});
  lua_newtable(L);  // the methods
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__index");
  lua_remove(L, -2);
}

}  // namespace lumpi::lua
