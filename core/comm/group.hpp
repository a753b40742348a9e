// core/comm/group.hpp: MPI group algebra (seed §6.3), pure and local.
//
// A group is an ordered list of distinct COMM_WORLD ranks; a process's rank in
// the group is its index in that list. Everything here is a pure function of
// its arguments: nothing is sent, nothing is cached. Erroneous input raises
// core::Error (MPI_ERR_RANK / MPI_ERR_ARG / MPI_ERR_GROUP) naming the argument,
// with `func` as the MPI function name ("MPI_Group_incl", ...).
#pragma once

#include <array>
#include <string_view>
#include <vector>

namespace lumpi::core::group {

using Members = std::vector<int>;       // world ranks, in group order
using Range = std::array<int, 3>;       // {first, last, stride}

enum class Relation { Ident, Similar, Unequal };

// Index of `world_rank` in `g`, or UNDEFINED.
int rank_of(const Members& g, int world_rank);

// MPI_Group_translate_ranks: for each rank of g1, its rank in g2, UNDEFINED
// where absent; PROC_NULL maps to PROC_NULL. Out-of-range ranks raise.
std::vector<int> translate(const Members& g1, const std::vector<int>& ranks,
                           const Members& g2);

Relation compare(const Members& a, const Members& b);

// Set-like constructors, with the seed's ordering rules:
// union: all of a in a's order, then elements of b not in a, in b's order;
// intersection: elements of a that are in b, in a's order;
// difference: elements of a not in b, in a's order.
Members set_union(const Members& a, const Members& b);
Members intersection(const Members& a, const Members& b);
Members difference(const Members& a, const Members& b);

// MPI_Group_incl / excl: ranks must be valid and distinct.
Members incl(const Members& g, const std::vector<int>& ranks);
Members excl(const Members& g, const std::vector<int>& ranks);

// MPI_Group_range_incl / range_excl, strides may be negative, never zero;
// every computed rank must be valid and appear only once overall.
Members range_incl(const Members& g, const std::vector<Range>& ranges);
Members range_excl(const Members& g, const std::vector<Range>& ranges);

}  // namespace lumpi::core::group
