// lua/bind_comm_create.cpp: communicator constructors and the destructor
// (API.md §5), over core/comm/comm_create. Attribute copying on dup and deletion
// on free are bind_attr.cpp's; this file calls them at the right moment: copy
// callbacks after the core dup succeeded (for idup at call time, before it
// sends anything, as the seed requires), delete callbacks before the core free.
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {

namespace {

using core::ErrClass;
using core::fail;

// Pushes the new communicator (at the top afterwards) and copies the
// attributes of the one at index 1 onto it; a failing copy frees it again.
void push_dup(lua_State* L, const core::CommPtr& c, const char* func) {
  core::Comm& old = check_comm(L, 1, func);
  push_comm(L, c);
  try {
    copy_attrs(L, 1, old, *c, func);
  } catch (...) {
    c->mark_freed();
    throw;
  }
}

int c_dup(lua_State* L) {
  const char* func = "MPI_Comm_dup";
  push_dup(L, core::comm_dup(check_comm(L, 1, func)), func);
  return 1;
}

int c_dup_with_info(lua_State* L) {
  const char* func = "MPI_Comm_dup_with_info";
  core::Comm& c = check_comm(L, 1, func);
  core::Hints h = check_info(L, 2, "info", func);
  push_dup(L, core::comm_dup_with_info(c, h), func);
  return 1;
}

// c:idup() -> newcomm, request. Attributes are copied now (seed: as if the
// dup ran at call time), before the idup sends anything, so a raising copy
// callback fails the call with no message in flight; newcomm is usable once
// the request completes.
int c_idup(lua_State* L) {
  const char* func = "MPI_Comm_idup";
  core::Idup d = core::comm_idup(check_comm_ptr(L, 1, func),
                                 [L, func](const core::CommPtr& c) { push_dup(L, c, func); });
  push_request_with(L, d.request, nullptr);  // a collective's: its value is nil
  return 2;
}

// c:idup_with_info(info) -> newcomm, request: as idup, with the hints of
// `info` read at call time.
int c_idup_with_info(lua_State* L) {
  const char* func = "MPI_Comm_idup_with_info";
  core::CommPtr parent = check_comm_ptr(L, 1, func);
  core::Hints h = check_info(L, 2, "info", func);
  core::Idup d = core::comm_idup_with_info(parent, h, [L, func](const core::CommPtr& c) { push_dup(L, c, func); });
  push_request_with(L, d.request, nullptr);  // a collective's: its value is nil
  return 2;
}

int c_create(lua_State* L) {
  const char* func = "MPI_Comm_create";
  core::Comm& c = check_comm(L, 1, func);
  const auto& g = check_group(L, 2, func).members;
  return push_comm(L, core::comm_create(c, g));
}

int c_create_group(lua_State* L) {
  const char* func = "MPI_Comm_create_group";
  core::Comm& c = check_comm(L, 1, func);
  const auto& g = check_group(L, 2, func).members;
  int tag = opt_int(L, 3, 0, "tag", func, ErrClass::Tag);
  return push_comm(L, core::comm_create_group(c, g, tag));
}

// split(color, key): color nil or UNDEFINED gives nil; key defaults to 0.
int c_split(lua_State* L) {
  const char* func = "MPI_Comm_split";
  core::Comm& c = check_comm(L, 1, func);
  int color = opt_int(L, 2, core::UNDEFINED, "color", func);
  int key = opt_int(L, 3, 0, "key", func);
  return push_comm(L, core::comm_split(c, color, key));
}

// split_type(type, key, info): type a string or mpi.UNDEFINED (or nil).
int c_split_type(lua_State* L) {
  const char* func = "MPI_Comm_split_type";
  core::Comm& c = check_comm(L, 1, func);
  bool undefined = lua_isnoneornil(L, 2);
  std::string type;
  if (!undefined && lua_type(L, 2) == LUA_TSTRING) {
    type = lua_tostring(L, 2);
  } else if (!undefined) {
    lua_Integer v = check_integer(L, 2, "split_type", func);
    if (v != core::UNDEFINED)
      fail(ErrClass::Arg, func, "split_type " + std::to_string(v) + " is neither a type name nor mpi.UNDEFINED");
    undefined = true;
  }
  int key = opt_int(L, 3, 0, "key", func);
  core::Hints h = check_info(L, 4, "info", func);
  return push_comm(L, core::comm_split_type(c, undefined, type, key, h));
}

// intercomm_create(local_leader, peer_comm, remote_leader, tag): peer_comm
// and remote_leader matter only at the local leader (nil elsewhere is fine).
int c_intercomm_create(lua_State* L) {
  const char* func = "MPI_Intercomm_create";
  core::Comm& local = check_comm(L, 1, func);
  int local_leader = opt_int(L, 2, 0, "local_leader", func);
  core::Comm* peer = lua_isnoneornil(L, 3) ? nullptr : test_comm(L, 3);
  if (!lua_isnoneornil(L, 3) && comm_class_at(L, 3).empty())  // a freed one is checked at the leader
    fail(ErrClass::Comm, func, std::string("peer_comm must be a communicator, got ") + luaL_typename(L, 3));
  int remote_leader = opt_int(L, 4, 0, "remote_leader", func);
  int tag = opt_int(L, 5, 0, "tag", func);
  return push_comm(L, core::intercomm_create(local, local_leader, peer, remote_leader, tag));
}

// intercomm_merge(high): high is a boolean, or an integer read the way C
// reads MPI's logical argument (0 is false, anything else true).
int c_intercomm_merge(lua_State* L) {
  const char* func = "MPI_Intercomm_merge";
  core::Comm& c = check_comm(L, 1, func);
  bool high = lua_type(L, 2) == LUA_TNUMBER ? check_integer(L, 2, "high", func) != 0
                                            : opt_boolean(L, 2, false, "high", func);
  return push_comm(L, core::intercomm_merge(c, high));
}

// c:free(): delete callbacks first (a raising one fails the call and leaves
// the communicator alive), then every reference becomes a freed handle,
// which lets go of the C++ communicator now rather than at collection.
int c_free(lua_State* L) {
  const char* func = "MPI_Comm_free";
  core::Comm& c = check_comm(L, 1, func);
  core::check_freeable(c);
  delete_attrs(L, 1, c, func);
  core::comm_free(c);
  release_comm(L, 1);
  return 0;
}

const Reg kMethods[] = {
    {"dup", wrap<c_dup>},
    {"dup_with_info", wrap<c_dup_with_info>},
    {"idup", wrap<c_idup>},
    {"idup_with_info", wrap<c_idup_with_info>},
    {"create", wrap<c_create>},
    {"create_group", wrap<c_create_group>},
    {"split", wrap<c_split>},
    {"split_type", wrap<c_split_type>},
    {"intercomm_create", wrap<c_intercomm_create>},
    {"intercomm_merge", wrap<c_intercomm_merge>},
    {"free", wrap<c_free>},
};

}  // namespace

void open_comm_create(lua_State* L) {
  set_funcs(L, kMethods, -2);  // Comm methods
}

}  // namespace lumpi::lua
