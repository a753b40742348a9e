// core/base/varint.hpp: unsigned LEB128, the length encoding of every byte format
// lumpi writes (packed collective data, the Lua value codec). Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lumpi::core {

inline void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char(v | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

// Reads one varint at `pos`, advancing it. False if the input ends first or
// the value runs past 64 bits; `pos` is then past what was read.
inline bool get_varint(std::string_view in, size_t& pos, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && pos < in.size(); shift += 7) {
    uint8_t b = uint8_t(in[pos++]);
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

}  // namespace lumpi::core
