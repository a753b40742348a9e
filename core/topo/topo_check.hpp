// core/topo/topo_check.hpp: what the topology arithmetic files (core/topo/topo_*.cpp)
// share to check arguments and word their errors. Internal to them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.hpp"

namespace lumpi::core::topo::detail {

using i64 = std::int64_t;

inline std::string num(i64 v) { return std::to_string(v); }
// "coords[2]": a position, counted by each door as its users count (core/base/error.hpp).
using core::at;
// "(2, 3)"
std::string tuple(const std::vector<int>& v);
// "2x3"
std::string shape(const std::vector<int>& dims);
// "1 entry", "3 entries".
std::string entries(std::size_t n);

// MPI_ERR_ARG unless sequence `name` has exactly `expected` entries; `what`
// names where the expectation comes from ("the length of sources").
void check_length(std::string_view func, std::string_view name, std::size_t got,
                  std::size_t expected, std::string_view what);
// MPI_ERR_RANK for an entry outside 0..comm_size-1.
void check_ranks(std::string_view func, std::string_view name, const std::vector<int>& ranks,
                 int comm_size);
// MPI_ERR_ARG for a negative entry.
void check_non_negative(std::string_view func, std::string_view name, const std::vector<int>& values);
// Weights run parallel to their ranks when weighted; MPI_UNWEIGHTED has no
// array at all, so weights given for an unweighted graph are a mistake.
void check_weights(std::string_view func, std::string_view name, const std::vector<int>& weights,
                   std::string_view ranks_name, std::size_t nranks, bool weighted);

}  // namespace lumpi::core::topo::detail
