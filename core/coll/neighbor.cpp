// core/coll/neighbor.cpp: the MPI-3 neighbourhood collectives (neighbor_allgather,
// neighbor_alltoall) on Cartesian, graph and distributed-graph
// communicators, over bytes, and the neighbour lists both they and the
// nonblocking forms (core/coll/nbc.cpp) use. Declared in core/topo/topo_comm.hpp.
//
// Point-to-point on the collective lane with tags of their own (far above
// the k << 10 tags of core/coll/coll.cpp). Sends never block (queues are
// unbounded), so each call sends everything, then receives in neighbour
// order. Each call is a span of the trace (core/comm/team.hpp's TeamSpan) under
// the caller's MPI name (the C API's v and w forms pass theirs). Which
// message fills which slot: Neighbors::out_stream/in_stream
// (core/topo/topo_comm.hpp), one tag per stream.
#include <algorithm>
#include <map>
#include <utility>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/comm/team.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi::core {
namespace {

using Kind = Topology::Kind;

enum NeighborTag : int {
  kAllgather = 1 << 24,  // + the stream (Neighbors::out_stream)
  kAlltoall = (1 << 24) + 16,
};

// MPI-3 §7.6: neighbourhood collectives on a graph created with
// MPI_Graph_create need the same number of edges i->j and j->i for every
// pair. Every process holds the whole graph, so all of them find the same
// violation and raise together, before anything is sent.
void check_symmetric(const topo::Graph& g, std::string_view func) {
  std::map<std::pair<int, int>, int> count;
  for (int i = 0; i < g.nnodes(); ++i)
    for (int j : g.neighbors(i)) ++count[{i, j}];
  for (const auto& [edge, n] : count) {
    const auto [i, j] = edge;
    const auto back = count.find({j, i});
    const int m = back == count.end() ? 0 : back->second;
    if (n == m) continue;
    fail(ErrClass::Topology, func,
         "neighbourhood collectives need a symmetric graph, but node " + std::to_string(i) +
             " lists " + std::to_string(j) + " " + std::to_string(n) + " time(s) and node " +
             std::to_string(j) + " lists " + std::to_string(i) + " " + std::to_string(m) +
             " time(s)");
  }
}

const Topology& checked_topology(const Comm& c, std::string_view func) {
  c.check_usable(func);
  if (c.is_inter())
    fail(ErrClass::Topology, func,
         "the communicator is an intercommunicator, which has no topology");
  if (!c.topology())
    fail(ErrClass::Topology, func,
         "the communicator has no topology (create one with cart_create, graph_create or "
         "dist_graph_create)");
  return *c.topology();
}

Blocks receive_all(Comm& c, const Neighbors& n, int base, std::string_view func) {
  Blocks out(n.in.size());
  for (size_t k = 0; k < n.in.size(); ++k) {
    const int source = n.in[k];
    if (source == PROC_NULL) continue;
    const Waiting what = c.waiting(std::string(func), "source", source);
    out[k] = c.lane_recv(Lane::Coll, source, base + n.in_stream(k), what).str();
  }
  return out;
}

Blocks exchange(Comm& c, const Neighbors& n, const std::vector<std::string>& blocks, int base,
                const char* func) {
  TeamSpan span(c.engine(), c.waiting(func));
  for (size_t k = 0; k < n.out.size(); ++k) {
    if (n.out[k] == PROC_NULL) continue;
    c.lane_send(Lane::Coll, n.out[k], base + n.out_stream(k), Body(blocks[k]));
  }
  return receive_all(c, n, base, func);
}

}  // namespace

Neighbors neighbors_of(const Comm& c, std::string_view func) {
  const Topology& t = checked_topology(c, func);
  Neighbors n;
  switch (t.kind) {
    case Kind::Cart:
      n.cart = true;
      n.in = topo::cart_neighbors(t.cart, c.rank(), func);
      n.out = n.in;
      break;
    case Kind::Graph:
      n.in = topo::graph_neighbors(t.graph, c.rank(), func);
      n.out = n.in;
      break;
    case Kind::DistGraph:
      n.in = t.dist.sources;
      n.out = t.dist.destinations;
      break;
  }
  return n;
}

Neighbors exchange_neighbors(const Comm& c, std::string_view func, std::optional<size_t> out_blocks) {
  Neighbors n = neighbors_of(c, func);
  if (out_blocks && *out_blocks != n.out.size())
    fail(ErrClass::Arg, func,
         "values has " + std::to_string(*out_blocks) + " blocks but the process has " +
             std::to_string(n.out.size()) + " out-neighbours");
  if (c.topology()->kind == Kind::Graph) check_symmetric(c.topology()->graph, func);
  return n;
}

Blocks neighbor_allgather(Comm& c, const std::string& mine, const char* func) {
  const Neighbors n = exchange_neighbors(c, func);
  return exchange(c, n, std::vector<std::string>(n.out.size(), mine), kAllgather, func);
}

Blocks neighbor_alltoall(Comm& c, const std::vector<std::string>& blocks, const char* func) {
  return exchange(c, exchange_neighbors(c, func, blocks.size()), blocks, kAlltoall, func);
}

}  // namespace lumpi::core
