// lua/bind_coll.cpp: collective methods (API.md §7). Values are encoded
// before the collective starts, so a bad value fails on its own rank only.
#include "core/coll.hpp"
#include "core/constants.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"

namespace lumpi::lua {
namespace {

void push_decoded(lua_State* L, const std::string& bytes) { decode(L, bytes); }

int c_barrier(lua_State* L) {
  core::coll::barrier(check_comm(L, 1, "MPI_Barrier"));
  return 0;
}

// bcast(value, root) -> root's value on every rank
int c_bcast(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Bcast");
  int root = int(check_integer(L, 3, "root", "MPI_Bcast"));
  c.check_root(root, "MPI_Bcast");
  bool sends = c.is_inter() ? root == core::ROOT : root == c.rank();
  std::string data = sends ? encode(L, 2, "MPI_Bcast") : std::string();
  std::string out = core::coll::bcast(c, std::move(data), root);
  if (c.is_inter() && root != core::PROC_NULL && root != core::ROOT) push_decoded(L, out);
  else if (c.is_inter()) lua_pushnil(L);
  else push_decoded(L, out);
  return 1;
}

// allgather(value) -> sequence of every rank's value
int c_allgather(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Allgather");
  std::vector<std::string> all = core::coll::allgather(c, encode(L, 2, "MPI_Allgather"));
  lua_createtable(L, int(all.size()), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    decode(L, all[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));  // t[i+1] = value, pop
  }
  return 1;
}

const Reg kMethods[] = {
    {"allgather", wrap<c_allgather>},
    {"barrier", wrap<c_barrier>},
    {"bcast", wrap<c_bcast>},
    {nullptr, nullptr},
};

}  // namespace

void open_coll(lua_State* L) {
  lua_pushvalue(L, -2);  // Comm methods
  set_funcs(L, kMethods);
  lua_pop(L, 1);
}

}  // namespace lumpi::lua
