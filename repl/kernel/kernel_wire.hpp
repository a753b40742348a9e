// repl/kernel/kernel_wire.hpp: the Jupyter messaging protocol (v5.3) on the wire.
//
// Reads the connection file, binds the five sockets (shell, control, stdin:
// ROUTER; iopub: XPUB, so the kernel sees its subscribers arrive; heartbeat:
// REP, echoed by its own thread so the kernel stays alive to its client while
// a command runs), and frames messages:
//   [identities...] "<IDS|MSG>" signature header parent_header metadata content [buffers...]
// signed with HMAC-SHA256 over the four JSON frames (OpenSSL). Messages
// whose signature does not verify are dropped with a line on stderr. No
// message semantics here: that is repl/kernel/kernel.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

namespace lumpi::repl::kernel {

using json = nlohmann::json;

struct Connection {
  std::string transport = "tcp", ip = "127.0.0.1", key, signature_scheme = "hmac-sha256";
  int shell_port = 0, control_port = 0, stdin_port = 0, iopub_port = 0, hb_port = 0;
};

// Reads a connection file; throws std::runtime_error naming the file and the
// missing or bad field.
Connection read_connection_file(const std::string& path);

// "tcp://127.0.0.1:5555", or "ipc://ip-port" for the ipc transport.
std::string endpoint(const Connection& c, int port);

// HMAC-SHA256 of the concatenated parts, in lower-case hex; "" when the key is
// empty (the protocol's "no signing").
std::string sign(const std::string& key, const std::vector<std::string>& parts);

struct Message {
  std::vector<std::string> identities;
  json header = json::object(), parent_header = json::object(), metadata = json::object(),
       content = json::object();
  std::vector<std::string> buffers;
  std::string type() const { return header.value("msg_type", ""); }
};

// The frames of one message as the shell or control socket received them
// (identities, <IDS|MSG>, signature, header, parent header, metadata,
// content, buffers): the message, or nullopt with `why` set when it is
// malformed, badly signed (HMAC-SHA256 with `key`; none when key is empty)
// or its JSON parts are not objects. Trusts nothing (tests/fuzz/fuzz_kernel).
std::optional<Message> decode(const std::vector<std::string>& frames, const std::string& key,
                              std::string* why);

// A fresh version-4 UUID, as text.
std::string new_uuid();

class Wire {
 public:
  explicit Wire(const Connection& c);  // binds; throws std::runtime_error if it cannot
  ~Wire();
  Wire(const Wire&) = delete;
  Wire& operator=(const Wire&) = delete;

  // One message from `s` if one is waiting (never blocks); nullopt otherwise
  // or when it was malformed or badly signed (then logged on stderr).
  std::optional<Message> recv(zmq::socket_ref s);
  // A reply or request of type `type` to the sender of `parent` on `s`.
  void send(zmq::socket_ref s, const Message& parent, const std::string& type, json content);
  // An iopub message whose parent is `parent` (may be an empty Message).
  void publish(const Message& parent, const std::string& type, json content);
  // Reads the subscriptions waiting on iopub (never blocks).
  void read_subscriptions();
  // Before the first request is served: waits up to `limit` for a client to
  // subscribe to iopub. A client that connects while the kernel starts sends
  // its first request as soon as shell connects, and a PUB socket drops what
  // it publishes before the subscription arrives: the request's "idle" would
  // be lost and a client waiting for it (jupyter-console) would wait forever.
  void await_first_subscriber(std::chrono::milliseconds limit);

  zmq::context_t ctx{1};
  zmq::socket_t shell{ctx, zmq::socket_type::router}, control{ctx, zmq::socket_type::router},
      stdin_{ctx, zmq::socket_type::router}, iopub{ctx, zmq::socket_type::xpub};
  const std::string session = new_uuid();  // this kernel's session id

 private:
  void send_parts(zmq::socket_ref s, const std::vector<std::string>& identities, const Message& parent,
                  const std::string& type, const json& content);
  std::string key_;
  bool first_wait_done_ = false;  // a subscriber came, or the one wait is over
  std::atomic<bool> stop_{false};
  std::thread heartbeat_;
};

}  // namespace lumpi::repl::kernel
