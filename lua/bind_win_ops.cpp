// lua/bind_win_ops.cpp: the operations of Lua windows (MPI-3.1 §11.3):
// win:put, get, accumulate, get_accumulate, fetch_and_op,
// compare_and_swap, and the request-based rput, rget, raccumulate,
// rget_accumulate (which return requests), over core/rma/win's; and the
// ops only they take, mpi.REPLACE and mpi.NO_OP. Argument order is MPI's
// with the window as the object (lua/bind_win.cpp). Buffers an operation
// writes into stay with the window until its next completion (keep_pending).
#include <string>

#include "lua/bind_op.hpp"
#include "lua/typed.hpp"
#include "lua/win.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::Win;

namespace {

constexpr const char* kReplaceMeta = "lumpi.Replace";
constexpr const char* kNoOpMeta = "lumpi.NoOp";

struct Target {
  int rank;
  std::int64_t disp, count;
  core::TypePtr type;
};

// target_rank, target_disp, target_count, target_datatype at idx..idx+3.
Target check_target(lua_State* L, int idx, const char* func) {
  Target t;
  t.rank = check_int(L, idx, "target_rank", func, ErrClass::Rank);
  t.disp = check_integer(L, idx + 1, "target_disp", func);
  t.count = check_integer(L, idx + 2, "target_count", func);
  t.type = check_usable_type(L, idx + 3, func);
  return t;
}

// win:put(buffer, count, datatype, target_rank, target_disp, target_count, target_datatype)
int w_put(lua_State* L) {
  const char* func = "MPI_Put";
  Win& w = check_win(L, 1, func);
  Typed o = check_typed(L, 2, func);
  Target t = check_target(L, 5, func);
  w.put(o.base, o.count, o.type, t.rank, t.disp, t.count, t.type);
  return 0;
}

// win:get(buffer, ...): the buffer is filled by the next fence, unlock or flush.
int w_get(lua_State* L) {
  const char* func = "MPI_Get";
  Win& w = check_win(L, 1, func);
  Typed o = check_typed(L, 2, func);
  Target t = check_target(L, 5, func);
  w.get(o.base, o.count, o.type, t.rank, t.disp, t.count, t.type);
  keep_pending(L, 1, 2);
  return 0;
}

// win:rput(buffer, count, datatype, target_rank, target_disp, target_count, target_datatype) -> request
int w_rput(lua_State* L) {
  const char* func = "MPI_Rput";
  Win& w = check_win(L, 1, func);
  Typed o = check_typed(L, 2, func);
  Target t = check_target(L, 5, func);
  push_request(L, w.rput(o.base, o.count, o.type, t.rank, t.disp, t.count, t.type), false);
  return 1;
}

// win:rget(buffer, ...) -> request, complete when the buffer holds the data.
int w_rget(lua_State* L) {
  const char* func = "MPI_Rget";
  Win& w = check_win(L, 1, func);
  Typed o = check_typed(L, 2, func);
  Target t = check_target(L, 5, func);
  core::RequestPtr r = w.rget(o.base, o.count, o.type, t.rank, t.disp, t.count, t.type);
  keep_pending(L, 1, 2);
  push_request(L, std::move(r), false);
  return 1;
}

// The op at idx: mpi.REPLACE, mpi.NO_OP or a predefined op (the core checks it on the types).
core::Op check_rma_op_arg(lua_State* L, int idx, const char* func) {
  if (luaL_testudata(L, idx, kReplaceMeta)) return core::Op::Replace;
  if (luaL_testudata(L, idx, kNoOpMeta)) return core::Op::NoOp;
  if (lua_type(L, idx) == LUA_TSTRING) {
    std::string s = lua_tostring(L, idx);
    if (s == "REPLACE" || s == "MPI_REPLACE") return core::Op::Replace;
    if (s == "NO_OP" || s == "MPI_NO_OP") return core::Op::NoOp;
  }
  OpBox op = check_op(L, idx, func);
  if (!op.predefined) fail(ErrClass::Op, func, "accumulate takes predefined ops only, not a user op");
  if (op.kind == OpKind::Maxloc) return core::Op::Maxloc;  // (on pair types)
  if (op.kind == OpKind::Minloc) return core::Op::Minloc;
  static_assert(int(OpKind::Bxor) == int(core::Op::Bxor), "Sum..Bxor share their order");
  return core::Op(int(op.kind));
}

// win:accumulate(buffer, count, datatype, target_rank, target_disp, target_count, target_datatype, op)
int w_accumulate(lua_State* L) {
  const char* func = "MPI_Accumulate";
  Win& w = check_win(L, 1, func);
  Typed o = check_typed(L, 2, func);
  Target t = check_target(L, 5, func);
  core::Op op = check_rma_op_arg(L, 9, func);
  w.accumulate(o.base, o.count, o.type, t.rank, t.disp, t.count, t.type, op);
  return 0;
}

// win:raccumulate(... as accumulate) -> request
int w_raccumulate(lua_State* L) {
  const char* func = "MPI_Raccumulate";
  Win& w = check_win(L, 1, func);
  Typed o = check_typed(L, 2, func);
  Target t = check_target(L, 5, func);
  core::Op op = check_rma_op_arg(L, 9, func);
  push_request(L, w.raccumulate(o.base, o.count, o.type, t.rank, t.disp, t.count, t.type, op), false);
  return 1;
}

// The arguments of get_accumulate: origin at 2..4 (nil with NO_OP), result
// at 5..7, target at 8..11, op at 12. Returns the core's request when
// request_based, else null.
core::RequestPtr get_accumulate(lua_State* L, const char* func, bool request_based) {
  Win& w = check_win(L, 1, func);
  core::Op op = check_rma_op_arg(L, 12, func);
  Typed o;
  if (op != core::Op::NoOp || !lua_isnil(L, 2)) o = check_typed(L, 2, func);
  Typed r = check_typed(L, 5, func);
  Target t = check_target(L, 8, func);
  core::TypePtr otype = op == core::Op::NoOp ? nullptr : o.type;
  core::RequestPtr req;
  if (request_based) req = w.rget_accumulate(o.base, o.count, otype, r.base, r.count, r.type, t.rank, t.disp, t.count, t.type, op);
  else w.get_accumulate(o.base, o.count, otype, r.base, r.count, r.type, t.rank, t.disp, t.count, t.type, op);
  keep_pending(L, 1, 5);
  return req;
}

// win:get_accumulate(buffer, count, datatype, result, result_count,
// result_datatype, target_rank, target_disp, target_count, target_datatype, op)
int w_get_accumulate(lua_State* L) {
  get_accumulate(L, "MPI_Get_accumulate", false);
  return 0;
}

int w_rget_accumulate(lua_State* L) {
  push_request(L, get_accumulate(L, "MPI_Rget_accumulate", true), false);
  return 1;
}

// The first element of the buffer at idx, which must hold one of type.
char* one_element(lua_State* L, int idx, const core::TypePtr& type, const char* what, const char* func) {
  BufferMemory m;
  if (!test_buffer_memory(L, idx, &m))
    fail(ErrClass::Buffer, func, std::string(what) + " must be an mpi.buffer, got " + luaL_typename(L, idx));
  std::int64_t lo = 0, hi = 0;
  type->span(1, &lo, &hi);
  if (lo < 0 || hi > m.bytes)
    fail(ErrClass::Buffer, func, std::string(what) + " holds " + std::to_string(m.bytes) + " bytes, less than one " +
                                     type->name());
  return m.data;
}

// win:fetch_and_op(buffer, result, datatype, target_rank, target_disp, op):
// one element each.
int w_fetch_and_op(lua_State* L) {
  const char* func = "MPI_Fetch_and_op";
  Win& w = check_win(L, 1, func);
  core::TypePtr type = check_usable_type(L, 4, func);
  core::Op op = check_rma_op_arg(L, 7, func);
  const char* origin = op == core::Op::NoOp && lua_isnil(L, 2) ? nullptr : one_element(L, 2, type, "buffer", func);
  char* result = one_element(L, 3, type, "result", func);
  int rank = check_int(L, 5, "target_rank", func, ErrClass::Rank);
  w.fetch_and_op(origin, result, type, rank, check_integer(L, 6, "target_disp", func), op);
  keep_pending(L, 1, 3);
  return 0;
}

// win:compare_and_swap(buffer, compare, result, datatype, target_rank, target_disp)
int w_compare_and_swap(lua_State* L) {
  const char* func = "MPI_Compare_and_swap";
  Win& w = check_win(L, 1, func);
  core::TypePtr type = check_usable_type(L, 5, func);
  const char* origin = one_element(L, 2, type, "buffer", func);
  const char* compare = one_element(L, 3, type, "compare", func);
  char* result = one_element(L, 4, type, "result", func);
  int rank = check_int(L, 6, "target_rank", func, ErrClass::Rank);
  w.compare_and_swap(origin, compare, result, type, rank, check_integer(L, 7, "target_disp", func));
  keep_pending(L, 1, 4);
  return 0;
}

int replace_tostring(lua_State* L) {
  lua_pushliteral(L, "MPI_REPLACE");
  return 1;
}

int noop_tostring(lua_State* L) {
  lua_pushliteral(L, "MPI_NO_OP");
  return 1;
}

const Reg kOperations[] = {
    {"put", wrap<w_put>},
    {"get", wrap<w_get>},
    {"accumulate", wrap<w_accumulate>},
    {"get_accumulate", wrap<w_get_accumulate>},
    {"fetch_and_op", wrap<w_fetch_and_op>},
    {"compare_and_swap", wrap<w_compare_and_swap>},
    {"rput", wrap<w_rput>},
    {"rget", wrap<w_rget>},
    {"raccumulate", wrap<w_raccumulate>},
    {"rget_accumulate", wrap<w_rget_accumulate>},
};

}  // namespace

// Keeps the buffer at buf_idx until the window's next completion: an
// operation writes into it.
void keep_pending(lua_State* L, int win_idx, int buf_idx) {
  buf_idx = lua_absindex(L, buf_idx);
  lua_getiuservalue(L, win_idx, 2);  // push the pending table
  lua_pushvalue(L, buf_idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);  // pending[buffer] = true
  lua_pop(L, 1);
}

std::span<const Reg> win_operations() { return kOperations; }

void open_win_ops(lua_State* L) {
  lua_newuserdatauv(L, 0, 0);  // mpi.REPLACE: an op only accumulate takes
  new_metatable(L, kReplaceMeta, "op", {.tostring = replace_tostring});
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "REPLACE");
  lua_newuserdatauv(L, 0, 0);  // mpi.NO_OP: likewise (get_accumulate, fetch_and_op)
  new_metatable(L, kNoOpMeta, "op", {.tostring = noop_tostring});
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "NO_OP");
}

}  // namespace lumpi::lua
