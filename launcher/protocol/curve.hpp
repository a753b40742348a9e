// launcher/protocol/curve.hpp: the security of a world spread over hosts: the job's
// CURVE keys, the 0600 files that carry them, and the ZAP handler that
// admits only the job's key.
//
// One key pair is made per job (zmq_curve_keypair) by the coordinator. Every
// tcp socket of the job uses it: bound sockets are CURVE servers with the
// job's secret key, connecting sockets are clients that present the job's
// public key and expect the server to hold the job's secret. The ZAP handler
// (inproc://zeromq.zap.01 of each context that binds) admits a client only
// when it presents the job's public key, which only a holder of the job file
// can prove; everyone else is refused and logged. So nobody without the
// file (mode 0600, in the private run directory) can connect to any socket
// of the job, read its traffic or run code on a rank.
//
// The job file ("join file") is how a rank started by another launcher
// (mpirun, mpiexec, srun, ssh) finds its world: the coordinator's endpoints,
// the size, the keys, the --bind level. Its path goes to the ranks in
// LUMPI_JOIN, never its contents: keys never appear on a command line or in
// an environment. Needs cppzmq only (both the coordinator and the rank host).
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <zmq.hpp>

namespace lumpi::launcher {

// The job's key pair, Z85 text (40 characters each). (The core has its own
// core::CurveKeys for the data plane: the coordinator links no core.)
struct CurveKeys {
  std::string public_key, secret_key;
};

// Makes s a CURVE server (bound side; its peers must pass the ZAP handler
// of s's context, and with no handler every peer is refused) or a client
// (connecting side) of the job's keys; as core/transport/transport.cpp does for data.
void curve_server(zmq::socket_t& s, const CurveKeys& k);
void curve_client(zmq::socket_t& s, const CurveKeys& k);

// True when this libzmq was built with CURVE.
bool curve_available();
// A fresh key pair; throws std::runtime_error when CURVE is missing.
CurveKeys make_keys();

// What a rank started by a launcher reads to join (see above).
struct JoinInfo {
  std::string control;  // the coordinator's control ROUTER, tcp://addr:port
  std::string beat;     // its heartbeat ROUTER
  int size = 0;
  std::string bind = "none";
  CurveKeys keys;
  // False only under the benchmark knob LUMPI_INSECURE_NO_CURVE=1: the data
  // plane (rank to rank) goes without CURVE; control and heartbeats keep it.
  bool data_curve = true;
  std::string attach;  // a world that waits for a REPL (`lumpi world`): its attach ROUTER, else ""
};

// Writes the file with mode 0600 (created so; never readable by others for
// an instant); throws std::runtime_error.
void write_join_file(const std::string& path, const JoinInfo& j);
// Reads and checks it: it must be a regular file of ours, not readable or
// writable by group or others, and complete (a local world's connection
// file has no heartbeat endpoint: "none"). Throws std::runtime_error
// naming the file and what is wrong.
JoinInfo read_join_file(const std::string& path);

// The ZAP handler of one ZeroMQ context: a thread answering
// inproc://zeromq.zap.01. Start it before any CURVE server socket of that
// context binds; stop it (or destroy it) before the context ends.
class ZapHandler {
 public:
  // `who` prefixes the refusal lines on stderr ("lumpi", "lumpi-rank 3").
  ZapHandler(zmq::context_t& ctx, std::string allowed_public_key, std::string who);
  ~ZapHandler();
  ZapHandler(const ZapHandler&) = delete;
  ZapHandler& operator=(const ZapHandler&) = delete;
  void stop();
  int refused() const { return refused_; }

 private:
  void run();

  zmq::socket_t sock_;
  std::string allowed_;  // the job's public key, 32 bytes binary
  std::string who_;
  std::atomic<bool> stop_{false};
  std::atomic<int> refused_{0};
  std::thread thread_;
};

// The address (no port) of the local interface whose route reaches `host`
// (an address or name): what a rank binds so that the coordinator and the
// other ranks can reach it. Throws std::runtime_error.
std::string address_towards(const std::string& host);
// The IPv4 address of an interface given by name ("eth0") or as an address
// ("10.0.0.1"); throws std::runtime_error naming it when there is none.
std::string interface_address(const std::string& iface);
// "tcp://10.0.0.1:5555" -> "10.0.0.1"
std::string host_of_endpoint(const std::string& endpoint);

}  // namespace lumpi::launcher
