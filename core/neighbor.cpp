// core/neighbor.cpp: the MPI-3 neighbourhood collectives (neighbor_allgather,
// neighbor_alltoall) on Cartesian, graph and distributed-graph
// communicators, over bytes. Declared in core/topo_comm.hpp.
//
// Point-to-point on the collective lane with tags of their own (far above
// the k << 10 tags of core/coll.cpp). Sends never block (queues are
// unbounded), so each call sends everything, then receives in neighbour
// order. Each call is a span of the trace (core/team.hpp's TeamSpan) under
// the caller's MPI name (the C API's v and w forms pass theirs). Which message fills which slot when a neighbour appears more than
// once (MPI-4.0 errata, mpi-issues #153, MPI-4.1 §8.6):
//  - Cartesian: the block sent towards the -1 neighbour of dimension d is
//    received in the +1 slot of that neighbour, and vice versa, even when
//    both neighbours are the same process (periodic extent 1 or 2). Two
//    tags, "sent downwards" and "sent upwards", make that exact: for one
//    pair, both sides walk the dimensions in the same increasing order.
//  - graph and dist graph: the k-th edge to a process matches the k-th edge
//    from it, which the non-overtaking order of one tag gives.
#include <algorithm>
#include <map>
#include <utility>

#include "core/constants.hpp"
#include "core/error.hpp"
#include "core/team.hpp"
#include "core/topo_comm.hpp"

namespace lumpi::core {
namespace {

using Kind = Topology::Kind;

enum NeighborTag : int {
  kAllgather = 1 << 24,
  kAlltoall = (1 << 24) + 16,
  kDown = 0,  // offsets: a Cartesian block sent to the -1 neighbour
  kUp = 1,    //          ... to the +1 neighbour
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

// Tag of the message for out-slot k: Cartesian slots 2d and 2d+1 go down
// and up; graphs use one tag.
int send_tag(const Neighbors& n, int base, size_t k) {
  return n.cart ? base + (k % 2 == 0 ? kDown : kUp) : base;
}

// The message for in-slot k came from the -1 neighbour going up, or from
// the +1 neighbour going down.
int recv_tag(const Neighbors& n, int base, size_t k) {
  return n.cart ? base + (k % 2 == 0 ? kUp : kDown) : base;
}

Blocks receive_all(Comm& c, const Neighbors& n, int base, std::string_view func) {
  Blocks out(n.in.size());
  for (size_t k = 0; k < n.in.size(); ++k) {
    const int source = n.in[k];
    if (source == PROC_NULL) continue;
    const Waiting what = c.waiting(std::string(func), "source", source);
    out[k] = c.lane_recv(Lane::Coll, source, recv_tag(n, base, k), what).str();
  }
  return out;
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

Blocks neighbor_allgather(Comm& c, const std::string& mine, const char* func) {
  const Neighbors n = neighbors_of(c, func);
  if (c.topology()->kind == Kind::Graph) check_symmetric(c.topology()->graph, func);
  TeamSpan span(c.engine(), c.waiting(func));
  for (size_t k = 0; k < n.out.size(); ++k) {
    if (n.out[k] == PROC_NULL) continue;
    c.lane_send(Lane::Coll, n.out[k], send_tag(n, kAllgather, k), Body(mine));
  }
  return receive_all(c, n, kAllgather, func);
}

Blocks neighbor_alltoall(Comm& c, const std::vector<std::string>& blocks, const char* func) {
  const Neighbors n = neighbors_of(c, func);
  if (blocks.size() != n.out.size()) {
    fail(ErrClass::Arg, func,
         "values has " + std::to_string(blocks.size()) + " blocks but the process has " +
             std::to_string(n.out.size()) + " out-neighbours");
  }
  if (c.topology()->kind == Kind::Graph) check_symmetric(c.topology()->graph, func);
  TeamSpan span(c.engine(), c.waiting(func));
  for (size_t k = 0; k < n.out.size(); ++k) {
    if (n.out[k] == PROC_NULL) continue;
    c.lane_send(Lane::Coll, n.out[k], send_tag(n, kAlltoall, k), Body(blocks[k]));
  }
  return receive_all(c, n, kAlltoall, func);
}

}  // namespace lumpi::core
