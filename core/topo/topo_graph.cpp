// core/topo/topo_graph.cpp: graph and distributed-graph topology arithmetic: checks of the arrays, neighbours, graph_map, edge lists (seed §7.5.3, §7.5.4).
// Pure and local, as all of core/topo/topo_*.cpp: sends nothing, knows
// communicators only by their size (core/topo/topo.hpp has the rules they share).
#include "core/topo/topo.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/topo/topo_check.hpp"

namespace lumpi::core::topo {
using namespace detail;

// ---- Graph --------------------------------------------------------------------

namespace {

void check_node(const Graph& g, int rank, std::string_view func) {
  if (rank < 0 || rank >= g.nnodes()) {
    fail(ErrClass::Rank, func,
         "rank = " + num(rank) + " is out of range for a graph of " + num(g.nnodes()) +
             " nodes");
  }
}

// index[rank-1], with index[-1] = 0 (§7.5.3, C indexing).
int first_edge(const Graph& g, int rank) { return rank == 0 ? 0 : g.index[std::size_t(rank - 1)]; }

void check_index(const Graph& g, std::string_view func) {
  for (std::size_t i = 0; i < g.index.size(); ++i) {
    if (g.index[i] < 0) {
      fail(ErrClass::Arg, func, at("index", i) + " = " + num(g.index[i]) + " is negative");
    }
    if (i > 0 && g.index[i] < g.index[i - 1]) {
      fail(ErrClass::Arg, func,
           at("index", i) + " = " + num(g.index[i]) + " is less than " + at("index", i - 1) +
               " = " + num(g.index[i - 1]) + ", but index holds cumulative degrees");
    }
  }
}

}  // namespace

std::vector<int> Graph::neighbors(int rank) const {
  return graph_neighbors(*this, rank, "MPI_Graph_neighbors");
}

void check_graph(const Graph& g, int comm_size, std::string_view func) {
  if (g.nnodes() > comm_size) {
    fail(ErrClass::Arg, func,
         "nnodes = " + num(g.nnodes()) + " (the length of index) is larger than the " +
             num(comm_size) + " processes in the communicator");
  }
  check_index(g, func);
  check_length(func, "edges", g.edges.size(), std::size_t(g.nedges()),
               "the last entry of index");
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    if (g.edges[i] < 0 || g.edges[i] >= g.nnodes()) {
      fail(ErrClass::Arg, func,
           at("edges", i) + " = " + num(g.edges[i]) + " is not a node of a graph of " +
               num(g.nnodes()) + " nodes");
    }
  }
}

int graph_map(const Graph& g, int comm_size, int rank, std::string_view func) {
  check_graph(g, comm_size, func);
  if (rank < 0 || rank >= comm_size) {
    fail(ErrClass::Rank, func,
         "rank = " + num(rank) + " is out of range for a communicator of size " +
             num(comm_size));
  }
  return rank < g.nnodes() ? rank : UNDEFINED;  // §7.5.8: no reordering
}

int graph_neighbors_count(const Graph& g, int rank, std::string_view func) {
  check_node(g, rank, func);
  return g.index[std::size_t(rank)] - first_edge(g, rank);
}

std::vector<int> graph_neighbors(const Graph& g, int rank, std::string_view func) {
  check_node(g, rank, func);
  // Exactly the creation order, duplicates and self-loops included (MPI-2.2).
  const auto begin = g.edges.begin() + first_edge(g, rank);
  const auto end = g.edges.begin() + g.index[std::size_t(rank)];
  return {begin, end};
}

// ---- Distributed graph -------------------------------------------------------

bool weighted_alike(bool sourceweights, bool destweights, std::string_view func, std::string_view unweighted) {
  auto kind = [&](bool weighted) { return weighted ? std::string("weighted") : std::string(unweighted); };
  if (sourceweights != destweights)
    fail(ErrClass::Arg, func,
         "sourceweights is " + kind(sourceweights) + " but destweights is " + kind(destweights) +
             "; give both or neither");
  return sourceweights;
}

void check_dist_graph_adjacent(const DistGraph& d, int comm_size, std::string_view func) {
  check_ranks(func, "sources", d.sources, comm_size);
  check_ranks(func, "destinations", d.destinations, comm_size);
  check_weights(func, "sourceweights", d.sourceweights, "sources", d.sources.size(),
                d.weighted);
  check_weights(func, "destweights", d.destweights, "destinations", d.destinations.size(),
                d.weighted);
}

void check_dist_graph(const DistGraphSpec& s, int comm_size, std::string_view func) {
  check_length(func, "degrees", s.degrees.size(), s.sources.size(), "the length of sources");
  check_ranks(func, "sources", s.sources, comm_size);
  check_non_negative(func, "degrees", s.degrees);
  i64 total = 0;
  for (int d : s.degrees) total += d;
  check_length(func, "destinations", s.destinations.size(), std::size_t(total),
               "the sum of degrees");
  check_ranks(func, "destinations", s.destinations, comm_size);
  check_weights(func, "weights", s.weights, "destinations", s.destinations.size(),
                s.weighted);
}

std::vector<DistGraphEdge> dist_graph_edges(const DistGraphSpec& s) {
  std::vector<DistGraphEdge> edges;
  edges.reserve(s.destinations.size());
  std::size_t j = 0;
  for (std::size_t i = 0; i < s.sources.size(); ++i) {
    for (int k = 0; k < s.degrees[i]; ++k, ++j) {
      edges.push_back({s.sources[i], s.destinations[j], s.weighted ? s.weights[j] : 1});
    }
  }
  return edges;
}

DistGraph dist_graph_assemble(int rank,
                              const std::vector<std::vector<DistGraphEdge>>& by_contributor,
                              bool weighted) {
  DistGraph g;
  g.weighted = weighted;
  for (const auto& edges : by_contributor) {
    for (const auto& e : edges) {
      // A self-loop is both an in-edge and an out-edge of its process.
      if (e.source == rank) {
        g.destinations.push_back(e.dest);
        if (weighted) g.destweights.push_back(e.weight);
      }
      if (e.dest == rank) {
        g.sources.push_back(e.source);
        if (weighted) g.sourceweights.push_back(e.weight);
      }
    }
  }
  return g;
}

}  // namespace lumpi::core::topo
