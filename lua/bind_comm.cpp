// lua/bind_comm.cpp: communicator accessors (all local), names, info hints
// and error handlers. Constructors and free live in bind_comm_create.cpp,
// attributes in bind_attr.cpp, traffic in bind_p2p/bind_coll.
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {

void open_comm_create(lua_State* L);
void open_attr(lua_State* L);

namespace {

using core::ErrClass;
using core::fail;

int c_size(lua_State* L) {
  lua_pushinteger(L, check_comm(L, 1, "MPI_Comm_size").size());
  return 1;
}

int c_rank(lua_State* L) {
  lua_pushinteger(L, check_comm(L, 1, "MPI_Comm_rank").rank());
  return 1;
}

int c_group(lua_State* L) {
  push_group(L, check_comm(L, 1, "MPI_Comm_group").local_group());
  return 1;
}

int c_test_inter(lua_State* L) {
  lua_pushboolean(L, check_comm(L, 1, "MPI_Comm_test_inter").is_inter());
  return 1;
}

core::Comm& check_inter(lua_State* L, const char* func) {
  core::Comm& c = check_comm(L, 1, func);
  if (!c.is_inter()) fail(ErrClass::Comm, func, "the communicator is not an intercommunicator");
  return c;
}

int c_remote_size(lua_State* L) {
  lua_pushinteger(L, check_inter(L, "MPI_Comm_remote_size").remote_size());
  return 1;
}

int c_remote_group(lua_State* L) {
  push_group(L, check_inter(L, "MPI_Comm_remote_group").remote_group());
  return 1;
}

// c:compare(c2): "ident" only for the same communicator object.
int c_compare(lua_State* L) {
  const char* func = "MPI_Comm_compare";
  core::Comm& a = check_comm(L, 1, func);
  core::Comm& b = check_comm(L, 2, func);
  lua_pushstring(L, core::relation_name(core::comm_compare(a, b)));
  return 1;
}

int c_topo_test(lua_State* L) {
  const auto& t = check_comm(L, 1, "MPI_Topo_test").topology();
  if (!t) lua_pushinteger(L, core::UNDEFINED);
  else if (t->kind == core::Topology::Kind::Cart) lua_pushliteral(L, "cart");
  else if (t->kind == core::Topology::Kind::Graph) lua_pushliteral(L, "graph");
  else lua_pushliteral(L, "dist_graph");
  return 1;
}

int c_get_name(lua_State* L) {
  const std::string& n = check_comm(L, 1, "MPI_Comm_get_name").name();
  lua_pushlstring(L, n.data(), n.size());
  return 1;
}

// The name as core::object_name keeps it (seed §6.8). Local only.
int c_set_name(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Comm_set_name");
  c.set_name(core::object_name(check_string(L, 2, "name", "MPI_Comm_set_name")));
  return 0;
}

// Every hint this implementation uses, with its current or default value.
int c_get_info(lua_State* L) {
  core::Hints h = core::hints_used(check_comm(L, 1, "MPI_Comm_get_info"));
  lua_createtable(L, 0, int(h.size()));
  for (const auto& [k, v] : h) {
    lua_pushlstring(L, v.data(), v.size());
    lua_setfield(L, -2, k.c_str());  // t[k] = v, pop
  }
  return 1;
}

// Sets string hints; keys this implementation does not use are ignored
// (seed §6.4.4) and hints not in the table keep their values.
int c_set_info(lua_State* L) {
  const char* func = "MPI_Comm_set_info";
  core::Comm& c = check_comm(L, 1, func);
  if (!lua_istable(L, 2)) fail(ErrClass::Info, func, std::string("info must be a table of strings, got ") + luaL_typename(L, 2));
  core::set_hints(c, check_info(L, 2, "info", func));
  return 0;
}

int c_abort(lua_State* L) {
  check_comm(L, 1, "MPI_Abort");
  lua_Integer code = opt_integer(L, 2, 1, "errorcode", "MPI_Abort");
  runtime(L).abort(int(code), "MPI_Abort called with error code " + std::to_string(code));
  return 0;
}

const Reg kMethods[] = {
    {"size", wrap<c_size>},
    {"rank", wrap<c_rank>},
    {"group", wrap<c_group>},
    {"compare", wrap<c_compare>},
    {"test_inter", wrap<c_test_inter>},
    {"remote_size", wrap<c_remote_size>},
    {"remote_group", wrap<c_remote_group>},
    {"topo_test", wrap<c_topo_test>},
    {"get_name", wrap<c_get_name>},
    {"set_name", wrap<c_set_name>},
    {"get_info", wrap<c_get_info>},
    {"set_info", wrap<c_set_info>},
    {"abort", wrap<c_abort>},
};

}  // namespace

void open_comm(lua_State* L) {
  set_funcs(L, kMethods, -2);  // Comm methods
  open_comm_create(L);
  open_attr(L);
}

}  // namespace lumpi::lua
