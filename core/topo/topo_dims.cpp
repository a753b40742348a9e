// core/topo/topo_dims.cpp: MPI_Dims_create (seed §7.5.2), computing the same balanced grids as MPICH 4.0.2.
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

}  // namespace lumpi::core::topo
