// lua/bind_nbc.cpp: the nonblocking collective methods (c:ibarrier ...
// c:iexscan, API.md §7) over core/coll/nbc.hpp. Each checks its arguments as
// its blocking twin in lua/bind_coll.cpp does, starts the collective and
// returns a request; r:wait() (or mpi.waitall ...) then returns the value
// the blocking method would have returned, and a status. A rank's own data
// that fails its check still travels (as the error) so no peer waits for
// it; the rank's request then raises that error.
#include <memory>

#include "core/coll/nbc.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"
#include "lua/coll_args.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::coll::Bytes;
using core::nbc::Out;
using core::nbc::Started;

namespace {

enum class Shape { Nothing, One, List };

// Pushes the request of s; its value is the Out's data (One) or parts
// (List), nil where the collective gives this rank none. `failed` (this
// rank's own bad data) is raised in its place.
int push_started(lua_State* L, Started s, Shape shape, std::optional<core::Error> failed) {
  std::shared_ptr<Out> out = s.out;
  push_request_with(L, std::move(s.request), [out, shape, failed](lua_State* L) {
    raise_if(failed);
    if (shape == Shape::Nothing || !out->has_data) lua_pushnil(L);
    else if (shape == Shape::One) decode(L, out->data);
    else push_list(L, out->parts);
  });
  return 1;
}

core::CommPtr nbc_comm(lua_State* L, const char* func) {
  coll_comm(L, func);
  return check_comm_ptr(L, 1, func);
}

// ---- data movement -------------------------------------------------------------------

// c:ibarrier() -> request
int c_ibarrier(lua_State* L) {
  core::CommPtr c = nbc_comm(L, "MPI_Ibarrier");
  check_coll_started(c, "MPI_Ibarrier");
  return push_started(L, core::nbc::ibarrier(c), Shape::Nothing, {});
}

// c:ibcast(value, root) -> request; wait: root's value (nil in the root's group of an intercomm)
int c_ibcast(lua_State* L) {
  const char* func = "MPI_Ibcast";
  core::CommPtr c = nbc_comm(L, func);
  int root = root_arg(L, 3, *c, func);
  std::optional<core::Error> failed;
  Bytes data = c->is_root(root) ? encode_or_error(L, 2, func, failed) : Bytes();
  check_coll_started(c, func, root, nullptr, failed.has_value());
  return push_started(L, core::nbc::ibcast(c, std::move(data), root), Shape::One, failed);
}

// c:igather(value, root) -> request; wait: sequence at root, nil elsewhere
int c_igather(lua_State* L) {
  const char* func = "MPI_Igather";
  core::CommPtr c = nbc_comm(L, func);
  int root = root_arg(L, 3, *c, func);
  std::optional<core::Error> failed;
  Bytes mine = c->takes_part(root) ? encode_or_error(L, 2, func, failed) : Bytes();
  check_coll_started(c, func, root, nullptr, failed.has_value());
  return push_started(L, core::nbc::igather(c, std::move(mine), root), Shape::List, failed);
}

// c:iscatter(values, root) -> request; wait: this rank's element
int c_iscatter(lua_State* L) {
  const char* func = "MPI_Iscatter";
  core::CommPtr c = nbc_comm(L, func);
  int root = root_arg(L, 3, *c, func);
  std::optional<core::Error> failed;
  std::vector<Bytes> parts;
  if (c->is_root(root)) parts = encode_each_or_error(L, 2, c->peer_size(), func, failed);
  check_coll_started(c, func, root, nullptr, failed.has_value());
  return push_started(L, core::nbc::iscatter(c, std::move(parts), root), Shape::One, failed);
}

// c:iallgather(value) -> request; wait: every rank's value (the remote group's on an intercomm)
int c_iallgather(lua_State* L) {
  const char* func = "MPI_Iallgather";
  core::CommPtr c = nbc_comm(L, func);
  std::optional<core::Error> failed;
  Bytes mine = encode_or_error(L, 2, func, failed);
  check_coll_started(c, func, -1, nullptr, failed.has_value());
  return push_started(L, core::nbc::iallgather(c, std::move(mine)), Shape::List, failed);
}

// c:ialltoall(values) -> request; wait: sequence, element j from rank j
int c_ialltoall(lua_State* L) {
  const char* func = "MPI_Ialltoall";
  core::CommPtr c = nbc_comm(L, func);
  std::optional<core::Error> failed;
  std::vector<Bytes> parts = encode_each_or_error(L, 2, c->peer_size(), func, failed);
  check_coll_started(c, func, -1, nullptr, failed.has_value());
  return push_started(L, core::nbc::ialltoall(c, std::move(parts)), Shape::List, failed);
}

// ---- reductions ----------------------------------------------------------------------

// c:ireduce(value, op, root) -> request; wait: result at root, nil elsewhere
int c_ireduce(lua_State* L) {
  const char* func = "MPI_Ireduce";
  core::CommPtr c = nbc_comm(L, func);
  int root = root_arg(L, 4, *c, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  Bytes mine = c->takes_part(root) ? operand_or_error(L, 2, op, func, failed) : Bytes();
  check_coll_started(c, func, root, &op, failed.has_value());
  Started s = core::nbc::ireduce(c, std::move(mine), value_combiner(main_thread(L), op, func), op.commute, root);
  return push_started(L, std::move(s), Shape::One, failed);
}

// The unrooted reductions: start(c, operand, combine).
template <class Start>
int unrooted(lua_State* L, const char* func, Start start) {
  core::CommPtr c = nbc_comm(L, func);
  OpBox op = check_op(L, 3, func);
  std::optional<core::Error> failed;
  Bytes mine = operand_or_error(L, 2, op, func, failed);
  check_coll_started(c, func, -1, &op, failed.has_value());
  return push_started(L, start(c, std::move(mine), value_combiner(main_thread(L), op, func)), Shape::One,
                      failed);
}

// c:iallreduce(value, op) -> request; wait: the result (the other group's on an intercomm)
int c_iallreduce(lua_State* L) {
  return unrooted(L, "MPI_Iallreduce", [](const core::CommPtr& c, Bytes mine, core::coll::Combine f) {
    return core::nbc::iallreduce(c, std::move(mine), std::move(f));
  });
}

// c:iscan(value, op) -> request; wait: x0 ∘ ... ∘ x_rank
int c_iscan(lua_State* L) {
  return unrooted(L, "MPI_Iscan", [](const core::CommPtr& c, Bytes mine, core::coll::Combine f) {
    return core::nbc::iscan(c, std::move(mine), std::move(f));
  });
}

// c:iexscan(value, op) -> request; wait: x0 ∘ ... ∘ x_(rank-1), nil on rank 0
int c_iexscan(lua_State* L) {
  return unrooted(L, "MPI_Iexscan", [](const core::CommPtr& c, Bytes mine, core::coll::Combine f) {
    return core::nbc::iexscan(c, std::move(mine), std::move(f));
  });
}

const Reg kMethods[] = {
    {"iallgather", wrap<c_iallgather>}, {"iallreduce", wrap<c_iallreduce>}, {"ialltoall", wrap<c_ialltoall>},
    {"ibarrier", wrap<c_ibarrier>},     {"ibcast", wrap<c_ibcast>},         {"iexscan", wrap<c_iexscan>},
    {"igather", wrap<c_igather>},       {"ireduce", wrap<c_ireduce>},       {"iscan", wrap<c_iscan>},
    {"iscatter", wrap<c_iscatter>}};

}  // namespace

void open_nbc(lua_State* L) {
  set_funcs(L, kMethods, -2);  // Comm methods
}

}  // namespace lumpi::lua
