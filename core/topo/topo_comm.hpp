// core/topo/topo_comm.hpp: topology communicators (seed chapter 7, MPI-2.1 ballot
// items 10 and 11) and the MPI-3 neighbourhood collectives over them.
//
// The constructors are collective over the parent and build on comm_split
// (§7.5.8's reference implementation); the arithmetic is core/topo's. Every
// locally detectable error is raised before any communication. Errors that
// need the other processes' arguments (arguments that differ between
// processes, dist-graph edge lists that disagree) are detected after one
// allgather, by every process from the same data, so all of them raise the
// same error and none is left blocked.
//
// Decisions the text leaves open:
//  - reorder is accepted and ignored: ranks are never reordered (the
//    identity mapping of §7.5.8 is a legal implementation);
//  - constructors and map functions on an intercommunicator raise
//    MPI_ERR_COMM (as MPICH and Open MPI do); queries, cart_sub and the
//    neighbourhood collectives on a communicator without the right topology,
//    intercommunicators included, raise MPI_ERR_TOPOLOGY;
//  - dist-graph info: no key is recognised; keys and values must be strings
//    and the same on every process;
//  - dist-graph weights: the graph is weighted when any process gave weights
//    (possibly empty ones, MPI_WEIGHTS_EMPTY); a process that said
//    MPI_UNWEIGHTED while specifying edges of a weighted graph is an error
//    on every process (§7.5.4), one with no edges is neutral.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/topo/topo.hpp"

namespace lumpi::core {

// ---- the topology of a communicator (local) ----------------------------------

// The topology of c, raising MPI_ERR_TOPOLOGY naming `func` when c is an
// intercommunicator or has no topology of that kind.
const topo::Cart& cart_of(const Comm& c, std::string_view func);
const topo::Graph& graph_of(const Comm& c, std::string_view func);
const topo::DistGraph& dist_graph_of(const Comm& c, std::string_view func);

// ---- constructors (collective over the parent; nullptr is MPI_COMM_NULL) -----

// MPI_Cart_create: the first cart.size() ranks form the grid, the others get
// nullptr; zero dimensions give rank 0 alone a zero-dimensional grid.
CommPtr cart_create(Comm& parent, const topo::Cart& cart, bool reorder);
// MPI_Graph_create: the first nnodes ranks; nnodes == 0 gives nullptr everywhere.
CommPtr graph_create(Comm& parent, const topo::Graph& graph, bool reorder);
// MPI_Cart_sub: every process gets the sub-grid it lies in.
CommPtr cart_sub(Comm& parent, const std::vector<bool>& remain_dims);

struct DistGraphOptions {
  bool reorder = false;
  std::map<std::string, std::string> info;
};

// MPI_Dist_graph_create_adjacent. `mine.weighted` says whether this process
// gave weights (false: MPI_UNWEIGHTED). The edge lists of all processes must
// agree (every edge listed at both ends, with the same weight): checked.
CommPtr dist_graph_create_adjacent(Comm& parent, const topo::DistGraph& mine,
                                   const DistGraphOptions& opts);
// MPI_Dist_graph_create: edges from any process, routed to both ends.
CommPtr dist_graph_create(Comm& parent, const topo::DistGraphSpec& spec,
                          const DistGraphOptions& opts);

// MPI_Cart_map / MPI_Graph_map (local): the caller's rank or UNDEFINED.
int cart_map(const Comm& c, const topo::Cart& cart);
int graph_map(const Comm& c, const topo::Graph& graph);

// ---- neighbourhood collectives (MPI-3 §7.6) ---------------------------------------

// A process's neighbours in MPI-3 order: Cartesian (-1, +1) per dimension
// with PROC_NULL off a non-periodic edge, graph in graph_neighbors order,
// dist graph in dist_graph_neighbors order (in = sources, out = destinations).
//
// Which message fills which slot when a neighbour appears more than once
// (MPI-4.0 errata, mpi-issues #153, MPI-4.1 §8.6), the one rule of the
// blocking (core/coll/neighbor.cpp) and nonblocking (core/coll/nbc.cpp) forms: a
// Cartesian block sent towards the -1 neighbour of a dimension (out-slot 2d)
// is received in the +1 slot (in-slot 2d+1) of that neighbour and vice
// versa, even when both neighbours are the same process, so the two
// directions travel as two streams (0 and 1); graphs use one stream, and
// the k-th edge to a process matches the k-th edge from it by the
// non-overtaking order.
struct Neighbors {
  std::vector<int> in, out;
  bool cart = false;
  int out_stream(size_t k) const { return cart ? int(k % 2) : 0; }
  int in_stream(size_t k) const { return cart ? int(1 - k % 2) : 0; }
};
Neighbors neighbors_of(const Comm& c, std::string_view func);
// neighbors_of for an exchange: also MPI_ERR_TOPOLOGY for a graph whose
// edges are not symmetric (§7.6), and, when out_blocks is given, MPI_ERR_ARG
// unless it is the out-degree. Every process finds the same violation, so
// all raise before anything is sent.
Neighbors exchange_neighbors(const Comm& c, std::string_view func, std::optional<size_t> out_blocks = {});

using Blocks = std::vector<std::optional<std::string>>;

// MPI_Neighbor_allgather: `mine` to every out-neighbour; one entry per
// in-neighbour, nullopt for PROC_NULL. `func`: the MPI name for errors,
// hang reports and the trace's span (the C API's v form passes its own).
Blocks neighbor_allgather(Comm& c, const std::string& mine, const char* func = "MPI_Neighbor_allgather");
// MPI_Neighbor_alltoall: blocks[k] to out-neighbour k (ignored for
// PROC_NULL); one entry per in-neighbour. blocks.size() must be the
// out-degree (MPI_ERR_ARG otherwise).
Blocks neighbor_alltoall(Comm& c, const std::vector<std::string>& blocks,
                         const char* func = "MPI_Neighbor_alltoall");

}  // namespace lumpi::core
