// lua/bind_op.cpp: op objects (API.md §3, §7): the predefined ops as
// values, mpi.op_create / mpi.op_free / op:commutative(), mpi.reduce_local,
// and applying an op to Lua values (predefined: lua/ops.hpp; user: a
// protected call of the user's function), also over encoded bytes for the
// collectives in lua/bind_coll.cpp.
//
// A user function must not call MPI communication (MPI-2.2 §5.9.5): while
// one runs, check_not_in_user_op makes the bindings of bind_coll.cpp raise.
#include "lua/bind_op.hpp"

#include "core/base/error.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;

namespace {

constexpr const char* kOpMeta = "lumpi.Op";

// How many user op functions are running on this rank (nested through
// mpi.reduce_local inside a user function).
int user_op_depth = 0;

// Counts a running user function for as long as it lives (also on a throw).
struct InUserOp {
  InUserOp() { ++user_op_depth; }
  ~InUserOp() { --user_op_depth; }
  InUserOp(const InUserOp&) = delete;
  InUserOp& operator=(const InUserOp&) = delete;
};

OpBox* test_op(lua_State* L, int idx) { return test_userdata<OpBox>(L, idx, kOpMeta); }

// The box itself (even if freed); MPI_ERR_OP if idx is not an op object.
OpBox& check_op_box(lua_State* L, int idx, std::string_view func) {
  OpBox* box = test_op(L, idx);
  if (!box) fail(ErrClass::Op, func, std::string("expected an op, got ") + luaL_typename(L, idx));
  return *box;
}

void push_op(lua_State* L, OpBox box) { push_userdata(L, kOpMeta, box); }

// The message of the error at the stack top, without running metamethods.
std::string error_text(lua_State* L) {
  core::Error e(ErrClass::Unknown, "", "");
  if (test_error(L, -1, &e)) return e.what();
  if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
  return std::string("(error object is a ") + luaL_typename(L, -1) + " value)";
}

// Calls the user function on the values at a and b; pushes its result.
void push_user_applied(lua_State* L, const OpBox& op, int a, int b, std::string_view func) {
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  if (!lua_checkstack(L, 4)) fail(ErrClass::NoMem, func, "out of Lua stack space for a user op");
  lua_rawgeti(L, LUA_REGISTRYINDEX, op.fn_ref);  // -- push the user function
  lua_pushvalue(L, a);                           // -- push a
  lua_pushvalue(L, b);                           // -- push b
  int status;
  {
    InUserOp running;
    status = lua_pcall(L, 2, 1, 0);              // -- pops fn, a, b; pushes result or error
  }
  if (status != LUA_OK) {
    core::Error inner(ErrClass::Unknown, "", "");
    const bool mpi_error = test_error(L, -1, &inner);
    std::string text = error_text(L);
    lua_pop(L, 1);  // -- drop the error object
    fail(mpi_error ? inner.cls() : ErrClass::Op, func, "the user op raised an error: " + text);
  }
}

// ---- Lua functions -------------------------------------------------------------------

// mpi.op_create(fn, commute) -> op; commute defaults to false (rank order kept).
int l_op_create(lua_State* L) {
  if (lua_type(L, 1) != LUA_TFUNCTION)
    fail(ErrClass::Arg, "MPI_Op_create",
         std::string("function must be a Lua function, got ") + luaL_typename(L, 1));
  OpBox box;
  box.predefined = false;
  box.commute = opt_boolean(L, 2, false, "commute", "MPI_Op_create");
  lua_pushvalue(L, 1);                       // -- push fn
  box.fn_ref = luaL_ref(L, LUA_REGISTRYINDEX);  // -- pop fn into the registry
  push_op(L, box);
  return 1;
}

// mpi.op_free(op): the handle becomes freed; predefined ops cannot be freed.
int l_op_free(lua_State* L) {
  OpBox& box = check_op_box(L, 1, "MPI_Op_free");
  if (box.freed) fail(ErrClass::Op, "MPI_Op_free", "the op has already been freed");
  if (box.predefined)
    fail(ErrClass::Op, "MPI_Op_free",
         std::string("cannot free the predefined op ") + op_name(box.kind));
  luaL_unref(L, LUA_REGISTRYINDEX, box.fn_ref);
  box.fn_ref = LUA_NOREF;
  box.freed = true;
  return 0;
}

// op:commutative() -> boolean
int l_op_commutative(lua_State* L) {
  OpBox op = check_op(L, 1, "MPI_Op_commutative");
  lua_pushboolean(L, op.commute);
  return 1;
}

// mpi.reduce_local(inbuf, inoutbuf, op) -> inbuf ∘ inoutbuf
int l_reduce_local(lua_State* L) {
  const char* func = "MPI_Reduce_local";
  OpBox op = check_op(L, 3, func);
  check_op_operand(L, 1, op, func);
  check_op_operand(L, 2, op, func);
  push_applied(L, op, 1, 2, func);
  return 1;
}

int op_tostring(lua_State* L) {
  OpBox* box = test_op(L, 1);
  std::string s = "op (freed)";
  if (box && !box->freed)
    s = box->predefined ? std::string("op ") + op_name(box->kind)
                        : std::string("op user (") + (box->commute ? "commutative" : "non-commutative") + ")";
  lua_pushstring(L, s.c_str());
  return 1;
}

// Releases the registry reference only; never communicates.
int op_gc(lua_State* L) {
  OpBox* box = test_op(L, 1);
  if (box && !box->predefined && !box->freed) luaL_unref(L, LUA_REGISTRYINDEX, box->fn_ref);
  return 0;
}

const Reg kOpMethods[] = {
    {"commutative", wrap<l_op_commutative>},
    {"free", wrap<l_op_free>},
};

const Reg kModuleFuncs[] = {
    {"op_create", wrap<l_op_create>},
    {"op_free", wrap<l_op_free>},
    {"reduce_local", wrap<l_reduce_local>},
};

}  // namespace

// ---- applying ops ------------------------------------------------------------------------

OpBox check_op(lua_State* L, int idx, std::string_view func) {
  if (lua_type(L, idx) == LUA_TSTRING) {
    OpBox box;
    if (!op_from_name(lua_tostring(L, idx), &box.kind))
      fail(ErrClass::Op, func, std::string("unknown op \"") + lua_tostring(L, idx) + "\"");
    return box;
  }
  OpBox& box = check_op_box(L, idx, func);
  if (box.freed) fail(ErrClass::Op, func, "the op has been freed");
  return box;
}

void check_not_in_user_op(std::string_view func) {
  if (user_op_depth > 0)
    fail(ErrClass::Other, func,
         "cannot communicate inside a user op's function (MPI-2.2 §5.9.5 forbids it)");
}

void check_op_operand(lua_State* L, int idx, const OpBox& op, std::string_view func) {
  if (op.predefined) check_operand(L, idx, op.kind, func);
}

void push_applied(lua_State* L, const OpBox& op, int a, int b, std::string_view func) {
  if (op.predefined) push_combined(L, op.kind, a, b, func);
  else push_user_applied(L, op, a, b, func);
}

core::coll::Combine value_combiner(lua_State* L, const OpBox& op, std::string func) {
  return [L, op, func](const core::coll::Bytes& lower, const core::coll::Bytes& higher) {
    if (op.predefined)  // number sequences combine on their encodings, without Lua
      if (std::optional<std::string> r = combine_packed(op.kind, lower, higher)) return *r;
    StackGuard guard(L);
    decode(L, lower);   // -- push a
    decode(L, higher);  // -- push b
    push_applied(L, op, -2, -1, func);  // -- push a ∘ b
    return encode(L, -1, func, "result");
  };
}

core::coll::Combine list_combiner(lua_State* L, const OpBox& op, std::string func) {
  return [L, op, func](const core::coll::Bytes& lower, const core::coll::Bytes& higher) {
    StackGuard guard(L);
    decode(L, lower);   // -- push list a
    decode(L, higher);  // -- push list b
    const int a = lua_gettop(L) - 1, b = lua_gettop(L);
    if (!lua_istable(L, a) || !lua_istable(L, b))
      fail(ErrClass::Intern, func, "block is not a sequence");
    const auto na = lua_Integer(lua_rawlen(L, a)), nb = lua_Integer(lua_rawlen(L, b));
    if (na != nb)
      fail(ErrClass::Count, func,
           "the ranks passed different counts (blocks of " + std::to_string(na) + " and " +
               std::to_string(nb) + " elements meet); MPI requires the same counts on every rank");
    lua_createtable(L, int(na), 0);  // -- push the result list
    const int res = lua_gettop(L);
    for (lua_Integer i = 1; i <= na; ++i) {
      lua_rawgeti(L, a, i);                 // -- push a[i]
      lua_rawgeti(L, b, i);                 // -- push b[i]
      push_applied(L, op, -2, -1, func);    // -- push a[i] ∘ b[i]
      lua_rawseti(L, res, i);               // -- res[i] = it, pop
      lua_pop(L, 2);                        // -- drop a[i], b[i]
    }
    return encode(L, res, func, "result");
  };
}

void open_op(lua_State* L) {
  // Stack: mpi at -3 (Comm and Group methods above it).
  new_metatable(L, kOpMeta, nullptr, {.gc = op_gc, .tostring = op_tostring}, kOpMethods);  // -- push it
  lua_pop(L, 1);                   // -- drop the metatable
  for (OpKind k : kReductionOps) {
    OpBox box;
    box.kind = k;
    push_op(L, box);                          // -- push the op
    lua_setfield(L, -4, op_name(k) + 4);      // mpi.SUM = op, pop
  }
  set_funcs(L, kModuleFuncs, -3);  // mpi
}

}  // namespace lumpi::lua
