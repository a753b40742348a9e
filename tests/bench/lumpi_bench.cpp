// tests/bench/lumpi_bench.cpp: benchmarks of the C++ core without Lua and
// without the launcher: point-to-point ping-pong through Comm::send/recv and
// the typed collectives, communicator constructors, and communicator
// create/free memory, on ranks this program forks itself (each with its own
// Engine on ipc, wired by a fixed endpoint table). It measures what the
// runtime costs under the Lua binding; tests/bench/bench.py runs it next to
// the anchors. Output lines are machine-readable, in the anchors' formats:
//
//   lumpi-bench pingpong [divisor]  PP <bytes> <iters> <half_rtt_us> <MBps>
//   lumpi-bench selfmsg [divisor]   SELF <bytes> <messages> <ns_per_message> (one rank, to itself)
//   (LUMPI_BENCH_TRACE=1 in the environment: every rank records its trace, as after :trace on)
//   lumpi-bench coll N [target_s]   COLL <name> <N> <iters> <us_per_call>
//   lumpi-bench commfree N [cycles [batches]]
//                                   MEM <phase> <rank> <rss_kib>
//   lumpi-bench rma [divisor]       RMA put|get <bytes> <iters> <us_per_op> <MBps>
//                                   (rank 0 locks rank 1's window; each op is
//                                   followed by a flush; rank 1 sits in a barrier)
//   lumpi-bench soakmsg N [messages [batches]]
//                                   MEM <phase> <rank> <rss_kib>, then
//                                   MSGS <total> <seconds>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/coll/coll.hpp"
#include "core/coll/coll_typed.hpp"
#include "core/comm/comm.hpp"
#include "core/comm/comm_create.hpp"
#include "core/engine/engine.hpp"
#include "core/topo/topo.hpp"
#include "core/topo/topo_comm.hpp"
#include "core/rma/win.hpp"

using namespace lumpi::core;
namespace typed = lumpi::core::coll::typed;

namespace {

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

long rss_kib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  std::fclose(f);
  return kib;
}

// Forks n ranks; each gets an Engine on dir/rank-R and COMM_WORLD, runs
// body, and exits. Returns 0 when every rank exited 0.
int run_ranks(int n, const std::function<void(Comm&)>& body) {
  char tmpl[] = "/tmp/lumpi-bench-XXXXXX";
  if (!mkdtemp(tmpl)) return perror("mkdtemp"), 1;
  std::string dir = tmpl;
  std::vector<std::string> table;
  for (int r = 0; r < n; ++r) table.push_back("ipc://" + dir + "/rank-" + std::to_string(r));
  std::fflush(stdout);
  std::vector<pid_t> pids;
  for (int r = 0; r < n; ++r) {
    pid_t pid = fork();
    if (pid == 0) {
      int rc = 0;
      try {
        Engine e(r, n, table[size_t(r)]);
        if (std::getenv("LUMPI_BENCH_TRACE")) e.tracer().set_on(true);  // :trace on (core/base/trace.hpp)
        e.set_peer_endpoints(table);
        CommPtr world = Comm::world(e);
        body(*world);
        coll::barrier(*world);  // nobody closes its sockets while a peer still sends
      } catch (const std::exception& ex) {
        std::fprintf(stderr, "rank %d: %s\n", r, ex.what());
        rc = 1;
      }
      std::fflush(stdout);
      std::_Exit(rc);
    }
    pids.push_back(pid);
  }
  int worst = 0;
  for (pid_t p : pids) {
    int st = 0;
    waitpid(p, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) worst = 1;
  }
  std::filesystem::remove_all(dir);
  return worst;
}

// ---- ping-pong -------------------------------------------------------------------

// MPI buffer semantics, as the anchors: copy from the user buffer on send,
// into the user buffer on receive.
int g_divisor = 1;  // fewer iterations, for quick looks

void pingpong(Comm& c) {
  struct Size { size_t bytes; int iters; };
  const Size sizes[] = {{8, 20000}, {1024, 20000}, {65536, 5000}, {1 << 20, 500}, {4 << 20, 200}};
  const int me = c.rank(), peer = 1 - me;
  for (const auto& s : sizes) {
    std::vector<char> buf(s.bytes, 'x');
    int iters = std::max(20, s.iters / g_divisor);
    int warm = iters / 10;
    double t0 = 0;
    for (int i = -warm; i < iters; ++i) {
      if (i == 0) t0 = now();
      if (me == 0) {
        c.send(Body(std::string(buf.data(), buf.size())), peer, 0);
        Received got = c.recv(peer, 0);
        std::memcpy(buf.data(), got.body.data(), std::min(buf.size(), got.body.size()));
      } else {
        Received got = c.recv(peer, 0);
        std::memcpy(buf.data(), got.body.data(), std::min(buf.size(), got.body.size()));
        c.send(Body(std::string(buf.data(), buf.size())), peer, 0);
      }
    }
    double half = (now() - t0) / iters / 2;
    if (me == 0) std::printf("PP %zu %d %.3f %.1f\n", s.bytes, iters, half * 1e6, s.bytes / half / 1e6);
    std::fflush(stdout);
  }
}

// ---- per-message bookkeeping -------------------------------------------------------

// Messages to itself on one rank: the engine's and matcher's work per
// message without sockets or another process's scheduling (what tracing adds
// to each message, measurable on a loaded machine). Prints
//   SELF <bytes> <messages> <ns_per_message>
void selfmsg(Comm& c) {
  for (size_t bytes : {size_t(8), size_t(1024)}) {
    std::string payload(bytes, 'x');
    const int n = 200000 / g_divisor;
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep) {  // the best of 5: the least disturbed by other processes
      double t0 = now();
      for (int i = 0; i < n; ++i) {
        c.send(Body(std::string(payload)), 0, 1);
        Received got = c.recv(0, 1);
        if (got.body.size() != bytes) std::abort();
      }
      best = std::min(best, (now() - t0) / n);
    }
    std::printf("SELF %zu %d %.1f\n", bytes, n, best * 1e9);
    std::fflush(stdout);
  }
}

// ---- collectives and constructors -------------------------------------------------

double g_target = 0.3;

// Per-call time: max over ranks of elapsed / n (as mpi_coll.c).
double timed(Comm& c, const std::function<void()>& f, long n) {
  coll::barrier(c);
  double t0 = now();
  for (long i = 0; i < n; ++i) f();
  double dt = (now() - t0) / double(n), mx = 0;
  typed::allreduce(c, &dt, &mx, 1, typed::Type::Double, typed::Op::Max);
  return mx;
}

void bench(Comm& c, const char* name, const std::function<void()>& f) {
  timed(c, f, 5);
  double pilot = timed(c, f, 20);
  long n = std::clamp(long(g_target / std::max(pilot, 1e-9)), 20L, 200000L);
  typed::bcast(c, &n, 1, typed::Type::Int64, 0);
  double t = timed(c, f, n);
  if (c.rank() == 0) std::printf("COLL %s %d %ld %.3f\n", name, c.size(), n, t * 1e6);
  std::fflush(stdout);
}

// Prototype for comparison only (not lumpi's barrier): binomial-tree
// fan-in to rank 0, then fan-out. 2(p-1) messages instead of the
// dissemination barrier's p·lg p: on an oversubscribed machine, where each
// message costs libzmq thread hand-offs and wake-ups, the count matters
// more than the depth. Uses the P2P lane with a tag no benchmark sends on.
void tree_barrier(Comm& c) {
  const int n = c.size(), me = c.rank(), tag = 0x7ff0;
  Waiting what = c.waiting("tree_barrier");
  int mask = 1;
  for (; mask < n; mask <<= 1) {  // fan-in: receive from children, then report to the parent
    if (me & mask) {
      c.lane_send(Lane::P2P, me - mask, tag, Body());
      break;
    }
    if (me + mask < n) c.lane_recv(Lane::P2P, me + mask, tag, what);
  }
  if (me != 0) c.lane_recv(Lane::P2P, me - mask, tag + 1, what);  // release from the parent
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (me + mask < n) c.lane_send(Lane::P2P, me + mask, tag + 1, Body());
}

void collectives(Comm& w) {
  bench(w, "barrier", [&] { coll::barrier(w); });
  if (std::getenv("LUMPI_BENCH_PROTOTYPES"))
    bench(w, "tree_barrier", [&] { tree_barrier(w); });
  bench(w, "allreduce", [&] {
    double in = 1.0, out = 0;
    typed::allreduce(w, &in, &out, 1, typed::Type::Double, typed::Op::Sum);
  });
  std::vector<double> in(1000, 1.0), out(1000);
  bench(w, "allreduce1000", [&] {
    typed::allreduce(w, in.data(), out.data(), 1000, typed::Type::Double, typed::Op::Sum);
  });
  if (std::getenv("LUMPI_BENCH_1MIB")) {  // 131072 doubles: tests/bench/typed_bench.py
    std::vector<double> big(131072, 1.0), got(131072);
    bench(w, "allreduce131072", [&] {
      typed::allreduce(w, big.data(), got.data(), 131072, typed::Type::Double, typed::Op::Sum);
    });
  }
  bench(w, "split", [&] {
    CommPtr s = comm_split(w, w.rank() % 2, w.rank());
    comm_free(*s);
  });
  bench(w, "cart", [&] {
    topo::Cart cart;
    cart.dims = topo::dims_create(w.size(), {0, 0}, "MPI_Dims_create");
    cart.periods = {true, true};
    CommPtr g = cart_create(w, cart, false);
    if (g) comm_free(*g);
  });
}

// ---- memory over communicator create/free cycles -------------------------------------

int g_batches = 4;

// RSS at idle and after each batch of `cycles` dup+split+free cycles.
void commfree(Comm& w, int cycles) {
  auto report = [&](const std::string& phase) {
    long mine = rss_kib();
    std::vector<long> all(size_t(w.size()));
    typed::allgather(w, &mine, all.data(), 1, typed::Type::Int64);
    if (w.rank() == 0)
      for (int r = 0; r < w.size(); ++r) std::printf("MEM %s %d %ld\n", phase.c_str(), r, all[size_t(r)]);
    std::fflush(stdout);
  };
  auto cycle = [&](int n) {
    for (int i = 0; i < n; ++i) {
      CommPtr d = comm_dup(w);
      CommPtr s = comm_split(*d, w.rank() % 2, w.rank());
      comm_free(*s);
      comm_free(*d);
    }
  };
  report("idle");
  for (int b = 1; b <= g_batches; ++b) {
    cycle(cycles);
    report(b == 1 ? "after" : "after" + std::to_string(b));
  }
}

// RSS at idle and after each batch while small messages stream around a ring:
// each rank sends a window of 64 eight-byte messages to the next rank, then
// receives 64 from the previous one; `messages` counts all ranks' sends.
void soakmsg(Comm& w, long messages) {
  const int n = w.size(), me = w.rank(), window = 64;
  const long per_batch = messages / g_batches / n / window;  // windows per rank per batch
  auto report = [&](const std::string& phase) {
    long mine = rss_kib();
    std::vector<long> all(static_cast<size_t>(n));
    typed::allgather(w, &mine, all.data(), 1, typed::Type::Int64);
    if (me == 0)
      for (int r = 0; r < n; ++r) std::printf("MEM %s %d %ld\n", phase.c_str(), r, all[size_t(r)]);
    std::fflush(stdout);
  };
  report("idle");
  double t0 = now();
  long sent = 0;
  for (int b = 1; b <= g_batches; ++b) {
    for (long k = 0; k < per_batch; ++k) {
      for (int i = 0; i < window; ++i) {
        int64_t v = sent++;
        w.send(Body(std::string(reinterpret_cast<const char*>(&v), sizeof v)), (me + 1) % n, 3);
      }
      for (int i = 0; i < window; ++i) (void)w.recv((me + n - 1) % n, 3);
    }
    report(b == 1 ? "after" : "after" + std::to_string(b));
  }
  long total = sent;
  long all_sent = 0;
  typed::allreduce(w, &total, &all_sent, 1, typed::Type::Int64, typed::Op::Sum);
  if (me == 0) std::printf("MSGS %ld %.2f\n", all_sent, now() - t0);
}

// ---- one-sided ------------------------------------------------------------------------

// Passive target, as an application would time MPI_Put: rank 0 holds an
// exclusive lock on rank 1's window and times put+flush (get+flush); rank 1
// does nothing but wait in a barrier (its engine serves the window).
void rma(Comm& c) {
  struct Size { size_t bytes; int iters; };
  const Size sizes[] = {{8, 20000}, {1024, 20000}, {65536, 5000}, {1 << 20, 500}, {4 << 20, 200}};
  const size_t most = 4 << 20;
  std::vector<char> mem(most), buf(most, 'x');
  WinPtr w = Win::create(c, mem.data(), std::int64_t(most), 1, "MPI_Win_create");
  TypePtr byte = Datatype::basic(Basic::Byte);
  if (c.rank() == 0) {
    w->lock(LOCK_EXCLUSIVE, 1, 0);
    for (int op = 0; op < 2; ++op)
      for (const auto& s : sizes) {
        int iters = std::max(20, s.iters / g_divisor);
        int warm = iters / 10;
        double t0 = 0;
        for (int i = -warm; i < iters; ++i) {
          if (i == 0) t0 = now();
          auto n = std::int64_t(s.bytes);
          if (op == 0) w->put(buf.data(), n, byte, 1, 0, n, byte);
          else w->get(buf.data(), n, byte, 1, 0, n, byte);
          w->flush(1);
        }
        double us = (now() - t0) / iters * 1e6;
        std::printf("RMA %s %zu %d %.2f %.1f\n", op == 0 ? "put" : "get", s.bytes, iters, us,
                    double(s.bytes) / us);
      }
    w->unlock(1);
  }
  coll::barrier(c);
  w->free();
}

int usage() {
  std::fprintf(stderr, "usage: lumpi-bench pingpong [divisor] | selfmsg [divisor] | rma [divisor] | coll N [target_s] | commfree N [cycles [batches]]"
                       " | soakmsg N [messages [batches]]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string what = argv[1];
  if (what == "selfmsg") {
    if (argc >= 3) g_divisor = std::max(1, std::atoi(argv[2]));
    return run_ranks(1, selfmsg);
  }
  if (what == "pingpong") {
    if (argc >= 3) g_divisor = std::max(1, std::atoi(argv[2]));
    return run_ranks(2, pingpong);
  }
  if (what == "rma") {
    if (argc >= 3) g_divisor = std::max(1, std::atoi(argv[2]));
    return run_ranks(2, rma);
  }
  if (what == "coll" && argc >= 3) {
    if (argc >= 4) g_target = std::atof(argv[3]);
    return run_ranks(std::atoi(argv[2]), collectives);
  }
  if (what == "commfree" && argc >= 3) {
    int cycles = argc >= 4 ? std::atoi(argv[3]) : 1000;
    if (argc >= 5) g_batches = std::atoi(argv[4]);
    return run_ranks(std::atoi(argv[2]), [cycles](Comm& w) { commfree(w, cycles); });
  }
  if (what == "soakmsg" && argc >= 3) {
    long messages = argc >= 4 ? std::atol(argv[3]) : 1000000;
    if (argc >= 5) g_batches = std::atoi(argv[4]);
    return run_ranks(std::atoi(argv[2]), [messages](Comm& w) { soakmsg(w, messages); });
  }
  return usage();
}
