// core/constants.hpp: MPI's special numbers, shared by every layer.
//
// They are distinct negative integers (API.md §1), so a rank argument can be
// told apart from each of them by value alone.
#pragma once

namespace lumpi::core {

inline constexpr int PROC_NULL = -1;
inline constexpr int ANY_SOURCE = -2;
inline constexpr int ROOT = -3;
inline constexpr int ANY_TAG = -4;
inline constexpr int UNDEFINED = -32766;
inline constexpr int TAG_UB = (1 << 30) - 1;  // largest user tag
inline constexpr int MAX_OBJECT_NAME = 128;

}  // namespace lumpi::core
