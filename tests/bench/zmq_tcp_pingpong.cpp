// tests/bench/zmq_tcp_pingpong.cpp: the raw ZeroMQ tcp yardstick of the
// `hosts` benchmark suite: a ping-pong between two processes, each started
// by itself (in its own network namespace), over the sockets lumpi's data
// plane uses (each side binds a PULL and connects a PUSH to the other's),
// optionally with CURVE as lumpi uses it across hosts.
//
//   zmq-tcp-pingpong ping|pong MY_ADDR PEER_ADDR PORT [curve|plain] [DIVISOR]
//     binds tcp://MY_ADDR:PORT, connects to tcp://PEER_ADDR:PORT; the ping
//     side prints, per size, in bench.py's format:
//       PP <bytes> <iters> <half_rtt_us> <MBps>
//     DIVISOR divides the iteration counts (at least 20 remain).
//
// Messages are copied from a user buffer on send and into one on receive,
// as MPI_Send/MPI_Recv do. The CURVE key pair is a fixed one derived here:
// this is a benchmark between two processes of one user, not a job.
#include <zmq.h>

#include <zmq.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Case {
  int bytes, iters;
};
const Case kCases[] = {{1, 20000}, {1024, 20000}, {65536, 5000}, {1 << 20, 500}, {4 << 20, 200}};

struct Keys {
  char pub[41], sec[41];
};

Keys bench_keys() {
  unsigned char raw[32];
  for (int i = 0; i < 32; i++) raw[i] = static_cast<unsigned char>(i * 7 + 3);
  Keys k{};
  if (!zmq_z85_encode(k.sec, raw, sizeof raw) || zmq_curve_public(k.pub, k.sec) != 0) {
    std::fprintf(stderr, "zmq-tcp-pingpong: this libzmq has no CURVE\n");
    std::exit(2);
  }
  return k;
}

void recv_exact(zmq::socket_t& s, std::vector<char>& buf, int n) {
  auto r = s.recv(zmq::mutable_buffer(buf.data(), size_t(n)), zmq::recv_flags::none);
  if (!r || r->untruncated_size != size_t(n)) {
    std::fprintf(stderr, "zmq-tcp-pingpong: short or failed receive\n");
    std::exit(2);
  }
}

int usage() {
  std::fprintf(stderr, "usage: zmq-tcp-pingpong ping|pong MY_ADDR PEER_ADDR PORT [curve|plain] [DIVISOR]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return usage();
  std::string role = argv[1], me = argv[2], peer = argv[3], port = argv[4];
  bool curve = argc > 5 && std::string(argv[5]) == "curve";
  int divisor = argc > 6 ? std::atoi(argv[6]) : 1;
  if ((role != "ping" && role != "pong") || divisor < 1) return usage();
  zmq::context_t ctx(1);
  zmq::socket_t in(ctx, zmq::socket_type::pull), out(ctx, zmq::socket_type::push);
  in.set(zmq::sockopt::linger, 0);
  out.set(zmq::sockopt::linger, 2000);
  if (curve) {
    Keys k = bench_keys();
    in.set(zmq::sockopt::curve_server, 1);
    in.set(zmq::sockopt::curve_secretkey, std::string(k.sec));
    out.set(zmq::sockopt::curve_serverkey, std::string(k.pub));
    out.set(zmq::sockopt::curve_publickey, std::string(k.pub));
    out.set(zmq::sockopt::curve_secretkey, std::string(k.sec));
  }
  in.bind("tcp://" + me + ":" + port);
  out.connect("tcp://" + peer + ":" + port);
  std::vector<char> buf(4 << 20, 'x');
  // A hello each way first: both sides are up before anything is timed.
  out.send(zmq::const_buffer(buf.data(), 1), zmq::send_flags::none);
  recv_exact(in, buf, 1);
  for (const Case& c : kCases) {
    int iters = std::max(20, c.iters / divisor), warm = iters / 10;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = -warm; i < iters; i++) {
      if (i == 0) t0 = std::chrono::steady_clock::now();
      if (role == "ping") {
        out.send(zmq::const_buffer(buf.data(), size_t(c.bytes)), zmq::send_flags::none);
        recv_exact(in, buf, c.bytes);
      } else {
        recv_exact(in, buf, c.bytes);
        out.send(zmq::const_buffer(buf.data(), size_t(c.bytes)), zmq::send_flags::none);
      }
    }
    double half = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters / 2;
    if (role == "ping") {
      std::printf("PP %d %d %.3f %.1f\n", c.bytes, iters, half * 1e6, c.bytes / half / 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}
