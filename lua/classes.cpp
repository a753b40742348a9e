// lua/classes.cpp: the communicator classes of the seeds' chapter 16
// (§16.1.3, §16.1.7, Example 16.4) as Lua metatables.
//
// Comm holds what every communicator has; Intracomm and Intercomm extend it;
// Cartcomm, Graphcomm and Distgraphcomm extend Intracomm. Each class has a
// method table whose metatable's __index is its parent's table (Cartcomm ->
// Intracomm -> Comm), which Tab completion (lua/lumpi/complete.lua) follows; each
// table also holds copies of its ancestors' methods, so finding any method
// a value has is one table access, as fast as before classes. Each concrete
// class also has the metatable its values carry ("lumpi.Cartcomm", ...);
// push_comm picks it from the communicator (lua/binding.cpp).
//
// The bind_*.cpp files register every method into the Comm table; this file
// then moves the class-specific ones (kPlaced, after Annex A.4; a method
// §16 gives both Intracomm and Intercomm stays on Comm). A name missing from
// the whole chain reaches the fallback at the root, which answers with a
// function that raises when called: for a method another class has, the
// MPI error class the call raised before classes existed (MPI_ERR_TOPOLOGY
// for a topology method, else MPI_ERR_COMM) through the errhandler, naming
// the class that has it; for an unknown name, a plain Lua error naming the
// value's class and the nearest method names.
#include <algorithm>
#include <cstring>

#include "lua/binding.hpp"

namespace lumpi::lua {

namespace {

using core::ErrClass;

enum Class { kComm, kIntra, kInter, kCart, kGraph, kDist, kClassCount };

struct ClassDef {
  const char* name;  // as in §16 and in messages
  const char* meta;  // registry name of the values' metatable
  int parent;        // -1 for the root
};

constexpr ClassDef kClasses[kClassCount] = {
    {"Comm", nullptr, -1},  // abstract: no value has this class
    {"Intracomm", "lumpi.Intracomm", kComm},
    {"Intercomm", "lumpi.Intercomm", kComm},
    {"Cartcomm", "lumpi.Cartcomm", kIntra},
    {"Graphcomm", "lumpi.Graphcomm", kIntra},
    {"Distgraphcomm", "lumpi.Distgraphcomm", kIntra},
};

constexpr unsigned bit(Class c) { return 1u << c; }
constexpr unsigned kTopologies = bit(kCart) | bit(kGraph) | bit(kDist);

// The methods that are not on Comm: the classes that have each, and the MPI
// function whose name the misuse error carries. MPI-3 and later functions
// (split_type, create_group, neighbourhood collectives), which §16 predates,
// go where the call succeeds today. cart_map and graph_map stay on
// Intracomm as in C (§16 puts Map on Cartcomm/Graphcomm): they take any
// intracommunicator.
struct Placed {
  const char* method;
  unsigned owners;
  const char* func;
};

constexpr Placed kPlaced[] = {
    {"scan", bit(kIntra), "MPI_Scan"},
    {"exscan", bit(kIntra), "MPI_Exscan"},
    {"iscan", bit(kIntra), "MPI_Iscan"},
    {"iexscan", bit(kIntra), "MPI_Iexscan"},
    {"create_group", bit(kIntra), "MPI_Comm_create_group"},
    {"split_type", bit(kIntra), "MPI_Comm_split_type"},
    {"intercomm_create", bit(kIntra), "MPI_Intercomm_create"},
    {"cart_create", bit(kIntra), "MPI_Cart_create"},
    {"graph_create", bit(kIntra), "MPI_Graph_create"},
    {"dist_graph_create_adjacent", bit(kIntra), "MPI_Dist_graph_create_adjacent"},
    {"dist_graph_create", bit(kIntra), "MPI_Dist_graph_create"},
    {"cart_map", bit(kIntra), "MPI_Cart_map"},
    {"graph_map", bit(kIntra), "MPI_Graph_map"},
    {"remote_size", bit(kInter), "MPI_Comm_remote_size"},
    {"remote_group", bit(kInter), "MPI_Comm_remote_group"},
    {"intercomm_merge", bit(kInter), "MPI_Intercomm_merge"},
    {"cart_sub", bit(kCart), "MPI_Cart_sub"},
    {"cartdim_get", bit(kCart), "MPI_Cartdim_get"},
    {"cart_get", bit(kCart), "MPI_Cart_get"},
    {"cart_rank", bit(kCart), "MPI_Cart_rank"},
    {"cart_coords", bit(kCart), "MPI_Cart_coords"},
    {"cart_shift", bit(kCart), "MPI_Cart_shift"},
    {"graphdims_get", bit(kGraph), "MPI_Graphdims_get"},
    {"graph_get", bit(kGraph), "MPI_Graph_get"},
    {"graph_neighbors_count", bit(kGraph), "MPI_Graph_neighbors_count"},
    {"graph_neighbors", bit(kGraph), "MPI_Graph_neighbors"},
    {"dist_graph_neighbors_count", bit(kDist), "MPI_Dist_graph_neighbors_count"},
    {"dist_graph_neighbors", bit(kDist), "MPI_Dist_graph_neighbors"},
    {"neighbor_allgather", kTopologies, "MPI_Neighbor_allgather"},
    {"neighbor_alltoall", kTopologies, "MPI_Neighbor_alltoall"},
    {"ineighbor_allgather", kTopologies, "MPI_Ineighbor_allgather"},
    {"ineighbor_alltoall", kTopologies, "MPI_Ineighbor_alltoall"},
};

const Placed* find_placed(std::string_view method) {
  for (const Placed& p : kPlaced)
    if (method == p.method) return &p;
  return nullptr;
}

Class class_of(const core::Comm& c) {
  if (c.is_inter()) return kInter;
  const auto& t = c.topology();
  if (!t) return kIntra;
  switch (t->kind) {
    case core::Topology::Kind::Cart: return kCart;
    case core::Topology::Kind::Graph: return kGraph;
    case core::Topology::Kind::DistGraph: return kDist;
  }
  return kIntra;
}

std::string with_article(const std::string& cls) {
  return (cls[0] == 'I' ? "an " : "a ") + cls;
}

// "a Cartcomm", "a Cartcomm, Graphcomm or Distgraphcomm"
std::string owners_text(unsigned owners) {
  std::vector<std::string> names;
  for (int c = 0; c < kClassCount; ++c)
    if (owners & bit(Class(c))) names.push_back(kClasses[c].name);
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return with_article(s);
}

// ---- misuse: a method of another class ----------------------------------------------

// Upvalue 1: the method name. Raises (through wrap, so the errhandler of
// the communicator applies) after the checks the real method makes first:
// not a communicator, freed or pending raise MPI_ERR_COMM as before.
int misplaced_call(lua_State* L) {
  const Placed& p = *find_placed(lua_tostring(L, lua_upvalueindex(1)));
  check_comm(L, 1, p.func);
  core::fail((p.owners & kTopologies) ? ErrClass::Topology : ErrClass::Comm, p.func,
             std::string(p.method) + " is " + owners_text(p.owners) + " method; this is " +
                 with_article(comm_class_at(L, 1)));
}

// ---- an unknown name: the nearest names ---------------------------------------------------

// Optimal string alignment distance (an adjacent swap costs 1).
size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// Up to three names: those within a small edit distance of `name`, or that
// contain it or are contained in it (3 characters at least); nearest first,
// ties by length then alphabetically, so the answer is deterministic.
std::vector<std::string> nearest(std::string_view name, const std::vector<std::string>& names) {
  struct Scored {
    size_t dist;
    std::string name;
    bool operator<(const Scored& o) const {
      if (dist != o.dist) return dist < o.dist;
      if (name.size() != o.name.size()) return name.size() < o.name.size();
      return name < o.name;
    }
  };
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  std::vector<Scored> hits;
  for (const std::string& n : names) {
    size_t dist = distance(name, n);
    const bool contains = std::min(name.size(), n.size()) >= 3 &&
                          (n.find(name) != std::string::npos || name.find(n) != std::string::npos);
    if (dist <= limit || contains) hits.push_back({dist, n});
  }
  std::sort(hits.begin(), hits.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < hits.size() && i < 3; ++i) out.push_back(hits[i].name);
  return out;
}

// Appends the string keys of the table at idx to names.
void add_keys(lua_State* L, int idx, std::vector<std::string>& names) {
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {  // stack: key value
    if (lua_type(L, -2) == LUA_TSTRING) names.emplace_back(lua_tostring(L, -2));
    lua_pop(L, 1);  // keep the key
  }
}

// The string keys of the six method tables in the table at idx.
std::vector<std::string> all_methods(lua_State* L, int idx) {
  std::vector<std::string> names;
  for (const ClassDef& c : kClasses) {
    lua_getfield(L, idx, c.name);  // push the class's method table
    add_keys(L, -1, names);
    lua_pop(L, 1);  // the method table
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// Pushes "file:line: no method 'coords' on Cartcomm; did you mean
// cart_coords?", the nearest of names.
void push_no_method(lua_State* L, const std::string& name, const std::string& cls,
                    const std::vector<std::string>& names) {
  std::string msg = "no method '" + name + "' on " + cls;
  std::vector<std::string> near = nearest(name, names);
  for (size_t i = 0; i < near.size(); ++i)
    msg += (i == 0 ? "; did you mean " : i + 1 == near.size() ? " or " : ", ") + near[i];
  if (!near.empty()) msg += "?";
  luaL_where(L, 1);  // push "file:line:" of the caller
  lua_pushlstring(L, msg.data(), msg.size());
  lua_concat(L, 2);
}

// The same for a communicator: its class, the methods of every class.
void push_unknown_message(lua_State* L, const char* name, int tables_idx) {
  std::string cls = comm_class_at(L, 1);
  push_no_method(L, name, cls.empty() ? "communicators" : cls, all_methods(L, tables_idx));
}

// Upvalues: the name, the table of class method tables. A plain Lua error,
// as calling a missing method always was, not an MPI error object.
int unknown_call(lua_State* L) {
  try {
    push_unknown_message(L, lua_tostring(L, lua_upvalueindex(1)), lua_upvalueindex(2));
  } catch (const std::exception& e) {
    lua_pushstring(L, e.what());
  }
  return lua_error(L);  // no C++ object is alive here
}

// __index of the Comm table's metatable: (Comm methods, key). Upvalue 1: the
// table of class method tables. Names that are not identifiers-to-call
// (non-strings, "__...") stay nil, so probes like `c.__close` see nothing.
int fallback_index(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING || std::strncmp(lua_tostring(L, 2), "__", 2) == 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushvalue(L, 2);  // the name
  if (find_placed(lua_tostring(L, 2))) {
    lua_pushcclosure(L, wrap<misplaced_call>, 1);
  } else {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, unknown_call, 2);
  }
  return 1;
}

// ---- the other classes' missing methods ------------------------------------------------

// Upvalues: the name, the class, its method table. "no method 'fance' on
// Win; did you mean fence?"
int other_unknown_call(lua_State* L) {
  try {
    std::vector<std::string> names;
    add_keys(L, lua_upvalueindex(3), names);
    push_no_method(L, lua_tostring(L, lua_upvalueindex(1)), lua_tostring(L, lua_upvalueindex(2)), names);
  } catch (const std::exception& e) {
    lua_pushstring(L, e.what());
  }
  return lua_error(L);  // no C++ object is alive here
}

// __index of a class's method table: (methods, key). Upvalue: the class.
// As for communicators, names that are not identifiers-to-call stay nil.
int other_fallback_index(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING || std::strncmp(lua_tostring(L, 2), "__", 2) == 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushvalue(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, other_unknown_call, 3);
  return 1;
}

// ---- assembly -----------------------------------------------------------------------

// Pushes the method tables of every class, chained by __index; the Comm
// table is the one at comm_idx. Leaves them at top-5 .. top (class order).
void push_method_tables(lua_State* L, int comm_idx) {
  const int base = lua_gettop(L);
  for (int c = 0; c < kClassCount; ++c) {
    if (c == kComm) lua_pushvalue(L, comm_idx);
    else lua_newtable(L);
    if (kClasses[c].parent < 0) continue;
    lua_createtable(L, 0, 1);  // its metatable
    lua_pushvalue(L, base + 1 + kClasses[c].parent);
    lua_setfield(L, -2, "__index");  // mt.__index = parent's table, pop
    lua_setmetatable(L, -2);         // pop mt
  }
}

// Copies into each class's table its parent's methods (parents come first
// in kClasses, so Cartcomm gets Comm's through Intracomm): every method a
// value has is then one table access away, as with the single table before
// classes; the chain still holds the hierarchy and ends in the fallback.
void copy_inherited(lua_State* L, int first) {
  for (int c = 0; c < kClassCount; ++c) {
    if (kClasses[c].parent < 0) continue;
    lua_pushnil(L);
    while (lua_next(L, first + kClasses[c].parent)) {  // stack: key value
      lua_pushvalue(L, -2);
      if (lua_rawget(L, first + c) == LUA_TNIL) {  // push own[key]
        lua_pop(L, 1);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);             // stack: key key value
        lua_rawset(L, first + c);      // own[key] = value, pops two
      } else {
        lua_pop(L, 2);                 // own entry and value; keep the key
      }
    }
  }
}

// Moves each kPlaced method out of the Comm table into its classes' tables.
void place_methods(lua_State* L, int first) {
  for (const Placed& p : kPlaced) {
    lua_getfield(L, first + kComm, p.method);  // push the function
    if (lua_isnil(L, -1))
      luaL_error(L, "lua/classes.cpp places '%s', which no bind_*.cpp registers", p.method);
    for (int c = 0; c < kClassCount; ++c) {
      if (!(p.owners & bit(Class(c)))) continue;
      lua_pushvalue(L, -1);
      lua_setfield(L, first + c, p.method);  // table[c][method] = fn, pop
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setfield(L, first + kComm, p.method);  // Comm[method] = nil
  }
}

}  // namespace

const char* comm_class_meta(const core::Comm& c) { return kClasses[class_of(c)].meta; }

// Declared in lua/module.cpp, which calls it after open_comm_classes.
void name_missing_methods(lua_State* L) {
  // Status is left out: a status is a table whose absent fields (cancelled)
  // must read as nil.
  const std::pair<const char*, const char*> others[] = {
      {"lumpi.Group", "Group"}, {"lumpi.Request", "Request"},       {"lumpi.Op", "Op"},
      {"lumpi.Datatype", "Datatype"}, {"lumpi.Win", "Win"}, {"lumpi.Errhandler", "Errhandler"},
      {"lumpi.Keyval", "Keyval"}};
  for (const auto& [meta, cls] : others) {
    if (luaL_getmetatable(L, meta) != LUA_TTABLE) {  // push
      lua_pop(L, 1);
      continue;
    }
    if (lua_getfield(L, -1, "__index") == LUA_TTABLE && !lua_getmetatable(L, -1)) {  // push methods
      lua_createtable(L, 0, 1);
      lua_pushstring(L, cls);
      lua_pushcclosure(L, other_fallback_index, 1);
      lua_setfield(L, -2, "__index");
      lua_setmetatable(L, -2);  // pops the new metatable
    } else if (lua_type(L, -1) == LUA_TTABLE) {
      lua_pop(L, 1);  // a metatable it already had
    }
    lua_pop(L, 2);  // methods (or nil), the values' metatable
  }
}

void open_comm_classes(lua_State* L, int comm_idx) {
  comm_idx = lua_absindex(L, comm_idx);
  const int first = lua_gettop(L) + 1;
  push_method_tables(L, comm_idx);
  place_methods(L, first);
  copy_inherited(L, first);

  lua_createtable(L, 0, kClassCount);  // name -> method table, for the fallback
  for (int c = 0; c < kClassCount; ++c) {
    lua_pushvalue(L, first + c);
    lua_setfield(L, -2, kClasses[c].name);
  }
  lua_createtable(L, 0, 1);  // the Comm table's metatable
  lua_insert(L, -2);
  lua_pushcclosure(L, fallback_index, 1);  // pops the name table
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, first + kComm);  // pop

  for (int c = 0; c < kClassCount; ++c) {
    if (!kClasses[c].meta) continue;
    new_metatable(L, kClasses[c].meta, kClasses[c].name, {});  // push the values' metatable
    set_comm_metamethods(L);
    lua_pushvalue(L, first + c);
    lua_setfield(L, -2, "__index");  // meta.__index = the class's methods
    lua_pop(L, 1);
  }
  lua_settop(L, first - 1);
}

}  // namespace lumpi::lua
