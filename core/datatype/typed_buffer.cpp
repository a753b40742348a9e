// core/datatype/typed_buffer.cpp: typed buffers as message bytes, and
// packing at a position (core/datatype/typed_buffer.hpp states the rules).
#include "core/datatype/typed_buffer.hpp"

#include <cstring>

#include "core/base/error.hpp"
#include "core/datatype/external32.hpp"

namespace lumpi::core {

bool dense(const Datatype& t) {
  if (t.lb() != 0 || t.extent() != t.size()) return false;
  if (t.predefined() || t.size() == 0) return true;
  const auto& b = t.blocks();
  return b.size() == 1 && b[0].offset == 0 && b[0].length == t.size();
}

void check_buffer(const void* buf, std::int64_t count, const Datatype& t, std::string_view func,
                  std::string_view buf_name, std::string_view count_name) {
  if (buf || count == 0 || t.size() == 0 || t.true_lb() != 0) return;
  const std::string type_name = t.name().empty() ? "a derived datatype" : t.name();
  fail(ErrClass::Buffer, func,
       std::string(buf_name) + " is NULL, but " + std::string(count_name) + " " + std::to_string(count) + " of " +
           type_name +
           " needs memory (a NULL buffer, MPI_BOTTOM, holds only absolute addresses)");
}

TypedBuffer::TypedBuffer(const void* buf, std::int64_t count, TypePtr t, std::string_view func,
                         std::string_view what, std::string_view buf_name)
    : buf_(static_cast<char*>(const_cast<void*>(buf))), count_(count), type_(std::move(t)) {
  if (count < 0) fail(ErrClass::Count, func, std::string(what) + " " + std::to_string(count) + " is negative");
  if (!type_->predefined()) type_->check_usable(func);
  size_ = std::size_t(count) * std::size_t(type_->size());
  if (!buf) {  // the name only then: "count" names "buf", "sendcount" "sendbuf"
    const std::string name(buf_name.empty() ? std::string(what.substr(0, what.rfind("count"))) + "buf" : buf_name);
    check_buffer(buf, count, *type_, func, name, what);
  }
  dense_ = dense(*type_);
}

const char* TypedBuffer::pack(std::string_view func) {
  if (dense_) return buf_;
  staging_.reset(new char[size_]);
  pack_into(staging_.get(), func);
  return staging_.get();
}

void TypedBuffer::pack_into(char* out, std::string_view func) const {
  if (!dense_) return type_->pack(buf_, count_, out, func);
  if (size_ > 0) std::memcpy(out, buf_, size_);
}

char* TypedBuffer::stage() {
  if (dense_) return buf_;
  staging_.reset(new char[size_]);
  return staging_.get();
}

void TypedBuffer::unpack(std::size_t received, std::string_view func) {
  if (!dense_) unpack_from(staging_.get(), received, func);
}

void TypedBuffer::unpack_from(const char* data, std::size_t n, std::string_view func) {
  if (!dense_) return type_->unpack(data, n, buf_, count_, func);
  if (n > 0) std::memcpy(buf_, data, n);
}

void TypedBuffer::land(std::string_view data, std::string_view func) {
  if (data.size() != size_)
    fail(ErrClass::Truncate, func, "received " + std::to_string(data.size()) + " bytes where " +
                                       std::to_string(size_) + " were expected (counts differ between ranks)");
  if (!dense_) return type_->unpack(data.data(), data.size(), buf_, count_, func);
  if (size_ > 0) std::memcpy(buf_, data.data(), size_);
}

bool TypedBuffer::overlaps(const TypedBuffer& o) const {
  if (!dense_ || !o.dense_ || size_ == 0 || o.size_ == 0 || !buf_ || !o.buf_) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(buf_), b = reinterpret_cast<std::uintptr_t>(o.buf_);
  return a < b + o.size_ && b < a + size_;
}

namespace {

// position within a buffer of size bytes: MPI_ERR_ARG otherwise.
void check_position(std::int64_t position, std::int64_t size, std::string_view func, const char* what) {
  if (size < 0) fail(ErrClass::Arg, func, std::string(what) + " " + std::to_string(size) + " is negative");
  if (position < 0 || position > size)
    fail(ErrClass::Arg, func,
         "position " + std::to_string(position) + " is outside the buffer of " + std::to_string(size) + " bytes");
}

std::int64_t packed_size(const Datatype& t, std::int64_t count, bool external) {
  return external ? external32_size(t, count) : count * t.size();
}

}  // namespace

void pack_at(const Datatype& t, const void* in, std::int64_t count, void* out, std::int64_t outsize,
             std::int64_t& position, bool external, std::string_view func) {
  if (count < 0) fail(ErrClass::Count, func, "incount " + std::to_string(count) + " is negative");
  t.check_usable(func);
  check_position(position, outsize, func, "outsize");
  const std::int64_t n = packed_size(t, count, external);
  if (n > outsize - position)
    fail(ErrClass::Arg, func,
         std::to_string(n) + " packed bytes do not fit the " + std::to_string(outsize - position) +
             " left in outbuf after position " + std::to_string(position) + " (outsize " +
             std::to_string(outsize) + ")");
  if (n == 0) return;
  if (!in) fail(ErrClass::Buffer, func, "inbuf is NULL");
  if (!out) fail(ErrClass::Arg, func, "outbuf is NULL");
  char* at = static_cast<char*>(out) + position;
  if (!external) {
    t.pack(in, count, at, func);  // straight into outbuf
  } else {
    std::string packed;
    t.pack(in, count, packed, func);
    packed = to_external32(t, count, packed, func);
    std::memcpy(at, packed.data(), packed.size());
  }
  position += n;
}

void unpack_at(const Datatype& t, const void* in, std::int64_t insize, std::int64_t& position, void* out,
               std::int64_t count, bool external, std::string_view func) {
  if (count < 0) fail(ErrClass::Count, func, "outcount " + std::to_string(count) + " is negative");
  t.check_usable(func);
  check_position(position, insize, func, "insize");
  const std::int64_t n = packed_size(t, count, external);
  if (n > insize - position)
    fail(ErrClass::Truncate, func,
         std::to_string(count) + " elements need " + std::to_string(n) + " packed bytes; inbuf has " +
             std::to_string(insize - position) + " after position " + std::to_string(position));
  if (n == 0) return;
  if (!in) fail(ErrClass::Arg, func, "inbuf is NULL");
  if (!out) fail(ErrClass::Buffer, func, "outbuf is NULL");
  std::string_view bytes(static_cast<const char*>(in) + position, std::size_t(n));
  if (external) {
    const std::string native = from_external32(t, count, bytes, func);
    t.unpack(native.data(), native.size(), out, count, func);
  } else {
    t.unpack(bytes.data(), bytes.size(), out, count, func);
  }
  position += n;
}

}  // namespace lumpi::core
