// core/datatype/typed_buffer.hpp: `count` elements of a datatype at a user
// buffer as the contiguous bytes a message carries, for every door's
// sends, receives and collectives, and the packing of MPI_Pack/MPI_Unpack
// at a position in a user's buffer (MPI-3.1 §4.2, §4.3).
//
// The rule: where the type is dense (count elements are count * size
// consecutive bytes at the buffer's address: the basic types and derived
// types without holes) the bytes are the user's memory itself; otherwise
// they are a staging copy the type packs into (sending) or unpacks from
// (receiving). The type must be committed and not freed (MPI_ERR_TYPE),
// count not negative (MPI_ERR_COUNT). Pure: sends nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/datatype/datatype.hpp"

namespace lumpi::core {

// count elements of t are count * size() consecutive bytes at the buffer.
bool dense(const Datatype& t);

// MPI_ERR_BUFFER when count elements of t at buf need memory and buf is
// NULL. A NULL buf is MPI_BOTTOM: a type's absolute addresses then say where
// the data is; data that would start at address 0 is a null pointer.
void check_buffer(const void* buf, std::int64_t count, const Datatype& t, std::string_view func,
                  std::string_view buf_name = "buf", std::string_view count_name = "count");

class TypedBuffer {
 public:
  // `what` names the count in errors ("count", "sendcount" ...); buf is
  // checked by check_buffer and named buf_name (by default after the count:
  // "buf", "sendbuf" ...).
  TypedBuffer(const void* buf, std::int64_t count, TypePtr t, std::string_view func,
              std::string_view what = "count", std::string_view buf_name = {});
  std::size_t size() const { return size_; }  // bytes of the packed form
  bool staged() const { return !dense_; }
  const TypePtr& type() const { return type_; }
  std::int64_t count() const { return count_; }
  const void* buffer() const { return buf_; }  // the user's
  // The packed bytes of the buffer's elements as they are now.
  const char* pack(std::string_view func);
  // The same packed into out (room for size() bytes): one pass over the
  // user's memory where a message body is the packed form's only home.
  void pack_into(char* out, std::string_view func) const;
  // Room for size() bytes to receive into; unpack(n) scatters the first n
  // received bytes into the buffer (nothing to do where it is dense).
  char* stage();
  void unpack(std::size_t received, std::string_view func);
  // The n (at most size()) bytes at data, received elsewhere, scattered
  // into the buffer: no staging copy.
  void unpack_from(const char* data, std::size_t n, std::string_view func);
  // A collective's result for this buffer, straight into it: exactly
  // size() bytes (MPI_ERR_TRUNCATE naming func otherwise: the ranks' counts differ).
  void land(std::string_view data, std::string_view func);
  // Whether this buffer and o share a byte for certain: both dense and
  // their byte ranges meet (a type with holes may interleave with another
  // in one array, which MPI allows; that is not told apart here).
  bool overlaps(const TypedBuffer& o) const;

 private:
  char* buf_;
  std::int64_t count_;
  TypePtr type_;
  std::size_t size_;
  bool dense_;
  std::unique_ptr<char[]> staging_;  // not zeroed: packed over, or read only as far as a message filled it
};

// MPI_Pack: count elements of t (usable) at in, packed into out (outsize
// bytes) at position, which moves past them. MPI_ERR_ARG when position is
// outside out or the packed bytes do not fit. `external` writes the
// external32 form (MPI_Pack_external) instead of the native one.
void pack_at(const Datatype& t, const void* in, std::int64_t count, void* out, std::int64_t outsize,
             std::int64_t& position, bool external, std::string_view func);
// MPI_Unpack: the reverse; MPI_ERR_TRUNCATE when in holds too few bytes
// after position.
void unpack_at(const Datatype& t, const void* in, std::int64_t insize, std::int64_t& position, void* out,
               std::int64_t count, bool external, std::string_view func);

}  // namespace lumpi::core
