// lua/bind_errh.cpp: error handling in Lua (MPI-3.1 §8.3-8.5, §8.7.1):
// user-defined error handlers (mpi.comm_create_errhandler, comm:set_errhandler,
// comm:get_errhandler, comm:call_errhandler, mpi.win_create_errhandler (the
// window methods are lua/bind_win.cpp's), eh:free), error classes, codes
// and strings (mpi.add_error_class/code/string, mpi.error_class,
// mpi.error_string), and the rank's finalize (COMM_SELF's attributes deleted
// newest first; mpi.finalized).
//
// An Errhandler value is a userdata box holding the core's shared handler
// object (core/base/errhandler.hpp); the Lua function sits in
// registry["lumpi.errh.fns"][address of that object], so a communicator that
// inherited the handler (dup, split, create ..., §6.4.2) finds it there. The
// entry goes when the last box goes and no communicator holds the handler.
// wrap (lua/binding.hpp) calls the function as fn(comm, code), or
// fn(win, code) for a window's handler; when it
// returns, the failing call returns nil, err as under ERRORS_RETURN.
#include <string>

#include "core/base/error.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {

void raise_error_code(lua_State* L, const char* func, const char* by) {
  core::raise_code(check_int(L, 2, "errorcode", func), func, std::string("called by ") + by);
}

namespace {

using core::ErrClass;
using core::fail;

constexpr const char* kErrhMeta = "lumpi.Errhandler";
constexpr const char* kFnsKey = "lumpi.errh.fns";
constexpr const char* kFinalizedKey = "lumpi.finalized";
constexpr const char* kFinalizingKey = "lumpi.finalizing";

struct ErrhBox {
  std::shared_ptr<core::UserErrhandler> h;
};

// Pushes the table of the handlers' functions (registry[kFnsKey]).
void push_fns(lua_State* L) { luaL_getsubtable(L, LUA_REGISTRYINDEX, kFnsKey); }

ErrhBox* test_errh(lua_State* L, int idx) { return test_userdata<ErrhBox>(L, idx, kErrhMeta); }

void push_box(lua_State* L, std::shared_ptr<core::UserErrhandler> h) {
  push_userdata(L, kErrhMeta, ErrhBox{std::move(h)});
}

// A new user handler for objects of kind `object`, its function at arg 1.
int create_errhandler(lua_State* L, core::HandlerObject object, const char* func, const char* shape) {
  if (lua_type(L, 1) != LUA_TFUNCTION)
    fail(ErrClass::Arg, func, std::string("function must be a ") + shape + ", got " + luaL_typename(L, 1));
  auto h = std::make_shared<LuaErrhandler>(object, main_thread(L));
  push_fns(L);
  lua_pushvalue(L, 1);
  lua_rawsetp(L, -2, h.get());  // fns[h] = fn
  lua_pop(L, 1);
  push_box(L, std::move(h));
  return 1;
}

// mpi.comm_create_errhandler(fn) -> errhandler
int l_comm_create_errhandler(lua_State* L) {
  return create_errhandler(L, core::HandlerObject::Comm, "MPI_Comm_create_errhandler", "function(comm, code)");
}

// mpi.win_create_errhandler(fn) -> errhandler (MPI-3.1 §8.3.2): fn(win, code)
// runs when a call on a window that has it fails.
int l_win_create_errhandler(lua_State* L) {
  return create_errhandler(L, core::HandlerObject::Win, "MPI_Win_create_errhandler", "function(win, code)");
}

// eh:free(): MPI_Errhandler_free. Communicators using it keep it.
int e_free(lua_State* L) {
  const char* func = "MPI_Errhandler_free";
  ErrhBox* b = test_errh(L, 1);
  if (!b) fail(ErrClass::Arg, func, "errhandler must be an error handler made by mpi.comm_create_errhandler or mpi.win_create_errhandler");
  if (b->h->freed) fail(ErrClass::Arg, func, "errhandler was already freed");
  b->h->freed = true;
  return 0;
}

int e_gc(lua_State* L) {
  ErrhBox* b = test_errh(L, 1);
  if (!b || !b->h) return 0;
  if (b->h.use_count() == 1) {  // nothing else (no communicator) holds it
    push_fns(L);
    lua_pushnil(L);
    lua_rawsetp(L, -2, b->h.get());
    lua_pop(L, 1);
  }
  b->h.reset();
  return 0;
}

int e_eq(lua_State* L) {
  ErrhBox* a = test_errh(L, 1);
  ErrhBox* b = test_errh(L, 2);
  lua_pushboolean(L, a && b && a->h == b->h);
  return 1;
}

int e_tostring(lua_State* L) {
  ErrhBox* b = test_errh(L, 1);
  if (!b || !b->h) {
    lua_pushliteral(L, "errhandler");
    return 1;
  }
  lua_pushfstring(L, "errhandler (user-defined, for a %s%s)", core::handler_object_name(b->h->object),
                  b->h->freed ? ", freed" : "");
  return 1;
}

// comm:set_errhandler(h)
int c_set_errhandler(lua_State* L) {
  const char* func = "MPI_Comm_set_errhandler";
  core::Comm& c = check_comm(L, 1, func);
  c.set_errhandler(check_errhandler(L, 2, core::HandlerObject::Comm, func));
  return 0;
}

// comm:get_errhandler() -> "errors_raise" | "errors_return" | "errors_are_fatal" | errhandler
int c_get_errhandler(lua_State* L) {
  push_errhandler(L, check_comm(L, 1, "MPI_Comm_get_errhandler").errhandler());
  return 1;
}

// comm:call_errhandler(code): delivers an error of `code` on comm, as a
// failing call on comm would (MPI_Comm_call_errhandler).
int c_call_errhandler(lua_State* L) {
  check_comm(L, 1, "MPI_Comm_call_errhandler");
  raise_error_code(L, "MPI_Comm_call_errhandler", "comm:call_errhandler");
}

// A class or code argument: an integer, or a class name ("MPI_ERR_OTHER").
int check_code(lua_State* L, int idx, const char* what, const char* func) {
  if (lua_type(L, idx) == LUA_TSTRING) {
    std::string name = lua_tostring(L, idx);
    ErrClass c = core::class_from_name(name);
    if (name != core::class_name(c)) fail(ErrClass::Arg, func, std::string(what) + " '" + name + "' is not an error class");
    return int(c);
  }
  return check_int(L, idx, what, func);
}

// mpi.add_error_class() -> class
int l_add_error_class(lua_State* L) {
  lua_pushinteger(L, core::add_error_class());
  return 1;
}

// mpi.add_error_code(class) -> code
int l_add_error_code(lua_State* L) {
  lua_pushinteger(L, core::add_error_code(check_code(L, 1, "errorclass", "MPI_Add_error_code")));
  return 1;
}

// mpi.add_error_string(code, string)
int l_add_error_string(lua_State* L) {
  const char* func = "MPI_Add_error_string";
  int code = check_int(L, 1, "errorcode", func);
  core::add_error_string(code, check_string(L, 2, "string", func));
  return 0;
}

// mpi.error_class(code | class name | err) -> class name, class number
int l_error_class(lua_State* L) {
  const char* func = "MPI_Error_class";
  core::Error e(ErrClass::Unknown, "", "");
  int cls = test_error(L, 1, &e) ? int(e.cls()) : core::error_class_of(check_code(L, 1, "errorcode", func), func);
  lua_pushstring(L, core::class_name(ErrClass(cls)));
  lua_pushinteger(L, cls);
  return 2;
}

// mpi.error_string(code | class name | err) -> text
int l_error_string(lua_State* L) {
  const char* func = "MPI_Error_string";
  core::Error e(ErrClass::Unknown, "", "");
  if (test_error(L, 1, &e)) {
    lua_pushstring(L, e.what());
    return 1;
  }
  lua_pushstring(L, core::error_string_of(check_code(L, 1, "errorcode", func), func).c_str());
  return 1;
}

// mpi.finalized() -> boolean
int l_finalized(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kFinalizedKey);
  lua_pushboolean(L, lua_toboolean(L, -1));
  return 1;
}

int l_finalize_self(lua_State* L) {
  push_comm(L, runtime(L).self);
  delete_attrs(L, -1, *runtime(L).self, "MPI_Finalize");
  return 0;
}

const Reg kModuleFuncs[] = {
    {"comm_create_errhandler", wrap<l_comm_create_errhandler>},
    {"win_create_errhandler", wrap<l_win_create_errhandler>},
    {"add_error_class", wrap<l_add_error_class>},
    {"add_error_code", wrap<l_add_error_code>},
    {"add_error_string", wrap<l_add_error_string>},
    {"error_class", wrap<l_error_class>},
    {"error_string", wrap<l_error_string>},
    {"finalized", wrap<l_finalized>},
};

const Reg kCommMethods[] = {
    {"set_errhandler", wrap<c_set_errhandler>},
    {"get_errhandler", wrap<c_get_errhandler>},
    {"call_errhandler", wrap<c_call_errhandler>},
};

const Reg kErrhMethods[] = {
    {"free", wrap<e_free>},
};

}  // namespace

core::Errhandler check_errhandler(lua_State* L, int idx, core::HandlerObject object, const char* func) {
  if (ErrhBox* b = test_errh(L, idx)) return core::settable(b->h, object, func);
  if (lua_type(L, idx) != LUA_TSTRING)
    fail(ErrClass::Arg, func,
         std::string("errhandler must be mpi.ERRORS_RAISE, mpi.ERRORS_RETURN, mpi.ERRORS_ARE_FATAL or an "
                     "errhandler value, got ") + luaL_typename(L, idx));
  std::string h = lua_tostring(L, idx);
  if (h == "errors_raise") return core::Errhandler::Raise;
  if (h == "errors_return") return core::Errhandler::Return;
  if (h == "errors_are_fatal") return core::Errhandler::Fatal;
  fail(ErrClass::Arg, func, "unknown error handler '" + h + "'");
}

void push_errhandler(lua_State* L, const core::Errhandler& h) {
  switch (h.kind()) {
    case core::HandlerKind::Raise: lua_pushliteral(L, "errors_raise"); break;
    case core::HandlerKind::Return: lua_pushliteral(L, "errors_return"); break;
    case core::HandlerKind::Fatal: lua_pushliteral(L, "errors_are_fatal"); break;
    case core::HandlerKind::User: push_box(L, h.user()); break;
  }
}

void push_errhandler_fn(lua_State* L, const core::UserErrhandler* h) {
  auto* mine = dynamic_cast<const LuaErrhandler*>(h);
  if (!mine || mine->L != main_thread(L)) {
    lua_pushnil(L);
    return;
  }
  push_fns(L);
  lua_rawgetp(L, -1, h);
  lua_remove(L, -2);
}

void finalize(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kFinalizingKey);
  bool done = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (done || !runtime(L).self) return;
  lua_pushboolean(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, kFinalizingKey);  // once, even if a callback fails
  lua_pushcfunction(L, wrap<l_finalize_self>);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    // A delete callback failed: say so on the rank's output and go on.
    lua_getglobal(L, "print");
    lua_pushliteral(L, "lumpi: at finalize: ");
    luaL_tolstring(L, -3, nullptr);
    lua_concat(L, 2);
    lua_pcall(L, 1, 0, 0);
    lua_pop(L, 1);  // the error
  }
  lua_pushboolean(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, kFinalizedKey);
}

void open_errh(lua_State* L) {
  // Stack: mpi at -3, Comm methods at -2, Group methods at -1.
  new_metatable(L, kErrhMeta, "errhandler", {.gc = e_gc, .eq = e_eq, .tostring = e_tostring}, kErrhMethods);
  lua_pop(L, 1);
  set_funcs(L, kCommMethods, -2);  // Comm methods
  lua_pushvalue(L, -3);
  set_funcs(L, kModuleFuncs);
  set_int(L, "ERR_LASTCODE", int(ErrClass::LastCode));
  set_int(L, "MAX_ERROR_STRING", core::MAX_ERROR_STRING);
  lua_pop(L, 1);
}

}  // namespace lumpi::lua
