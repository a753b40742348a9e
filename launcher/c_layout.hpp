// launcher/c_layout.hpp: cutting C buffers into the per-rank byte blocks
// the core's collectives move, and placing received blocks back, for the
// v-, w- and neighbourhood collectives (launcher/c_collv.cpp,
// launcher/c_neighbor.cpp). Offsets are in bytes; every check raises an
// MPI error naming the argument before anything is sent.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "launcher/c_api.hpp"

namespace lumpi::capi {

using core::coll::Bytes;

// The block of n bytes at byte offset off of buf.
inline Bytes block_at(const void* buf, long off, size_t n) {
  return n ? Bytes(static_cast<const char*>(buf) + off, n) : Bytes();
}

// Copies b to byte offset off of buf, which has room for cap bytes there:
// MPI_ERR_TRUNCATE naming func if b is longer. Shorter is allowed (MPI: the
// receive count is an upper bound... for collectives the amounts must
// match, which the sender's side guarantees for a correct program).
inline void place(void* buf, long off, const Bytes& b, size_t cap, const char* func, int from) {
  if (b.size() > cap)
    fail(MPI_ERR_TRUNCATE, func,
         "rank " + std::to_string(from) + " sent " + std::to_string(b.size()) + " bytes; its block has room for " +
             std::to_string(cap));
  if (!b.empty()) std::memcpy(static_cast<char*>(buf) + off, b.data(), b.size());
}

// n counts of an argument array, each checked to be non-negative.
inline std::vector<int> counts_arg(const int* a, int n, const char* func, const char* what) {
  if (n > 0 && !a) fail(MPI_ERR_ARG, func, std::string(what) + " is NULL");
  std::vector<int> v(a, a + n);
  for (int i = 0; i < n; ++i)
    if (v[size_t(i)] < 0)
      fail(MPI_ERR_COUNT, func, std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(v[size_t(i)]) + " is negative");
  return v;
}

inline std::vector<int> displs_arg(const int* a, int n, const char* func, const char* what) {
  if (n > 0 && !a) fail(MPI_ERR_ARG, func, std::string(what) + " is NULL");
  return std::vector<int>(a, a + n);
}

}  // namespace lumpi::capi
