// tests/unit/hw_test.cpp: core/base/hw level names and the machine tree (no
// binding: the unit-test process keeps its affinity).
#include <doctest/doctest.h>

#include <algorithm>

#include "core/base/error.hpp"
#include "core/base/hw.hpp"

using namespace lumpi::core;

TEST_CASE("hw level names: short names, MPI resource types, any case") {
  CHECK(hw::parse_level("core") == hw::Level::Core);
  CHECK(hw::parse_level("PU") == hw::Level::PU);
  CHECK(hw::parse_level("NUMANode") == hw::Level::NUMA);
  CHECK(hw::parse_level("numa") == hw::Level::NUMA);
  CHECK(hw::parse_level("Package") == hw::Level::Package);
  CHECK(hw::parse_level("L3Cache") == hw::Level::L3Cache);
  CHECK(hw::parse_level("L2Cache") == hw::Level::L2Cache);
  CHECK_FALSE(hw::parse_level("board").has_value());
  CHECK(std::string(hw::level_name(hw::Level::NUMA)) == "numa");
}

TEST_CASE("hw counts and info describe this machine") {
  CHECK(hw::count(hw::Level::Machine) == 1);
  CHECK(hw::count(hw::Level::PU) >= 1);
  CHECK(hw::count(hw::Level::PU) >= hw::count(hw::Level::Core));
  hw::Info i = hw::info();
  CHECK(i.pus == hw::count(hw::Level::PU));
  CHECK_FALSE(i.cpuset.empty());
  CHECK(hw::locality(hw::Level::Machine) == 0);
}

TEST_CASE("hw tree places a rank at the smallest object holding its cpuset") {
  hw::Node machine = hw::machine_tree({{0, "0"}, {1, hw::cpuset_text()}});
  CHECK(machine.label.find("Machine") == 0);
  const hw::Node* n = &machine;  // down the first non-memory children to a leaf: PU L#0
  for (;;) {
    auto it = std::find_if(n->children.begin(), n->children.end(), [](const hw::Node& c) { return !c.memory; });
    if (it == n->children.end()) break;
    n = &*it;
  }
  CHECK(n->label.find("PU L#0") == 0);
  CHECK(n->ranks == std::vector<int>{0});  // rank 0 is bound to PU 0
}

TEST_CASE("hw bind rejects an index out of range before touching the OS") {
  CHECK_THROWS_AS(hw::bind(hw::Level::PU, hw::count(hw::Level::PU)), lumpi::core::Error);
  CHECK_THROWS_AS(hw::bind(hw::Level::Core, -1), lumpi::core::Error);
}
