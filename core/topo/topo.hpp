// core/topo/topo.hpp: process-topology arithmetic (seed chapter 7 and the MPI-2.1
// clarifications), pure and local.
//
// Cartesian rank/coordinate maps, shifts, sub-grids, dims_create, graph and
// distributed-graph storage and validation. Nothing here sends a message or
// knows about communicators beyond their size; core/comm uses these to build
// topology communicators. Erroneous input raises core::Error with the class
// the text implies (MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_RANK, MPI_ERR_TOPOLOGY,
// MPI_ERR_COUNT, ...) naming the argument, `func` being the MPI function name.
// Implemented by core/topo/topo_cart.cpp, topo_dims.cpp and topo_graph.cpp.
//
// Every public function validates all of its arguments first and only then
// computes, so a failing call has no partial effect. Messages name the bad
// argument and its value. A position in a sequence is core::at(), which each
// door counts as its users do (C `coords[0]`, Lua `coords[1]`); dimension
// numbers, directions and ranks are MPI's 0-based numbers.
//
//
// Error classes (the seeds say "erroneous" and leave the class open; where
// MPICH picks one we follow it):
//   MPI_ERR_DIMS  dims_create input that cannot be completed, a Cartesian
//                 extent <= 0;
//   MPI_ERR_ARG   bad direction,
//                 out-of-range non-periodic coordinate,
//                 malformed graph arrays, sequence length mismatches,
//                 negative degrees or weights, negative nnodes;
//   MPI_ERR_RANK  a rank argument outside the communicator or graph.
// A grid larger than the communicator raises the caller's class (check_cart).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "core/base/error.hpp"

namespace lumpi::core::topo {

// ---- Cartesian ------------------------------------------------------------

struct Cart {
  std::vector<int> dims;      // extent per dimension, dims.size() == ndims
  std::vector<bool> periods;  // same length
  int size() const;           // product of dims (1 for ndims == 0)
};

// Checks MPI_Cart_create arguments for a communicator of `comm_size`
// processes: ndims >= 0, every dim >= 1 (MPI-2.1: zero dims is erroneous),
// periods.size() == dims.size(), product <= comm_size. A grid larger than
// the communicator raises `too_large`: MPICH and Open MPI say MPI_ERR_ARG
// from MPI_Cart_create, MPICH says MPI_ERR_DIMS from MPI_Cart_map (Open
// MPI's returns success).
void check_cart(const Cart& c, int comm_size, ErrClass too_large, std::string_view func);

// Row-major rank of coords. Periodic dims wrap; non-periodic out-of-range
// coordinates raise MPI_ERR_ARG (the MPI-2.1 ballot).
int cart_rank(const Cart& c, const std::vector<int>& coords, std::string_view func);
std::vector<int> cart_coords(const Cart& c, int rank, std::string_view func);
// {source, dest} for a shift of `disp` along `direction` from `rank`;
// PROC_NULL off a non-periodic edge. Bad direction raises.
std::pair<int, int> cart_shift(const Cart& c, int rank, int direction, int disp,
                               std::string_view func);
// For MPI_Cart_sub: the sub-grid kept by `remain`, and for `rank` the colour
// (which sub-grid it belongs to) and key (its rank inside it).
Cart cart_sub_grid(const Cart& c, const std::vector<bool>& remain, std::string_view func);
std::pair<int, int> cart_sub_color_key(const Cart& c, const std::vector<bool>& remain, int rank);
// MPI_Cart_map: the rank of `rank` in the grid (identity) or UNDEFINED.
int cart_map(const Cart& c, int comm_size, int rank, std::string_view func);
// The neighbours of `rank` in MPI-3 neighbourhood-collective order: for each
// dimension d, the source then the dest of cart_shift(d, 1), i.e. the -1 then
// the +1 neighbour, PROC_NULL off a non-periodic edge; empty for ndims == 0.
std::vector<int> cart_neighbors(const Cart& c, int rank, std::string_view func);

// MPI_Dims_create: fills the zero entries of `dims` so that the product is
// nnodes, in non-increasing order, as balanced as possible, the same result
// as MPICH 4.0.2. Raises on negative entries, non-divisible products, etc.
std::vector<int> dims_create(int nnodes, std::vector<int> dims, std::string_view func);

// ---- Graph (MPI_Graph_create) ---------------------------------------------

struct Graph {
  std::vector<int> index;  // cumulative degrees, index.size() == nnodes
  std::vector<int> edges;  // flattened adjacency lists
  int nnodes() const { return int(index.size()); }
  // Number of edges, duplicates counted: index[nnodes-1], 0 for no nodes.
  int nedges() const { return index.empty() ? 0 : index.back(); }
  // Neighbours of `rank` in creation order, duplicates and self-loops kept.
  // A rank outside [0, nnodes) raises MPI_ERR_RANK from "MPI_Graph_neighbors".
  std::vector<int> neighbors(int rank) const;
};

// Checks MPI_Graph_create arguments: nnodes <= comm_size, index
// non-negative and non-decreasing, edges.size() == index[nnodes-1], every
// edge in [0, nnodes). nnodes == 0 is valid (MPI-2.1: everyone gets
// COMM_NULL); multi-edges, self-loops and asymmetry are valid (MPI-2.1).
void check_graph(const Graph& g, int comm_size, std::string_view func);
int graph_map(const Graph& g, int comm_size, int rank, std::string_view func);
// MPI_Graph_neighbors_count / MPI_Graph_neighbors for any node `rank`.
int graph_neighbors_count(const Graph& g, int rank, std::string_view func);
std::vector<int> graph_neighbors(const Graph& g, int rank, std::string_view func);

// ---- Distributed graph ----------------------------------------------------

// One process's view. When !weighted both weight vectors are empty
// (MPI_UNWEIGHTED); when weighted they run parallel to sources/destinations.
struct DistGraph {
  std::vector<int> sources, sourceweights;            // in-edges of this process
  std::vector<int> destinations, destweights;         // out-edges of this process
  bool weighted = false;
};

// MPI_Dist_graph_create_adjacent's two weight arrays are both weighted or
// both unweighted (MPI-3.1 §7.5.4 gives the graph one kind): returns which,
// or raises MPI_ERR_ARG naming both, `unweighted` being how the caller's door
// spells it ("MPI_UNWEIGHTED (null)", "mpi.UNWEIGHTED").
bool weighted_alike(bool sourceweights, bool destweights, std::string_view func, std::string_view unweighted);

// Checks one process's MPI_Dist_graph_create_adjacent arguments: every
// source/destination a rank of a communicator of `comm_size` (MPI_ERR_RANK),
// weights parallel to their ranks and non-negative, or absent when unweighted
// (MPI_ERR_ARG). Whether the edges agree across processes is not local.
void check_dist_graph_adjacent(const DistGraph& d, int comm_size, std::string_view func);

// One process's MPI_Dist_graph_create arguments: sources[i] has degrees[i]
// out-edges, listed consecutively in destinations (and weights).
struct DistGraphSpec {
  std::vector<int> sources, degrees, destinations, weights;
  bool weighted = false;  // false: MPI_UNWEIGHTED, and weights must be empty
};

// Checks a DistGraphSpec: ranks in range (MPI_ERR_RANK), degrees and weights
// non-negative, sum(degrees) == destinations.size(), weights parallel to
// destinations or absent when unweighted (MPI_ERR_ARG).
void check_dist_graph(const DistGraphSpec& s, int comm_size, std::string_view func);

struct DistGraphEdge {
  int source, dest, weight;  // weight is 1 for an unweighted graph
  bool operator==(const DistGraphEdge&) const = default;
};

// The directed edges a (checked) spec contributes, in argument order.
std::vector<DistGraphEdge> dist_graph_edges(const DistGraphSpec& s);

// Builds `rank`'s view from every process's edges (`by_contributor[p]` is
// what process p specified). In- and out-lists are in (contributor, argument
// position) order, so every process derives the same deterministic order and
// repeated queries agree (§7.5.5). Each specification is an edge of its own:
// duplicates are kept.
DistGraph dist_graph_assemble(int rank,
                              const std::vector<std::vector<DistGraphEdge>>& by_contributor,
                              bool weighted);

}  // namespace lumpi::core::topo
