// core/topo.cpp: process-topology arithmetic (seed chapter 7, MPI-2.1 ballot
// items 10 and 11), pure and local: it sends nothing and knows communicators
// only by their size. core/comm builds topology communicators on top of it.
//
// Every public function validates all of its arguments first and only then
// computes, so a failing call has no partial effect. Messages name the bad
// argument and its value. Positions in sequences are 1-based (`coords[1]` is
// the first entry) because the Lua binding passes them as Lua sequences;
// dimension numbers, directions and ranks are MPI's 0-based numbers.
//
// Error classes (the seeds say "erroneous" and leave the class open; where
// MPICH picks one we follow it):
//   MPI_ERR_DIMS  dims_create input that cannot be completed, a Cartesian
//                 extent <= 0, a grid larger than the communicator in
//                 cart_map;
//   MPI_ERR_ARG   a grid larger than the communicator in cart_create (as
//                 MPICH and Open MPI both say), bad direction,
//                 out-of-range non-periodic coordinate,
//                 malformed graph arrays, sequence length mismatches,
//                 negative degrees or weights, negative nnodes;
//   MPI_ERR_RANK  a rank argument outside the communicator or graph.
#include "core/topo.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/constants.hpp"
#include "core/error.hpp"

namespace lumpi::core::topo {
namespace {

using i64 = std::int64_t;

// ---- message helpers --------------------------------------------------------

// "coords[3]" for the element at 0-based index 2.
std::string at(std::string_view array, std::size_t index) {
  return std::string(array) + "[" + std::to_string(index + 1) + "]";
}

std::string num(i64 v) { return std::to_string(v); }

// "(2, 0, 3)": a whole sequence, for messages about its product.
std::string tuple(const std::vector<int>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + num(v[i]);
  return s + ")";
}

// "2x3x4", or "0-dimensional" for the empty grid.
std::string shape(const std::vector<int>& dims) {
  if (dims.empty()) return "0-dimensional";
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + num(dims[i]);
  return s;
}

// "1 entry", "3 entries".
std::string entries(std::size_t n) { return num(i64(n)) + (n == 1 ? " entry" : " entries"); }

// Fails unless sequence `name` has exactly `expected` entries; `what` names
// where the expectation comes from ("the length of sources", "the sum of
// degrees"). Lua passes sequences whose lengths C would have implied.
void check_length(std::string_view func, std::string_view name, std::size_t got,
                  std::size_t expected, std::string_view what) {
  if (got != expected) {
    fail(ErrClass::Arg, func,
         std::string(name) + " has " + entries(got) + " but " + std::string(what) + " is " +
             num(i64(expected)));
  }
}

void check_ranks(std::string_view func, std::string_view name,
                 const std::vector<int>& ranks, int comm_size) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < 0 || ranks[i] >= comm_size) {
      fail(ErrClass::Rank, func,
           at(name, i) + " = " + num(ranks[i]) +
               " is out of range for a communicator of size " + num(comm_size));
    }
  }
}

void check_non_negative(std::string_view func, std::string_view name,
                        const std::vector<int>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0) {
      fail(ErrClass::Arg, func, at(name, i) + " = " + num(values[i]) + " is negative");
    }
  }
}

// Weights run parallel to their ranks when weighted; MPI_UNWEIGHTED has no
// array at all, so weights given for an unweighted graph are a mistake.
void check_weights(std::string_view func, std::string_view name,
                   const std::vector<int>& weights, std::string_view ranks_name,
                   std::size_t nranks, bool weighted) {
  if (!weighted) {
    if (!weights.empty()) {
      fail(ErrClass::Arg, func,
           std::string(name) + " has " + entries(weights.size()) +
               " but the graph is unweighted");
    }
    return;
  }
  check_length(func, name, weights.size(), nranks,
               "the length of " + std::string(ranks_name));
  check_non_negative(func, name, weights);
}

// ---- Cartesian helpers ------------------------------------------------------

// Mathematical modulo: the result is in [0, m) for negative v too.
i64 wrap(i64 v, i64 m) {
  const i64 r = v % m;
  return r < 0 ? r + m : r;
}

void check_cart_rank_arg(const Cart& c, int rank, std::string_view func) {
  if (rank < 0 || rank >= c.size()) {
    fail(ErrClass::Rank, func,
         "rank = " + num(rank) + " is out of range for a " + shape(c.dims) +
             " Cartesian topology of size " + num(c.size()));
  }
}

// Row-major coordinates of a rank already known to be valid.
std::vector<int> coords_of(const Cart& c, int rank) {
  std::vector<int> coords(c.dims.size());
  for (std::size_t i = c.dims.size(); i-- > 0;) {
    coords[i] = rank % c.dims[i];
    rank /= c.dims[i];
  }
  return coords;
}

// Row-major rank of coordinates already reduced into range.
int rank_of(const Cart& c, const std::vector<int>& coords) {
  int rank = 0;
  for (std::size_t i = 0; i < c.dims.size(); ++i) rank = rank * c.dims[i] + coords[i];
  return rank;
}

// The rank `disp` steps from `coords` along `dir`, or PROC_NULL off a
// non-periodic edge. disp is 64-bit so that c + disp and -INT_MIN are exact.
int step(const Cart& c, std::vector<int> coords, std::size_t dir, i64 disp) {
  const i64 extent = c.dims[dir];
  i64 moved = coords[dir] + disp;
  if (c.periods[dir]) {
    moved = wrap(moved, extent);
  } else if (moved < 0 || moved >= extent) {
    return PROC_NULL;
  }
  coords[dir] = int(moved);
  return rank_of(c, coords);
}

void check_direction(const Cart& c, int direction, std::string_view func) {
  const int ndims = int(c.dims.size());
  if (ndims == 0) {
    // MPI-2.1 ballot 10.c, alternative A: no direction exists in 0 dims.
    fail(ErrClass::Arg, func,
         "direction = " + num(direction) +
             " is invalid: the Cartesian topology is zero-dimensional");
  }
  if (direction < 0 || direction >= ndims) {
    fail(ErrClass::Arg, func,
         "direction = " + num(direction) + " is out of range for a Cartesian topology of " +
             num(ndims) + " dimensions");
  }
}

// remain_dims must cover every dimension; a zero-dimensional grid never
// reads it (ballot 10.a), so any value, even empty, is accepted there.
void check_remain(const Cart& c, const std::vector<bool>& remain, std::string_view func) {
  if (c.dims.empty()) return;
  check_length(func, "remain_dims", remain.size(), c.dims.size(),
               "the number of dimensions");
}

}  // namespace

// ---- Cartesian ----------------------------------------------------------------

int Cart::size() const {
  int n = 1;  // the empty product: a zero-dimensional grid has one process
  for (int d : dims) n *= d;
  return n;
}

void check_cart(const Cart& c, int comm_size, std::string_view func) {
  check_length(func, "periods", c.periods.size(), c.dims.size(), "the length of dims");
  i64 product = 1;
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (c.dims[i] <= 0) {
      // A zero extent would make an empty grid (reference A12): an error.
      fail(ErrClass::Dims, func,
           at("dims", i) + " = " + num(c.dims[i]) + " is not a positive extent");
    }
    // Saturate just past comm_size so the product cannot overflow.
    product = std::min<i64>(product * c.dims[i], i64(comm_size) + 1);
  }
  if (product > comm_size) {
    // MPI_ERR_ARG from MPI_Cart_create, as MPICH and Open MPI raise it;
    // MPICH's MPI_Cart_map says MPI_ERR_DIMS (Open MPI's returns success).
    fail(func == "MPI_Cart_create" ? ErrClass::Arg : ErrClass::Dims, func,
         "dims = " + tuple(c.dims) + " describes a " + shape(c.dims) + " grid, larger than the " +
             num(comm_size) + " processes of the communicator");
  }
}

int cart_rank(const Cart& c, const std::vector<int>& coords, std::string_view func) {
  // Zero-dimensional: "coords is not significant and 0 is returned" (10.b).
  if (c.dims.empty()) return 0;
  check_length(func, "coords", coords.size(), c.dims.size(), "the number of dimensions");
  std::vector<int> reduced(coords.size());
  for (std::size_t i = 0; i < coords.size(); ++i) {
    const int extent = c.dims[i];
    if (c.periods[i]) {
      reduced[i] = int(wrap(coords[i], extent));
    } else if (coords[i] < 0 || coords[i] >= extent) {
      // Erroneous in MPI-2.2 (not PROC_NULL); MPICH raises MPI_ERR_ARG.
      fail(ErrClass::Arg, func,
           at("coords", i) + " = " + num(coords[i]) +
               " is out of range for non-periodic dimension " + num(i64(i)) +
               " of extent " + num(extent));
    } else {
      reduced[i] = coords[i];
    }
  }
  return rank_of(c, reduced);
}

std::vector<int> cart_coords(const Cart& c, int rank, std::string_view func) {
  check_cart_rank_arg(c, rank, func);
  return coords_of(c, rank);  // empty for zero dimensions: "coords unchanged"
}

std::pair<int, int> cart_shift(const Cart& c, int rank, int direction, int disp,
                               std::string_view func) {
  check_direction(c, direction, func);
  check_cart_rank_arg(c, rank, func);
  const auto coords = coords_of(c, rank);
  const auto dir = std::size_t(direction);
  // Receive from source (-disp), send to dest (+disp): the SENDRECV pattern
  // of §7.5.6, so disp == 0 gives the caller itself twice.
  return {step(c, coords, dir, -i64(disp)), step(c, coords, dir, disp)};
}

Cart cart_sub_grid(const Cart& c, const std::vector<bool>& remain, std::string_view func) {
  check_remain(c, remain, func);
  Cart sub;  // all false, or already zero-dimensional: zero dims (10.a)
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (!remain[i]) continue;
    sub.dims.push_back(c.dims[i]);
    sub.periods.push_back(c.periods[i]);  // kept dimensions keep their periods
  }
  return sub;
}

std::pair<int, int> cart_sub_color_key(const Cart& c, const std::vector<bool>& remain,
                                       int rank) {
  constexpr std::string_view func = "MPI_Cart_sub";
  check_remain(c, remain, func);
  check_cart_rank_arg(c, rank, func);
  // §7.5.8: colour numbers the dropped coordinates, key the kept ones, both
  // row-major, so the sub-rank is the row-major rank inside the sub-grid.
  const auto coords = coords_of(c, rank);
  int color = 0, key = 0;
  for (std::size_t i = 0; i < coords.size(); ++i) {
    int& acc = remain[i] ? key : color;
    acc = acc * c.dims[i] + coords[i];
  }
  return {color, key};
}

int cart_map(const Cart& c, int comm_size, int rank, std::string_view func) {
  check_cart(c, comm_size, func);
  if (rank < 0 || rank >= comm_size) {
    fail(ErrClass::Rank, func,
         "rank = " + num(rank) + " is out of range for a communicator of size " +
             num(comm_size));
  }
  // The trivial mapping of §7.5.8: no reordering, the lowest ranks fill the grid.
  return rank < c.size() ? rank : UNDEFINED;
}

std::vector<int> cart_neighbors(const Cart& c, int rank, std::string_view func) {
  check_cart_rank_arg(c, rank, func);
  const auto coords = coords_of(c, rank);
  std::vector<int> out;
  out.reserve(2 * coords.size());
  for (std::size_t d = 0; d < coords.size(); ++d) {
    out.push_back(step(c, coords, d, -1));  // source of cart_shift(d, 1)
    out.push_back(step(c, coords, d, +1));  // dest of cart_shift(d, 1)
  }
  return out;
}

// ---- MPI_Dims_create ---------------------------------------------------------
//
// A faithful port of MPIR_Dims_create_impl from MPICH 4.0.2 (after Träff and
// Lübbe, EuroMPI'15), because API.md promises MPICH's exact dims and
// "balanced" alone does not pin them down (360 in 3-D: MPICH (10,6,6) vs
// (9,8,5) by other metrics). Only the validation differs: input whose
// result cannot be a grid of nnodes, which MPICH accepts, raises here.
// Arithmetic is 64-bit, which is MPICH's intended int arithmetic without
// its overflow.
namespace {

struct Factor {
  i64 val;
  int cnt;
};

// MPICH factor_num: prime factors of n >= 1, increasing, with multiplicity;
// `nprimes` gets their total count (with multiplicity).
std::vector<Factor> factor(i64 n, int& nprimes) {
  std::vector<Factor> f;
  nprimes = 0;
  for (i64 p = 2; p * p <= n; p += (p == 2 ? 1 : 2)) {
    if (n % p != 0) continue;
    int cnt = 0;
    for (; n % p == 0; n /= p) ++cnt;
    f.push_back({p, cnt});
    nprimes += cnt;
  }
  if (n > 1) {  // one prime above the square root is left over
    f.push_back({n, 1});
    ++nprimes;
  }
  return f;
}

// MPICH factor_to_divisors: every divisor but the trivial 1 and n, ascending.
std::vector<i64> divisors(const std::vector<Factor>& f) {
  std::vector<i64> d{1};
  for (const auto& [val, cnt] : f) {
    const std::size_t base = d.size();
    i64 power = 1;
    for (int c = 0; c < cnt; ++c) {
      power *= val;
      for (std::size_t i = 0; i < base; ++i) d.push_back(d[i] * power);
    }
  }
  std::sort(d.begin(), d.end());
  return {d.begin() + 1, d.end() - 1};
}

// MPICH factor_to_dims_by_rr: the first guess. Deal the primes, largest
// first, one per dimension; then multiply each further prime into the last
// dimension that stays <= its left neighbour, or into dims[0].
std::vector<i64> round_robin(const std::vector<Factor>& f, int nd) {
  std::vector<i64> dims(std::size_t(nd), 1);
  int k = 0;
  for (auto it = f.rbegin(); it != f.rend(); ++it) {
    for (int j = 0; j < it->cnt; ++j) {
      if (k < nd) {
        dims[std::size_t(k++)] = it->val;
        continue;
      }
      std::size_t kk = std::size_t(nd - 1);
      while (kk > 0 && dims[kk] * it->val > dims[kk - 1]) --kk;
      dims[kk] *= it->val;
    }
  }
  return dims;
}

// The state MPICH's optbalance threads through its recursion. Dimensions
// are chosen from the last (smallest) towards the first (largest).
struct Search {
  int nd;                    // dimensions being balanced
  std::vector<i64> trydims;  // the candidate, filled from nd-1 down to idx+1
  i64 curbal;                // largest minus smallest of the best so far
  std::vector<i64> opt;      // the best so far
};

void optbalance(i64 n, int idx, const std::vector<i64>& divs, Search& s);

// idx > 1: try each divisor f for dims[idx], pruning as MPICH does, and
// recurse on n / f with the divisors that can still follow.
void optbalance_many(i64 n, int idx, const std::vector<i64>& divs, i64 min, i64 curbal,
                     Search& s) {
  const bool inner = idx < s.nd - 1;
  for (std::size_t k = 0; k < divs.size(); ++k) {
    const i64 f = divs[k];
    if (inner && f - min > curbal) break;  // every later choice is worse
    const i64 q = n / f;
    std::vector<i64> next;
    i64 sf;  // the smallest factor that could follow f
    if (q % f == 0) {
      next.push_back(f);
      sf = f;
    } else if (k + 1 < divs.size()) {
      sf = divs[k + 1];
    } else {
      break;
    }
    if (inner && sf - min > curbal) break;
    i64 ff = sf * sf;  // idx more factors, each >= sf, must fit in q
    int ii = idx - 1;
    for (; ii > 0 && ff <= q; --ii) ff *= sf;
    if (ii > 0) break;
    s.trydims[std::size_t(idx)] = f;
    for (std::size_t kk = k + 1; kk < divs.size(); ++kk) {
      const i64 g = divs[kk];
      if (g * g > q) break;
      if (q % g == 0) next.push_back(g);
    }
    if (!next.empty()) optbalance(q, idx - 1, next, s);
  }
}

// idx == 1: the best pair (q >= f) with q * f == n, taken if at least as
// good as the best so far (ties go to the later candidate, as in MPICH).
void optbalance_pair(i64 n, const std::vector<i64>& divs, i64 min, i64 curbal, Search& s) {
  std::size_t k = 1;
  i64 qprev = -1;
  for (; k < divs.size(); ++k) {
    const i64 q = n / divs[k];
    if (q < divs[k]) break;
    qprev = q;
  }
  const i64 f = divs[k - 1];
  const i64 q = qprev > 0 ? qprev : n / f;
  if (q < f) return;
  const i64 testbal = s.nd == 2 ? q - f : q - min;
  if (testbal > curbal) return;
  for (std::size_t i = 2; i < std::size_t(s.nd); ++i) s.opt[i] = s.trydims[i];
  s.opt[0] = q;
  s.opt[1] = f;
  s.curbal = q - min;
}

void optbalance(i64 n, int idx, const std::vector<i64>& divs, Search& s) {
  // MPICH reads both once on entry: pruning in this frame uses the balance
  // from before its own recursive calls improved it.
  const i64 min = s.trydims[std::size_t(s.nd - 1)];
  const i64 curbal = s.curbal;
  if (idx > 1) {
    optbalance_many(n, idx, divs, min, curbal, s);
  } else if (idx == 1) {
    optbalance_pair(n, divs, min, curbal, s);
  } else if (n - min <= curbal) {  // idx == 0: n itself is the last divisor
    for (std::size_t i = 1; i < std::size_t(s.nd); ++i) s.opt[i] = s.trydims[i];
    s.opt[0] = n;
    s.curbal = n - min;
  }
}

// MPICH's shortcuts, in its order. Fills chosen[from..] and returns true
// when one applies.
bool shortcut(i64 n, int nprimes, const std::vector<Factor>& f, std::size_t from,
              std::vector<i64>& chosen) {
  const std::size_t needed = chosen.size();
  if (std::size_t(nprimes) + from <= needed) {  // one prime per dimension
    std::size_t i = from + std::size_t(nprimes);
    for (const auto& [val, cnt] : f)
      for (int c = 0; c < cnt; ++c) chosen[--i] = val;
    return true;  // the rest stay 1
  }
  if (needed - from == 1) {
    chosen[from] = n;
    return true;
  }
  if (f.size() == 1) {  // p^cnt: deal the p's round robin
    std::size_t k = from;
    for (int c = 0; c < f[0].cnt; ++c) {
      if (k >= needed) k = from;
      chosen[k++] *= f[0].val;
    }
    return true;
  }
  const int left = int(needed - from);  // every exponent splits evenly
  i64 root = 1;
  for (const auto& [val, cnt] : f) {
    if (cnt % left != 0) return false;
    for (int c = 0; c < cnt / left; ++c) root *= val;
  }
  std::fill(chosen.begin() + std::ptrdiff_t(from), chosen.end(), root);
  return true;
}

// MPIR_Dims_create_impl after validation: `needed` >= 1 values for the zero
// entries, in order, for n = nnodes / (product of the fixed entries).
std::vector<i64> mpich_dims(i64 n, std::size_t needed) {
  std::vector<i64> chosen(needed, 1);
  if (needed == 1) {
    chosen[0] = n;
    return chosen;
  }
  int nprimes = 0;
  auto f = factor(n, nprimes);
  // A prime above sqrt(n) must be a dimension of its own: place the largest
  // such primes first (never the smallest factor, never the last slot).
  std::size_t from = 0;
  while (f.size() > 1 && from + 1 < needed) {
    const auto [val, cnt] = f.back();
    if (cnt != 1 || val * val <= n) break;
    chosen[from++] = val;
    f.pop_back();
    n /= val;
    --nprimes;
  }
  if (shortcut(n, nprimes, f, from, chosen)) return chosen;

  const int nd = int(needed - from);
  const auto divs = divisors(f);
  const auto guess = round_robin(f, nd);
  std::copy(guess.begin(), guess.end(), chosen.begin() + std::ptrdiff_t(from));
  // MPICH measures the first guess against chosen[0], which may be one of
  // the large primes placed above; keep that quirk.
  Search s{nd, std::vector<i64>(std::size_t(nd), 0), chosen[0] - chosen[needed - 1], guess};
  s.trydims[std::size_t(nd - 1)] = divs[0];
  optbalance(n, nd - 1, divs, s);
  std::copy(s.opt.begin(), s.opt.end(), chosen.begin() + std::ptrdiff_t(from));
  return chosen;
}

// Validates MPI_Dims_create input; returns the product of the fixed entries.
i64 check_dims_create(int nnodes, const std::vector<int>& dims, std::string_view func) {
  if (nnodes < 0) {
    fail(ErrClass::Arg, func, "nnodes = " + num(nnodes) + " is negative");
  }
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      fail(ErrClass::Dims, func, at("dims", i) + " = " + num(dims[i]) + " is negative");
    }
  }
  if (nnodes == 0) {
    // MPICH would return a zero extent (or loop forever factoring 0).
    fail(ErrClass::Dims, func, "nnodes = 0: a grid needs at least one process");
  }
  i64 fixed = 1;
  bool any_free = false;
  for (int d : dims) {
    if (d == 0) any_free = true;
    else fixed = std::min<i64>(fixed * d, i64(nnodes) + 1);  // saturate: no overflow
  }
  if (fixed > nnodes) {
    fail(ErrClass::Dims, func,
         "the fixed entries of dims = " + tuple(dims) + " multiply to more than nnodes = " +
             num(nnodes));
  }
  if (nnodes % fixed != 0) {
    fail(ErrClass::Dims, func,
         "nnodes = " + num(nnodes) + " is not a multiple of " + num(fixed) +
             ", the product of the fixed entries of dims = " + tuple(dims));
  }
  if (!any_free && fixed != nnodes) {
    // MPICH returns such dims unchanged; they cannot describe nnodes processes.
    fail(ErrClass::Dims, func,
         "dims = " + tuple(dims) + " has no zero entry to fill and multiplies to " +
             num(fixed) + ", not nnodes = " + num(nnodes));
  }
  return fixed;
}

}  // namespace

std::vector<int> dims_create(int nnodes, std::vector<int> dims, std::string_view func) {
  const i64 fixed = check_dims_create(nnodes, dims, func);
  const auto needed = std::size_t(std::count(dims.begin(), dims.end(), 0));
  if (needed == 0) return dims;
  const auto chosen = mpich_dims(nnodes / fixed, needed);
  std::size_t j = 0;
  for (int& d : dims) {
    if (d == 0) d = int(chosen[j++]);  // fixed entries stay where they are
  }
  return dims;
}

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
