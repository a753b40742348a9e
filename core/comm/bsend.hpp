// core/comm/bsend.hpp: the buffer of buffered sends (MPI-3.1 §3.6), the
// one rule the doors share (capi/c_p2p_modes.cpp, core/api/api_p2p.cpp).
//
// A process attaches at most one buffer. lumpi's sends are eager (the
// message is copied into the engine's queue and leaves at once), so the
// buffer's memory is never written; what MPI asks of it is kept all the
// same: a buffered send to a rank (not PROC_NULL) needs an attached buffer
// with room for its bytes plus BSEND_OVERHEAD, else ERR_BUFFER naming both
// sizes, raised before anything is sent; detaching never waits. The
// buffer is the process's (one per process; the threads of the unit
// tests' worlds share it), guarded by a mutex.
#pragma once

#include <cstddef>
#include <string_view>

namespace lumpi::core {

// MPI_BSEND_OVERHEAD: the bytes a buffered send needs besides its message.
inline constexpr int BSEND_OVERHEAD = 96;

struct AttachedBuffer {
  void* buf = nullptr;
  int size = 0;
};

// MPI_Buffer_attach: ERR_ARG for a negative size, ERR_BUFFER for a null
// buffer of positive size or when one is attached already.
void attach_buffer(void* buf, int size, std::string_view func);
// MPI_Buffer_detach: the attached buffer ({nullptr, 0} when none is).
AttachedBuffer detach_buffer();
// A buffered send of `bytes` to dest: ERR_BUFFER unless the attached
// buffer has room (nothing is needed for PROC_NULL).
void check_bsend_room(size_t bytes, int dest, std::string_view func);

}  // namespace lumpi::core
