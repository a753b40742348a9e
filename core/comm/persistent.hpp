// core/comm/persistent.hpp: persistent requests (MPI-3.1 §3.9), written
// once for the three doors: lua/bind_request.cpp, core/api/api_p2p.cpp and,
// through the C++ API, capi/c_p2p_modes.cpp.
//
// MPI's rules:
// - MPI_Send_init (and its Bsend, Ssend and Rsend forms) and MPI_Recv_init
//   check their arguments once, at creation, and make an inactive request:
//   nothing is sent or posted.
// - MPI_Start begins one operation with those arguments; a send takes its
//   message as the buffer is at that start. Starting an active request is
//   MPI_ERR_REQUEST. MPI_Startall checks every request and makes every
//   message before it starts any.
// - Completing the operation (wait, test and their forms, or raising the
//   error it ended in) makes the request inactive again: it stays allocated
//   and can be started again.
// - Completing an inactive request returns at once with an empty status
//   (§3.7.3), and the any and some forms skip it, as they skip
//   MPI_REQUEST_NULL: the doors' completing calls say so, with active().
// - Freeing an active request is allowed: the operation still completes,
//   unattended (Request::let_go), a receive's message still landing.
//
// The message is the door's: it packs its buffer (C, C++) or encodes its
// value (Lua) at each start. lumpi's sends are eager, so a buffered send
// needs no room at this floor (C's attached buffer is checked by its
// message) and a ready send is a standard send (§3.4 allows both).
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/engine/request.hpp"

namespace lumpi::core {

class Persistent;
using PersistentPtr = std::shared_ptr<Persistent>;

class Persistent {
 public:
  // MPI_Send_init and its modes (sync: MPI_Ssend_init; buffered:
  // MPI_Bsend_init, local even under --check, as Comm::isend says); dest and
  // tag checked now.
  static PersistentPtr send_init(CommPtr comm, int dest, int tag, bool sync, bool buffered,
                                 std::string_view func);
  // MPI_Recv_init; source (or ANY_SOURCE) and tag (or ANY_TAG) checked now.
  static PersistentPtr recv_init(CommPtr comm, int source, int tag, std::string_view func);

  bool is_send() const { return send_; }
  bool active() const { return bool(req_); }
  // The operation begun by the last start; null while inactive.
  const RequestPtr& request() const { return req_; }
  // The communicator it was made on, kept alive with it.
  const CommPtr& comm() const { return comm_; }

  // --check: the type signature each start's send or receive carries
  // (Engine::call_signatures).
  void set_signature(WireSig sig) { sig_ = std::move(sig); }

  // MPI_Start. message() gives a send's message now; it may raise (a value
  // that cannot be sent, no room in C's attached buffer), and then nothing starts.
  void start(const std::function<Body()>& message, std::string_view func);
  // MPI_Startall: each of ps (null: MPI_REQUEST_NULL) must be inactive and
  // listed once, else MPI_ERR_REQUEST naming requests[i]; every send's
  // message (message(i)) is made before any request starts.
  static void start_all(const std::vector<Persistent*>& ps, const std::function<Body(size_t)>& message,
                        std::string_view func);
  // A completing call has returned the operation's result (or raised its
  // error): the request is inactive again.
  void completed() { req_.reset(); }
  // MPI_Request_free: an active operation still completes (Request::let_go,
  // land as there); the request is inactive from now on.
  void free(std::function<void(Request*)> land);

 private:
  Persistent(CommPtr comm, bool send, int peer, int tag, bool sync, bool buffered)
      : comm_(std::move(comm)), send_(send), sync_(sync), buffered_(buffered), peer_(peer), tag_(tag) {}
  void begin(Body body);

  CommPtr comm_;
  bool send_;
  bool sync_;      // a synchronous send completes once matched
  bool buffered_;  // a buffered send is local
  int peer_;   // dest, or source (ANY_SOURCE and PROC_NULL too)
  int tag_;
  RequestPtr req_;
  WireSig sig_;
};

}  // namespace lumpi::core
