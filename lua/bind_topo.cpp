// lua/bind_topo.cpp: process topologies in Lua (API.md §9): the topology
// constructors and queries as Comm methods, mpi.dims_create, the
// neighbourhood collectives, blocking (c:neighbor_allgather ...) and
// nonblocking (c:ineighbor_allgather ..., returning a request whose wait
// gives what the blocking form returns), and the sentinels mpi.UNWEIGHTED
// and mpi.WEIGHTS_EMPTY.
//
// lua/classes.cpp puts each method on its class (Cartcomm, Graphcomm,
// Distgraphcomm; constructors and the map functions on Intracomm), but a
// method can still be called as a plain function on any communicator, so
// each checks the kind of topology itself (core::cart_of & co.) and raises
// MPI_ERR_TOPOLOGY on the wrong kind or on an intercommunicator. Conventions: ranks, coordinates and
// directions are MPI's 0-based numbers; sequences are 1-based (dims[1] is
// dimension 0); a zero-dimensional grid takes nil or {} for dims, periods,
// coords and remain_dims and answers {}.
#include <algorithm>
#include <map>

#include "core/base/constants.hpp"
#include "core/coll/nbc.hpp"
#include "core/topo/topo.hpp"
#include "core/topo/topo_comm.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"
#include "lua/coll_args.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;

constexpr const char* kSentinelMeta = "lumpi.Sentinel";
constexpr const char* kUnweightedKey = "lumpi.UNWEIGHTED";
constexpr const char* kWeightsEmptyKey = "lumpi.WEIGHTS_EMPTY";

// ---- argument helpers ----------------------------------------------------------------

std::vector<int> opt_int_sequence(lua_State* L, int idx, std::string_view what,
                                  std::string_view func) {
  if (lua_isnoneornil(L, idx)) return {};
  return check_int_sequence(L, idx, what, func);
}

// periods: a sequence of booleans, all false when nil.
std::vector<bool> opt_periods(lua_State* L, int idx, size_t ndims, std::string_view func) {
  if (lua_isnoneornil(L, idx)) return std::vector<bool>(ndims, false);
  return check_bool_sequence(L, idx, "periods", func);
}

core::topo::Cart check_cart_args(lua_State* L, int dims_idx, std::string_view func) {
  core::topo::Cart cart;
  cart.dims = opt_int_sequence(L, dims_idx, "dims", func);
  cart.periods = opt_periods(L, dims_idx + 1, cart.dims.size(), func);
  return cart;
}

core::topo::Graph check_graph_args(lua_State* L, int index_idx, std::string_view func) {
  core::topo::Graph g;
  g.index = opt_int_sequence(L, index_idx, "index", func);
  g.edges = opt_int_sequence(L, index_idx + 1, "edges", func);
  return g;
}

bool is_sentinel(lua_State* L, int idx, const char* key) {
  idx = lua_absindex(L, idx);
  lua_getfield(L, LUA_REGISTRYINDEX, key);  // push the sentinel
  const bool same = lua_rawequal(L, idx, -1);
  lua_pop(L, 1);
  return same;
}

// A weights argument: nil or mpi.UNWEIGHTED mean unweighted (false);
// mpi.WEIGHTS_EMPTY is weighted with no weights; otherwise a sequence.
bool check_weights(lua_State* L, int idx, std::string_view what, std::string_view func,
                   std::vector<int>& out) {
  idx = lua_absindex(L, idx);
  out.clear();
  if (lua_isnoneornil(L, idx) || is_sentinel(L, idx, kUnweightedKey)) return false;
  if (is_sentinel(L, idx, kWeightsEmptyKey)) return true;
  out = check_int_sequence(L, idx, what, func);
  return true;
}

// Checks that the options table at idx has only the given keys, so that a
// misspelt option is an error rather than silently ignored.
void check_option_keys(lua_State* L, int idx, std::initializer_list<std::string_view> keys,
                       std::string_view func) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {  // stack: key value
    lua_pop(L, 1);            // keep the key for lua_next
    const bool known = lua_type(L, -1) == LUA_TSTRING &&
                       std::find(keys.begin(), keys.end(), lua_tostring(L, -1)) != keys.end();
    if (!known) {
      const std::string name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
      lua_pop(L, 1);
      fail(ErrClass::Arg, func, "unknown option '" + name + "' in opts");
    }
  }
}

// Reads opts at idx (nil or a table): reorder, info, and the weight fields
// named in `weight_keys` through `read_weights`, called with the field on top.
template <typename ReadWeights>
core::DistGraphOptions check_dist_opts(lua_State* L, int idx,
                                       std::initializer_list<std::string_view> keys,
                                       std::string_view func, ReadWeights read_weights) {
  core::DistGraphOptions opts;
  if (lua_isnoneornil(L, idx)) {
    lua_pushnil(L);
    read_weights(lua_gettop(L));  // every weight field absent
    lua_pop(L, 1);
    return opts;
  }
  if (!lua_istable(L, idx)) fail(ErrClass::Arg, func, "opts must be a table");
  check_option_keys(L, idx, keys, func);
  lua_getfield(L, idx, "reorder");  // push opts.reorder
  opts.reorder = opt_boolean(L, -1, false, "opts.reorder", func);
  lua_getfield(L, idx, "info");  // push opts.info
  opts.info = check_info(L, lua_gettop(L), "opts.info", func);
  lua_pop(L, 2);
  read_weights(idx);
  return opts;
}

// ---- constructors ------------------------------------------------------------------------

// c:cart_create(dims, periods, reorder) -> cart comm or nil
int c_cart_create(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_create";
  core::Comm& c = check_comm(L, 1, func);
  core::topo::Cart cart = check_cart_args(L, 2, func);
  const bool reorder = opt_boolean(L, 4, false, "reorder", func);
  return push_comm(L, core::cart_create(c, cart, reorder));
}

// c:graph_create(index, edges, reorder) -> graph comm or nil
int c_graph_create(lua_State* L) {
  constexpr std::string_view func = "MPI_Graph_create";
  core::Comm& c = check_comm(L, 1, func);
  core::topo::Graph g = check_graph_args(L, 2, func);
  const bool reorder = opt_boolean(L, 4, false, "reorder", func);
  return push_comm(L, core::graph_create(c, g, reorder));
}

// c:dist_graph_create_adjacent(sources, destinations, opts)
int c_dist_graph_create_adjacent(lua_State* L) {
  constexpr std::string_view func = "MPI_Dist_graph_create_adjacent";
  core::Comm& c = check_comm(L, 1, func);
  core::topo::DistGraph d;
  d.sources = opt_int_sequence(L, 2, "sources", func);
  d.destinations = opt_int_sequence(L, 3, "destinations", func);
  const auto opts = check_dist_opts(
      L, 4, {"sourceweights", "destweights", "info", "reorder"}, func, [&](int opts_idx) {
        const bool absent = lua_isnil(L, opts_idx);
        if (!absent) lua_getfield(L, opts_idx, "sourceweights");  // push
        else lua_pushnil(L);
        const bool ws = check_weights(L, -1, "sourceweights", func, d.sourceweights);
        if (!absent) lua_getfield(L, opts_idx, "destweights");  // push
        else lua_pushnil(L);
        const bool wd = check_weights(L, -1, "destweights", func, d.destweights);
        lua_pop(L, 2);
        d.weighted = core::topo::weighted_alike(ws, wd, func, "mpi.UNWEIGHTED");
      });
  return push_comm(L, core::dist_graph_create_adjacent(c, d, opts));
}

// c:dist_graph_create(sources, degrees, destinations, opts)
int c_dist_graph_create(lua_State* L) {
  constexpr std::string_view func = "MPI_Dist_graph_create";
  core::Comm& c = check_comm(L, 1, func);
  core::topo::DistGraphSpec s;
  s.sources = opt_int_sequence(L, 2, "sources", func);
  s.degrees = opt_int_sequence(L, 3, "degrees", func);
  s.destinations = opt_int_sequence(L, 4, "destinations", func);
  const auto opts =
      check_dist_opts(L, 5, {"weights", "info", "reorder"}, func, [&](int opts_idx) {
        if (!lua_isnil(L, opts_idx)) lua_getfield(L, opts_idx, "weights");  // push
        else lua_pushnil(L);
        s.weighted = check_weights(L, -1, "weights", func, s.weights);
        lua_pop(L, 1);
      });
  return push_comm(L, core::dist_graph_create(c, s, opts));
}

// c:cart_sub(remain_dims) -> the caller's sub-grid (never nil)
int c_cart_sub(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_sub";
  core::Comm& c = check_comm(L, 1, func);
  // A zero-dimensional grid never reads remain_dims (ballot 10.a).
  std::vector<bool> remain;
  if (!core::cart_of(c, func).dims.empty()) {
    if (lua_isnoneornil(L, 2)) fail(ErrClass::Arg, func, "remain_dims is required");
    remain = check_bool_sequence(L, 2, "remain_dims", func);
  }
  return push_comm(L, core::cart_sub(c, remain));
}

// c:cart_map(dims, periods) -> newrank or mpi.UNDEFINED (local)
int c_cart_map(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_map";
  core::Comm& c = check_comm(L, 1, func);
  lua_pushinteger(L, core::cart_map(c, check_cart_args(L, 2, func)));
  return 1;
}

// c:graph_map(index, edges) -> newrank or mpi.UNDEFINED (local)
int c_graph_map(lua_State* L) {
  constexpr std::string_view func = "MPI_Graph_map";
  core::Comm& c = check_comm(L, 1, func);
  lua_pushinteger(L, core::graph_map(c, check_graph_args(L, 2, func)));
  return 1;
}

// ---- Cartesian queries (local) ----------------------------------------------------------------

int c_cartdim_get(lua_State* L) {
  constexpr std::string_view func = "MPI_Cartdim_get";
  lua_pushinteger(L, lua_Integer(core::cart_of(check_comm(L, 1, func), func).dims.size()));
  return 1;
}

// -> dims, periods, coords ({} each for zero dimensions)
int c_cart_get(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_get";
  core::Comm& c = check_comm(L, 1, func);
  const core::topo::Cart& cart = core::cart_of(c, func);
  push_sequence(L, cart.dims);
  push_sequence(L, cart.periods);
  push_sequence(L, core::topo::cart_coords(cart, c.rank(), func));
  return 3;
}

int c_cart_rank(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_rank";
  const core::topo::Cart& cart = core::cart_of(check_comm(L, 1, func), func);
  // Zero dimensions: coords is not significant (ballot 10.b).
  std::vector<int> coords;
  if (!cart.dims.empty()) coords = check_int_sequence(L, 2, "coords", func);
  lua_pushinteger(L, core::topo::cart_rank(cart, coords, func));
  return 1;
}

int c_cart_coords(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_coords";
  const core::topo::Cart& cart = core::cart_of(check_comm(L, 1, func), func);
  const int rank = check_int(L, 2, "rank", func);
  return push_sequence(L, core::topo::cart_coords(cart, rank, func));
}

// -> source, dest
int c_cart_shift(lua_State* L) {
  constexpr std::string_view func = "MPI_Cart_shift";
  core::Comm& c = check_comm(L, 1, func);
  const core::topo::Cart& cart = core::cart_of(c, func);
  const int direction = check_int(L, 2, "direction", func);
  const int disp = check_int(L, 3, "disp", func);
  const auto [source, dest] = core::topo::cart_shift(cart, c.rank(), direction, disp, func);
  lua_pushinteger(L, source);
  lua_pushinteger(L, dest);
  return 2;
}

// ---- graph queries (local) ------------------------------------------------------------------

// -> nnodes, nedges
int c_graphdims_get(lua_State* L) {
  constexpr std::string_view func = "MPI_Graphdims_get";
  const core::topo::Graph& g = core::graph_of(check_comm(L, 1, func), func);
  lua_pushinteger(L, g.nnodes());
  lua_pushinteger(L, g.nedges());
  return 2;
}

// -> index, edges
int c_graph_get(lua_State* L) {
  constexpr std::string_view func = "MPI_Graph_get";
  const core::topo::Graph& g = core::graph_of(check_comm(L, 1, func), func);
  push_sequence(L, g.index);
  push_sequence(L, g.edges);
  return 2;
}

int c_graph_neighbors_count(lua_State* L) {
  constexpr std::string_view func = "MPI_Graph_neighbors_count";
  const core::topo::Graph& g = core::graph_of(check_comm(L, 1, func), func);
  lua_pushinteger(L, core::topo::graph_neighbors_count(g, check_int(L, 2, "rank", func), func));
  return 1;
}

int c_graph_neighbors(lua_State* L) {
  constexpr std::string_view func = "MPI_Graph_neighbors";
  const core::topo::Graph& g = core::graph_of(check_comm(L, 1, func), func);
  return push_sequence(L, core::topo::graph_neighbors(g, check_int(L, 2, "rank", func), func));
}

// ---- distributed-graph queries (local) --------------------------------------------------------

// -> indegree, outdegree, weighted
int c_dist_graph_neighbors_count(lua_State* L) {
  constexpr std::string_view func = "MPI_Dist_graph_neighbors_count";
  const core::topo::DistGraph& d = core::dist_graph_of(check_comm(L, 1, func), func);
  lua_pushinteger(L, lua_Integer(d.sources.size()));
  lua_pushinteger(L, lua_Integer(d.destinations.size()));
  lua_pushboolean(L, d.weighted);
  return 3;
}

// -> sources, sourceweights, destinations, destweights (weights nil when unweighted)
int c_dist_graph_neighbors(lua_State* L) {
  constexpr std::string_view func = "MPI_Dist_graph_neighbors";
  const core::topo::DistGraph& d = core::dist_graph_of(check_comm(L, 1, func), func);
  push_sequence(L, d.sources);
  if (d.weighted) push_sequence(L, d.sourceweights);
  else lua_pushnil(L);
  push_sequence(L, d.destinations);
  if (d.weighted) push_sequence(L, d.destweights);
  else lua_pushnil(L);
  return 4;
}

// ---- neighbourhood collectives -------------------------------------------------------------------

// Pushes one entry per in-neighbour; nil where the neighbour is PROC_NULL.
void push_blocks(lua_State* L, const core::Blocks& blocks) {
  lua_createtable(L, int(blocks.size()), 0);
  for (size_t k = 0; k < blocks.size(); ++k) {
    if (!blocks[k]) continue;
    decode(L, *blocks[k]);
    lua_rawseti(L, -2, lua_Integer(k + 1));  // t[k+1] = value, pop
  }
}

// c:neighbor_allgather(value) -> one value per in-neighbour
int c_neighbor_allgather(lua_State* L) {
  constexpr std::string_view func = "MPI_Neighbor_allgather";
  core::Comm& c = check_comm(L, 1, func);
  core::neighbors_of(c, func);  // the topology check comes before encoding
  push_blocks(L, core::neighbor_allgather(c, encode(L, 2, func)));
  return 1;
}

// The values at idx of c:(i)neighbor_alltoall, one per out-neighbour (nil
// entries, and missing ones at the end, are sent as nil).
std::vector<std::string> neighbor_values(lua_State* L, int idx, size_t outdegree, std::string_view func) {
  if (!lua_istable(L, idx)) fail(ErrClass::Arg, func, "values must be a sequence");
  const size_t given = lua_rawlen(L, idx);
  if (given > outdegree)
    fail(ErrClass::Arg, func,
         "values has " + std::to_string(given) + " entries but the process has " +
             std::to_string(outdegree) + " out-neighbours");
  std::vector<std::string> blocks(outdegree);
  for (size_t k = 0; k < outdegree; ++k) {
    lua_rawgeti(L, idx, lua_Integer(k + 1));  // push values[k+1]
    const std::string path = "values[" + std::to_string(k + 1) + "]";
    blocks[k] = encode(L, -1, func, path);
    lua_pop(L, 1);
  }
  return blocks;
}

// c:neighbor_alltoall(values) -> one value per in-neighbour; values[k] goes
// to out-neighbour k.
int c_neighbor_alltoall(lua_State* L) {
  constexpr std::string_view func = "MPI_Neighbor_alltoall";
  core::Comm& c = check_comm(L, 1, func);
  const size_t outdegree = core::neighbors_of(c, func).out.size();
  push_blocks(L, core::neighbor_alltoall(c, neighbor_values(L, 2, outdegree, func)));
  return 1;
}

// The request of a started neighbourhood collective: its value is one
// entry per in-neighbour, nil for PROC_NULL (as push_blocks).
int push_neighbor_request(lua_State* L, core::nbc::Started s, std::vector<int> in) {
  std::shared_ptr<core::nbc::Out> out = s.out;
  push_request_with(L, std::move(s.request), [out, in = std::move(in)](lua_State* L) {
    core::Blocks blocks(in.size());
    for (size_t k = 0; k < in.size() && k < out->parts.size(); ++k)
      if (in[k] != core::PROC_NULL) blocks[k] = out->parts[k];
    push_blocks(L, blocks);
  });
  return 1;
}

// c:ineighbor_allgather(value) -> request; wait: one value per in-neighbour
int c_ineighbor_allgather(lua_State* L) {
  constexpr const char* func = "MPI_Ineighbor_allgather";
  coll_comm(L, func);  // not inside a user op's function
  core::CommPtr c = check_comm_ptr(L, 1, func);
  core::Neighbors n = core::neighbors_of(*c, func);
  return push_neighbor_request(L, core::nbc::ineighbor_allgather(c, encode(L, 2, func)), std::move(n.in));
}

// c:ineighbor_alltoall(values) -> request; wait: one value per in-neighbour
int c_ineighbor_alltoall(lua_State* L) {
  constexpr const char* func = "MPI_Ineighbor_alltoall";
  coll_comm(L, func);  // not inside a user op's function
  core::CommPtr c = check_comm_ptr(L, 1, func);
  core::Neighbors n = core::neighbors_of(*c, func);
  std::vector<std::string> values = neighbor_values(L, 2, n.out.size(), func);
  return push_neighbor_request(L, core::nbc::ineighbor_alltoall(c, std::move(values), {}, func), std::move(n.in));
}

// ---- mpi.dims_create ------------------------------------------------------------------------------

// mpi.dims_create(nnodes, dims | ndims) -> a new sequence
int l_dims_create(lua_State* L) {
  constexpr std::string_view func = "MPI_Dims_create";
  const int nnodes = check_int(L, 1, "nnodes", func);
  std::vector<int> dims;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    const int ndims = check_int(L, 2, "ndims", func);
    if (ndims < 0) fail(ErrClass::Dims, func, "ndims = " + std::to_string(ndims) + " is negative");
    dims.assign(size_t(ndims), 0);
  } else {
    dims = check_int_sequence(L, 2, "dims", func);
  }
  return push_sequence(L, core::topo::dims_create(nnodes, std::move(dims), func));
}

const Reg kMethods[] = {
    {"cart_create", wrap<c_cart_create>},
    {"graph_create", wrap<c_graph_create>},
    {"dist_graph_create_adjacent", wrap<c_dist_graph_create_adjacent>},
    {"dist_graph_create", wrap<c_dist_graph_create>},
    {"cart_sub", wrap<c_cart_sub>},
    {"cart_map", wrap<c_cart_map>},
    {"graph_map", wrap<c_graph_map>},
    {"cartdim_get", wrap<c_cartdim_get>},
    {"cart_get", wrap<c_cart_get>},
    {"cart_rank", wrap<c_cart_rank>},
    {"cart_coords", wrap<c_cart_coords>},
    {"cart_shift", wrap<c_cart_shift>},
    {"graphdims_get", wrap<c_graphdims_get>},
    {"graph_get", wrap<c_graph_get>},
    {"graph_neighbors_count", wrap<c_graph_neighbors_count>},
    {"graph_neighbors", wrap<c_graph_neighbors>},
    {"dist_graph_neighbors_count", wrap<c_dist_graph_neighbors_count>},
    {"dist_graph_neighbors", wrap<c_dist_graph_neighbors>},
    {"neighbor_allgather", wrap<c_neighbor_allgather>},
    {"neighbor_alltoall", wrap<c_neighbor_alltoall>},
    {"ineighbor_allgather", wrap<c_ineighbor_allgather>},
    {"ineighbor_alltoall", wrap<c_ineighbor_alltoall>},
};

const Reg kModuleFuncs[] = {
    {"dims_create", wrap<l_dims_create>},
};

int sentinel_tostring(lua_State* L) {
  lua_getiuservalue(L, 1, 1);  // push the name
  return 1;
}

// Pushes a new sentinel named `name` and remembers it in the registry under
// `key`: a userdata, so it equals only itself (unlike an empty table, which
// t.eq would find equal to any other empty table) and cannot be sent.
void push_sentinel(lua_State* L, const char* name, const char* key) {
  lua_newuserdatauv(L, 0, 1);
  lua_pushstring(L, name);
  lua_setiuservalue(L, -2, 1);  // its name, pop
  luaL_setmetatable(L, kSentinelMeta);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, key);  // registry[key] = sentinel, pop
}

void open_sentinels(lua_State* L) {
  new_metatable(L, kSentinelMeta, "mpi constant", {.tostring = sentinel_tostring});  // push
  lua_pushboolean(L, false);
  lua_setfield(L, -2, "__metatable");  // read-only
  lua_pop(L, 1);
}

}  // namespace

void open_topo(lua_State* L) {
  set_funcs(L, kMethods, -2);  // Comm methods
  lua_pushvalue(L, -3);  // mpi
  set_funcs(L, kModuleFuncs);
  open_sentinels(L);
  push_sentinel(L, "mpi.UNWEIGHTED", kUnweightedKey);
  lua_setfield(L, -2, "UNWEIGHTED");  // mpi.UNWEIGHTED = sentinel, pop
  push_sentinel(L, "mpi.WEIGHTS_EMPTY", kWeightsEmptyKey);
  lua_setfield(L, -2, "WEIGHTS_EMPTY");
  lua_pop(L, 1);  // mpi
}

}  // namespace lumpi::lua
