// lua/bind_coll.cpp: collective methods (API.md §7) over core/coll/coll.hpp.
//
// Each method checks the communicator, root, op and counts (arguments MPI
// requires to be the same everywhere) before the collective starts: a bad
// one fails on its own rank, before any message is sent. A rank's own data
// (values, operands) is checked and encoded before too, but a failure there
// travels in place of the data, so the ranks that need it raise as well
// instead of waiting. Reductions hand the core a Combine built from the op
// (lua/bind_op.hpp), which runs on this rank's Lua state.
#include <numeric>

#include "core/coll/coll.hpp"
#include "lua/bind_op.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"
#include "lua/coll_args.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::coll::Bytes;


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

// Returns make(); if that raises, stores the error in `failed` and returns
// poison(the error's encoding) in place of the data.
template <class Make, class Poison>
auto or_poisoned(std::optional<core::Error>& failed, Make make, Poison poison) -> decltype(make()) {
  try {
    return make();
  } catch (const core::Error& e) {
    failed = e;
    return poison(encode_error(e));
  }
}

// Poisons for or_poisoned: the encoded error itself, or n copies of it.
inline Bytes one(Bytes error) { return error; }
inline auto each(size_t n) {
  return [n](const Bytes& error) { return std::vector<Bytes>(n, error); };
}

Bytes encode_or_error(lua_State* L, int idx, const char* func, std::optional<core::Error>& failed) {
  return or_poisoned(failed, [&] { return encode(L, idx, func); }, one);
}

// As encode_each, but a bad element only poisons its own part (a bad table
// poisons every part).
std::vector<Bytes> encode_each_or_error(lua_State* L, int idx, int want, const char* func,
                                        std::optional<core::Error>& failed) {
  if (lua_type(L, idx) != LUA_TTABLE || lua_Integer(lua_rawlen(L, idx)) != want)
    return or_poisoned(failed, [&] { return encode_each(L, idx, want, func); },  // raises
                       each(size_t(want)));
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

// The communicator (argument 1) of a collective; raises first if a user
// op's function is running (see check_not_in_user_op).
core::Comm& coll_comm(lua_State* L, const char* func) {
  check_not_in_user_op(func);
  return check_comm(L, 1, func);
}

int root_arg(lua_State* L, int idx, core::Comm& c, const char* func) {
  int root = check_int(L, idx, "root", func, ErrClass::Root);
  c.check_root(root, func);
  return root;
}

namespace {
std::string op_text(const OpBox* op) {
  if (!op) return "";
  return op->predefined ? core::op_name(op->kind) : core::check::user_op_text();
}
}  // namespace

void check_coll(core::Comm& c, const char* func, int root, const OpBox* op, const core::check::Side& send,
                const core::check::Side& recv, bool failed) {
  if (!core::check::applies(c)) return;
  core::check::CollCall call = core::check::describe(func, root, op_text(op), send, recv);
  call.failed = failed;
  core::check::collective(c, call);
}

void check_coll_started(const core::CommPtr& c, const char* func, int root, const OpBox* op, bool failed) {
  if (!core::check::applies(*c)) return;
  core::check::CollCall call = core::check::describe(func, root, op_text(op), {}, {});
  call.failed = failed;
  core::check::collective_started(c, call);
}

// The operand at idx, checked against op and encoded; or the error that
// either step raised, then also stored in `failed`.
Bytes operand_or_error(lua_State* L, int idx, const OpBox& op, const char* func,
                       std::optional<core::Error>& failed) {
  return or_poisoned(
      failed,
      [&] {
        check_op_operand(L, idx, op, func);
        return encode(L, idx, func);
      },
      one);
}

namespace {

// ---- data movement ---------------------------------------------------------------------

// check_coll where this rank's own data may have failed its check: the
// rank still takes part in the check, and raises its own error first.
void check_coll_own(core::Comm& c, const std::optional<core::Error>& failed, const char* func, int root = -1,
                    const OpBox* op = nullptr) {
  try {
    check_coll(c, func, root, op, {}, {}, failed.has_value());
  } catch (const core::Error&) {
    raise_if(failed);
    throw;
  }
}

int c_barrier(lua_State* L) {
  core::Comm& c = coll_comm(L, "MPI_Barrier");
  check_coll(c, "MPI_Barrier");
  core::coll::barrier(c);
  return 0;
}

// bcast(value, root) -> root's value (nil in the root's group of an intercomm)
int c_bcast(lua_State* L) {
  core::Comm& c = coll_comm(L, "MPI_Bcast");
  int root = root_arg(L, 3, c, "MPI_Bcast");
  bool sends = c.is_root(root);
  std::optional<core::Error> failed;
  Bytes data = sends ? encode_or_error(L, 2, "MPI_Bcast", failed) : Bytes();
  check_coll_own(c, failed, "MPI_Bcast", root);
  Bytes out = core::coll::bcast(c, std::move(data), root);
  raise_if(failed);
  if (!c.takes_part(root)) lua_pushnil(L);
  else decode(L, out);
  return 1;
}

// gather(value, root) -> sequence at root, nil elsewhere
int c_gather(lua_State* L) {
  core::Comm& c = coll_comm(L, "MPI_Gather");
  int root = root_arg(L, 3, c, "MPI_Gather");
  std::optional<core::Error> failed;
  Bytes mine = c.takes_part(root) ? encode_or_error(L, 2, "MPI_Gather", failed) : Bytes();
  check_coll_own(c, failed, "MPI_Gather", root);
  std::vector<Bytes> all = core::coll::gather(c, std::move(mine), root);
  raise_if(failed);
  bool receives = c.is_root(root);
  if (receives) push_list(L, all);
  else lua_pushnil(L);
  return 1;
}

// scatter(values, root) -> this rank's element (nil in the root's group of an intercomm)
int c_scatter(lua_State* L) {
  core::Comm& c = coll_comm(L, "MPI_Scatter");
  int root = root_arg(L, 3, c, "MPI_Scatter");
  bool sends = c.is_root(root);
  std::vector<Bytes> parts;
  std::optional<core::Error> failed;
  if (sends)
    parts = encode_each_or_error(L, 2, c.peer_size(), "MPI_Scatter", failed);
  check_coll_own(c, failed, "MPI_Scatter", root);
  Bytes out = core::coll::scatter(c, std::move(parts), root);
  raise_if(failed);
  if (!c.takes_part(root)) lua_pushnil(L);
  else decode(L, out);
  return 1;
}

// allgather(value) -> sequence of every rank's value (the remote group's on an intercomm)
int c_allgather(lua_State* L) {
  core::Comm& c = coll_comm(L, "MPI_Allgather");
  std::optional<core::Error> failed;
  Bytes mine = encode_or_error(L, 2, "MPI_Allgather", failed);
  check_coll_own(c, failed, "MPI_Allgather");
  std::vector<Bytes> all = core::coll::allgather(c, std::move(mine));
  raise_if(failed);
  push_list(L, all);
  return 1;
}

// alltoall(values) -> sequence, element j from rank j
int c_alltoall(lua_State* L) {
  core::Comm& c = coll_comm(L, "MPI_Alltoall");
  std::optional<core::Error> failed;
  std::vector<Bytes> parts = encode_each_or_error(L, 2, c.peer_size(), "MPI_Alltoall", failed);
  check_coll_own(c, failed, "MPI_Alltoall");
  std::vector<Bytes> all = core::coll::alltoall(c, std::move(parts));
  raise_if(failed);
  push_list(L, all);
  return 1;
}

// ---- reductions ---------------------------------------------------------------------------
//
// A reduction's own operands are per-rank data, like a gather's value: if
// one fails its check, the rank still takes part and the error travels in
// place of its contribution (encode_error), so every rank that combines it
// raises too instead of waiting for a rank that never came. Arguments that
// MPI requires to be the same on every rank (comm, op, root, counts) raise
// at once.

// Runs a collective to which this rank may have contributed an error: that
// error, rather than the copy the collective carried back, is what this
// rank raises once its part of the protocol is over.
template <typename Run>
auto after_own_part(const std::optional<core::Error>& failed, Run run) {
  try {
    auto out = run();
    raise_if(failed);
    return out;
  } catch (const core::Error&) {
    raise_if(failed);
    throw;
  }
}

// reduce(value, op, root) -> result at root, nil elsewhere
int c_reduce(lua_State* L) {
  const char* func = "MPI_Reduce";
  core::Comm& c = coll_comm(L, func);
  int root = root_arg(L, 4, c, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  Bytes mine = c.takes_part(root) ? operand_or_error(L, 2, op, func, failed) : Bytes();
  check_coll_own(c, failed, func, root, &op);
  std::optional<Bytes> out = after_own_part(failed, [&] {
    return core::coll::reduce(c, std::move(mine), value_combiner(L, op, func), op.commute, root);
  });
  if (out) decode(L, *out);
  else lua_pushnil(L);
  return 1;
}

// allreduce(value, op) -> result everywhere (the other group's on an intercomm)
int c_allreduce(lua_State* L) {
  const char* func = "MPI_Allreduce";
  core::Comm& c = coll_comm(L, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  Bytes mine = operand_or_error(L, 2, op, func, failed);
  check_coll_own(c, failed, func, -1, &op);
  Bytes out = after_own_part(failed, [&] {
    return core::coll::allreduce(c, std::move(mine), value_combiner(L, op, func), op.commute);
  });
  decode(L, out);
  return 1;
}

// scan(value, op) -> x0 ∘ ... ∘ x_rank
int c_scan(lua_State* L) {
  const char* func = "MPI_Scan";
  core::Comm& c = coll_comm(L, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  Bytes mine = operand_or_error(L, 2, op, func, failed);
  check_coll_own(c, failed, func, -1, &op);
  Bytes out = after_own_part(
      failed, [&] { return core::coll::scan(c, std::move(mine), value_combiner(L, op, func)); });
  decode(L, out);
  return 1;
}

// exscan(value, op) -> x0 ∘ ... ∘ x_(rank-1); nil on rank 0
int c_exscan(lua_State* L) {
  const char* func = "MPI_Exscan";
  core::Comm& c = coll_comm(L, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  Bytes mine = operand_or_error(L, 2, op, func, failed);
  check_coll_own(c, failed, func, -1, &op);
  std::optional<Bytes> out = after_own_part(
      failed, [&] { return core::coll::exscan(c, std::move(mine), value_combiner(L, op, func)); });
  if (out) decode(L, *out);
  else lua_pushnil(L);
  return 1;
}

bool is_loc(const OpBox& op) {
  return op.predefined && (op.kind == OpKind::Maxloc || op.kind == OpKind::Minloc);
}

// The elements a block (a value at idx) holds for op: one if it is a single
// element (not a table, or for MAXLOC/MINLOC one {value, index} pair),
// else the sequence's length.
struct BlockShape {
  bool single;
  lua_Integer count;
};

BlockShape block_shape(lua_State* L, int idx, const OpBox& op) {
  if (!lua_istable(L, idx)) return {true, 1};
  if (is_loc(op)) {
    lua_rawgeti(L, idx, 1);  // -- push block[1]
    const bool pair = lua_type(L, -1) == LUA_TNUMBER;
    lua_pop(L, 1);
    if (pair) return {true, 1};
  }
  return {false, lua_Integer(lua_rawlen(L, idx))};
}

// Flattens decoded blocks into elements (see block_shape). Pushes the flat
// list.
void push_flattened(lua_State* L, const std::vector<Bytes>& blocks, const OpBox& op) {
  lua_newtable(L);  // -- push the flat list
  const int flat = lua_gettop(L);
  lua_Integer n = 0;
  for (const Bytes& b : blocks) {
    decode(L, b);  // -- push the block
    const BlockShape shape = block_shape(L, -1, op);
    if (shape.single) {
      lua_rawseti(L, flat, ++n);  // -- flat[n] = block, pop
      continue;
    }
    for (lua_Integer i = 1; i <= shape.count; ++i) {
      lua_rawgeti(L, -1, i);       // -- push block[i]
      lua_rawseti(L, flat, ++n);   // -- flat[n] = it, pop
    }
    lua_pop(L, 1);  // -- drop the block
  }
}

// Pushes flat[first .. first+count-1] as a sequence (or the single element
// itself when `scalar`).
void push_slice(lua_State* L, int flat, lua_Integer first, lua_Integer count, bool scalar) {
  if (scalar) {
    lua_rawgeti(L, flat, first);  // -- push the element
    return;
  }
  lua_createtable(L, int(count), 0);  // -- push the slice
  for (lua_Integer i = 0; i < count; ++i) {
    lua_rawgeti(L, flat, first + i);  // -- push flat[first+i]
    lua_rawseti(L, -2, i + 1);        // -- slice[i+1] = it, pop
  }
}

// The encoding of that slice.
Bytes encode_slice(lua_State* L, int flat, lua_Integer first, lua_Integer count, bool scalar,
                   const char* func) {
  push_slice(L, flat, first, count, scalar);  // -- push the slice
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
    StackGuard guard(L);  // also when encoding throws
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

// "a single element" / "a sequence of 3 elements", for block messages.
std::string describe_block(const BlockShape& s) {
  return s.single ? "a single element" : "a sequence of " + std::to_string(s.count) + " elements";
}

// reduce_scatter_block's blocks (argument idx), one per rank, each checked
// against op and encoded. For a predefined op every block must have the
// shape of values[1]: MPI gives all blocks one recvcount. Any failure
// poisons every part (see the section comment); `shape` is values[1]'s.
std::vector<Bytes> blocks_or_error(lua_State* L, int idx, int want, const OpBox& op,
                                   const char* func, BlockShape& shape,
                                   std::optional<core::Error>& failed) {
  return or_poisoned(
      failed,
      [&] {
        std::vector<Bytes> parts = encode_each(L, idx, want, func);
        for (int i = 1; i <= want; ++i) {
          lua_rawgeti(L, idx, i);  // -- push values[i]
          check_op_operand(L, -1, op, func);
          const BlockShape s = block_shape(L, -1, op);
          lua_pop(L, 1);
          if (i == 1) shape = s;
          if (!op.predefined || (s.single == shape.single && s.count == shape.count)) continue;
          fail(s.single == shape.single ? ErrClass::Count : ErrClass::Type, func,
               "values[" + std::to_string(i) + "] is " + describe_block(s) + " but values[1] is " +
                   describe_block(shape) + "; every block holds the same number of elements");
        }
        return parts;
      },
      each(size_t(want)));
}

// reduce_scatter_block(values, op) -> this rank's block, reduced
int c_reduce_scatter_block(lua_State* L) {
  const char* func = "MPI_Reduce_scatter_block";
  core::Comm& c = coll_comm(L, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  BlockShape shape{true, 1};
  std::vector<Bytes> parts = blocks_or_error(L, 2, c.size(), op, func, shape, failed);
  check_coll_own(c, failed, func, -1, &op);
  core::coll::Regroup regroup;
  if (c.is_inter())  // this group's blocks have the shape of its own blocks
    regroup = regrouper(L, op, std::vector<lua_Integer>(size_t(c.size()), shape.count),
                        shape.single, func);
  Bytes out = after_own_part(failed, [&] {
    return core::coll::reduce_scatter(c, std::move(parts), value_combiner(L, op, func),
                                      op.commute, regroup);
  });
  decode(L, out);
  return 1;
}

// reduce_scatter's values (argument idx): sum(counts) elements, each checked
// against op, cut into one encoded sequence per rank; on failure every part
// is poisoned (see the section comment). Ranks that pass different counts
// raise in the core (intracommunicator) or when their blocks of different
// lengths meet (list_combiner, within a group of an intercommunicator).
std::vector<Bytes> slices_or_error(lua_State* L, int idx, const std::vector<int>& counts,
                                   lua_Integer total, const OpBox& op, const char* func,
                                   std::optional<core::Error>& failed) {
  return or_poisoned(
      failed,
      [&] {
        if (lua_type(L, idx) != LUA_TTABLE)
          fail(ErrClass::Arg, func,
               std::string("values must be a sequence, got ") + luaL_typename(L, idx));
        if (lua_Integer(lua_rawlen(L, idx)) != total)
          fail(ErrClass::Count, func,
               "values has " + std::to_string(lua_rawlen(L, idx)) + " elements; sum(counts) is " +
                   std::to_string(total));
        std::vector<Bytes> parts;
        lua_Integer first = 1;
        for (int k : counts) {
          for (lua_Integer i = first; i < first + k; ++i) {
            lua_rawgeti(L, idx, i);  // -- push values[i]
            check_op_operand(L, -1, op, func);
            lua_pop(L, 1);
          }
          parts.push_back(encode_slice(L, idx, first, k, false, func));
          first += k;
        }
        return parts;
      },
      each(counts.size()));
}

// reduce_scatter(values, counts, op) -> this rank's counts[rank+1] elements
int c_reduce_scatter(lua_State* L) {
  const char* func = "MPI_Reduce_scatter";
  core::Comm& c = coll_comm(L, func);
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
  std::optional<core::Error> failed;
  std::vector<Bytes> parts = slices_or_error(L, 2, counts, total, op, func, failed);
  check_coll_own(c, failed, func, -1, &op);
  core::coll::Regroup regroup;
  if (c.is_inter())
    regroup = regrouper(L, op, std::vector<lua_Integer>(counts.begin(), counts.end()), false, func);
  Bytes out = after_own_part(failed, [&] {
    return core::coll::reduce_scatter(c, std::move(parts), list_combiner(L, op, func), op.commute,
                                      regroup, counts);
  });
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
};

}  // namespace

void open_coll(lua_State* L) {
  set_funcs(L, kMethods, -2);  // Comm methods
  open_op(L);  // the op objects and mpi.reduce_local belong with the reductions
}

}  // namespace lumpi::lua
