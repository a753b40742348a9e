// tests/bench/cxx_pingpong.cpp: the ping-pong of tests/bench/c_pingpong.c
// through lumpi's public C++ API (core/api/lumpi.hpp) instead of mpi.h, run the
// same way (`lumpi exec -n 2 build/tests/bench/lumpi-cxx-pingpong`): the
// same process setup as the C program (the rank host of `lumpi exec`), so
// bench.py can tell what the C layer costs apart from what the host costs
// against lumpi-bench's bare forked engines. Output as lumpi-bench pingpong:
//   PP <bytes> <iters> <half_rtt_us> <MBps>      (rank 0)
// An optional argument divides the iteration counts.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/api/lumpi.hpp"

namespace {

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const lumpi::Intracomm& w = lumpi::COMM_WORLD;
  const int me = w.Get_rank(), divisor = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1;
  if (w.Get_size() != 2) {
    if (me == 0) std::fprintf(stderr, "lumpi-cxx-pingpong: needs exactly 2 ranks\n");
    lumpi::Finalize();
    return 2;
  }
  struct Size { int bytes, iters; };
  const Size sizes[] = {{8, 20000}, {1024, 20000}, {65536, 5000}, {1 << 20, 500}, {4 << 20, 200}};
  for (const Size& s : sizes) {
    std::vector<char> buf(size_t(s.bytes), 'x');
    const int iters = std::max(20, s.iters / divisor), warm = iters / 10;
    double t0 = 0;
    for (int i = -warm; i < iters; ++i) {
      if (i == 0) t0 = now();
      if (me == 0) {
        w.Send(buf.data(), s.bytes, lumpi::BYTE, 1, 0);
        w.Recv(buf.data(), s.bytes, lumpi::BYTE, 1, 0);
      } else {
        w.Recv(buf.data(), s.bytes, lumpi::BYTE, 0, 0);
        w.Send(buf.data(), s.bytes, lumpi::BYTE, 0, 0);
      }
    }
    const double half = (now() - t0) / iters / 2;
    if (me == 0) std::printf("PP %d %d %.3f %.1f\n", s.bytes, iters, half * 1e6, s.bytes / half / 1e6);
    std::fflush(stdout);
  }
  lumpi::Finalize();
  return 0;
}
