// core/datatype/external32.cpp: native packed data <-> external32
// (core/datatype/external32.hpp states the format).
#include "core/datatype/external32.hpp"

#include <algorithm>
#include <cstring>

#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

bool is_long(Basic b) { return b == Basic::Long || b == Basic::UnsignedLong; }
bool is_long_double(Basic b) { return b == Basic::LongDouble; }
bool is_long_double_complex(Basic b) {
  return b == Basic::CLongDoubleComplex || b == Basic::CxxLongDoubleComplex;
}
bool is_complex(Basic b) {
  switch (b) {
    case Basic::CFloatComplex: case Basic::CDoubleComplex: case Basic::CxxFloatComplex:
    case Basic::CxxDoubleComplex: case Basic::Complex: case Basic::DoubleComplex:
    case Basic::Complex8: case Basic::Complex16: return true;
    default: return false;
  }
}

std::int64_t external_size(Basic b) {
  if (is_long(b)) return 4;
  if (is_long_double(b)) return 16;
  if (is_long_double_complex(b)) return 32;
  return std::int64_t(basic_info(b).size);
}

// Big-endian bytes <-> this machine's (little-endian) order.
void reversed(const char* in, std::size_t n, char* out) { std::reverse_copy(in, in + n, out); }

// x87 extended (64-bit significand with its integer bit, 15-bit exponent)
// <-> IEEE binary128 (112-bit fraction, the same 15-bit exponent and bias).
// The fraction bits below the integer bit carry over shifted; the integer
// bit is implied in binary128 (0 for zero and subnormals, whose exponent
// field is 0 in both).
void x87_to_binary128(const char* in, char* out_be) {
  std::uint64_t mant;
  std::uint16_t se;
  std::memcpy(&mant, in, 8);
  std::memcpy(&se, in + 8, 2);
  const std::uint64_t frac = mant & ~(std::uint64_t(1) << 63);  // 63 bits
  const std::uint64_t hi = (std::uint64_t(se) << 48) | (frac >> 15);
  const std::uint64_t lo = frac << 49;
  for (int i = 0; i < 8; ++i) out_be[i] = char(hi >> (56 - 8 * i));
  for (int i = 0; i < 8; ++i) out_be[8 + i] = char(lo >> (56 - 8 * i));
}

void binary128_to_x87(const char* in_be, char* out) {
  std::uint64_t hi = 0, lo = 0;
  for (int i = 0; i < 8; ++i) hi = (hi << 8) | std::uint8_t(in_be[i]);
  for (int i = 0; i < 8; ++i) lo = (lo << 8) | std::uint8_t(in_be[8 + i]);
  const std::uint16_t se = std::uint16_t(hi >> 48);
  const std::uint64_t frac = ((hi & 0xffffffffffffULL) << 15) | (lo >> 49);
  const std::uint64_t integer_bit = (se & 0x7fff) != 0 ? std::uint64_t(1) << 63 : 0;
  const std::uint64_t mant = integer_bit | frac;
  std::memset(out, 0, 16);
  std::memcpy(out, &mant, 8);
  std::memcpy(out + 8, &se, 2);
}

// One element of basic type b: native `in` -> external `out`.
void export_one(Basic b, const char* in, char* out, std::int64_t index, std::string_view func) {
  if (is_long(b)) {
    std::int64_t v;
    std::memcpy(&v, in, 8);
    const bool fits = b == Basic::Long ? v >= INT32_MIN && v <= INT32_MAX : std::uint64_t(v) <= UINT32_MAX;
    if (!fits)
      fail(ErrClass::Conversion, func,
           "element " + std::to_string(index) + " (" + basic_info(b).name + ", " + std::to_string(v) +
               ") does not fit external32's 4 bytes");
    const std::uint32_t w = std::uint32_t(v);
    reversed(reinterpret_cast<const char*>(&w), 4, out);
  } else if (is_long_double(b)) {
    x87_to_binary128(in, out);
  } else if (is_long_double_complex(b)) {
    x87_to_binary128(in, out);
    x87_to_binary128(in + 16, out + 16);
  } else if (is_complex(b)) {
    const std::size_t half = basic_info(b).size / 2;
    reversed(in, half, out);
    reversed(in + half, half, out + half);
  } else {
    reversed(in, basic_info(b).size, out);
  }
}

// One element: external `in` -> native `out`.
void import_one(Basic b, const char* in, char* out) {
  if (is_long(b)) {
    std::uint32_t w;
    reversed(in, 4, reinterpret_cast<char*>(&w));
    const std::int64_t v = b == Basic::Long ? std::int64_t(std::int32_t(w)) : std::int64_t(w);
    std::memcpy(out, &v, 8);
  } else if (is_long_double(b)) {
    binary128_to_x87(in, out);
  } else if (is_long_double_complex(b)) {
    binary128_to_x87(in, out);
    binary128_to_x87(in + 16, out + 16);
  } else if (is_complex(b)) {
    const std::size_t half = basic_info(b).size / 2;
    reversed(in, half, out);
    reversed(in + half, half, out + half);
  } else {
    reversed(in, basic_info(b).size, out);
  }
}

}  // namespace

std::int64_t external32_size(const Datatype& t, std::int64_t count) {
  std::int64_t per = 0;
  for (const Run& r : t.runs()) per += r.count * external_size(r.basic);
  return per * count;
}

std::string to_external32(const Datatype& t, std::int64_t count, std::string_view native, std::string_view func) {
  std::string out(std::size_t(external32_size(t, count)), '\0');
  std::size_t in = 0, at = 0;
  std::int64_t index = 0;
  for (std::int64_t e = 0; e < count; ++e)
    for (const Run& r : t.runs())
      for (std::int64_t k = 0; k < r.count; ++k, ++index) {
        export_one(r.basic, native.data() + in, out.data() + at, index, func);
        in += basic_info(r.basic).size;
        at += std::size_t(external_size(r.basic));
      }
  return out;
}

std::string from_external32(const Datatype& t, std::int64_t count, std::string_view external, std::string_view) {
  std::string out(std::size_t(t.size() * count), '\0');
  std::size_t in = 0, at = 0;
  for (std::int64_t e = 0; e < count; ++e)
    for (const Run& r : t.runs())
      for (std::int64_t k = 0; k < r.count; ++k) {
        import_one(r.basic, external.data() + in, out.data() + at);
        in += std::size_t(external_size(r.basic));
        at += basic_info(r.basic).size;
      }
  return out;
}

}  // namespace lumpi::core
