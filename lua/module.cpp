// lua/module.cpp: the `mpi` table: constants, module-level functions, and
// the assembly of the per-class method tables from the bind_*.cpp files;
// also the global `help` (lua/lumpi/help.lua, loaded on first use).
#include "lua/module.hpp"

#include <chrono>
#include <cstring>

#include "core/base/constants.hpp"
#include "core/base/hw.hpp"
#include "lua/embedded.hpp"

namespace lumpi::lua {

void set_runtime(lua_State* L, Runtime* rt);
void open_metatables(lua_State* L);
void open_datatype(lua_State* L);  // lua/bind_datatype.cpp: mpi.INT, mpi.type_*, ...
// lua/classes.cpp: a missing method of a Group, Request, Op, Datatype, Win,
// Errhandler or Keyval says "no method 'fance' on Win; did you mean fence?",
// as a communicator's does.
void name_missing_methods(lua_State* L);
void open_buffer(lua_State* L);    // lua/bind_buffer.cpp: mpi.buffer, statuses

namespace {

using core::ErrClass;

int l_rank(lua_State* L) {
  lua_pushinteger(L, runtime(L).world->rank());
  return 1;
}

int l_size(lua_State* L) {
  lua_pushinteger(L, runtime(L).world->size());
  return 1;
}

int l_wtime(lua_State* L) {
  using namespace std::chrono;
  auto t = steady_clock::now().time_since_epoch();
  lua_pushnumber(L, duration<double>(t).count());
  return 1;
}

int l_wtick(lua_State* L) {
  lua_pushnumber(L, 1e-9);
  return 1;
}

int l_get_processor_name(lua_State* L) {
  lua_pushstring(L, core::hw::hostname().c_str());
  return 1;
}

// mpi.get_version() -> 3, 1: the MPI version the binding follows.
int l_get_version(lua_State* L) {
  lua_pushinteger(L, core::kMpiVersion);
  lua_pushinteger(L, core::kMpiSubversion);
  return 2;
}

const Reg kModuleFuncs[] = {
    {"rank", wrap<l_rank>},
    {"size", wrap<l_size>},
    {"wtime", wrap<l_wtime>},
    {"wtick", wrap<l_wtick>},
    {"get_processor_name", wrap<l_get_processor_name>},
    {"get_version", wrap<l_get_version>},
};

void set_constants(lua_State* L) {
  const std::pair<const char*, int> ints[] = {
      {"PROC_NULL", core::PROC_NULL}, {"ANY_SOURCE", core::ANY_SOURCE}, {"ANY_TAG", core::ANY_TAG},
      {"ROOT", core::ROOT}, {"UNDEFINED", core::UNDEFINED}, {"MAX_OBJECT_NAME", core::MAX_OBJECT_NAME},
      {"MAX_PROCESSOR_NAME", core::MAX_PROCESSOR_NAME}, {"MAX_INFO_KEY", core::MAX_INFO_KEY},
      {"MAX_INFO_VAL", core::MAX_INFO_VAL}};
  for (auto [name, v] : ints) set_int(L, name, v);
  const std::pair<const char*, const char*> strings[] = {
      {"IDENT", "ident"}, {"CONGRUENT", "congruent"}, {"SIMILAR", "similar"}, {"UNEQUAL", "unequal"},
      {"CART", "cart"}, {"GRAPH", "graph"}, {"DIST_GRAPH", "dist_graph"},
      {"COMM_TYPE_SHARED", "shared"}, {"COMM_TYPE_HW_DOMAIN", "hw_domain"},
      {"COMM_TYPE_HW_GUIDED", "hw_guided"}, {"COMM_TYPE_HW_UNGUIDED", "hw_unguided"},
      {"HW_DOMAIN_TYPE", "mpi_hw_domain_type"},
      {"ERRORS_RAISE", "errors_raise"}, {"ERRORS_RETURN", "errors_return"},
      {"ERRORS_ARE_FATAL", "errors_are_fatal"}};
  for (auto [name, v] : strings) set_string(L, name, v);
}

// package.searchers entry that finds "lumpi.NAME" among the embedded sources.
int embedded_searcher(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  if (std::strncmp(name, "lumpi.", 6) != 0 || !load_embedded(L, name + 6)) {
    lua_pushfstring(L, "no embedded module '%s'", name);
    return 1;
  }
  lua_pushstring(L, name);  // the loader's extra argument
  return 2;
}

// The global help(x): require("lumpi.help").help(x), loaded on first call
// so that a rank that never asks pays nothing.
void add_help(lua_State* L) {
  static const char kHelp[] = "help = function(...) return require('lumpi.help').help(...) end";
  if (luaL_loadbuffer(L, kHelp, sizeof kHelp - 1, "=lumpi.help") == LUA_OK) lua_call(L, 0, 0);
  else lua_pop(L, 1);
}

void add_searcher(lua_State* L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "searchers");  // push package.searchers
  lua_pushcfunction(L, embedded_searcher);
  lua_rawseti(L, -2, 2);  // searchers[2] = ours (before the file searchers), pop
  lua_pop(L, 2);
}

}  // namespace

bool load_embedded(lua_State* L, const char* name) {
  for (const EmbeddedFile* f = kEmbedded; f->name; ++f) {
    if (std::strcmp(f->name, name) != 0) continue;
    std::string chunk = std::string("=lumpi.") + name;
    return luaL_loadbuffer(L, f->source, std::strlen(f->source), chunk.c_str()) == LUA_OK;
  }
  return false;
}

void open_mpi(lua_State* L, Runtime* rt) {
  set_runtime(L, rt);
  lua_newtable(L);     // mpi
  open_metatables(L);  // push Comm methods, Group methods
  lua_pushvalue(L, -3);
  set_funcs(L, kModuleFuncs);
  set_constants(L);
  open_datatype(L);
  open_buffer(L);
  lua_pop(L, 1);
  open_comm(L);
  open_p2p(L);
  open_request(L);
  open_coll(L);
  lua_pushvalue(L, -2);  // Comm methods
  open_coll_typed(L);    // typed-buffer forms beside open_coll's value forms
  lua_pop(L, 1);
  open_nbc(L);
  open_group(L);
  open_topo(L);
  open_hw(L);
  open_errh(L);
  open_win(L);
  open_comm_classes(L, -2);
  lua_pop(L, 2);  // the method tables
  name_missing_methods(L);
  push_comm(L, rt->world);
  lua_setfield(L, -2, "COMM_WORLD");
  push_comm(L, rt->self);
  lua_setfield(L, -2, "COMM_SELF");
  push_group(L, {});
  lua_setfield(L, -2, "GROUP_EMPTY");
  lua_setglobal(L, "mpi");  // pops mpi
  add_searcher(L);
  add_help(L);
}

}  // namespace lumpi::lua
