// launcher/protocol/heartbeat.hpp: liveness across hosts, both ends.
//
// A world over tcp cannot rely on waitpid or PR_SET_PDEATHSIG (a remote rank
// is nobody's child here), so each rank host runs a BeatClient thread that
// pings the coordinator's BeatServer every kBeatMs on its own DEALER. The
// server's thread answers each ping at once and remembers when it last heard
// each rank: World declares a rank lost after kLostMs of silence (reported
// well within 5 s). A rank that hears no answer for kOrphanMs exits, so no
// rank outlives its coordinator by more than that, however it ended
// (SIGKILL, a host cut off). The answer is "kill" instead of "pong" once
// World asked to kill that rank: that is how a remote rank is killed.
// Both threads own their sockets; they run beside whatever the main thread
// does (a rank computing outside MPI calls still beats). Needs cppzmq only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "launcher/protocol/curve.hpp"

namespace lumpi::launcher {

inline constexpr int kBeatMs = 500;     // a ping this often
inline constexpr int kLostMs = 3000;    // coordinator: a rank silent this long is lost
inline constexpr int kOrphanMs = 6000;  // rank: a coordinator silent this long is gone

// "rank-3" or "rank-3@host/pid" -> 3 when in [0, size); else -1.
int rank_of_identity(const std::string& id, int size);

class BeatServer {
 public:
  // Binds a CURVE ROUTER at `endpoint` (tcp://addr:*) on ctx, whose ZAP handler must run.
  BeatServer(zmq::context_t& ctx, const std::string& endpoint, const CurveKeys& keys, int size);
  ~BeatServer();
  BeatServer(const BeatServer&) = delete;
  BeatServer& operator=(const BeatServer&) = delete;

  const std::string& endpoint() const { return endpoint_; }
  // now_ms() of the last ping from rank r; 0 if none yet.
  int64_t last_seen(int r) const { return seen_[size_t(r)].load(); }
  // Answers rank r's next ping with "kill"; kill_sent(r) is when it did (0: not yet).
  void request_kill(int r) { kill_[size_t(r)] = true; }
  int64_t kill_sent(int r) const { return killed_at_[size_t(r)].load(); }

 private:
  void run();

  zmq::socket_t sock_;
  std::string endpoint_;
  std::unique_ptr<std::atomic<int64_t>[]> seen_, killed_at_;
  std::unique_ptr<std::atomic<bool>[]> kill_;
  int size_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

class BeatClient {
 public:
  // Connects to the coordinator's BeatServer as `identity` and starts beating.
  BeatClient(zmq::context_t& ctx, const std::string& endpoint, const CurveKeys& keys,
             const std::string& identity, int rank);
  ~BeatClient();
  BeatClient(const BeatClient&) = delete;
  BeatClient& operator=(const BeatClient&) = delete;
  // Stops the thread (before the context ends).
  void stop();

 private:
  void run();

  zmq::socket_t sock_;
  int rank_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace lumpi::launcher
