// core/comm/bsend.cpp: the attached buffer of buffered sends
// (core/comm/bsend.hpp).
#include "core/comm/bsend.hpp"

#include <mutex>
#include <string>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {

namespace {

struct Attached {
  std::mutex mutex;
  AttachedBuffer buffer;
  bool present = false;
};

Attached& attached() {
  static Attached a;
  return a;
}

}  // namespace

void attach_buffer(void* buf, int size, std::string_view func) {
  if (size < 0) fail(ErrClass::Arg, func, "size " + std::to_string(size) + " is negative");
  if (!buf && size > 0) fail(ErrClass::Buffer, func, "buffer is null");
  Attached& a = attached();
  std::lock_guard lock(a.mutex);
  if (a.present) fail(ErrClass::Buffer, func, "a buffer is already attached (detach it first)");
  a.buffer = AttachedBuffer{buf, size};
  a.present = true;
}

AttachedBuffer detach_buffer() {
  Attached& a = attached();
  std::lock_guard lock(a.mutex);
  AttachedBuffer out = a.buffer;
  a.buffer = AttachedBuffer{};
  a.present = false;
  return out;
}

void check_bsend_room(size_t bytes, int dest, std::string_view func) {
  if (dest == PROC_NULL) return;
  Attached& a = attached();
  std::lock_guard lock(a.mutex);
  if (!a.present) fail(ErrClass::Buffer, func, "no buffer is attached (MPI_Buffer_attach)");
  if (bytes + size_t(BSEND_OVERHEAD) > size_t(a.buffer.size))
    fail(ErrClass::Buffer, func,
         "the message needs " + std::to_string(bytes) + " + MPI_BSEND_OVERHEAD (" + std::to_string(BSEND_OVERHEAD) +
             ") bytes; the attached buffer has " + std::to_string(a.buffer.size));
}

}  // namespace lumpi::core
