// core/datatype/external32.hpp: the "external32" data representation
// (MPI-3.1 §13.5.2), the portable form MPI_Pack_external writes and
// MPI_Unpack_external reads.
//
// external32 is big-endian, IEEE 754 for floating point, two's complement
// for integers, with the sizes of Table 13.2: what differs from this
// machine's packed form (core::Datatype::pack: native bytes in type-map
// order) is the byte order, MPI_LONG and MPI_UNSIGNED_LONG (4 bytes there,
// 8 here), and MPI_LONG_DOUBLE (IEEE binary128 there, the x87 80-bit format
// in 16 bytes here); complex values are two reals each converted. A value
// that does not fit its external size (a long beyond 32 bits) is
// MPI_ERR_CONVERSION, naming the element.
//
// These functions convert between a native packed string and external32;
// the callers pack and unpack with the type's own engine around them. Pure:
// sends nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/datatype/datatype.hpp"

namespace lumpi::core {

// Bytes of `count` elements of the committed type t in external32.
std::int64_t external32_size(const Datatype& t, std::int64_t count);

// `native` holds count elements of t as Datatype::pack wrote them; returns
// them in external32.
std::string to_external32(const Datatype& t, std::int64_t count, std::string_view native,
                          std::string_view func);

// The reverse: `external` holds count elements of t in external32
// (external32_size bytes); returns them as Datatype::unpack reads them.
std::string from_external32(const Datatype& t, std::int64_t count, std::string_view external,
                            std::string_view func);

}  // namespace lumpi::core
