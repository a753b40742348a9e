// lua/bind_coll.cpp: collective methods (API.md §7) over core/coll.hpp.
//
// Each method checks the communicator, root, op and operands, and encodes
// its values, before the collective starts: a bad argument fails on its own
// rank only, before any message is sent. Reductions hand the core a Combine
// built from the op (lua/bind_op.hpp), which runs on this rank's Lua state.
#include <numeric>

#include "core/coll.hpp"
#include "core/constants.hpp"
#include "lua/bind_op.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::coll::Bytes;

namespace {

// ---- helpers --------------------------------------------------------------------------

void push_list(lua_State* L, const std::vector<Bytes>& all) {
  lua_createtable(L, int(all.size()), 0);  // -- push the result
  for (size_t i = 0; i < all.size(); ++i) {
    decode(L, all[i]);                      // -- push value i
    lua_rawseti(L, -2, lua_Integer(i + 1));  // -- t[i+1] = value, pop
  }
}

// The table at idx, encoded element by element; it must have `want`
// elements (one per rank) or MPI_ERR_COUNT names both numbers.
std::vector<Bytes> encode_each(lua_State* L, int idx, int want, const char* func) {
  if (lua_type(L, idx) != LUA_TTABLE)
    fail(ErrClass::Arg, func, std::string("values must be a sequence, got ") + luaL_typename(L, idx));
  const auto n = lua_Integer(lua_rawlen(L, idx));
  if (n != want)
    fail(ErrClass::Count, func,
         "values has " + std::to_string(n) + " elements; expected " + std::to_string(want) +
             " (one per rank)");
  std::vector<Bytes> parts;
  parts.reserve(size_t(n));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // -- push values[i]
    parts.push_back(encode(L, -1, func, "values[" + std::to_string(i) + "]"));
    lua_pop(L, 1);
  }
  return parts;
}

// Data movement checks some arguments on one rank only (the root's values,
// each rank's own contribution). If they fail, the rank still takes part:
// the error travels in place of its data (codec encode_error), so every rank
// that would have used that data raises it too instead of waiting forever,
// and this rank raises it once the collective is over.
Bytes encode_or_error(lua_State* L, int idx, const char* func, std::optional<core::Error>& failed) {
  try {
    return encode(L, idx, func);
  } catch (const core::Error& e) {
    failed = e;
    return encode_error(e);
  }
}

// As encode_each, but a bad element only poisons its own part (a bad table
// poisons every part).
std::vector<Bytes> encode_each_or_error(lua_State* L, int idx, int want, const char* func,
                                        std::optional<core::Error>& failed) {
  try {
    if (lua_type(L, idx) != LUA_TTABLE || lua_Integer(lua_rawlen(L, idx)) != want)
      encode_each(L, idx, want, func);  // raises the count or type error
  } catch (const core::Error& e) {
    failed = e;
    return std::vector<Bytes>(size_t(want), encode_error(e));
  }
  std::vector<Bytes> parts;
  parts.reserve(size_t(want));
  for (int i = 1; i <= want; ++i) {
    lua_rawgeti(L, idx, i);  // -- push values[i]
    try {
      parts.push_back(encode(L, -1, func, "values[" + std::to_string(i) + "]"));
    } catch (const core::Error& e) {
      if (!failed) failed = e;
      parts.push_back(encode_error(e));
    }
    lua_pop(L, 1);  // -- pop values[i] (encode leaves the stack as it found it)
  }
  return parts;
}

void raise_if(const std::optional<core::Error>& failed) {
  if (failed) throw *failed;
}

// On an intercommunicator, does this rank contribute to a rooted call?
bool inter_contributes(int root) { return root != core::ROOT && root != core::PROC_NULL; }

int root_arg(lua_State* L, int idx, core::Comm& c, const char* func) {
  int root = check_int(L, idx, "root", func, ErrClass::Root);
  c.check_root(root, func);
  return root;
}

// ---- data movement ---------------------------------------------------------------------

int c_barrier(lua_State* L) {
  core::coll::barrier(check_comm(L, 1, "MPI_Barrier"));
  return 0;
}

// bcast(value, root) -> root's value (nil in the root's group of an intercomm)
int c_bcast(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Bcast");
  int root = root_arg(L, 3, c, "MPI_Bcast");
  bool sends = c.is_inter() ? root == core::ROOT : root == c.rank();
  std::optional<core::Error> failed;
  Bytes data = sends ? encode_or_error(L, 2, "MPI_Bcast", failed) : Bytes();
  Bytes out = core::coll::bcast(c, std::move(data), root);
  raise_if(failed);
  if (c.is_inter() && !inter_contributes(root)) lua_pushnil(L);
  else decode(L, out);
  return 1;
}

// gather(value, root) -> sequence at root, nil elsewhere
int c_gather(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Gather");
  int root = root_arg(L, 3, c, "MPI_Gather");
  bool contributes = !c.is_inter() || inter_contributes(root);
  std::optional<core::Error> failed;
  Bytes mine = contributes ? encode_or_error(L, 2, "MPI_Gather", failed) : Bytes();
  std::vector<Bytes> all = core::coll::gather(c, std::move(mine), root);
  raise_if(failed);
  bool receives = c.is_inter() ? root == core::ROOT : root == c.rank();
  if (receives) push_list(L, all);
  else lua_pushnil(L);
  return 1;
}

// scatter(values, root) -> this rank's element (nil in the root's group of an intercomm)
int c_scatter(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Scatter");
  int root = root_arg(L, 3, c, "MPI_Scatter");
  bool sends = c.is_inter() ? root == core::ROOT : root == c.rank();
  std::vector<Bytes> parts;
  std::optional<core::Error> failed;
  if (sends)
    parts = encode_each_or_error(L, 2, c.is_inter() ? c.remote_size() : c.size(), "MPI_Scatter", failed);
  Bytes out = core::coll::scatter(c, std::move(parts), root);
  raise_if(failed);
  if (c.is_inter() && !inter_contributes(root)) lua_pushnil(L);
  else decode(L, out);
  return 1;
}

// allgather(value) -> sequence of every rank's value (the remote group's on an intercomm)
int c_allgather(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Allgather");
  std::optional<core::Error> failed;
  std::vector<Bytes> all = core::coll::allgather(c, encode_or_error(L, 2, "MPI_Allgather", failed));
  raise_if(failed);
  push_list(L, all);
  return 1;
}

// alltoall(values) -> sequence, element j from rank j
int c_alltoall(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Alltoall");
  std::optional<core::Error> failed;
  std::vector<Bytes> parts =
      encode_each_or_error(L, 2, c.is_inter() ? c.remote_size() : c.size(), "MPI_Alltoall", failed);
  std::vector<Bytes> all = core::coll::alltoall(c, std::move(parts));
  raise_if(failed);
  push_list(L, all);
  return 1;
}

// ---- reductions ---------------------------------------------------------------------------

// Checks the op (argument op_idx) and the operand (argument 2); returns the op.
OpBox reduction_args(lua_State* L, int op_idx, const char* func, bool check_value = true) {
  OpBox op = check_op(L, op_idx, func);
  if (check_value) check_op_operand(L, 2, op, func);
  return op;
}

// reduce(value, op, root) -> result at root, nil elsewhere
int c_reduce(lua_State* L) {
  const char* func = "MPI_Reduce";
  core::Comm& c = check_comm(L, 1, func);
  int root = root_arg(L, 4, c, func);
  bool contributes = !c.is_inter() || inter_contributes(root);
  OpBox op = reduction_args(L, 3, func, contributes);
  Bytes mine = contributes ? encode(L, 2, func) : Bytes();
  std::optional<Bytes> out =
      core::coll::reduce(c, std::move(mine), value_combiner(L, op, func), op.commute, root);
  if (out) decode(L, *out);
  else lua_pushnil(L);
  return 1;
}

// allreduce(value, op) -> result everywhere (the other group's on an intercomm)
int c_allreduce(lua_State* L) {
  const char* func = "MPI_Allreduce";
  core::Comm& c = check_comm(L, 1, func);
  OpBox op = reduction_args(L, 3, func);
  Bytes out = core::coll::allreduce(c, encode(L, 2, func), value_combiner(L, op, func), op.commute);
  decode(L, out);
  return 1;
}

// scan(value, op) -> x0 ∘ ... ∘ x_rank
int c_scan(lua_State* L) {
  const char* func = "MPI_Scan";
  core::Comm& c = check_comm(L, 1, func);
  if (c.is_inter()) fail(ErrClass::Comm, func, "is not defined on an intercommunicator");
  OpBox op = reduction_args(L, 3, func);
  decode(L, core::coll::scan(c, encode(L, 2, func), value_combiner(L, op, func)));
  return 1;
}

// exscan(value, op) -> x0 ∘ ... ∘ x_(rank-1); nil on rank 0
int c_exscan(lua_State* L) {
  const char* func = "MPI_Exscan";
  core::Comm& c = check_comm(L, 1, func);
  if (c.is_inter()) fail(ErrClass::Comm, func, "is not defined on an intercommunicator");
  OpBox op = reduction_args(L, 3, func);
  std::optional<Bytes> out = core::coll::exscan(c, encode(L, 2, func), value_combiner(L, op, func));
  if (out) decode(L, *out);
  else lua_pushnil(L);
  return 1;
}

// Flattens decoded blocks into elements: a block that is a sequence gives
// its elements (for MAXLOC/MINLOC a block that is one pair stays one
// element), any other block is one element. Pushes the flat list.
void push_flattened(lua_State* L, const std::vector<Bytes>& blocks, const OpBox& op) {
  lua_newtable(L);  // -- push the flat list
  const int flat = lua_gettop(L);
  lua_Integer n = 0;
  const bool loc = op.predefined && (op.kind == OpKind::Maxloc || op.kind == OpKind::Minloc);
  for (const Bytes& b : blocks) {
    decode(L, b);  // -- push the block
    bool is_seq = lua_istable(L, -1);
    if (is_seq && loc) {
      lua_rawgeti(L, -1, 1);  // -- push block[1]
      is_seq = lua_type(L, -1) != LUA_TNUMBER;  // a number first: a single pair
      lua_pop(L, 1);
    }
    if (!is_seq) {
      lua_rawseti(L, flat, ++n);  // -- flat[n] = block, pop
      continue;
    }
    const auto len = lua_Integer(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= len; ++i) {
      lua_rawgeti(L, -1, i);       // -- push block[i]
      lua_rawseti(L, flat, ++n);   // -- flat[n] = it, pop
    }
    lua_pop(L, 1);  // -- drop the block
  }
}

// Encodes flat[first .. first+count-1] as a sequence (or the single element
// itself when `scalar`).
Bytes encode_slice(lua_State* L, int flat, lua_Integer first, lua_Integer count, bool scalar,
                   const char* func) {
  if (scalar) {
    lua_rawgeti(L, flat, first);  // -- push the element
  } else {
    lua_createtable(L, int(count), 0);  // -- push the slice
    for (lua_Integer i = 0; i < count; ++i) {
      lua_rawgeti(L, flat, first + i);  // -- push flat[first+i]
      lua_rawseti(L, -2, i + 1);        // -- slice[i+1] = it, pop
    }
  }
  Bytes b = encode(L, -1, func, "result");
  lua_pop(L, 1);
  return b;
}

// The other group's reduced elements, cut into this group's blocks.
core::coll::Regroup regrouper(lua_State* L, const OpBox& op, std::vector<lua_Integer> counts,
                              bool scalar_blocks, const char* func) {
  return [=](std::vector<Bytes> remote) {
    // Same block structure on both sides: pass blocks through unchanged.
    if (scalar_blocks && remote.size() == counts.size()) return remote;
    struct Restore {  // the stack height, also when encoding throws
      lua_State* L;
      int top;
      ~Restore() { lua_settop(L, top); }
    } restore{L, lua_gettop(L)};
    push_flattened(L, remote, op);
    const int flat = lua_gettop(L);
    const auto total = lua_Integer(lua_rawlen(L, flat));
    const lua_Integer want = std::accumulate(counts.begin(), counts.end(), lua_Integer(0));
    if (total != want) {
      fail(ErrClass::Count, func,
           "the remote group reduced " + std::to_string(total) +
               " elements, but this group's blocks hold " + std::to_string(want) +
               " (the count must be the same for both groups)");
    }
    std::vector<Bytes> out;
    lua_Integer first = 1;
    for (lua_Integer k : counts) {
      out.push_back(encode_slice(L, flat, first, k, scalar_blocks, func));
      first += k;
    }
    return out;
  };
}

// reduce_scatter_block(values, op) -> this rank's block, reduced
int c_reduce_scatter_block(lua_State* L) {
  const char* func = "MPI_Reduce_scatter_block";
  core::Comm& c = check_comm(L, 1, func);
  OpBox op = check_op(L, 3, func);
  std::vector<Bytes> parts = encode_each(L, 2, c.size(), func);
  for (int i = 1; i <= c.size(); ++i) {
    lua_rawgeti(L, 2, i);  // -- push values[i]
    check_op_operand(L, -1, op, func);
    lua_pop(L, 1);
  }
  core::coll::Regroup regroup;
  if (c.is_inter()) {
    // This group's block shape: that of its own blocks (all alike).
    lua_rawgeti(L, 2, 1);  // -- push values[1]
    bool scalar = !lua_istable(L, -1);
    lua_Integer per = scalar ? 1 : lua_Integer(lua_rawlen(L, -1));
    if (!scalar && op.predefined && (op.kind == OpKind::Maxloc || op.kind == OpKind::Minloc)) {
      lua_rawgeti(L, -1, 1);  // -- push values[1][1]
      if (lua_type(L, -1) == LUA_TNUMBER) scalar = true, per = 1;  // one pair per block
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    regroup = regrouper(L, op, std::vector<lua_Integer>(size_t(c.size()), per), scalar, func);
  }
  Bytes out = core::coll::reduce_scatter(c, std::move(parts), value_combiner(L, op, func),
                                         op.commute, regroup);
  decode(L, out);
  return 1;
}

// reduce_scatter(values, counts, op) -> this rank's counts[rank+1] elements
int c_reduce_scatter(lua_State* L) {
  const char* func = "MPI_Reduce_scatter";
  core::Comm& c = check_comm(L, 1, func);
  std::vector<int> counts = check_int_sequence(L, 3, "counts", func);
  OpBox op = check_op(L, 4, func);
  if (int(counts.size()) != c.size())
    fail(ErrClass::Count, func,
         "counts has " + std::to_string(counts.size()) + " entries; expected " +
             std::to_string(c.size()) + " (one per rank)");
  lua_Integer total = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0)
      fail(ErrClass::Count, func,
           "counts[" + std::to_string(i + 1) + "] is " + std::to_string(counts[i]) +
               "; counts must be non-negative");
    total += counts[i];
  }
  if (lua_type(L, 2) != LUA_TTABLE)
    fail(ErrClass::Arg, func, std::string("values must be a sequence, got ") + luaL_typename(L, 2));
  if (lua_Integer(lua_rawlen(L, 2)) != total)
    fail(ErrClass::Count, func,
         "values has " + std::to_string(lua_rawlen(L, 2)) + " elements; sum(counts) is " +
             std::to_string(total));
  std::vector<Bytes> parts;
  lua_Integer first = 1;
  for (int k : counts) {
    for (lua_Integer i = first; i < first + k; ++i) {
      lua_rawgeti(L, 2, i);  // -- push values[i]
      check_op_operand(L, -1, op, func);
      lua_pop(L, 1);
    }
    parts.push_back(encode_slice(L, 2, first, k, false, func));
    first += k;
  }
  core::coll::Regroup regroup;
  if (c.is_inter())
    regroup = regrouper(L, op, std::vector<lua_Integer>(counts.begin(), counts.end()), false, func);
  Bytes out = core::coll::reduce_scatter(c, std::move(parts), list_combiner(L, op, func),
                                         op.commute, regroup);
  decode(L, out);
  return 1;
}

const Reg kMethods[] = {
    {"allgather", wrap<c_allgather>},
    {"allreduce", wrap<c_allreduce>},
    {"alltoall", wrap<c_alltoall>},
    {"barrier", wrap<c_barrier>},
    {"bcast", wrap<c_bcast>},
    {"exscan", wrap<c_exscan>},
    {"gather", wrap<c_gather>},
    {"reduce", wrap<c_reduce>},
    {"reduce_scatter", wrap<c_reduce_scatter>},
    {"reduce_scatter_block", wrap<c_reduce_scatter_block>},
    {"scan", wrap<c_scan>},
    {"scatter", wrap<c_scatter>},
    {nullptr, nullptr},
};

}  // namespace

void open_coll(lua_State* L) {
  lua_pushvalue(L, -2);  // -- push Comm methods
  set_funcs(L, kMethods);
  lua_pop(L, 1);
  open_op(L);  // the op objects and mpi.reduce_local belong with the reductions
}

}  // namespace lumpi::lua
