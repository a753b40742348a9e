// core/topo/topo_cart.cpp: Cartesian topology arithmetic: ranks and coordinates, shifts, sub-grids, cart_map (seed §7.5.1, §7.5.5).
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
namespace {

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

void check_cart(const Cart& c, int comm_size, ErrClass too_large, std::string_view func) {
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
    fail(too_large, func,
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
  check_cart(c, comm_size, ErrClass::Dims, func);
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

}  // namespace lumpi::core::topo
