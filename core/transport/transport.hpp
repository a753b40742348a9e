// core/transport/transport.hpp: the data plane's sockets, the only core file that
// speaks ZeroMQ.
//
// One bound PULL endpoint takes in every peer's messages; one PUSH socket
// per peer, connected the first time we talk to it, sends. A data message
// is two frames: a header (core/transport/wire.hpp's bytes, not looked at here) and a
// Body. The transport also polls one extra socket for its owner (the rank
// host's control channel), so a blocked wait still hears the coordinator.
// The launcher includes this header to make that socket on the same
// ZeroMQ context; nothing under lua/ and no other core header does.
//
// Across hosts (tcp://) every socket speaks CURVE with the job's one key
// pair: the bound PULL is a CURVE server, each PUSH a client presenting the
// job's public key; the launcher's ZAP handler on the same context admits
// only that key (launcher/protocol/curve.hpp). Over ipc (one host) nothing changes.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "core/transport/body.hpp"
#include "core/transport/curve_keys.hpp"

namespace lumpi::core {

class Transport {
 public:
  // Binds the data endpoint ("ipc:///tmp/lumpi-x/rank-3", "tcp://127.0.0.1:*"),
  // with CURVE when `curve` holds the job's keys (every tcp world).
  explicit Transport(const std::string& bind_endpoint, std::optional<CurveKeys> curve = std::nullopt);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // The endpoint as bound (wildcard ports resolved).
  const std::string& endpoint() const { return endpoint_; }
  zmq::context_t& context() { return ctx_; }
  void set_peer_endpoints(std::vector<std::string> endpoints);

  // Queues header + body for peer `dest`; never blocks (unbounded queues).
  // Throws core::Error(MPI_ERR_INTERN) if no endpoint is known for dest.
  void send(int dest, const std::string& header, Body body);

  // One message from the data socket, without waiting.
  enum class Got { None, Message, Malformed };
  // Message: header and body are set. Malformed: a message with the wrong
  // number of frames was read and thrown away. None: nothing is waiting.
  Got receive(std::string& header, Body& body);

  // Waits at most timeout_ms for input on the data socket or the watched
  // socket (one poll(2) on both); then runs on_data if data input may be
  // waiting (on_data receives until receive() says None), and the watched
  // socket's callback if it may have input, in that order. Looks at the
  // watched socket in every call, even when data waits.
  void poll(int timeout_ms, const std::function<void()>& on_data);
  // True if data input is waiting, without blocking (asks ZMQ_EVENTS, which
  // also makes libzmq process its pending commands).
  bool data_ready();
  // The data socket's descriptor (ZMQ_FD), which another thread may poll(2)
  // to sleep until input may be waiting; only the socket's owner reads it.
  int data_fd() const { return data_fd_; }

  // The owner's extra socket: on_readable runs from poll() when it has
  // input, and must receive until a receive would block.
  void watch(zmq::socket_ref s, std::function<void()> on_readable);
  // The owner sent on the watched socket (which may take the wake-up of
  // input already waiting there): the next poll() asks the socket itself.
  void watched_used() { watched_unsure_ = true; }

 private:
  zmq::socket_t& peer_socket(int dest);

  zmq::context_t ctx_;
  std::optional<CurveKeys> curve_;
  zmq::socket_t in_;
  std::string endpoint_;
  std::vector<std::string> peer_endpoints_;
  std::vector<std::unique_ptr<zmq::socket_t>> out_;
  bool watched_ready();

  zmq::socket_ref watched_;
  std::function<void()> on_watched_;
  // The sockets' descriptors (ZMQ_FD), and whether input may wait on a
  // socket without its descriptor saying so (see poll()).
  int data_fd_ = -1, watched_fd_ = -1;
  bool data_unsure_ = true, watched_unsure_ = true;
};

}  // namespace lumpi::core
