// core/base/constants.hpp: MPI's special numbers, shared by every layer.
//
// They are distinct negative integers (API.md §1), so a rank argument can be
// told apart from each of them by value alone.
#pragma once

#include <string>
#include <string_view>

namespace lumpi::core {

inline constexpr int PROC_NULL = -1;
inline constexpr int ANY_SOURCE = -2;
inline constexpr int ROOT = -3;
inline constexpr int ANY_TAG = -4;
inline constexpr int UNDEFINED = -32766;
inline constexpr int TAG_UB = (1 << 30) - 1;  // largest user tag
inline constexpr int MAX_OBJECT_NAME = 128;
// The limits of the C API (capi/mpi.h), also given to Lua and C++.
inline constexpr int MAX_PROCESSOR_NAME = 256;
inline constexpr int MAX_INFO_KEY = 255;
inline constexpr int MAX_INFO_VAL = 1024;
// MPI_Comm_split_type's split types by number, as mpi.h and lumpi.hpp give
// them (Lua names them "shared", "hw_guided", "hw_unguided", "hw_domain").
inline constexpr int COMM_TYPE_SHARED = 1;
inline constexpr int COMM_TYPE_HW_GUIDED = 2;    // MPI-4.0 §7.4.2
inline constexpr int COMM_TYPE_HW_UNGUIDED = 3;  // MPI-4.0 §7.4.2
inline constexpr int COMM_TYPE_HW_DOMAIN = 4;    // the seed's §6.4.2
// The MPI version lumpi follows (MPI_Get_version).
inline constexpr int kMpiVersion = 3;
inline constexpr int kMpiSubversion = 1;

// An object's name as MPI keeps it (seed §6.8): truncated to
// MAX_OBJECT_NAME - 1 characters; trailing spaces are not significant and
// dropped, leading spaces are kept.
inline std::string object_name(std::string_view given) {
  std::string n(given.substr(0, size_t(MAX_OBJECT_NAME - 1)));
  while (!n.empty() && n.back() == ' ') n.pop_back();
  return n;
}

}  // namespace lumpi::core
