// core/comm/group.cpp: MPI group algebra (seed §6.3) over lists of world ranks.
//
// Every function validates all of its arguments first and only then builds
// its result, so a failing call has no partial effect. Errors name the bad
// argument and its value; a position in an array is core::at(), which each
// door counts as its users do (C `ranks[0]`, Lua `ranks[1]`).
#include "core/comm/group.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core::group {
namespace {

constexpr std::string_view kIncl = "MPI_Group_incl";
constexpr std::string_view kExcl = "MPI_Group_excl";
constexpr std::string_view kRangeIncl = "MPI_Group_range_incl";
constexpr std::string_view kRangeExcl = "MPI_Group_range_excl";
constexpr std::string_view kTranslate = "MPI_Group_translate_ranks";

std::string describe(const Range& r) {
  return "{" + std::to_string(r[0]) + ", " + std::to_string(r[1]) + ", " +
         std::to_string(r[2]) + "}";
}

bool in_range(std::int64_t rank, std::size_t size) {
  return rank >= 0 && rank < static_cast<std::int64_t>(size);
}

// A rank already checked to be valid, as an index into a group.
std::size_t idx(std::int64_t valid_rank) { return static_cast<std::size_t>(valid_rank); }

std::string size_text(std::size_t size) {
  return "a group of size " + std::to_string(size);
}

// Checks that `ranks` are valid, distinct ranks of a group of `size`
// (MPI_GROUP_INCL / EXCL, §6.3.2); duplicates are MPI_ERR_RANK as in MPICH.
void check_rank_list(std::string_view func, std::size_t size,
                     const std::vector<int>& ranks) {
  std::vector<std::size_t> seen_at(size, 0);  // 1-based position, 0 = unseen
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int r = ranks[i];
    if (!in_range(r, size)) {
      fail(ErrClass::Rank, func,
           at("ranks", i) + " = " + std::to_string(r) +
               " is out of range for " + size_text(size));
    }
    if (seen_at[idx(r)] != 0) {
      fail(ErrClass::Rank, func,
           at("ranks", i) + " = " + std::to_string(r) + " repeats " +
               at("ranks", seen_at[idx(r)] - 1));
    }
    seen_at[idx(r)] = i + 1;
  }
}

// Checks one triplet's stride: zero is erroneous (§6.3.2), and a stride that
// points away from `last` would make the seed's floor term negative, which we
// reject as MPICH does rather than read it as an empty range.
void check_stride(std::string_view func, std::size_t index, const Range& r) {
  const auto [first, last, stride] = r;
  if (stride == 0) {
    fail(ErrClass::Arg, func,
         at("ranges", index) + " = " + describe(r) + " has stride 0");
  }
  if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
    fail(ErrClass::Arg, func,
         at("ranges", index) + " = " + describe(r) + " runs from " +
             std::to_string(first) + " to " + std::to_string(last) +
             " against the sign of its stride");
  }
}

// Expands the triplets in order into the rank list of §6.3.2, checking that
// every computed rank is valid and computed only once overall. Only computed
// ranks are checked: {0, 100, 200} on a group of size 4 computes just 0.
// Each accepted rank is new and valid, so at most size+1 steps are taken in
// total before success or failure, whatever the triplets' spans.
std::vector<int> expand_ranges(std::string_view func, std::size_t size,
                               const std::vector<Range>& ranges) {
  for (std::size_t i = 0; i < ranges.size(); ++i) check_stride(func, i, ranges[i]);
  std::vector<std::size_t> seen_in(size, 0);  // 1-based triplet, 0 = unseen
  std::vector<int> out;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const auto [first, last, stride] = ranges[i];
    for (std::int64_t r = first; stride > 0 ? r <= last : r >= last; r += stride) {
      if (!in_range(r, size)) {
        fail(ErrClass::Rank, func,
             at("ranges", i) + " = " + describe(ranges[i]) + " computes rank " +
                 std::to_string(r) + ", out of range for " + size_text(size));
      }
      if (seen_in[idx(r)] != 0) {
        fail(ErrClass::Rank, func,
             at("ranges", i) + " = " + describe(ranges[i]) + " computes rank " +
                 std::to_string(r) + ", already computed by " +
                 at("ranges", seen_in[idx(r)] - 1));
      }
      seen_in[idx(r)] = i + 1;
      out.push_back(static_cast<int>(r));
    }
  }
  return out;
}

// The members at `ranks`, in the order of `ranks`. Ranks are already valid.
Members pick(const Members& g, const std::vector<int>& ranks) {
  Members out;
  out.reserve(ranks.size());
  for (int r : ranks) out.push_back(g[idx(r)]);
  return out;
}

// The members not at `ranks`, in group order. Ranks are already valid.
Members drop(const Members& g, const std::vector<int>& ranks) {
  std::vector<bool> gone(g.size(), false);
  for (int r : ranks) gone[idx(r)] = true;
  Members out;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (!gone[i]) out.push_back(g[i]);
  }
  return out;
}

// The members of `a` whose presence in `b` equals `keep_if_in_b`, in a's order.
Members filter_by(const Members& a, const Members& b, bool keep_if_in_b) {
  const std::unordered_set<int> in_b(b.begin(), b.end());
  Members out;
  for (int m : a) {
    if (in_b.contains(m) == keep_if_in_b) out.push_back(m);
  }
  return out;
}

}  // namespace

int rank_of(const Members& g, int world_rank) {
  const auto it = std::find(g.begin(), g.end(), world_rank);
  return it == g.end() ? UNDEFINED : static_cast<int>(it - g.begin());
}

std::vector<int> translate(const Members& g1, const std::vector<int>& ranks,
                           const Members& g2) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int r = ranks[i];
    if (r != PROC_NULL && !in_range(r, g1.size())) {
      fail(ErrClass::Rank, kTranslate,
           at("ranks", i) + " = " + std::to_string(r) +
               " is out of range for group1 of size " + std::to_string(g1.size()));
    }
  }
  std::vector<int> out;
  out.reserve(ranks.size());
  for (int r : ranks) out.push_back(r == PROC_NULL ? PROC_NULL : rank_of(g2, g1[idx(r)]));
  return out;
}

Relation compare(const Members& a, const Members& b) {
  if (a == b) return Relation::Ident;
  if (a.size() != b.size()) return Relation::Unequal;
  Members sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sa == sb ? Relation::Similar : Relation::Unequal;
}

Members set_union(const Members& a, const Members& b) {
  Members out = a;
  const Members extra = filter_by(b, a, false);
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

Members intersection(const Members& a, const Members& b) {
  return filter_by(a, b, true);
}

Members difference(const Members& a, const Members& b) {
  return filter_by(a, b, false);
}

Members incl(const Members& g, const std::vector<int>& ranks) {
  check_rank_list(kIncl, g.size(), ranks);
  return pick(g, ranks);
}

Members excl(const Members& g, const std::vector<int>& ranks) {
  check_rank_list(kExcl, g.size(), ranks);
  return drop(g, ranks);
}

Members range_incl(const Members& g, const std::vector<Range>& ranges) {
  return pick(g, expand_ranges(kRangeIncl, g.size(), ranges));
}

Members range_excl(const Members& g, const std::vector<Range>& ranges) {
  return drop(g, expand_ranges(kRangeExcl, g.size(), ranges));
}

}  // namespace lumpi::core::group
