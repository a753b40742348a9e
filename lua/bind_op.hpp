// lua/bind_op.hpp: op objects (MPI_Op) as the collective bindings use them.
//
// An op is a userdata: a predefined op (mpi.SUM ... mpi.MINLOC) or a user op
// made by mpi.op_create(fn, commute), whose function is kept in the
// registry. Applying an op never lets a Lua error escape: a failing user
// function becomes a core::Error (MPI_ERR_OP, or the class of the MPI error
// it raised), which the collective then carries to the other ranks.
#pragma once

#include <lua.hpp>
#include <string>
#include <string_view>

#include "core/coll/coll.hpp"
#include "lua/ops.hpp"

namespace lumpi::lua {

struct OpBox {
  bool predefined = true;
  OpKind kind = OpKind::Sum;  // predefined ops only
  int fn_ref = LUA_NOREF;     // user ops: registry reference to the function
  bool commute = true;
  bool freed = false;
};

// The op at idx: an op object, or a predefined op's name ("SUM", "MPI_SUM").
// Raises MPI_ERR_OP if it is neither, or was freed. Returns a copy.
OpBox check_op(lua_State* L, int idx, std::string_view func);

// Raises (before any communication) unless the value at idx is an operand
// of op: predefined ops check the value (lua/ops.hpp); any value suits a
// user op (the codec rejects what cannot travel).
void check_op_operand(lua_State* L, int idx, const OpBox& op, std::string_view func);

// Pushes a ∘ b for the values at stack indices a and b (a holds the lower
// ranks' contributions). Raises core::Error; the stack is then unchanged.
void push_applied(lua_State* L, const OpBox& op, int a, int b, std::string_view func);

// Raises MPI_ERR_OTHER naming `func` while a user op's function is running
// on this rank: MPI-2.2 §5.9.5 forbids communication inside it, and in
// lumpi such a call would wait for peers that are themselves inside the
// reduction. Every binding of lua/bind_coll.cpp calls it first; the error
// then fails the user op, which fails the reduction on every rank. (Other
// communicating calls are not checked: a blocking one hangs until
// interrupted.)
void check_not_in_user_op(std::string_view func);

// Combines over encoded values: a ∘ b for single operands ...
core::coll::Combine value_combiner(lua_State* L, const OpBox& op, std::string func);
// ... and element by element for equally long sequences of operands
// (reduce_scatter's blocks): sequences of different lengths mean the ranks
// passed different counts, MPI_ERR_COUNT.
core::coll::Combine list_combiner(lua_State* L, const OpBox& op, std::string func);

// Adds mpi.SUM ... mpi.MINLOC, mpi.op_create, mpi.op_free, mpi.reduce_local
// to the mpi table at stack index -3 (the layout open_coll gets).
void open_op(lua_State* L);

}  // namespace lumpi::lua
