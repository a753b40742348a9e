// tests/unit/launch_test.cpp: launcher/coordinator/launch.hpp and launcher/protocol/curve.hpp
// without starting anything: --hosts and hostfiles parsed and refused by
// name, placements checked before any start, launcher command lines, the
// job file's mode and contents, and a damaged or group-readable job file refused.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher/protocol/curve.hpp"
#include "launcher/protocol/heartbeat.hpp"
#include "launcher/coordinator/launch.hpp"

using namespace lumpi::launcher;

namespace {

std::string temp_dir() {
  char t[] = "/tmp/lumpi-launch-test-XXXXXX";
  REQUIRE(mkdtemp(t));
  return t;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

}  // namespace

TEST_CASE("--hosts: names with slots, default 1, bad entries named") {
  auto h = parse_hosts("a:2,b,c:4");
  REQUIRE(h.size() == 3);
  CHECK(h[0].name == "a");
  CHECK(h[0].slots == 2);
  CHECK(h[1].slots == 1);
  CHECK(h[2].slots == 4);
  CHECK_THROWS_WITH_AS(parse_hosts("a:0"), doctest::Contains("not a number of slots"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_hosts("a:x"), doctest::Contains("--hosts a:x"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_hosts(":3"), doctest::Contains("no host name"), std::invalid_argument);
}

TEST_CASE("hostfile: Open MPI's and MPICH's forms, comments, errors by line") {
  std::string dir = temp_dir();
  std::string f = dir + "/hosts";
  std::ofstream(f) << "# lab\nn1 slots=2\nn2:3  # comment\n\nn3\n";
  auto h = read_hostfile(f);
  REQUIRE(h.size() == 3);
  CHECK(h[0].slots == 2);
  CHECK(h[1].name == "n2");
  CHECK(h[1].slots == 3);
  CHECK(h[2].slots == 1);
  std::ofstream(f) << "n1 cpus=2\n";
  CHECK_THROWS_WITH_AS(read_hostfile(f), doctest::Contains("line 1: unknown 'cpus=2'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(read_hostfile(dir + "/none"), doctest::Contains("cannot read"), std::invalid_argument);
  std::remove(f.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("placements are checked before anything starts") {
  Placement p;
  CHECK_NOTHROW(check_placement(p, 4));
  p.hosts = parse_hosts("a:2");
  CHECK_THROWS_WITH_AS(check_placement(p, 4), doctest::Contains("need a --launcher other than local"),
                       std::invalid_argument);
  p.launcher = "ssh";
  CHECK_THROWS_WITH_AS(check_placement(p, 4), doctest::Contains("more than the 2 slots"), std::invalid_argument);
  CHECK_NOTHROW(check_placement(p, 2));
  p.hostfile = "x";
  CHECK_THROWS_WITH_AS(check_placement(p, 2), doctest::Contains("exclude each other"), std::invalid_argument);
  Placement q;
  q.launcher = "ssh";
  CHECK_THROWS_WITH_AS(check_placement(q, 2), doctest::Contains("needs --hosts or --hostfile"), std::invalid_argument);
  q.launcher = "pbs";
  CHECK_THROWS_WITH_AS(check_placement(q, 2), doctest::Contains("--launcher must be"), std::invalid_argument);
  q.launcher = "srun";
  q.rsh = "rsh";
  CHECK_THROWS_WITH_AS(check_placement(q, 2), doctest::Contains("--rsh applies"), std::invalid_argument);
}

TEST_CASE("ssh launcher: one remote shell per host, ranks filled in order, the key never on a command line") {
  LaunchSpec s;
  s.placement.launcher = "ssh";
  s.placement.hosts = parse_hosts("h1:2,h2:2");
  s.placement.rsh = "/bin/sh -x";
  s.size = 3;
  s.exe = "/opt/lumpi-rank";
  s.args = {"it's"};
  s.join_path = "/home/u/.lumpi/jobs/lumpi-1/job";
  s.cwd = "/w";
  auto cmds = launch_commands(s);
  REQUIRE(cmds.size() == 2);
  CHECK(cmds[0][0] == "/bin/sh");
  CHECK(cmds[0][1] == "-x");
  CHECK(cmds[0][2] == "h1");
  CHECK(cmds[0][3].find("LUMPI_RANK=0 LUMPI_LOCAL_RANK=0 '/opt/lumpi-rank' 'it'\\''s' &") != std::string::npos);
  CHECK(cmds[0][3].find("LUMPI_RANK=1 LUMPI_LOCAL_RANK=1") != std::string::npos);
  CHECK(cmds[1][3].find("LUMPI_RANK=2 LUMPI_LOCAL_RANK=0") != std::string::npos);
  CHECK(cmds[1][3].find("LUMPI_RANK=3") == std::string::npos);
  CHECK(cmds[1][3].find("LUMPI_JOIN='/home/u/.lumpi/jobs/lumpi-1/job'") != std::string::npos);
}

TEST_CASE("mpirun and mpiexec command lines carry hosts, the agent and the job file's path") {
  LaunchSpec s;
  s.placement.hosts = parse_hosts("a:2,b:1");
  s.placement.rsh = "/x/rsh";
  s.size = 3;
  s.exe = "/opt/lumpi-rank";
  s.join_path = "/j/job";
  s.cwd = "/w";
  if (access("/usr/bin/mpirun.openmpi", X_OK) == 0) {
    s.placement.launcher = "mpirun";
    auto a = launch_commands(s).at(0);
    CHECK(contains(a, "a:2,b:1"));
    CHECK(contains(a, "plm_rsh_agent"));
    CHECK(contains(a, "/x/rsh"));
    CHECK(contains(a, "LUMPI_JOIN=/j/job"));
    CHECK(a.back() == "/opt/lumpi-rank");
  }
  if (access("/usr/bin/mpiexec.mpich", X_OK) == 0) {
    s.placement.launcher = "mpiexec";
    auto a = launch_commands(s).at(0);
    CHECK(contains(a, "-hosts"));
    CHECK(contains(a, "-launcher-exec"));
    CHECK(contains(a, "/j/job"));
  }
}

TEST_CASE("the job file: created 0600, read back; group-readable or damaged refused") {
  REQUIRE(curve_available());
  std::string dir = temp_dir();
  std::string f = dir + "/job";
  JoinInfo j{"tcp://10.0.0.1:5000", "tcp://10.0.0.1:5001", 5, "core", make_keys()};
  write_join_file(f, j);
  struct stat st {};
  REQUIRE(stat(f.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  JoinInfo back = read_join_file(f);
  CHECK(back.control == j.control);
  CHECK(back.beat == j.beat);
  CHECK(back.size == 5);
  CHECK(back.bind == "core");
  CHECK(back.keys.public_key == j.keys.public_key);
  CHECK(back.keys.secret_key == j.keys.secret_key);
  CHECK_THROWS_WITH_AS(write_join_file(f, j), doctest::Contains("cannot create"), std::runtime_error);
  chmod(f.c_str(), 0640);
  CHECK_THROWS_WITH_AS(read_join_file(f), doctest::Contains("mode 0600"), std::runtime_error);
  chmod(f.c_str(), 0600);
  std::ofstream(f) << "control=tcp://x:1\nsize=2\n";
  CHECK_THROWS_WITH_AS(read_join_file(f), doctest::Contains("incomplete or damaged"), std::runtime_error);
  std::remove(f.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("heartbeat identities: rank-N, rank-N@host/pid; others refused") {
  CHECK(rank_of_identity("rank-3", 4) == 3);
  CHECK(rank_of_identity("rank-0@h/12", 4) == 0);
  CHECK(rank_of_identity("rank-4@h/12", 4) == -1);
  CHECK(rank_of_identity("rank--1@h/1", 4) == -1);
  CHECK(rank_of_identity("rank-1x", 4) == -1);
  CHECK(rank_of_identity("bank-1", 4) == -1);
  CHECK(host_of_endpoint("tcp://10.1.2.3:555") == "10.1.2.3");
  CHECK(interface_address("127.0.0.1") == "127.0.0.1");
  CHECK(interface_address("lo") == "127.0.0.1");
  CHECK_THROWS_WITH_AS(interface_address("nosuchif0"), doctest::Contains("--iface nosuchif0"), std::runtime_error);
}
