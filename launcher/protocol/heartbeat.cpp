// launcher/protocol/heartbeat.cpp: the heartbeat threads of coordinator and rank (see heartbeat.hpp).
#include "launcher/protocol/heartbeat.hpp"

#include <charconv>
#include <cstdio>
#include <unistd.h>

#include "launcher/protocol/clock.hpp"
#include "launcher/protocol/signals.hpp"

namespace lumpi::launcher {

int rank_of_identity(const std::string& id, int size) {
  if (id.rfind("rank-", 0) != 0) return -1;
  const char* end = id.data() + id.size();
  size_t at = id.find('@');
  if (at != std::string::npos) end = id.data() + at;
  int r = -1;
  auto [p, ec] = std::from_chars(id.data() + 5, end, r);
  if (ec != std::errc() || p != end || r < 0 || r >= size) return -1;
  return r;
}

// ---- coordinator side ----------------------------------------------------------------

BeatServer::BeatServer(zmq::context_t& ctx, const std::string& endpoint, const CurveKeys& keys, int size)
    : sock_(ctx, zmq::socket_type::router),
      seen_(new std::atomic<int64_t>[size_t(size)]),
      killed_at_(new std::atomic<int64_t>[size_t(size)]),
      kill_(new std::atomic<bool>[size_t(size)]),
      size_(size) {
  for (int r = 0; r < size; ++r) seen_[size_t(r)] = 0, killed_at_[size_t(r)] = 0, kill_[size_t(r)] = false;
  sock_.set(zmq::sockopt::linger, 0);
  sock_.set(zmq::sockopt::router_mandatory, 0);
  curve_server(sock_, keys);
  again_on_eintr([&] { sock_.bind(endpoint); });
  endpoint_ = sock_.get(zmq::sockopt::last_endpoint);
  thread_ = quiet_thread([this] { run(); });
}

BeatServer::~BeatServer() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  sock_.close();
}

void BeatServer::run() {
  while (!stop_) {
    zmq::pollitem_t item{sock_.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(100)) == 0) continue;
    zmq::message_t id, body;
    if (!sock_.recv(id, zmq::recv_flags::dontwait)) continue;
    while (id.more() && sock_.recv(body, zmq::recv_flags::dontwait) && body.more()) {}
    int r = rank_of_identity(id.to_string(), size_);
    if (r < 0) continue;
    seen_[size_t(r)] = now_ms();
    bool kill = kill_[size_t(r)];
    if (kill && killed_at_[size_t(r)] == 0) killed_at_[size_t(r)] = now_ms();
    sock_.send(id, zmq::send_flags::sndmore);
    sock_.send(zmq::str_buffer(kill ? "kill" : "pong"), zmq::send_flags::dontwait);
  }
}

// ---- rank side -----------------------------------------------------------------------

BeatClient::BeatClient(zmq::context_t& ctx, const std::string& endpoint, const CurveKeys& keys,
                       const std::string& identity, int rank)
    : sock_(ctx, zmq::socket_type::dealer), rank_(rank) {
  sock_.set(zmq::sockopt::routing_id, identity);
  sock_.set(zmq::sockopt::linger, 0);
  curve_client(sock_, keys);
  again_on_eintr([&] { sock_.connect(endpoint); });
  thread_ = quiet_thread([this] { run(); });
}

BeatClient::~BeatClient() { stop(); }

void BeatClient::stop() {
  if (!thread_.joinable()) return;
  stop_ = true;
  thread_.join();
  sock_.close();
}

void BeatClient::run() {
  int64_t heard = now_ms(), pinged = 0;
  while (!stop_) {
    int64_t now = now_ms();
    if (now - pinged >= kBeatMs) {
      sock_.send(zmq::str_buffer("ping"), zmq::send_flags::dontwait);
      pinged = now;
    }
    if (now - heard > kOrphanMs) {
      std::fprintf(stderr, "lumpi-rank %d: the coordinator is gone (no heartbeat for %d s); exiting\n", rank_,
                   kOrphanMs / 1000);
      _exit(1);
    }
    zmq::pollitem_t item{sock_.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(100)) == 0) continue;
    zmq::message_t m;
    while (sock_.recv(m, zmq::recv_flags::dontwait)) {
      heard = now_ms();
      if (m.to_string_view() == "kill") _exit(137);  // World::kill: as SIGKILL would
    }
  }
}

}  // namespace lumpi::launcher
