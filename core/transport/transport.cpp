// core/transport/transport.cpp: ZeroMQ sockets of the data plane, and Bodies to and
// from ZeroMQ messages without copying large ones.
#include "core/transport/transport.hpp"

#include <poll.h>

#include <cerrno>

#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

// Bodies this small are copied into the ZeroMQ message (libzmq keeps very
// small ones inline); larger ones are handed over, whoever allocated their
// bytes, and freed by libzmq once sent.
constexpr size_t kCopyBelow = 4096;

zmq::message_t to_message(Body body) {
  if (body.size() < kCopyBelow) return zmq::message_t(body.data(), body.size());
  auto* owned = new Body(std::move(body));
  return zmq::message_t(const_cast<char*>(owned->data()), owned->size(),
                        [](void*, void* hint) { delete static_cast<Body*>(hint); }, owned);
}

// A ZeroMQ call that a signal interrupted (EINTR, nothing done: a C
// program's own SIGALRM, a fuzzer's timer) is made again. Every libzmq call
// that first runs the socket's pending commands can fail so: send, receive,
// bind, connect and reading ZMQ_EVENTS. (launcher/protocol/signals.hpp has the
// launcher's own: the coordinator links nothing of the core.)
template <class F>
auto again_on_eintr(F&& f) {
  for (;;) {
    try {
      return f();
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
    }
  }
}

Body to_body(zmq::message_t m) {
  auto* owned = new zmq::message_t(std::move(m));
  return Body::adopt(static_cast<const char*>(owned->data()), owned->size(), owned,
                     [](void* p) { delete static_cast<zmq::message_t*>(p); });
}

// CURVE with the job's keys: the bound PULL is a server whose peers must
// pass the ZAP handler of our context (domain "lumpi"; with no handler
// running every peer is refused: ZMQ_ZAP_ENFORCE_DOMAIN, 93, a draft name in
// cppzmq that Debian's libzmq 4.3 implements); each PUSH is a client
// presenting the job's public key. launcher/protocol/curve.cpp sets up the control
// sockets the same way.
void curve_server(zmq::socket_t& s, const CurveKeys& k) {
  int one = 1;
  s.set(zmq::sockopt::curve_server, 1);
  s.set(zmq::sockopt::curve_secretkey, k.secret_key);
  s.set(zmq::sockopt::zap_domain, "lumpi");
  if (zmq_setsockopt(s.handle(), 93, &one, sizeof one) != 0) throw zmq::error_t();
}

void curve_client(zmq::socket_t& s, const CurveKeys& k) {
  s.set(zmq::sockopt::curve_serverkey, k.public_key);
  s.set(zmq::sockopt::curve_publickey, k.public_key);
  s.set(zmq::sockopt::curve_secretkey, k.secret_key);
}

}  // namespace

Transport::Transport(const std::string& bind_endpoint, std::optional<CurveKeys> curve)
    : ctx_(1), curve_(std::move(curve)), in_(ctx_, zmq::socket_type::pull) {
  in_.set(zmq::sockopt::rcvhwm, 0);
  in_.set(zmq::sockopt::linger, 0);
  if (curve_) curve_server(in_, *curve_);
  again_on_eintr([&] { in_.bind(bind_endpoint); });
  endpoint_ = in_.get(zmq::sockopt::last_endpoint);
  data_fd_ = int(in_.get(zmq::sockopt::fd));
}

Transport::~Transport() {
  for (auto& s : out_)
    if (s) s->close();
  in_.close();
}

void Transport::set_peer_endpoints(std::vector<std::string> endpoints) {
  peer_endpoints_ = std::move(endpoints);
  out_.resize(peer_endpoints_.size());
}

zmq::socket_t& Transport::peer_socket(int dest) {
  if (dest < 0 || dest >= int(peer_endpoints_.size()) || peer_endpoints_[size_t(dest)].empty())
    fail(ErrClass::Intern, "send", "no endpoint known for rank " + std::to_string(dest));
  auto& s = out_[size_t(dest)];
  if (!s) {
    s = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::push);
    s->set(zmq::sockopt::sndhwm, 0);
    s->set(zmq::sockopt::linger, 2000);  // deliver what is queued at exit, but never hang
    if (curve_) curve_client(*s, *curve_);
    again_on_eintr([&] { s->connect(peer_endpoints_[size_t(dest)]); });
  }
  return *s;
}

void Transport::send(int dest, const std::string& header, Body body) {
  zmq::socket_t& s = peer_socket(dest);
  zmq::message_t m = to_message(std::move(body));
  again_on_eintr([&] { return s.send(zmq::buffer(header), zmq::send_flags::sndmore); });
  again_on_eintr([&] { return s.send(m, zmq::send_flags::none); });
}

Transport::Got Transport::receive(std::string& header, Body& body) {
  zmq::message_t h;
  auto take = [&](zmq::message_t& m, zmq::recv_flags f) {
    return again_on_eintr([&] { return in_.recv(m, f).has_value(); });
  };
  data_unsure_ = take(h, zmq::recv_flags::dontwait);
  if (!data_unsure_) return Got::None;
  zmq::message_t b;
  bool complete = h.more() && take(b, zmq::recv_flags::none) && !b.more();
  while (in_.get(zmq::sockopt::rcvmore)) {  // drain frames of a malformed message
    zmq::message_t extra;
    (void)take(extra, zmq::recv_flags::none);
    complete = false;
  }
  if (!complete) return Got::Malformed;
  header.assign(static_cast<const char*>(h.data()), h.size());
  body = to_body(std::move(b));
  return Got::Message;
}

void Transport::watch(zmq::socket_ref s, std::function<void()> on_readable) {
  watched_ = s;
  on_watched_ = std::move(on_readable);
  watched_fd_ = s ? int(s.get(zmq::sockopt::fd)) : -1;
  watched_unsure_ = true;
}

// A ZeroMQ socket's descriptor (ZMQ_FD) becomes readable when the socket
// has commands to process (a message arrived on an idle pipe, say), not
// once per message: after a look at the socket found no input (ZMQ_EVENTS,
// or a receive that would block), the next message makes it readable; but
// a look that finds input, or a send, may take that signal while input
// stays queued. So a socket is asked (ZMQ_EVENTS: system calls of its own)
// only when its last look did not find it empty, poll(2) then sleeps on
// both descriptors at once, and a readable descriptor goes straight to its
// callback, whose receive processes the socket's commands itself. zmq_poll
// instead asks every socket before and after each sleep: several system
// calls per message more for the watched socket alone (tests/bench/README.md,
// issue 13, session 6).
void Transport::poll(int timeout_ms, const std::function<void()>& on_data) {
  bool data = data_unsure_ && data_ready();
  bool watched = watched_ && watched_unsure_ && watched_ready();
  pollfd fds[2] = {{data_fd_, POLLIN, 0}, {watched_fd_, POLLIN, 0}};
  // Every round looks at the watched descriptor, so a flood of data never hides it.
  if (::poll(fds, watched_ ? 2 : 1, data || watched ? 0 : timeout_ms) > 0) {
    data = data || fds[0].revents != 0;
    watched = watched || (watched_ && fds[1].revents != 0);
  }
  // The watched socket first: a status answer it gives (the rank host's
  // control socket) then counts only messages that a blocked wait has
  // already looked at (Engine::block_until checks its wait after each
  // poll). Data first, a wait that this round's data completes could
  // still answer "blocked" with the message counted as received, and the
  // deadlock watch, seeing no message in flight, take it for stuck.
  if (watched && on_watched_) {
    watched_unsure_ = false;  // it receives until nothing is left; a send says watched_used()
    on_watched_();
  }
  if (data) on_data();
}

bool Transport::watched_ready() {
  watched_unsure_ = again_on_eintr([&] { return watched_.get(zmq::sockopt::events); }) & ZMQ_POLLIN;
  return watched_unsure_;
}

bool Transport::data_ready() {
  data_unsure_ = again_on_eintr([&] { return in_.get(zmq::sockopt::events); }) & ZMQ_POLLIN;
  return data_unsure_;
}

}  // namespace lumpi::core
