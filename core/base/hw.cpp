// core/base/hw.cpp: the hwloc wrapper (see hw.hpp). One topology per process,
// loaded on first use and kept for the life of the process.
#include "core/base/hw.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <hwloc.h>
#include <unistd.h>

#include "core/base/error.hpp"

namespace lumpi::core::hw {
namespace {

// The loaded topology; hwloc objects stay valid as long as it lives.
struct Topology {
  hwloc_topology_t t = nullptr;
  Topology() {
    hwloc_topology_init(&t);
    hwloc_topology_load(t);
  }
  ~Topology() { hwloc_topology_destroy(t); }
};

hwloc_topology_t topo() {
  static Topology once;
  return once.t;
}

std::optional<std::pair<Level, int>> g_bound;  // what bind() last did

// An hwloc bitmap freed when it goes out of scope.
struct Bitmap {
  hwloc_bitmap_t b = hwloc_bitmap_alloc();
  ~Bitmap() { hwloc_bitmap_free(b); }
  Bitmap() = default;
  Bitmap(const Bitmap&) = delete;
  Bitmap& operator=(const Bitmap&) = delete;
};

hwloc_obj_type_t type_of(Level level) {
  switch (level) {
    case Level::Machine: return HWLOC_OBJ_MACHINE;
    case Level::Package: return HWLOC_OBJ_PACKAGE;
    case Level::NUMA: return HWLOC_OBJ_NUMANODE;
    case Level::L3Cache: return HWLOC_OBJ_L3CACHE;
    case Level::L2Cache: return HWLOC_OBJ_L2CACHE;
    case Level::Core: return HWLOC_OBJ_CORE;
    case Level::PU: return HWLOC_OBJ_PU;
  }
  return HWLOC_OBJ_MACHINE;
}

std::string list_text(hwloc_const_bitmap_t set) {
  char* s = nullptr;
  hwloc_bitmap_list_asprintf(&s, set);
  std::string out = s ? s : "";
  std::free(s);
  return out;
}

// The process's current binding; the whole machine if the OS will not say.
void current_binding(Bitmap& set) {
  if (hwloc_get_cpubind(topo(), set.b, HWLOC_CPUBIND_PROCESS) != 0)
    hwloc_bitmap_copy(set.b, hwloc_topology_get_complete_cpuset(topo()));
}

// One object's label as lstopo prints it: "Core L#1", "L3 L#0 (32MB)", "PU L#2 (P#2)".
std::string label(hwloc_obj_t o) {
  char type[64], attr[128];
  hwloc_obj_type_snprintf(type, sizeof type, o, 0);
  std::string s = type;
  if (o->type != HWLOC_OBJ_MACHINE) s += " L#" + std::to_string(o->logical_index);
  std::string extra;
  if (o->type == HWLOC_OBJ_PU || o->type == HWLOC_OBJ_NUMANODE)
    extra = "P#" + std::to_string(o->os_index);
  if (hwloc_obj_attr_snprintf(attr, sizeof attr, o, " ", 0) > 0) {
    if (!extra.empty()) extra += " ";
    extra += attr;
  }
  if (!extra.empty()) s += " (" + extra + ")";
  return s;
}

// The node of o and its descendants (memory children first), with the
// ranks `placed` on each.
Node node_of(hwloc_obj_t o, const std::map<hwloc_obj_t, std::vector<int>>& placed, bool memory) {
  Node n{label(o), {}, memory, {}};
  if (auto it = placed.find(o); it != placed.end()) n.ranks = it->second;
  std::sort(n.ranks.begin(), n.ranks.end());
  for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling) n.children.push_back(node_of(m, placed, true));
  for (unsigned i = 0; i < o->arity; ++i) n.children.push_back(node_of(o->children[i], placed, false));
  return n;
}

}  // namespace

const char* resource_name(Level level) {
  switch (level) {
    case Level::Machine: return "Machine";
    case Level::Package: return "Package";
    case Level::NUMA: return "NUMANode";
    case Level::L3Cache: return "L3Cache";
    case Level::L2Cache: return "L2Cache";
    case Level::Core: return "Core";
    case Level::PU: return "PU";
  }
  return "?";
}

std::optional<Level> parse_level(std::string_view name) {
  std::string n;
  for (char c : name) n += char(std::tolower(static_cast<unsigned char>(c)));
  if (n == "machine") return Level::Machine;
  if (n == "package" || n == "socket") return Level::Package;
  if (n == "numa" || n == "numanode") return Level::NUMA;
  if (n == "l3" || n == "l3cache") return Level::L3Cache;
  if (n == "l2" || n == "l2cache") return Level::L2Cache;
  if (n == "core") return Level::Core;
  if (n == "pu" || n == "hwthread") return Level::PU;
  return std::nullopt;
}

const char* level_name(Level level) {
  switch (level) {
    case Level::Machine: return "machine";
    case Level::Package: return "package";
    case Level::NUMA: return "numa";
    case Level::L3Cache: return "l3";
    case Level::L2Cache: return "l2";
    case Level::Core: return "core";
    case Level::PU: return "pu";
  }
  return "?";
}

int count(Level level) {
  if (level == Level::Machine) return 1;
  int n = hwloc_get_nbobjs_by_type(topo(), type_of(level));
  return n < 0 ? 0 : n;
}

std::string cpuset_text() {
  Bitmap set;
  current_binding(set);
  return list_text(set.b);
}

std::string hostname() {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return host;
}

Info info() {
  Info i;
  i.host = hostname();
  i.pid = long(getpid());
  i.cores = count(Level::Core);
  i.pus = count(Level::PU);
  i.numa = count(Level::NUMA);
  i.packages = count(Level::Package);
  i.cpuset = cpuset_text();
  i.bound = g_bound;
  return i;
}

void bind(Level level, int index, std::string_view func) {
  int n = count(level);
  if (index < 0 || index >= n)
    fail(ErrClass::Arg, func,
         "index " + std::to_string(index) + " is out of range: this machine has " +
             std::to_string(n) + " object(s) of level '" + level_name(level) + "'");
  hwloc_obj_t o = level == Level::Machine ? hwloc_get_root_obj(topo())
                                          : hwloc_get_obj_by_type(topo(), type_of(level), unsigned(index));
  if (!o || !o->cpuset || hwloc_set_cpubind(topo(), o->cpuset, HWLOC_CPUBIND_PROCESS) != 0)
    fail(ErrClass::Other, func,
         std::string("the operating system refused to bind to ") + level_name(level) + " " +
             std::to_string(index));
  g_bound = std::make_pair(level, index);
}

std::optional<int> locality(Level level) {
  Bitmap set;
  current_binding(set);
  if (hwloc_bitmap_iszero(set.b)) return std::nullopt;
  if (level == Level::Machine) return 0;
  int n = count(level);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_type(topo(), type_of(level), unsigned(i));
    if (o && o->cpuset && hwloc_bitmap_isincluded(set.b, o->cpuset)) return int(o->logical_index);
  }
  return std::nullopt;
}

Node machine_tree(const std::map<int, std::string>& rank_cpusets) {
  std::map<hwloc_obj_t, std::vector<int>> placed;
  for (const auto& [rank, text] : rank_cpusets) {
    Bitmap set;
    if (hwloc_bitmap_list_sscanf(set.b, text.c_str()) != 0 || hwloc_bitmap_iszero(set.b)) continue;
    hwloc_obj_t o = hwloc_get_obj_covering_cpuset(topo(), set.b);
    placed[o ? o : hwloc_get_root_obj(topo())].push_back(rank);
  }
  return node_of(hwloc_get_root_obj(topo()), placed, false);
}

}  // namespace lumpi::core::hw
