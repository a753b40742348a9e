// lua/bind_group.cpp: group methods and operators (API.md §4), all local,
// over the pure algebra of core/comm/group.
#include "core/base/constants.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {

void free_group(lua_State* L, int idx, std::string_view func);

namespace {

namespace group = core::group;
using core::ErrClass;
using core::fail;

constexpr const char* kMpiKey = "lumpi.group.mpi";  // registry: the mpi table

const group::Members& members(lua_State* L, int idx, const char* func) {
  return check_group(L, idx, func).members;
}

// Pushes mpi.GROUP_EMPTY (nil before the module is assembled).
void push_group_empty(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kMpiKey) != LUA_TTABLE) return;  // push mpi (or nil)
  lua_getfield(L, -1, "GROUP_EMPTY");
  lua_remove(L, -2);
}

// A constructor's result: an empty one is the predefined mpi.GROUP_EMPTY
// itself (seed §6.3.2), so `g == mpi.GROUP_EMPTY` and freeing it are harmless.
void push_result(lua_State* L, group::Members m) {
  if (m.empty()) {
    push_group_empty(L);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
  }
  push_group(L, std::move(m));
}

bool is_group_empty(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  push_group_empty(L);
  bool same = lua_rawequal(L, idx, -1);
  lua_pop(L, 1);
  return same;
}

int g_size(lua_State* L) {
  lua_pushinteger(L, lua_Integer(members(L, 1, "MPI_Group_size").size()));
  return 1;
}

int g_rank(lua_State* L) {
  lua_pushinteger(L, group::rank_of(members(L, 1, "MPI_Group_rank"), runtime(L).engine->world_rank()));
  return 1;
}

int g_translate_ranks(lua_State* L) {
  const char* func = "MPI_Group_translate_ranks";
  const auto& g1 = members(L, 1, func);
  auto ranks = check_int_sequence(L, 2, "ranks", func);
  const auto& g2 = members(L, 3, func);
  return push_sequence(L, group::translate(g1, ranks, g2));
}

int g_compare(lua_State* L) {
  switch (group::compare(members(L, 1, "MPI_Group_compare"), members(L, 2, "MPI_Group_compare"))) {
    case group::Relation::Ident: lua_pushliteral(L, "ident"); break;
    case group::Relation::Similar: lua_pushliteral(L, "similar"); break;
    case group::Relation::Unequal: lua_pushliteral(L, "unequal"); break;
  }
  return 1;
}

// g:union(h), g:intersection(h), g:difference(h): the group op(g, h).
using SetOp = group::Members (*)(const group::Members&, const group::Members&);
int push_set_op(lua_State* L, SetOp op, const char* func) {
  push_result(L, op(members(L, 1, func), members(L, 2, func)));
  return 1;
}
int g_union(lua_State* L) { return push_set_op(L, group::set_union, "MPI_Group_union"); }
int g_intersection(lua_State* L) { return push_set_op(L, group::intersection, "MPI_Group_intersection"); }
int g_difference(lua_State* L) { return push_set_op(L, group::difference, "MPI_Group_difference"); }

// g:incl(ranks), g:excl(ranks).
using RankOp = group::Members (*)(const group::Members&, const std::vector<int>&);
int push_rank_op(lua_State* L, RankOp op, const char* func) {
  const auto& g = members(L, 1, func);
  push_result(L, op(g, check_int_sequence(L, 2, "ranks", func)));
  return 1;
}
int g_incl(lua_State* L) { return push_rank_op(L, group::incl, "MPI_Group_incl"); }
int g_excl(lua_State* L) { return push_rank_op(L, group::excl, "MPI_Group_excl"); }

// {{first, last, stride}, ...}; stride defaults to 1.
std::vector<group::Range> check_ranges(lua_State* L, int idx, const char* func) {
  if (!lua_istable(L, idx)) fail(ErrClass::Arg, func, "ranges must be a sequence of {first, last, stride}");
  std::vector<group::Range> out;
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // push ranges[i]
    std::string what = "ranges[" + std::to_string(i) + "]";
    std::vector<int> t = check_int_sequence(L, -1, what, func);
    lua_pop(L, 1);
    if (t.size() == 2) t.push_back(1);
    if (t.size() != 3) fail(ErrClass::Arg, func, what + " must be {first, last, stride}");
    out.push_back({t[0], t[1], t[2]});
  }
  return out;
}

int g_range_incl(lua_State* L) {
  const char* f = "MPI_Group_range_incl";
  const auto& g = members(L, 1, f);
  push_result(L, group::range_incl(g, check_ranges(L, 2, f)));
  return 1;
}

int g_range_excl(lua_State* L) {
  const char* f = "MPI_Group_range_excl";
  const auto& g = members(L, 1, f);
  push_result(L, group::range_excl(g, check_ranges(L, 2, f)));
  return 1;
}

// Freeing mpi.GROUP_EMPTY is a no-op (later MPI versions allow it).
int g_free(lua_State* L) {
  check_group(L, 1, "MPI_Group_free");
  if (is_group_empty(L, 1)) return 0;
  free_group(L, 1, "MPI_Group_free");
  return 0;
}

// Members as a Lua sequence of COMM_WORLD ranks (for drawings and tests).
int g_members(lua_State* L) {
  return push_sequence(L, members(L, 1, "lumpi_group_members"));
}

int g_eq(lua_State* L) {
  lua_pushboolean(L, group::compare(members(L, 1, "MPI_Group_compare"),
                                    members(L, 2, "MPI_Group_compare")) == group::Relation::Ident);
  return 1;
}

int g_tostring(lua_State* L) {
  try {
    check_group(L, 1, "tostring");
  } catch (const core::Error&) {
    lua_pushliteral(L, "group (freed)");
    return 1;
  }
  const auto& m = members(L, 1, "tostring");
  std::string s = "group(" + std::to_string(m.size()) + ")[";
  for (size_t i = 0; i < m.size(); ++i) s += (i ? "," : "") + std::to_string(m[i]);
  lua_pushstring(L, (s + "]").c_str());
  return 1;
}

const Reg kMethods[] = {
    {"size", wrap<g_size>},
    {"rank", wrap<g_rank>},
    {"translate_ranks", wrap<g_translate_ranks>},
    {"compare", wrap<g_compare>},
    {"union", wrap<g_union>},
    {"intersection", wrap<g_intersection>},
    {"difference", wrap<g_difference>},
    {"incl", wrap<g_incl>},
    {"excl", wrap<g_excl>},
    {"range_incl", wrap<g_range_incl>},
    {"range_excl", wrap<g_range_excl>},
    {"free", wrap<g_free>},
    {"members", wrap<g_members>},
};

const Reg kOperators[] = {
    {"__add", wrap<g_union>},
    {"__mul", wrap<g_intersection>},
    {"__sub", wrap<g_difference>},
    {"__eq", wrap<g_eq>},
    {"__tostring", wrap<g_tostring>},
};

}  // namespace

void open_group(lua_State* L) {
  lua_pushvalue(L, -3);  // mpi
  lua_setfield(L, LUA_REGISTRYINDEX, kMpiKey);
  set_funcs(L, kMethods);  // Group methods are at -1
  luaL_getmetatable(L, "lumpi.Group");
  set_funcs(L, kOperators);
  lua_pop(L, 1);
}

}  // namespace lumpi::lua
