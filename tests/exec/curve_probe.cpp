// tests/exec/curve_probe.cpp: a stranger at a lumpi world's door, for
// tests/integration/test_hosts.py. It connects a ZeroMQ DEALER to a tcp
// endpoint of a world (the coordinator's control socket or a rank's data
// socket) with a key of its own ("wrong"), with no security at all
// ("plain"), or with the job's keys from the job file ("job", the positive
// control), and says whether the CURVE handshake was admitted or refused.
// When admitted it also sends a control message as a rank would, so a test
// can see that a refused peer never gets that far.
//
// Usage: lumpi-curve-probe ENDPOINT wrong|plain|job [JOBFILE]
// Prints "admitted" or "refused" (or "no answer" after 5 s); exit 0.
#include <chrono>
#include <cstdio>
#include <string>
#include <zmq.hpp>

#include "launcher/protocol/curve.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: lumpi-curve-probe ENDPOINT wrong|plain|job [JOBFILE]\n");
    return 2;
  }
  std::string endpoint = argv[1], mode = argv[2];
  zmq::context_t ctx(1);
  zmq::socket_t s(ctx, zmq::socket_type::dealer);
  s.set(zmq::sockopt::linger, 0);
  s.set(zmq::sockopt::routing_id, "rank-0");
  if (mode == "job" || mode == "wrong") {
    lumpi::launcher::CurveKeys job = mode == "job" && argc > 3 ? lumpi::launcher::read_join_file(argv[3]).keys
                                                            : lumpi::launcher::CurveKeys{};
    lumpi::launcher::CurveKeys mine = lumpi::launcher::make_keys();
    if (mode == "wrong" && argc > 3) job = lumpi::launcher::read_join_file(argv[3]).keys;
    if (mode == "wrong") {
      // The right server key (so the server is known) but a client key of our own.
      s.set(zmq::sockopt::curve_serverkey, job.public_key.empty() ? mine.public_key : job.public_key);
      s.set(zmq::sockopt::curve_publickey, mine.public_key);
      s.set(zmq::sockopt::curve_secretkey, mine.secret_key);
    } else {
      lumpi::launcher::curve_client(s, job);
    }
  }
  zmq_socket_monitor(s.handle(), "inproc://probe-monitor", ZMQ_EVENT_ALL);
  zmq::socket_t mon(ctx, zmq::socket_type::pair);
  mon.connect("inproc://probe-monitor");
  s.connect(endpoint);
  auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
    zmq::pollitem_t item{mon.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(100)) == 0) continue;
    zmq::message_t ev, addr;
    (void)mon.recv(ev);
    (void)mon.recv(addr);
    uint16_t event = *static_cast<const uint16_t*>(ev.data());
    if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
      s.send(zmq::str_buffer("status?"), zmq::send_flags::none);
      std::puts("admitted");
      return 0;
    }
    if (event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH || event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL ||
        event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL || event == ZMQ_EVENT_DISCONNECTED) {
      std::puts("refused");
      return 0;
    }
  }
  std::puts("no answer");
  return 0;
}
