// core/base/hw.hpp: the machine's hardware as hwloc sees it, for one process.
//
// Loads the hwloc topology once (lazily, on first use) and answers: how many
// objects of a level there are, where the calling process is bound, which
// object of a level contains that binding (split_type "hw_guided" and
// mpi.hw.locality), binding the process to one object, and the tree of the
// machine with ranks placed on it (which the rank host draws for :hw). Knows nothing of Lua
// or of communicators; every bad argument raises core::Error(Arg).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lumpi::core::hw {

// Levels of the hwloc tree, coarse to fine.
enum class Level { Machine, Package, NUMA, L3Cache, L2Cache, Core, PU };

// Accepts the short names of --bind and mpi.hw ("machine", "package", "numa",
// "l3", "l2", "core", "pu") and MPI's mpi_hw_resource_type values ("Package",
// "NUMANode", "L3Cache", "L2Cache", "Core", "PU"), case-insensitively.
std::optional<Level> parse_level(std::string_view name);
// The short name: "package", "numa", "core", ...
const char* level_name(Level level);
// The name as a value of MPI's "mpi_hw_resource_type" (hwloc's type names):
// "Machine", "Package", "NUMANode", "L3Cache", "L2Cache", "Core", "PU".
const char* resource_name(Level level);

// Number of objects of `level` on this machine (at least 1 for Machine, PU).
int count(Level level);

// This machine's host name (MPI_Get_processor_name, the rank's hello).
std::string hostname();

struct Info {
  std::string host;
  long pid = 0;
  int cores = 0, pus = 0, numa = 0, packages = 0;
  std::string cpuset;  // PUs the process may run on, as a list "0-1,4"
  // Set once the process was bound with bind() (by --bind or mpi.hw.bind).
  std::optional<std::pair<Level, int>> bound;
};
Info info();

// Binds the calling process to object `index` of `level` (0-based, logical
// order). Throws Error(Arg) naming `func` for an index out of range, and
// Error(Other) if the operating system refuses.
void bind(Level level, int index, std::string_view func = "mpi.hw.bind");

// Index of the object of `level` that contains the process's current
// binding; nullopt when the binding spans several such objects (for
// example an unbound process on a two-core machine, at level Core).
std::optional<int> locality(Level level);

// PU list text of the process's current binding ("0-1").
std::string cpuset_text();

// The machine's objects as hwloc lists them, from the Machine down: each
// with its label as lstopo prints it ("Core L#1", "PU L#2 (P#2)"), the
// ranks whose binding lies within it and in no smaller object, and its
// children, memory objects (NUMA nodes) first. `rank_cpusets` maps a rank
// to its cpuset text as cpuset_text() gives it. Drawing it is the caller's
// (:hw, launcher/host/host.cpp).
struct Node {
  std::string label;
  std::vector<int> ranks;  // ascending
  bool memory = false;     // a memory child (NUMA node) of its parent
  std::vector<Node> children;
};
Node machine_tree(const std::map<int, std::string>& rank_cpusets);

}  // namespace lumpi::core::hw
