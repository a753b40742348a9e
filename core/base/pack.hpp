// core/base/pack.hpp: the one byte format of the core's internal messages
// (collectives' packed parts, constructor and topology exchanges). Pure.
//
// A Packer appends varints (core/base/varint.hpp; signed values zigzagged so
// small negatives stay short), byte strings (length, then bytes), and lists
// of either. An Unpacker reads the same back and never trusts its input:
// anything malformed or left over raises MPI_ERR_INTERN naming the call
// whose peer sent it. (The Lua value codec, lua/codec.*, is the format of
// user values; it uses the same varints.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/varint.hpp"

namespace lumpi::core {

class Packer {
 public:
  Packer& u64(uint64_t v) {
    put_varint(out_, v);
    return *this;
  }
  Packer& i64(int64_t v) { return u64((uint64_t(v) << 1) ^ uint64_t(v >> 63)); }
  Packer& ints(const std::vector<int>& v) {
    u64(v.size());
    for (int x : v) i64(x);
    return *this;
  }
  Packer& bytes(std::string_view s) {
    u64(s.size());
    out_ += s;
    return *this;
  }
  Packer& list(const std::vector<std::string>& parts) {
    u64(parts.size());
    for (const auto& p : parts) bytes(p);
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Unpacker {
 public:
  // `func` names the MPI call in the error a malformed input raises.
  Unpacker(std::string_view in, std::string_view func) : in_(in), func_(func) {}
  // An Unpacker only views its input: a temporary string would dangle.
  Unpacker(std::string&&, std::string_view) = delete;
  uint64_t u64() {
    uint64_t v;
    if (!get_varint(in_, pos_, v)) bad();
    return v;
  }
  int64_t i64() {
    uint64_t u = u64();
    return int64_t(u >> 1) ^ -int64_t(u & 1);
  }
  // An int64 that must fit an int (ranks, colours, keys, counts).
  int i32() {
    int64_t v = i64();
    if (v < INT32_MIN || v > INT32_MAX) bad();
    return int(v);
  }
  std::vector<int> ints() {
    std::vector<int> v(count());
    for (int& x : v) x = i32();
    return v;
  }
  std::string bytes() {
    size_t n = count();
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  // A byte string without copying it: a view into the input.
  std::string_view bytes_view() {
    size_t n = count();
    std::string_view v = in_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  std::vector<std::string> list() {
    std::vector<std::string> v(count());
    for (auto& s : v) s = bytes();
    return v;
  }
  // Raises unless everything was read.
  void end() const {
    if (pos_ != in_.size()) bad();
  }

 private:
  // A length, checked against what is left (every element takes a byte).
  size_t count() {
    uint64_t n = u64();
    if (n > in_.size() - pos_) bad();
    return size_t(n);
  }
  [[noreturn]] void bad() const { fail(ErrClass::Intern, func_, "malformed internal data from a peer"); }

  std::string_view in_;
  std::string_view func_;
  size_t pos_ = 0;
};

// A list of byte strings as one, and back (raising on malformed input).
inline std::string pack_list(const std::vector<std::string>& parts) { return Packer().list(parts).take(); }
inline std::vector<std::string> unpack_list(std::string_view in, std::string_view func) {
  Unpacker u(in, func);
  auto v = u.list();
  u.end();
  return v;
}

}  // namespace lumpi::core
