// lua/binding.hpp: the one boundary between Lua and the C++ core.
//
// Every C function the `mpi` module registers goes through `wrap<F>`: F may
// throw core::Error (or any std::exception) and must not call lua_error or
// any luaL_check* itself; wrap catches once, outside every C++ object's
// lifetime, and raises the Lua error object (or returns `nil, err` when the
// communicator in argument 1 has ERRORS_RETURN). Arguments are checked with
// the check_/opt_/test_ helpers below, which throw core::Error naming the
// argument, so nothing long-jumps over a C++ destructor.
#pragma once

#include <lua.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/base/error.hpp"
#include "core/base/call_lock.hpp"
#include "core/base/crash_report.hpp"
#include "core/comm/group.hpp"

namespace lumpi::core {
class Win;
}

namespace lumpi::lua {

// What the binding needs from the process it runs in.
struct Runtime {
  core::Engine* engine = nullptr;
  core::CommPtr world, self;
  // Called for comm:abort(code): must not return. (ERRORS_ARE_FATAL ends
  // the job through core::fatal's sink, which lumpi-rank sets to the same.)
  void (*abort)(int code, const std::string& why) = nullptr;
};

Runtime& runtime(lua_State* L);
// The main thread of L's state, which outlives any coroutine: where user
// functions the core calls later (ops, error handlers) run.
lua_State* main_thread(lua_State* L);

// Restores the stack height when it goes out of scope (also on a throw).
struct StackGuard {
  lua_State* L;
  int top;
  explicit StackGuard(lua_State* s) : L(s), top(lua_gettop(s)) {}
  ~StackGuard() { lua_settop(L, top); }
};

// ---- userdata: a C++ value T in a Lua userdata with a registry metatable -------------

// The T at idx, or nullptr if idx holds no userdata with the metatable `meta`.
template <class T>
T* test_userdata(lua_State* L, int idx, const char* meta) {
  return static_cast<T*>(luaL_testudata(L, idx, meta));
}
// Pushes a new userdata with the metatable `meta` and `user_values` user
// values, holding v; returns it. Its __gc must run ~T.
template <class T>
T* push_userdata(lua_State* L, const char* meta, T v, int user_values = 0) {
  T* box = new (lua_newuserdatauv(L, sizeof(T), user_values)) T(std::move(v));
  luaL_setmetatable(L, meta);
  return box;
}
// A __gc that runs ~T on the userdata at 1. Meta is declared as
// `constexpr char kMeta[] = "lumpi.X"`, so that it can be a template argument.
template <class T, const char* Meta>
int destroy_userdata(lua_State* L) {
  if (T* box = test_userdata<T>(L, 1, Meta)) box->~T();
  return 0;
}

// ---- error objects ------------------------------------------------------------

// Pushes the Lua error object {class=, code=, func=, message=} for e.
void push_error(lua_State* L, const core::Error& e);
// True if the value at idx is an error object; fills e.
bool test_error(lua_State* L, int idx, core::Error* e);

// ---- the boundary ----------------------------------------------------------------

// Converts the exception in flight into a pushed error object and delivers
// it (core::deliver) under the errhandler of the communicator or window at
// argument 1, else COMM_WORLD's; returns what the call does (Raise, Return
// or User; ERRORS_ARE_FATAL does not return). For User it also pushes the
// handler's function and the object value (stack: err, fn, obj) for
// call_user_errhandler.
core::HandlerKind push_current_exception(lua_State* L);
// Calls fn(obj, code) with the stack push_current_exception left for a user
// handler, then leaves nil, err on top and returns 2 (MPI-3.1 §8.3: the
// handler returns and so does the call). An error the handler raises
// propagates.
int call_user_errhandler(lua_State* L);

// F runs inside MPI (core/base/call_lock.hpp): a passive-target progress
// thread never touches the engine meanwhile. It is one call, numbered
// (core/base/crash_report.hpp: the polling watch tells a loop of tests from
// tests with other calls between), unnamed until F names it.
template <int (*F)(lua_State*)>
int wrap(lua_State* L) {
  core::HandlerKind h;
  try {
    core::InMpi in_mpi;
    core::InCall in(core::kUnnamedCall);
    return F(L);
  } catch (...) {
    h = push_current_exception(L);
  }
  // No C++ object with a destructor is alive below this line.
  if (h == core::HandlerKind::User) return call_user_errhandler(L);
  if (h == core::HandlerKind::Return) {
    lua_pushnil(L);
    lua_insert(L, -2);  // nil, err
    return 2;
  }
  return lua_error(L);
}

// ---- error handlers (lua/bind_errh.cpp) --------------------------------------------

// A handler made by mpi.comm_create_errhandler: its function sits in the
// registry of the Lua state L, keyed by this object's address.
struct LuaErrhandler : core::UserErrhandler {
  LuaErrhandler(core::HandlerObject o, lua_State* main) : UserErrhandler(o), L(main) {}
  lua_State* L;  // the main thread of the state that holds the function
};
// The errhandler argument at idx: one of the strings "errors_raise",
// "errors_return", "errors_are_fatal", or an Errhandler value made for
// `object` (MPI_ERR_ARG otherwise, or if freed).
core::Errhandler check_errhandler(lua_State* L, int idx, core::HandlerObject object, const char* func);
// Pushes h as comm:get_errhandler gives it: the string of a predefined one,
// an Errhandler value for a user-defined one.
void push_errhandler(lua_State* L, const core::Errhandler& h);
// Pushes the function of the user handler h of this state (nil if none).
void push_errhandler_fn(lua_State* L, const core::UserErrhandler* h);
void open_errh(lua_State* L);
// obj:call_errhandler(code), the object checked: raises the error of the
// code at argument 2 as func (MPI_ERR_ARG if it is no error code, or
// MPI_SUCCESS), "called by <by>".
[[noreturn]] void raise_error_code(lua_State* L, const char* func, const char* by);

// ---- shutdown (lua/bind_errh.cpp) ---------------------------------------------------

// At rank shutdown (end of the program, :quit, :restart, os.exit): deletes
// COMM_SELF's attributes in the reverse order of setting, running their
// delete callbacks (MPI-3.1 §8.7.1; a callback's error is printed, not
// raised), then makes mpi.finalized() true. Runs once; later calls do nothing.
void finalize(lua_State* L);

// ---- argument checks (throw core::Error with MPI_ERR_ARG unless noted) ------------

lua_Integer check_integer(lua_State* L, int idx, std::string_view what, std::string_view func);
lua_Integer opt_integer(lua_State* L, int idx, lua_Integer def, std::string_view what,
                        std::string_view func);
// An integer that fits in an int; a larger one raises `cls` naming it, so
// that e.g. a destination of 2^32 never wraps around to rank 0.
int check_int(lua_State* L, int idx, std::string_view what, std::string_view func,
              core::ErrClass cls = core::ErrClass::Arg);
int opt_int(lua_State* L, int idx, int def, std::string_view what, std::string_view func,
            core::ErrClass cls = core::ErrClass::Arg);
bool opt_boolean(lua_State* L, int idx, bool def, std::string_view what, std::string_view func);
std::string check_string(lua_State* L, int idx, std::string_view what, std::string_view func);
// A sequence of integers (1-based Lua sequence).
std::vector<int> check_int_sequence(lua_State* L, int idx, std::string_view what,
                                    std::string_view func);
// The same for 64-bit values (displacements).
std::vector<std::int64_t> check_int64_sequence(lua_State* L, int idx, std::string_view what,
                                               std::string_view func);
std::vector<bool> check_bool_sequence(lua_State* L, int idx, std::string_view what,
                                      std::string_view func);
// Pushes v as a sequence: integers, or booleans for a std::vector<bool>;
// returns 1, the number of values pushed.
template <class T>
int push_sequence(lua_State* L, const std::vector<T>& v) {
  lua_createtable(L, int(v.size()), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (std::is_same_v<T, bool>) lua_pushboolean(L, v[i]);
    else lua_pushinteger(L, v[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));  // t[i+1] = v[i], pop
  }
  return 1;
}
// t[key] = v for the table t at -1.
void set_int(lua_State* L, const char* key, lua_Integer v);
void set_string(lua_State* L, const char* key, std::string_view v);
// An info table {key = "value", ...} named `what` (nil: empty); anything
// else, or a key or value that is no string, raises MPI_ERR_INFO.
std::map<std::string, std::string> check_info(lua_State* L, int idx, std::string_view what,
                                              std::string_view func);

// ---- communicators ------------------------------------------------------------------

// A communicator value is a userdata with the metatable of its class
// (§16): Intercomm, Cartcomm, Graphcomm, Distgraphcomm by topology, else
// Intracomm; these helpers accept all of them.

// Pushes a communicator userdata of c's class (nil for a null pointer);
// returns 1, the number of values pushed, for `return push_comm(L, c)`.
int push_comm(lua_State* L, core::CommPtr c);
// The communicator at idx; raises MPI_ERR_COMM if it is not one, was freed
// or is not usable (Comm::check_usable).
core::Comm& check_comm(lua_State* L, int idx, std::string_view func);
core::CommPtr check_comm_ptr(lua_State* L, int idx, std::string_view func);
// The same but for Comm::check_usable, for a call whose core function runs
// it (the sends: one check per call).
core::Comm& check_comm_handle(lua_State* L, int idx, std::string_view func);
// The communicator at idx, or nullptr if idx is not one or is a handle
// freed by c:free() (which holds no communicator any more). A handle
// another value freed (the same communicator pushed twice) still has it.
core::Comm* test_comm(lua_State* L, int idx);
// The same, shared: what keeps the communicator alive.
core::CommPtr test_comm_ptr(lua_State* L, int idx);
// After MPI_Comm_free: the handle at idx lets go of its communicator at
// once (as MPI sets it to MPI_COMM_NULL), so the C++ object does not wait
// for Lua's collector; it stays a handle of its class that prints
// "Intracomm (freed)" and raises MPI_ERR_COMM, under the error handler the
// communicator had, when used.
void release_comm(lua_State* L, int idx);
// If idx is a communicator value, sets *eh to the error handler its errors
// answer to (a freed handle keeps the one it had) and returns true.
bool comm_errhandler_at(lua_State* L, int idx, core::Errhandler* eh);
// The class name of the communicator value at idx ("Intracomm"...), or "".
std::string comm_class_at(lua_State* L, int idx);
// How many communicator owners (the finalizable userdata behind handles)
// this process has made, and how many are alive (not yet collected):
// c:free() recycles them, so a create/free loop makes only a handful
// (lumpi.host.live; tests/scenarios/soak_live.lua).
long comm_owners_made();
long comm_owners_live();
// Sets what every communicator metatable shares (__gc, __eq, __tostring and
// the mark test_comm looks for) on the table at -1 (binding.cpp).
void set_comm_metamethods(lua_State* L);

// ---- communicator classes (lua/classes.cpp) -------------------------------------------

// The registry name of the metatable of c's class ("lumpi.Cartcomm"...).
const char* comm_class_meta(const core::Comm& c);
// Moves the class-specific methods out of the Comm method table at idx
// (where every open_* below put them) into the Intracomm, Intercomm,
// Cartcomm, Graphcomm and Distgraphcomm tables, chains the tables and
// registers the values' metatables. Call after every open_*.
void open_comm_classes(lua_State* L, int idx);

// ---- requests -----------------------------------------------------------------------

// Request values are lua/bind_request.cpp's (persistent ones: lua/request.hpp).
// Pushes a request userdata (methods wait/test/cancel/free ...). With is_recv,
// its completion decodes the received message as the request's value.
void push_request(lua_State* L, std::shared_ptr<core::Request> r, bool is_recv);
// Pushes the request of a nonblocking collective operation (lua/bind_nbc.cpp;
// idup, whose push_value is null: nil), whose value, once complete,
// push_value pushes (it may raise core::Error). MPI-3.1 §5.12 forbids freeing it.
using PushValue = std::function<void(lua_State*)>;
void push_request_with(lua_State* L, std::shared_ptr<core::Request> r, PushValue push_value);

// ---- groups -------------------------------------------------------------------------

struct GroupState {
  core::group::Members members;
  bool freed = false;
};
void push_group(lua_State* L, core::group::Members m);
GroupState& check_group(lua_State* L, int idx, std::string_view func);

// ---- attributes (bind_attr.cpp) ---------------------------------------------------------

// Runs the copy callbacks of oldc's attributes (userdata at old_idx) and
// attaches the kept values to newc; throws if a callback raises, newc then
// carrying nothing.
void copy_attrs(lua_State* L, int old_idx, const core::Comm& oldc, const core::Comm& newc, const char* func);
// Runs every delete callback of c (userdata at comm_idx), newest first (as
// §8.7.1 asks for COMM_SELF at finalize), and removes its attributes.
void delete_attrs(lua_State* L, int comm_idx, const core::Comm& c, const char* func);
// Drops c's attributes without callbacks: its last Lua handle is being collected.
void forget_attrs(lua_State* L, const core::Comm& c);

// ---- module parts: each adds its functions/methods to the tables on the stack --------
// Stack on entry: mpi table at -3, Comm methods at -2, Group methods at -1.

void open_comm(lua_State* L);
void open_p2p(lua_State* L);
void open_request(lua_State* L);  // lua/bind_request.cpp: Request methods, mpi.waitall ... mpi.startall
void open_coll(lua_State* L);
void open_coll_typed(lua_State* L);  // lua/bind_coll_typed.cpp: Comm methods table at -1
void open_nbc(lua_State* L);  // lua/bind_nbc.cpp
void open_group(lua_State* L);
void open_topo(lua_State* L);
void open_hw(lua_State* L);  // mpi.hw (lua/bind_hw.cpp)
void open_win(lua_State* L);  // windows: comm:win_create, Win methods (lua/bind_win.cpp)

// The window at idx (freed or not), or nullptr if idx holds none: the
// boundary applies a window's error handler to errors of its methods.
core::Win* test_win(lua_State* L, int idx);

// Registers fns into the table at idx (a negative idx counts from the top
// as it is before the call). Each fn is already wrapped (wrap<>) by its caller.
struct Reg {
  const char* name;
  lua_CFunction fn;
};
void set_funcs(lua_State* L, std::span<const Reg> regs, int idx = -1);
// The metamethods of a kind of userdata (null: none). They run outside
// wrap<>, so they must not raise.
struct Metamethods {
  lua_CFunction gc = nullptr, eq = nullptr, tostring = nullptr;
};
// Sets mm in the metatable at -1.
void set_metamethods(lua_State* L, Metamethods mm);
// Pushes the new registry metatable `meta` of a kind of userdata, with
// __name `name` (what luaL_typename says; null keeps `meta`), mm, and
// __index a new table of `methods` unless there are none.
void new_metatable(lua_State* L, const char* meta, const char* name, Metamethods mm,
                   std::span<const Reg> methods = {});

}  // namespace lumpi::lua
