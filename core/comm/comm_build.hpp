// core/comm/comm_build.hpp: what every communicator constructor shares (internal
// to core/comm/comm_*.cpp and core/comm/intercomm.cpp; not part of the public API).
//
// A constructor runs in phases on its parent's internal lane, each phase
// with a tag of its own below the wildcard values (tags of one constructor
// are kPhases apart, so a phase's follow-up tags (+1, +2 ...) never reach
// the next constructor's). MPI_Comm_create_group keys its traffic by the
// user's tag (0..TAG_UB), MPI_Intercomm_create's leaders talk on the peer's
// internal lane at TAG_UB + 1 + tag: the three ranges never meet.
//
// New context bases are agreed during the constructor: processes propose
// a fresh base (Engine::propose_context) and the new communicator takes one
// proposal every member can name (the smallest of its members'), so ids are
// unique in the job and never reused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/comm/team.hpp"

namespace lumpi::core::build {

constexpr int kPhases = 8;
enum Tag : int {
  kDup = -(1 << 20),
  kIdup = kDup - 1 * kPhases,
  kIdupLeaders = kIdup + 1,  // idup on an intercommunicator: the leaders' swap
  kCreate = kDup - 2 * kPhases,
  kSplit = kDup - 3 * kPhases,
  kSplitLeaders = kSplit + 4,  // split on an intercommunicator: the leaders swap tables
  kSplitType = kDup - 4 * kPhases,
  kInterLocal = kDup - 5 * kPhases,  // intercomm_create: the leader's news for its group
  kMerge = kDup - 6 * kPhases,
  kTopo = kDup - 7 * kPhases,  // the topology constructors' agreement and contributions
  kFinalizeMarker = kDup - 8 * kPhases,  // MPI_Finalize under --check (core/check/unreceived.cpp)
  kFinalize = kDup - 9 * kPhases,        // MPI_Finalize's barrier (finalize_barrier)
};

// The whole local group of c on its internal lane, for `func`.
Team whole(Comm& c, const char* func);

// MPI_Finalize's barrier over world, so no rank leaves while a peer still
// talks to it: on the internal lane, under MPI_Finalize's own name, so it
// never completes a program's MPI_Barrier, and a rank that waits in it is
// reported in MPI_Finalize.
void finalize_barrier(Comm& world);

// A new intracommunicator / intercommunicator with parent's error handler.
CommPtr make_intra(Comm& parent, uint64_t base, group::Members members);
CommPtr make_inter(Comm& parent, uint64_t base, group::Members local, group::Members remote);

// Raises MPI_ERR_GROUP unless every member of g is in parent's local group.
void check_subgroup(const Comm& parent, const group::Members& g, const char* func);

// A cheap fingerprint of a group, to detect processes passing different groups.
int64_t fingerprint(const group::Members& g);

// One process's row of a split table: its colour, key and proposal; `rank`
// is its rank in its own group.
struct Row {
  int64_t color, key;
  uint64_t proposal;
  int rank;
};
std::string pack_row(int64_t color, int64_t key, uint64_t proposal);
std::vector<Row> rows_of(const std::vector<std::string>& parts, const char* func);
// The rows of one colour ordered by (key, rank).
std::vector<Row> colour_members(const std::vector<Row>& rows, int64_t color);
// The world ranks of the rows' processes, g being their group.
group::Members world_ranks(const group::Members& g, const std::vector<Row>& rows);
// The smallest proposal among the rows.
uint64_t min_proposal(const std::vector<Row>& a, const std::vector<Row>& b = {});

}  // namespace lumpi::core::build
