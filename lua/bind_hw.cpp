// lua/bind_hw.cpp: the `mpi.hw` table (API.md §10) over core/base/hw.hpp.
//
// mpi.hw.info() describes the machine and the rank's binding,
// mpi.hw.bind(level, index) binds the calling rank, mpi.hw.locality(level)
// says which object of that level holds it (mpi.UNDEFINED when the binding
// spans several), mpi.hw.count(level) counts the objects of a level. Levels
// are strings: "machine", "package", "numa", "l3", "l2", "core", "pu" (or
// MPI's "Package", "NUMANode", "L3Cache", "L2Cache", "Core", "PU").
#include "core/base/constants.hpp"
#include "core/base/hw.hpp"
#include "lua/binding.hpp"

namespace lumpi::lua {
namespace {

namespace hw = core::hw;

hw::Level check_level(lua_State* L, int idx, const char* func) {
  std::string name = check_string(L, idx, "level", func);
  auto level = hw::parse_level(name);
  if (!level)
    core::fail(core::ErrClass::Arg, func,
               "level '" + name + "' is not one of machine, package, numa, l3, l2, core, pu");
  return *level;
}

int hw_info(lua_State* L) {
  hw::Info i = hw::info();
  lua_createtable(L, 0, 8);  // push the result
  set_string(L, "host", i.host);
  set_int(L, "pid", i.pid);
  set_int(L, "cores", i.cores);
  set_int(L, "pus", i.pus);
  set_int(L, "numa", i.numa);
  set_int(L, "packages", i.packages);
  set_string(L, "cpuset", i.cpuset);
  if (i.bound) {
    lua_createtable(L, 0, 2);  // push bound = {level=, index=}
    set_string(L, "level", hw::level_name(i.bound->first));
    set_int(L, "index", i.bound->second);
    lua_setfield(L, -2, "bound");  // result.bound = it, pop
  }
  return 1;
}

int hw_bind(lua_State* L) {
  const char* f = "mpi.hw.bind";
  hw::Level level = check_level(L, 1, f);
  lua_Integer index = check_integer(L, 2, "index", f);
  if (index < 0 || index > 1 << 20)
    core::fail(core::ErrClass::Arg, f, "index " + std::to_string(index) + " is out of range");
  hw::bind(level, int(index), f);
  return 0;
}

int hw_locality(lua_State* L) {
  auto where = hw::locality(check_level(L, 1, "mpi.hw.locality"));
  lua_pushinteger(L, where ? *where : core::UNDEFINED);
  return 1;
}

int hw_count(lua_State* L) {
  lua_pushinteger(L, hw::count(check_level(L, 1, "mpi.hw.count")));
  return 1;
}

const Reg kHwFuncs[] = {{"info", wrap<hw_info>},
                        {"bind", wrap<hw_bind>},
                        {"locality", wrap<hw_locality>},
                        {"count", wrap<hw_count>}};

}  // namespace

void open_hw(lua_State* L) {
  lua_newtable(L);  // push mpi.hw
  set_funcs(L, kHwFuncs);
  lua_setfield(L, -4, "hw");  // mpi.hw = it, pop (mpi is below the two method tables)
}

}  // namespace lumpi::lua
