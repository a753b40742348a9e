// core/api/api_topo.cpp: the C++ API's topology communicators (chapter 7):
// Intracomm's topology constructors, Cartcomm, Graphcomm, Distgraphcomm and
// Compute_dims, over core/topo/topo_comm.hpp and the arithmetic of core/topo/topo.hpp.
// Raw arrays are read only after their lengths are checked.
#include "core/api/api_detail.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi {

using detail::Access;
using detail::guarded;

namespace {

// The n ints at a, named `what`; ERR_ARG if a is null while n > 0.
std::vector<int> ints(int n, const int a[], std::string_view func, const char* what) {
  if (n < 0) detail::fail(ERR_ARG, func, std::string("the length of ") + what + " is negative");
  if (n > 0 && !a) detail::fail(ERR_ARG, func, std::string(what) + " is null");
  return n > 0 ? std::vector<int>(a, a + n) : std::vector<int>();
}

std::vector<bool> bools(int n, const bool a[], std::string_view func, const char* what) {
  if (n > 0 && !a) detail::fail(ERR_ARG, func, std::string(what) + " is null");
  return n > 0 ? std::vector<bool>(a, a + n) : std::vector<bool>();
}

// A max-length argument: non-negative, and its array present when positive.
void check_out(int max, const void* a, std::string_view func, const char* max_name,
               const char* what) {
  if (max < 0)
    detail::fail(ERR_ARG, func, std::string(max_name) + " " + std::to_string(max) + " is negative");
  if (max > 0 && !a) detail::fail(ERR_ARG, func, std::string(what) + " is null");
}

// Copies at most max entries of v to out.
template <class T, class U>
void put(const std::vector<T>& v, int max, U out[]) {
  for (size_t i = 0; i < v.size() && int(i) < max; ++i) out[i] = U(v[i]);
}

core::topo::Cart cart_args(int ndims, const int dims[], const bool periods[],
                           std::string_view func) {
  if (ndims < 0) detail::fail(ERR_DIMS, func, "ndims " + std::to_string(ndims) + " is negative");
  core::topo::Cart cart;
  cart.dims = ints(ndims, dims, func, "dims");
  cart.periods = bools(ndims, periods, func, "periods");
  return cart;
}

core::topo::Graph graph_args(int nnodes, const int index[], const int edges[],
                             std::string_view func) {
  core::topo::Graph g;
  g.index = ints(nnodes, index, func, "index");
  const int nedges = g.index.empty() ? 0 : g.index.back();
  if (nedges < 0)
    detail::fail(ERR_ARG, func, "index[nnodes-1] " + std::to_string(nedges) + " is negative");
  g.edges = ints(nedges, edges, func, "edges");
  return g;
}

std::map<std::string, std::string> info_pairs(const Info& info) {
  return info.Is_null() ? std::map<std::string, std::string>() : info.Pairs();
}

}  // namespace

// ---- constructors on Intracomm ---------------------------------------------------------

Cartcomm Intracomm::Create_cart(int ndims, const int dims[], const bool periods[],
                                bool reorder) const {
  const char* func = "MPI_Cart_create";
  return guarded(*this, func, [&](core::Comm& c) {
    return Access::make<Cartcomm>(core::cart_create(c, cart_args(ndims, dims, periods, func), reorder));
  });
}

Graphcomm Intracomm::Create_graph(int nnodes, const int index[], const int edges[],
                                  bool reorder) const {
  const char* func = "MPI_Graph_create";
  return guarded(*this, func, [&](core::Comm& c) {
    return Access::make<Graphcomm>(core::graph_create(c, graph_args(nnodes, index, edges, func), reorder));
  });
}

Distgraphcomm Intracomm::Dist_graph_create_adjacent(int indegree, const int sources[],
                                                    const int sourceweights[], int outdegree,
                                                    const int destinations[],
                                                    const int destweights[], const Info& info,
                                                    bool reorder) const {
  const char* func = "MPI_Dist_graph_create_adjacent";
  return guarded(*this, func, [&](core::Comm& c) {
    core::topo::DistGraph d;
    d.weighted = core::topo::weighted_alike(sourceweights, destweights, func, "MPI_UNWEIGHTED (null)");
    d.sources = ints(indegree, sources, func, "sources");
    d.destinations = ints(outdegree, destinations, func, "destinations");
    if (d.weighted) {
      d.sourceweights = ints(indegree, sourceweights, func, "sourceweights");
      d.destweights = ints(outdegree, destweights, func, "destweights");
    }
    core::DistGraphOptions opts{reorder, info_pairs(info)};
    return Access::make<Distgraphcomm>(core::dist_graph_create_adjacent(c, d, opts));
  });
}

Distgraphcomm Intracomm::Dist_graph_create(int n, const int sources[], const int degrees[],
                                           const int destinations[], const int weights[],
                                           const Info& info, bool reorder) const {
  const char* func = "MPI_Dist_graph_create";
  return guarded(*this, func, [&](core::Comm& c) {
    core::topo::DistGraphSpec s;
    s.sources = ints(n, sources, func, "sources");
    s.degrees = ints(n, degrees, func, "degrees");
    int total = 0;
    for (int d : s.degrees) {
      if (d < 0) detail::fail(ERR_ARG, func, "degrees has a negative entry " + std::to_string(d));
      total += d;
    }
    s.destinations = ints(total, destinations, func, "destinations");
    s.weighted = weights != nullptr;
    if (s.weighted) s.weights = ints(total, weights, func, "weights");
    core::DistGraphOptions opts{reorder, info_pairs(info)};
    return Access::make<Distgraphcomm>(core::dist_graph_create(c, s, opts));
  });
}

void Compute_dims(int nnodes, int ndims, int dims[]) {
  const char* func = "MPI_Dims_create";
  detail::guarded([&] {
    if (ndims < 0) detail::fail(ERR_DIMS, func, "ndims " + std::to_string(ndims) + " is negative");
    std::vector<int> out = core::topo::dims_create(nnodes, ints(ndims, dims, func, "dims"), func);
    put(out, ndims, dims);
  });
}

// ---- Cartcomm ----------------------------------------------------------------------------

Cartcomm Cartcomm::Dup() const {
  return Access::wrap<Cartcomm>(detail::dup_handle(*this, "MPI_Comm_dup"));
}

std::unique_ptr<Comm> Cartcomm::Clone() const { return std::make_unique<Cartcomm>(Dup()); }

int Cartcomm::Get_dim() const {
  const char* func = "MPI_Cartdim_get";
  return guarded(*this, func, [&](core::Comm& c) { return int(core::cart_of(c, func).dims.size()); });
}

void Cartcomm::Get_topo(int maxdims, int dims[], bool periods[], int coords[]) const {
  const char* func = "MPI_Cart_get";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::Cart& cart = core::cart_of(c, func);
    check_out(maxdims, dims, func, "maxdims", "dims");
    check_out(maxdims, periods, func, "maxdims", "periods");
    check_out(maxdims, coords, func, "maxdims", "coords");
    put(cart.dims, maxdims, dims);
    put(cart.periods, maxdims, periods);
    put(core::topo::cart_coords(cart, c.rank(), func), maxdims, coords);
  });
}

int Cartcomm::Get_cart_rank(const int coords[]) const {
  const char* func = "MPI_Cart_rank";
  return guarded(*this, func, [&](core::Comm& c) {
    const core::topo::Cart& cart = core::cart_of(c, func);
    // Zero dimensions: coords is not read (MPI-2.1 ballot 10.b).
    return core::topo::cart_rank(cart, ints(int(cart.dims.size()), coords, func, "coords"), func);
  });
}

void Cartcomm::Get_coords(int rank, int maxdims, int coords[]) const {
  const char* func = "MPI_Cart_coords";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::Cart& cart = core::cart_of(c, func);
    check_out(maxdims, coords, func, "maxdims", "coords");
    put(core::topo::cart_coords(cart, rank, func), maxdims, coords);
  });
}

void Cartcomm::Shift(int direction, int disp, int& rank_source, int& rank_dest) const {
  const char* func = "MPI_Cart_shift";
  guarded(*this, func, [&](core::Comm& c) {
    auto [source, dest] = core::topo::cart_shift(core::cart_of(c, func), c.rank(), direction, disp, func);
    rank_source = source;
    rank_dest = dest;
  });
}

Cartcomm Cartcomm::Sub(const bool remain_dims[]) const {
  const char* func = "MPI_Cart_sub";
  return guarded(*this, func, [&](core::Comm& c) {
    const int ndims = int(core::cart_of(c, func).dims.size());  // 0: remain_dims is not read
    return Access::make<Cartcomm>(core::cart_sub(c, bools(ndims, remain_dims, func, "remain_dims")));
  });
}

int Cartcomm::Map(int ndims, const int dims[], const bool periods[]) const {
  const char* func = "MPI_Cart_map";
  return guarded(*this, func, [&](core::Comm& c) {
    return core::cart_map(c, cart_args(ndims, dims, periods, func));
  });
}

// ---- Graphcomm ---------------------------------------------------------------------------

Graphcomm Graphcomm::Dup() const {
  return Access::wrap<Graphcomm>(detail::dup_handle(*this, "MPI_Comm_dup"));
}

std::unique_ptr<Comm> Graphcomm::Clone() const { return std::make_unique<Graphcomm>(Dup()); }

void Graphcomm::Get_dims(int nnodes[], int nedges[]) const {
  const char* func = "MPI_Graphdims_get";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::Graph& g = core::graph_of(c, func);
    if (!nnodes || !nedges) detail::fail(ERR_ARG, func, "nnodes and nedges must not be null");
    *nnodes = g.nnodes();
    *nedges = g.nedges();
  });
}

void Graphcomm::Get_topo(int maxindex, int maxedges, int index[], int edges[]) const {
  const char* func = "MPI_Graph_get";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::Graph& g = core::graph_of(c, func);
    check_out(maxindex, index, func, "maxindex", "index");
    check_out(maxedges, edges, func, "maxedges", "edges");
    put(g.index, maxindex, index);
    put(g.edges, maxedges, edges);
  });
}

int Graphcomm::Get_neighbors_count(int rank) const {
  const char* func = "MPI_Graph_neighbors_count";
  return guarded(*this, func, [&](core::Comm& c) {
    return core::topo::graph_neighbors_count(core::graph_of(c, func), rank, func);
  });
}

void Graphcomm::Get_neighbors(int rank, int maxneighbors, int neighbors[]) const {
  const char* func = "MPI_Graph_neighbors";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::Graph& g = core::graph_of(c, func);
    check_out(maxneighbors, neighbors, func, "maxneighbors", "neighbors");
    put(core::topo::graph_neighbors(g, rank, func), maxneighbors, neighbors);
  });
}

int Graphcomm::Map(int nnodes, const int index[], const int edges[]) const {
  const char* func = "MPI_Graph_map";
  return guarded(*this, func, [&](core::Comm& c) {
    return core::graph_map(c, graph_args(nnodes, index, edges, func));
  });
}

// ---- Distgraphcomm -----------------------------------------------------------------------

Distgraphcomm Distgraphcomm::Dup() const {
  return Access::wrap<Distgraphcomm>(detail::dup_handle(*this, "MPI_Comm_dup"));
}

std::unique_ptr<Comm> Distgraphcomm::Clone() const {
  return std::make_unique<Distgraphcomm>(Dup());
}

void Distgraphcomm::Get_dist_neighbors_count(int& indegree, int& outdegree, bool& weighted) const {
  const char* func = "MPI_Dist_graph_neighbors_count";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::DistGraph& d = core::dist_graph_of(c, func);
    indegree = int(d.sources.size());
    outdegree = int(d.destinations.size());
    weighted = d.weighted;
  });
}

void Distgraphcomm::Get_dist_neighbors(int maxindegree, int sources[], int sourceweights[],
                                       int maxoutdegree, int destinations[],
                                       int destweights[]) const {
  const char* func = "MPI_Dist_graph_neighbors";
  guarded(*this, func, [&](core::Comm& c) {
    const core::topo::DistGraph& d = core::dist_graph_of(c, func);
    check_out(maxindegree, sources, func, "maxindegree", "sources");
    check_out(maxoutdegree, destinations, func, "maxoutdegree", "destinations");
    put(d.sources, maxindegree, sources);
    put(d.destinations, maxoutdegree, destinations);
    if (d.weighted && sourceweights) put(d.sourceweights, maxindegree, sourceweights);
    if (d.weighted && destweights) put(d.destweights, maxoutdegree, destweights);
  });
}

}  // namespace lumpi
