// launcher/host/lua_rank.cpp: the lumpi-rank executable: the rank host
// (launcher/host/host.hpp) running a Lua interpreter as its program.
//
// Everything Lua-specific about a rank lives here: the state and its `mpi`
// module, print/io.write/os.exit routed through the host, the count hook
// that keeps a busy Lua loop interruptible, and how each Exec mode loads,
// runs and renders a chunk. Started by the coordinator, never by a user.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <lua.hpp>
#include <malloc.h>

#include "core/base/error.hpp"
#include "launcher/host/host.hpp"
#include "lua/binding.hpp"
#include "lua/module.hpp"

namespace lumpi::launcher {
namespace {

Host* g_host = nullptr;         // one host per process; used by the C callbacks below
lua_State* g_L = nullptr;       // the rank's one Lua state

// ---- Lua callbacks ------------------------------------------------------------

// print(...): like Lua's, but the line goes to the coordinator.
int l_print(lua_State* L) {
  int n = lua_gettop(L);
  std::string line;
  for (int i = 1; i <= n; ++i) {
    size_t len;
    const char* s = luaL_tolstring(L, i, &len);  // push tostring(arg i)
    if (i > 1) line += '\t';
    line.append(s, len);
    lua_pop(L, 1);
  }
  line += '\n';
  g_host->write_output(line);
  return 0;
}

// io.write(...): strings and numbers, streamed line by line.
int l_io_write(lua_State* L) {
  int n = lua_gettop(L);
  std::string text;
  for (int i = 1; i <= n; ++i) {
    size_t len;
    const char* s = luaL_checklstring(L, i, &len);
    text.append(s, len);
  }
  g_host->write_output(text);
  lua_getglobal(L, "io");
  lua_getfield(L, -1, "stdout");  // io.write returns the default output file
  return 1;
}

// Closes the Lua state (os.exit(c, true), MPI_Abort): finalizers may print,
// and the host delivers that too before the process ends.
void close_lua() {
  if (g_L) lua_close(g_L);
  g_L = nullptr;
}

// os.exit([code [, close]]) as Lua's, except that what the rank printed or
// sent is delivered first: a bare exit() drops libzmq's queues.
int l_os_exit(lua_State* L) {
  int code = lua_isboolean(L, 1) ? (lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE)
                                 : int(luaL_optinteger(L, 1, EXIT_SUCCESS));
  core::InMpi in_mpi;  // (exit_now does not return)
  lumpi::lua::finalize(L);  // COMM_SELF's delete callbacks, as at every shutdown
  if (lua_toboolean(L, 2)) close_lua();
  g_host->exit_now(code);
}

// Every few thousand instructions: look at the control channel, and unwind
// the command if it was interrupted. Raising from a hook is allowed.
void interrupt_hook(lua_State* L, lua_Debug*) {
  {
    core::InMpi in_mpi;  // the control channel reaches the engine (interrupt, deaths, status)
    g_host->poll_control();
    if (!g_host->interrupt_pending()) return;
  }
  lumpi::lua::push_error(L, core::Error(core::ErrClass::Interrupted, "lumpi",
                                        "interrupted while running Lua code"));
  lua_error(L);
}

// lumpi.host.event(kind, fields...): a structured message to the coordinator.
int l_event(lua_State* L) {
  std::vector<std::string> fields;
  for (int i = 1; i <= lua_gettop(L); ++i) {
    size_t len;
    const char* s = luaL_tolstring(L, i, &len);  // push tostring(arg i)
    fields.emplace_back(s, len);
    lua_pop(L, 1);
  }
  g_host->send_event(std::move(fields));
  return 0;
}

// lumpi.host.live() -> {comm_owners_made=, comm_owners=, heap_in_use=,
// heap_arena=}: what this rank holds, for leak checks
// (tests/scenarios/soak_live.lua) and the soak benchmark
// (tests/bench/soak.lua): communicator owners made and alive
// (lua/binding.hpp), and malloc's bytes in use and obtained from the
// system (mallinfo2, all arenas).
int l_live(lua_State* L) {
  struct mallinfo2 m = mallinfo2();
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, lumpi::lua::comm_owners_made());
  lua_setfield(L, -2, "comm_owners_made");
  lua_pushinteger(L, lumpi::lua::comm_owners_live());
  lua_setfield(L, -2, "comm_owners");
  lua_pushinteger(L, lua_Integer(m.uordblks + m.hblkhd));
  lua_setfield(L, -2, "heap_in_use");
  lua_pushinteger(L, lua_Integer(m.arena + m.hblkhd));
  lua_setfield(L, -2, "heap_arena");
  return 1;
}

int open_host(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, l_live);
  lua_setfield(L, -2, "live");
  lua_pushcfunction(L, l_event);
  lua_setfield(L, -2, "event");
  return 1;
}

void runtime_abort(int code, const std::string& why) {
  close_lua();
  g_host->abort(code, why);
}

// Pushes render.values, compiled once per rank and kept in the registry:
// compiling the module costs ~90 µs, more than all the rest of a REPL round
// trip on a rank (tests/bench/README.md).
void push_render_values(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, "lumpi.render.values") == LUA_TFUNCTION) return;
  lua_pop(L, 1);
  lumpi::lua::load_embedded(L, "render");  // push chunk
  lua_call(L, 0, 1);                       // push the render module
  lua_getfield(L, -1, "values");           // push render.values
  lua_remove(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "lumpi.render.values");
}

// Message handler of the command's pcall: keeps error objects, adds nothing.
int message_handler(lua_State*) { return 1; }

// ---- loading a command ------------------------------------------------------------

// Compiles `code` as a chunk named `name`; pushes the function or the error.
int load(lua_State* L, const std::string& code, const char* name) {
  return luaL_loadbuffer(L, code.data(), code.size(), name);
}

// Does the syntax error on top of the stack end at <eof> (the lua.c rule)?
bool error_at_eof(lua_State* L) {
  size_t len;
  const char* msg = lua_tolstring(L, -1, &len);
  std::string_view m(msg ? msg : "", msg ? len : 0);
  return m.ends_with("<eof>");
}

// Check mode: compiles only. "expression", "statement", "incomplete", or
// the syntax error (ok = false).
CommandResult check_chunk(lua_State* L, const std::string& code) {
  int top = lua_gettop(L);
  CommandResult r;
  if (load(L, "return (" + code + "\n)", "=expr") == LUA_OK) r.text = "expression";
  else if (lua_pop(L, 1); load(L, "return " + code, "=stdin") == LUA_OK) r.text = "statement";
  else if (lua_pop(L, 1); load(L, code, "=stdin") == LUA_OK) r.text = "statement";
  else if (error_at_eof(L)) r.text = "incomplete";
  else r = {false, lua_tostring(L, -1), false};
  lua_settop(L, top);
  return r;
}

// Script mode: pushes the file's chunk and its arguments (also as the global
// `arg`, {[0] = script, ...}); returns the load status and *nargs.
int load_script(lua_State* L, const ControlMsg& exec, int* nargs) {
  int st = luaL_loadfile(L, exec.text.c_str());
  if (st != LUA_OK) return st;
  lua_createtable(L, int(exec.list.size()), 1);
  lua_pushstring(L, exec.text.c_str());
  lua_rawseti(L, -2, 0);
  for (size_t i = 0; i < exec.list.size(); ++i) {
    lua_pushstring(L, exec.list[i].c_str());
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  lua_setglobal(L, "arg");
  for (const auto& a : exec.list) lua_pushstring(L, a.c_str());
  *nargs = int(exec.list.size());
  return LUA_OK;
}

// Repl and Text modes: `return CODE` first, so an expression's values come back.
int load_chunk(lua_State* L, const std::string& code) {
  if (load(L, "return " + code, "=stdin") == LUA_OK) return LUA_OK;
  lua_pop(L, 1);
  return load(L, code, "=stdin");
}

// ---- the program --------------------------------------------------------------------

class LuaProgram final : public CommandRunner {
 public:
  explicit LuaProgram(Host& host) {
    rt_.engine = &host.engine();
    rt_.world = host.world();
    rt_.self = host.self();
    rt_.abort = runtime_abort;
    core::set_fatal_sink(runtime_abort);  // ERRORS_ARE_FATAL: as comm:abort, Lua closed first
    g_L = open_state(&rt_);
  }
  ~LuaProgram() override { close_lua(); }

  // The rank is shutting down (end of the program, :quit, :restart):
  // COMM_SELF's attributes go first (MPI-3.1 §8.7.1).
  void shutdown() override {
    if (g_L) lua::finalize(g_L);
  }

  CommandResult run(const ControlMsg& exec) override {
    lua_State* L = g_L;
    if (exec.mode == Mode::Check) return check_chunk(L, exec.text);
    int base = lua_gettop(L);
    lua_pushcfunction(L, message_handler);
    int nargs = 0;
    int st = exec.mode == Mode::Script ? load_script(L, exec, &nargs) : load_chunk(L, exec.text);
    // lua.c's rule: a chunk whose syntax error is at <eof> wants more lines
    bool incomplete = st == LUA_ERRSYNTAX && exec.mode == Mode::Repl && error_at_eof(L);
    if (st == LUA_OK) st = lua_pcall(L, nargs, LUA_MULTRET, base + 1);
    CommandResult r = st == LUA_OK ? results(L, base, exec.mode) : error_result(L);
    r.incomplete = incomplete;
    lua_settop(L, base);
    return r;
  }

 private:
  static lua_State* open_state(lua::Runtime* rt) {
    lua_State* L = luaL_newstate();
    // Generational GC: a received value is usually garbage by the next
    // message, and minor collections hand its memory back while still in
    // cache. The incremental default lets garbage pile up to the size of the
    // live heap first; with a few MiB live, a 64 KiB ping-pong ran 10-25 %
    // slower (tests/bench/README.md).
    lua_gc(L, LUA_GCGEN, 0, 0);
    luaL_openlibs(L);
    lua::open_mpi(L, rt);
    lua_register(L, "print", l_print);
    lua_getglobal(L, "io");
    lua_pushcfunction(L, l_io_write);
    lua_setfield(L, -2, "write");  // io.write = ours, pop
    lua_pop(L, 1);
    lua_getglobal(L, "os");
    lua_pushcfunction(L, l_os_exit);
    lua_setfield(L, -2, "exit");  // os.exit = ours, pop
    lua_pop(L, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);  // push package.preload
    lua_pushcfunction(L, open_host);
    lua_setfield(L, -2, "lumpi.host");
    lua_pop(L, 1);
    lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, 20000);
    return L;
  }

  // The values above base + 1 (the message handler): Text gives the first
  // as tostring shows it, Repl renders them all, Script gives nothing.
  static CommandResult results(lua_State* L, int base, Mode mode) {
    CommandResult r;
    int nres = lua_gettop(L) - (base + 1);
    if (nres > 0 && mode == Mode::Text) {
      size_t len;
      const char* s = luaL_tolstring(L, base + 2, &len);  // push tostring(first result)
      r.text.assign(s, len);
      r.values = true;
    } else if (nres > 0 && mode == Mode::Repl) {
      push_render_values(L);
      lua_insert(L, base + 2);  // below the results
      if (lua_pcall(L, nres, 1, 0) == LUA_OK && lua_isstring(L, -1)) {
        r.text = lua_tostring(L, -1);
        r.values = true;
      }
    }
    return r;
  }

  static CommandResult error_result(lua_State* L) {
    size_t len;
    const char* s = luaL_tolstring(L, -1, &len);  // honours the error object's __tostring
    return {false, std::string(s, len), false};
  }

  lua::Runtime rt_;
};

}  // namespace
}  // namespace lumpi::launcher

int main() {
  using namespace lumpi::launcher;
  try {
    Host& host = Host::join();
    g_host = &host;
    host.engine().enable_passive_progress();  // this thread enters MPI through lua/binding.hpp's wrap
    host.set_busy_text("running Lua code");
    LuaProgram program(host);
    return host.serve(program);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi-rank: %s\n", e.what());
    return 70;
  }
}
