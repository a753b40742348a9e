// lua/bind_coll_typed.cpp: the collectives on typed buffers (issue 12,
// API.md §14): MPI's argument lists with mpi.buffer memory, next to the
// Lua-value forms of lua/bind_coll.cpp. The Comm methods bcast, gather,
// scatter, allgather, alltoall, reduce, allreduce, scan and exscan take the
// typed form when their first argument is a buffer:
//
//   comm:bcast(buf, count, datatype, root) -> buf
//   comm:gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)
//     -> recvbuf at root, nil elsewhere (recv arguments significant at root only)
//   comm:scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root) -> recvbuf
//     (send arguments significant at root only)
//   comm:allgather / comm:alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype) -> recvbuf
//   comm:reduce(sendbuf, recvbuf, count, datatype, op, root) -> recvbuf at root, nil elsewhere
//   comm:allreduce / scan / exscan(sendbuf, recvbuf, count, datatype, op) -> recvbuf
//     (exscan leaves rank 0's recvbuf alone)
//
// The data travels packed (only the bytes the datatype selects, MPI-3.1
// §4.1), so send and receive types need only the same type signature.
// Reductions take a predefined op (not MAXLOC/MINLOC) on a datatype made of
// one basic type (MPI-3.1 §5.9.2's op/type groups; MPI_ERR_OP otherwise);
// allreduce on a predefined type the core's typed collectives know (int,
// int32_t, long, int64_t, unsigned char, uint8_t, float, double) runs on
// the buffer's memory without copies (core/coll/coll_typed.hpp: Rabenseifner for
// long vectors). Every argument is checked on the calling rank before it
// sends anything; intercommunicators and MPI_IN_PLACE are not supported
// here (MPI_ERR_COMM / MPI_ERR_BUFFER).
#include <string>

#include "core/coll/coll.hpp"
#include "core/coll/coll_typed.hpp"
#include "core/coll/layout.hpp"
#include "core/coll/combine.hpp"
#include "core/datatype/op.hpp"
#include "lua/bind_op.hpp"
#include "lua/binding.hpp"
#include "lua/coll_args.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::coll::Bytes;

namespace {

core::Comm& typed_comm(lua_State* L, const char* func) {
  core::Comm& c = coll_comm(L, func);
  if (c.is_inter()) fail(ErrClass::Comm, func, "typed buffers are not supported on an intercommunicator");
  return c;
}

// The triple at idx with `count` elements at offset `block` * count * extent.
Typed block_of(const Typed& t, std::int64_t block) {
  Typed b = t;
  b.base += block * t.count * t.type->extent();
  return b;
}

// The triple at idx for `blocks` blocks of count elements each (the receive
// side of gather/allgather/alltoall, the send side of scatter/alltoall):
// the whole span of blocks * count elements must lie inside the buffer.
Typed check_blocks(lua_State* L, int idx, int blocks, const char* func) {
  Typed one = check_typed(L, idx, func);
  BufferMemory mem;
  test_buffer_memory(L, idx, &mem);
  std::int64_t lo, hi;
  one.type->span(one.count * blocks, &lo, &hi);
  if (lo < 0 || hi > mem.bytes)
    fail(ErrClass::Buffer, func,
         std::to_string(blocks) + " blocks of " + std::to_string(one.count) + " elements touch bytes " +
             std::to_string(lo) + ".." + std::to_string(hi) + " but the buffer has " + std::to_string(mem.bytes) +
             " bytes");
  return one;
}

// The one aliasing rule (core/coll/layout.hpp): a buffer, or views of one
// memory, as both sendbuf and recvbuf where both carry data.
void check_distinct(const Typed& send, const Typed& recv, const char* func) {
  core::coll::check_not_aliased(send.base, recv.base, send.count > 0 && recv.count > 0, func);
}

// Raises MPI_ERR_TRUNCATE unless a block of `what` sent bytes fits the receive block.
void check_fits(std::int64_t sent, const Typed& recv, const char* func) {
  if (sent > recv.count * recv.type->size())
    fail(ErrClass::Truncate, func,
         std::to_string(sent) + " bytes per block are sent but a receive block holds " +
             std::to_string(recv.count * recv.type->size()));
}

// ---- data movement ------------------------------------------------------------------

int t_bcast(lua_State* L) {
  const char* func = "MPI_Bcast";
  core::Comm& c = typed_comm(L, func);
  Typed t = check_typed(L, 2, func);
  int root = root_arg(L, 5, c, func);
  check_coll(c, func, root, nullptr, side(t));
  Bytes data = c.rank() == root ? pack_typed(t, func) : Bytes();
  Bytes out = core::coll::bcast(c, std::move(data), root);
  if (c.rank() != root) unpack_typed(t, out, func);
  lua_settop(L, 2);
  return 1;
}

int t_gather(lua_State* L) {
  const char* func = "MPI_Gather";
  core::Comm& c = typed_comm(L, func);
  Typed send = check_typed(L, 2, func);
  int root = root_arg(L, 8, c, func);
  bool at_root = c.rank() == root;
  Typed recv;
  if (at_root) {
    recv = check_blocks(L, 5, c.size(), func);
    check_distinct(send, recv, func);
    check_fits(send.count * send.type->size(), recv, func);
  }
  check_coll(c, func, root, nullptr, side(send), at_root ? side(recv) : core::check::Side{});
  std::vector<Bytes> all = core::coll::gather(c, pack_typed(send, func), root);
  if (!at_root) {
    lua_pushnil(L);
    return 1;
  }
  for (size_t i = 0; i < all.size(); ++i) unpack_typed(block_of(recv, std::int64_t(i)), all[i], func);
  lua_pushvalue(L, 5);
  return 1;
}

int t_scatter(lua_State* L) {
  const char* func = "MPI_Scatter";
  core::Comm& c = typed_comm(L, func);
  int root = root_arg(L, 8, c, func);
  Typed recv = check_typed(L, 5, func);
  std::vector<Bytes> parts;
  if (c.rank() == root) {
    Typed send = check_blocks(L, 2, c.size(), func);
    check_distinct(send, recv, func);
    check_fits(send.count * send.type->size(), recv, func);
    for (int i = 0; i < c.size(); ++i) parts.push_back(pack_typed(block_of(send, i), func));
  }
  check_coll(c, func, root, nullptr, {}, side(recv));
  unpack_typed(recv, core::coll::scatter(c, std::move(parts), root), func);
  lua_pushvalue(L, 5);
  return 1;
}

int t_allgather(lua_State* L) {
  const char* func = "MPI_Allgather";
  core::Comm& c = typed_comm(L, func);
  Typed send = check_typed(L, 2, func);
  Typed recv = check_blocks(L, 5, c.size(), func);
  check_distinct(send, recv, func);
  check_fits(send.count * send.type->size(), recv, func);
  check_coll(c, func, -1, nullptr, side(send), side(recv));
  std::vector<Bytes> all = core::coll::allgather(c, pack_typed(send, func));
  for (size_t i = 0; i < all.size(); ++i) unpack_typed(block_of(recv, std::int64_t(i)), all[i], func);
  lua_pushvalue(L, 5);
  return 1;
}

int t_alltoall(lua_State* L) {
  const char* func = "MPI_Alltoall";
  core::Comm& c = typed_comm(L, func);
  Typed send = check_blocks(L, 2, c.size(), func);
  Typed recv = check_blocks(L, 5, c.size(), func);
  check_distinct(send, recv, func);
  check_fits(send.count * send.type->size(), recv, func);
  check_coll(c, func, -1, nullptr, side(send), side(recv));
  std::vector<Bytes> parts;
  for (int i = 0; i < c.size(); ++i) parts.push_back(pack_typed(block_of(send, i), func));
  std::vector<Bytes> got = core::coll::alltoall(c, std::move(parts));
  for (size_t i = 0; i < got.size(); ++i) unpack_typed(block_of(recv, std::int64_t(i)), got[i], func);
  lua_pushvalue(L, 5);
  return 1;
}

// ---- reductions ------------------------------------------------------------------------

struct Reduction {
  Typed send, recv;
  core::Op op = core::Op::Sum;
};

// sendbuf at 2, recvbuf at 3, count 4, datatype 5, op 6; recv checked only
// when `with_recv` (reduce's non-roots ignore it).
Reduction check_reduction(lua_State* L, bool with_recv, const char* func) {
  OpBox op = check_op(L, 6, func);
  if (!op.predefined) fail(ErrClass::Op, func, "a user-defined op takes Lua values, not typed buffers");
  Reduction r;
  r.op = op.kind;
  // send: buffer at 2, count at 4, datatype at 5 (MPI's order); check it as a triple
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 4);
  lua_pushvalue(L, 5);
  int top = lua_gettop(L);
  r.send = check_typed(L, top - 2, func);
  if (with_recv) {
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 5);
    r.recv = check_typed(L, top + 1, func);
    check_distinct(r.send, r.recv, func);
  }
  lua_settop(L, top - 3);
  return r;
}

// --check: a reduction described to the collective-mismatch check (lua/coll_args.hpp).
void check_reduction_call(core::Comm& c, const char* func, int root, const Reduction& r) {
  OpBox op;
  op.kind = r.op;
  check_coll(c, func, root, &op, side(r.send));
}

core::coll::Combine combiner(const Reduction& r, const char* func) {
  return core::coll::op_combine(r.op, r.send.type, func);
}

// The core's typed collectives' element type for a predefined basic type, if any.
bool typed_type(core::Basic b, core::coll::typed::Type* out) {
  using T = core::coll::typed::Type;
  switch (b) {
    case core::Basic::Int: case core::Basic::Int32: *out = T::Int32; return sizeof(int) == 4;
    case core::Basic::Long: *out = T::Int64; return sizeof(long) == 8;
    case core::Basic::LongLong: case core::Basic::Int64: *out = T::Int64; return sizeof(long long) == 8;
    case core::Basic::UnsignedChar: case core::Basic::Uint8: *out = T::UInt8; return true;
    case core::Basic::Float: *out = T::Float; return true;
    case core::Basic::Double: *out = T::Double; return true;
    default: return false;
  }
}

int t_reduce(lua_State* L) {
  const char* func = "MPI_Reduce";
  core::Comm& c = typed_comm(L, func);
  int root = root_arg(L, 7, c, func);
  bool at_root = c.rank() == root;
  Reduction r = check_reduction(L, at_root, func);
  check_reduction_call(c, func, root, r);
  std::optional<Bytes> out = core::coll::reduce(c, pack_typed(r.send, func), combiner(r, func), true, root);
  if (!at_root) {
    lua_pushnil(L);
    return 1;
  }
  unpack_typed(r.recv, *out, func);
  lua_pushvalue(L, 3);
  return 1;
}

int t_allreduce(lua_State* L) {
  const char* func = "MPI_Allreduce";
  core::Comm& c = typed_comm(L, func);
  Reduction r = check_reduction(L, true, func);
  check_reduction_call(c, func, -1, r);
  core::coll::typed::Type tt;
  if (r.send.type->layout().is_basic && r.send.type == r.recv.type && typed_type(r.send.type->layout().basic, &tt) &&
      r.send.count <= INT32_MAX) {
    // The buffer's own elements: the core reduces in place in the memory.
    core::coll::typed::allreduce(c, r.send.base, r.recv.base, int(r.send.count), tt,
                                 r.op);
  } else {
    unpack_typed(r.recv, core::coll::allreduce(c, pack_typed(r.send, func), combiner(r, func)), func);
  }
  lua_pushvalue(L, 3);
  return 1;
}

int t_scan(lua_State* L) {
  const char* func = "MPI_Scan";
  core::Comm& c = typed_comm(L, func);
  Reduction r = check_reduction(L, true, func);
  check_reduction_call(c, func, -1, r);
  unpack_typed(r.recv, core::coll::scan(c, pack_typed(r.send, func), combiner(r, func)), func);
  lua_pushvalue(L, 3);
  return 1;
}

int t_exscan(lua_State* L) {
  const char* func = "MPI_Exscan";
  core::Comm& c = typed_comm(L, func);
  Reduction r = check_reduction(L, true, func);
  check_reduction_call(c, func, -1, r);
  std::optional<Bytes> out = core::coll::exscan(c, pack_typed(r.send, func), combiner(r, func));
  if (out) unpack_typed(r.recv, *out, func);
  lua_pushvalue(L, 3);
  return 1;
}

// Calls upvalue 2 (the typed form) when argument 2 is a buffer, else
// upvalue 1 (the Lua-value form); both are wrapped, so errors and error
// handlers are theirs.
// (scatter's sendbuf may be nil off the root: nil there with MPI's seven
// arguments is the typed form too.)
int dispatch(lua_State* L) {
  bool typed = is_buffer(L, 2) || (lua_isnil(L, 2) && lua_gettop(L) >= 7);
  lua_pushvalue(L, lua_upvalueindex(typed ? 2 : 1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

const Reg kTyped[] = {
    {"bcast", wrap<t_bcast>},         {"gather", wrap<t_gather>},   {"scatter", wrap<t_scatter>},
    {"allgather", wrap<t_allgather>}, {"alltoall", wrap<t_alltoall>}, {"reduce", wrap<t_reduce>},
    {"allreduce", wrap<t_allreduce>}, {"scan", wrap<t_scan>},       {"exscan", wrap<t_exscan>},
};

}  // namespace

// Stack: the Comm methods table at -1 (with open_coll's value forms in it).
void open_coll_typed(lua_State* L) {
  for (const Reg& r : kTyped) {
    lua_getfield(L, -1, r.name);  // the value form
    lua_pushcfunction(L, r.fn);
    lua_pushcclosure(L, dispatch, 2);
    lua_setfield(L, -2, r.name);
  }
}

}  // namespace lumpi::lua
