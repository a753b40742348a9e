// core/topo/topo_check.cpp: argument checks and error wording shared by the
// topology arithmetic files.
#include "core/topo/topo_check.hpp"

#include "core/base/error.hpp"

namespace lumpi::core::topo::detail {


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

}  // namespace lumpi::core::topo::detail
