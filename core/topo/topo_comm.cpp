// core/topo/topo_comm.cpp: the collective topology constructors and the local
// accessors of a communicator's topology. Arithmetic lives in core/topo,
// communicator creation in core/comm/comm_split.cpp (comm_split), the
// neighbourhood collectives in core/coll/neighbor.cpp. Each constructor is
// one Team on the communicator's internal lane under the constructor's own
// name: it exchanges the arguments (a hang there is reported as
// MPI_Cart_create, not as a user MPI_Allgather), and its trace span covers
// that exchange and the split that makes the communicator.
#include "core/topo/topo_comm.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "core/comm/comm_build.hpp"
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/base/pack.hpp"
#include "core/comm/team.hpp"

namespace lumpi::core {
namespace {

using Kind = Topology::Kind;

// ---- accessors -------------------------------------------------------------------

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Cart: return "a Cartesian";
    case Kind::Graph: return "a graph";
    case Kind::DistGraph: return "a distributed-graph";
  }
  return "an unknown";
}

const Topology& topology_of(const Comm& c, Kind want, std::string_view func) {
  c.check_usable(func);
  if (c.is_inter()) {
    fail(ErrClass::Topology, func,
         std::string("the communicator is an intercommunicator, which has no topology; ") +
             kind_name(want) + " topology is needed");
  }
  const auto& t = c.topology();
  if (!t) {
    fail(ErrClass::Topology, func,
         std::string("the communicator has no topology; ") + kind_name(want) +
             " topology is needed");
  }
  if (t->kind != want) {
    fail(ErrClass::Topology, func,
         std::string("the communicator has ") + kind_name(t->kind) + " topology, but " +
             kind_name(want) + " topology is needed");
  }
  return *t;
}

// Constructors need an intracommunicator (§7.1: "topologies cannot be added
// to inter-communicators"); MPICH and Open MPI answer MPI_ERR_COMM.
void check_parent(const Comm& c, std::string_view func) {
  c.check_usable(func);
  c.check_intra(func);
}

// c with topology t (COMM_NULL stays null).
CommPtr with_topology(CommPtr c, Topology t) {
  if (c) c->set_topology(std::make_shared<const Topology>(std::move(t)));
  return c;
}

// Cart_create and Graph_create: the processes the map numbers (newrank),
// in that order, with topology t; COMM_NULL where newrank is UNDEFINED.
CommPtr placed(Comm& parent, int newrank, Topology t) {
  return with_topology(comm_split(parent, newrank == UNDEFINED ? UNDEFINED : 0, newrank), std::move(t));
}

// ---- argument agreement ------------------------------------------------------------

std::string join(const std::vector<int>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

std::string join(const std::vector<bool>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += std::string(i ? ", " : "") + (v[i] ? "true" : "false");
  return s + "}";
}

std::string clip(std::string s) {
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

// Raises on every process alike when `values[p]` differ between processes.
void check_same(const std::vector<std::string>& values, std::string_view func,
                std::string_view what, ErrClass cls = ErrClass::Arg) {
  for (size_t p = 1; p < values.size(); ++p) {
    if (values[p] == values[0]) continue;
    fail(cls, func,
         std::string(what) + " must be identical on all processes, but rank 0 gave " +
             clip(values[0]) + " and rank " + std::to_string(p) + " gave " + clip(values[p]));
  }
}

// §7.4 (MPI-2.1 ballot 11.c): all arguments of Cart_create and Graph_create
// are identical everywhere. The runtime relies on it (each process derives
// the grid alone), so one allgather checks it rather than building a wrong
// topology from a rank-dependent expression.
void agree(Team& t, const std::string& args, std::string_view func) {
  check_same(team_allgather(t, args, build::kTopo), func, "the arguments");
}

}  // namespace

const topo::Cart& cart_of(const Comm& c, std::string_view func) {
  return topology_of(c, Kind::Cart, func).cart;
}

const topo::Graph& graph_of(const Comm& c, std::string_view func) {
  return topology_of(c, Kind::Graph, func).graph;
}

const topo::DistGraph& dist_graph_of(const Comm& c, std::string_view func) {
  return topology_of(c, Kind::DistGraph, func).dist;
}

// ---- Cartesian and graph constructors --------------------------------------------------

CommPtr cart_create(Comm& parent, const topo::Cart& cart, bool reorder) {
  constexpr std::string_view func = "MPI_Cart_create";
  check_parent(parent, func);
  topo::check_cart(cart, parent.size(), ErrClass::Arg, func);
  Team t = build::whole(parent, func.data());  // its span covers the agreement and the split
  agree(t,
        "dims " + join(cart.dims) + ", periods " + join(cart.periods) + ", reorder " +
            (reorder ? "true" : "false"),
        func);
  // §7.5.8 with the identity map: the lowest ranks fill the grid in order.
  const int newrank = topo::cart_map(cart, parent.size(), parent.rank(), func);
  return placed(parent, newrank, {.kind = Kind::Cart, .cart = cart, .graph = {}, .dist = {}});
}

CommPtr graph_create(Comm& parent, const topo::Graph& graph, bool reorder) {
  constexpr std::string_view func = "MPI_Graph_create";
  check_parent(parent, func);
  topo::check_graph(graph, parent.size(), func);
  Team t = build::whole(parent, func.data());
  agree(t,
        "index " + join(graph.index) + ", edges " + join(graph.edges) + ", reorder " +
            (reorder ? "true" : "false"),
        func);
  // nnodes == 0 makes every process UNDEFINED: COMM_NULL everywhere (ballot 11.a).
  const int newrank = topo::graph_map(graph, parent.size(), parent.rank(), func);
  return placed(parent, newrank, {.kind = Kind::Graph, .cart = {}, .graph = graph, .dist = {}});
}

CommPtr cart_sub(Comm& parent, const std::vector<bool>& remain_dims) {
  constexpr std::string_view func = "MPI_Cart_sub";
  const topo::Cart& cart = cart_of(parent, func);
  topo::Cart sub = topo::cart_sub_grid(cart, remain_dims, func);
  const auto [color, key] = topo::cart_sub_color_key(cart, remain_dims, parent.rank());
  TeamSpan span(parent.engine(), parent.waiting(std::string(func)));
  return with_topology(comm_split(parent, color, key),
                       {.kind = Kind::Cart, .cart = std::move(sub), .graph = {}, .dist = {}});
}

int cart_map(const Comm& c, const topo::Cart& cart) {
  constexpr std::string_view func = "MPI_Cart_map";
  check_parent(c, func);
  return topo::cart_map(cart, c.size(), c.rank(), func);
}

int graph_map(const Comm& c, const topo::Graph& graph) {
  constexpr std::string_view func = "MPI_Graph_map";
  check_parent(c, func);
  return topo::graph_map(graph, c.size(), c.rank(), func);
}

// ---- distributed graphs ----------------------------------------------------------------

namespace {

// "{a=1, b=x}": info in key order, so equal sets give equal strings.
std::string describe_info(const std::map<std::string, std::string>& info) {
  std::string s = "{";
  bool first = true;
  for (const auto& [k, v] : info) {
    s += (first ? "" : ", ") + k + "=" + v;
    first = false;
  }
  return s + "}";
}

// What every process sends in a dist-graph exchange: the options (which
// must agree) and its own part of the graph.
struct Contribution {
  std::string reorder, info;
  bool weighted = false;
  std::vector<int> a, aw, b, bw;  // adjacent: sources, weights, destinations, weights
                                  // general: edge sources, -, edge dests, weights
};

std::string pack_contribution(const Contribution& c) {
  return Packer().bytes(c.reorder).bytes(c.info).u64(c.weighted).ints(c.a).ints(c.aw).ints(c.b).ints(c.bw).take();
}

Contribution unpack_contribution(std::string_view bytes, std::string_view func) {
  Unpacker r(bytes, func);
  Contribution c;
  c.reorder = r.bytes();
  c.info = r.bytes();
  c.weighted = r.u64() != 0;
  c.a = r.ints();
  c.aw = r.ints();
  c.b = r.ints();
  c.bw = r.ints();
  r.end();
  const bool parallel = c.aw.size() == c.a.size() && c.bw.size() == c.b.size();
  if (c.weighted && !parallel) fail(ErrClass::Intern, func, "malformed edge weights from a peer");
  return c;
}

// Allgathers the contributions and checks what must agree: reorder, info
// (§7.5.4) and weightedness. Returns them with the graph's weightedness:
// true when any process gave weights.
std::vector<Contribution> exchange(Team& t, Contribution mine, std::string_view func,
                                   bool& weighted) {
  auto all = team_allgather(t, pack_contribution(mine), build::kTopo);
  std::vector<Contribution> got;
  got.reserve(all.size());
  for (const auto& bytes : all) got.push_back(unpack_contribution(bytes, func));
  std::vector<std::string> reorders, infos;
  for (const auto& c : got) {
    reorders.push_back(c.reorder);
    infos.push_back(c.info);
  }
  check_same(reorders, func, "reorder");
  check_same(infos, func, "info", ErrClass::Info);
  int weighted_by = -1;
  for (size_t p = 0; p < got.size() && weighted_by < 0; ++p)
    if (got[p].weighted) weighted_by = int(p);
  weighted = weighted_by >= 0;
  for (size_t p = 0; p < got.size() && weighted; ++p) {
    const bool has_edges = !got[p].a.empty() || !got[p].b.empty();
    if (got[p].weighted || !has_edges) continue;  // no edges: neutral
    fail(ErrClass::Arg, func,
         "rank " + std::to_string(p) + " gave MPI_UNWEIGHTED but rank " +
             std::to_string(weighted_by) +
             " gave weights; all processes must agree (a process without edges may pass "
             "MPI_WEIGHTS_EMPTY)");
  }
  return got;
}

struct Edge {
  int source, dest, weight;
  auto operator<=>(const Edge&) const = default;
};

std::string edge_text(const Edge& e, bool weighted) {
  return std::to_string(e.source) + " -> " + std::to_string(e.dest) +
         (weighted ? " (weight " + std::to_string(e.weight) + ")" : "");
}

// §7.5.4: every edge of Dist_graph_create_adjacent is listed by both of its
// ends with the same weight; the multisets of source-side and
// destination-side edges must be equal.
void check_adjacent_edges(const std::vector<Contribution>& all, bool weighted,
                          std::string_view func) {
  std::vector<Edge> as_in, as_out;  // listed by the destination / by the source
  for (size_t p = 0; p < all.size(); ++p) {
    const auto& c = all[p];
    for (size_t k = 0; k < c.a.size(); ++k)
      as_in.push_back({c.a[k], int(p), weighted && c.weighted ? c.aw[k] : 0});
    for (size_t k = 0; k < c.b.size(); ++k)
      as_out.push_back({int(p), c.b[k], weighted && c.weighted ? c.bw[k] : 0});
  }
  std::sort(as_in.begin(), as_in.end());
  std::sort(as_out.begin(), as_out.end());
  if (as_in == as_out) return;
  // Name the first edge one side lists more often than the other.
  std::vector<Edge> only_in, only_out;
  std::set_difference(as_in.begin(), as_in.end(), as_out.begin(), as_out.end(),
                      std::back_inserter(only_in));
  std::set_difference(as_out.begin(), as_out.end(), as_in.begin(), as_in.end(),
                      std::back_inserter(only_out));
  if (!only_in.empty()) {
    const Edge& e = only_in.front();
    fail(ErrClass::Arg, func,
         "edge " + edge_text(e, weighted) + " is in the sources of rank " +
             std::to_string(e.dest) + " but not in the destinations of rank " +
             std::to_string(e.source));
  }
  const Edge& e = only_out.front();
  fail(ErrClass::Arg, func,
       "edge " + edge_text(e, weighted) + " is in the destinations of rank " +
           std::to_string(e.source) + " but not in the sources of rank " +
           std::to_string(e.dest));
}

// A dist-graph communicator has the parent's group and ranks (§7.5.4).
CommPtr attach_dist_graph(Comm& parent, topo::DistGraph view) {
  return with_topology(comm_split(parent, 0, parent.rank()),
                       {.kind = Kind::DistGraph, .cart = {}, .graph = {}, .dist = std::move(view)});
}

Contribution options_part(const DistGraphOptions& opts) {
  Contribution c;
  c.reorder = opts.reorder ? "true" : "false";
  c.info = describe_info(opts.info);
  return c;
}

}  // namespace

CommPtr dist_graph_create_adjacent(Comm& parent, const topo::DistGraph& mine,
                                   const DistGraphOptions& opts) {
  constexpr std::string_view func = "MPI_Dist_graph_create_adjacent";
  check_parent(parent, func);
  topo::check_dist_graph_adjacent(mine, parent.size(), func);
  Team t = build::whole(parent, func.data());
  Contribution c = options_part(opts);
  c.weighted = mine.weighted;
  c.a = mine.sources;
  c.aw = mine.sourceweights;
  c.b = mine.destinations;
  c.bw = mine.destweights;
  bool weighted = false;
  const auto all = exchange(t, std::move(c), func, weighted);
  check_adjacent_edges(all, weighted, func);
  // The caller's own lists, in its creation order (a stable order, §7.5.5).
  topo::DistGraph view = mine;
  view.weighted = weighted;
  if (!weighted) view.sourceweights.clear(), view.destweights.clear();
  return attach_dist_graph(parent, std::move(view));
}

CommPtr dist_graph_create(Comm& parent, const topo::DistGraphSpec& spec,
                          const DistGraphOptions& opts) {
  constexpr std::string_view func = "MPI_Dist_graph_create";
  check_parent(parent, func);
  topo::check_dist_graph(spec, parent.size(), func);
  Team t = build::whole(parent, func.data());
  Contribution c = options_part(opts);
  c.weighted = spec.weighted;
  for (const auto& e : topo::dist_graph_edges(spec)) {
    c.a.push_back(e.source);
    c.b.push_back(e.dest);
    c.bw.push_back(e.weight);
  }
  c.aw = c.bw;  // the exchange checks that weights run parallel to both lists
  bool weighted = false;
  const auto all = exchange(t, std::move(c), func, weighted);
  std::vector<std::vector<topo::DistGraphEdge>> by_contributor(all.size());
  for (size_t p = 0; p < all.size(); ++p) {
    const auto& got = all[p];
    if (got.b.size() != got.a.size() || got.bw.size() != got.a.size())
      fail(ErrClass::Intern, func, "malformed edge list from a peer");
    for (size_t k = 0; k < got.a.size(); ++k)
      by_contributor[p].push_back({got.a[k], got.b[k], got.bw[k]});
  }
  return attach_dist_graph(parent, topo::dist_graph_assemble(parent.rank(), by_contributor, weighted));
}

}  // namespace lumpi::core
