// tests/exec/cxx_crash.cpp: a pure C++ rank (lumpi::Init, no mpi.h) that
// dies of a signal, for test_crash_report.py; the C++ API's twin of
// capi_crash.c. Every rank prints a line, without flushing, then the chosen
// rank crashes: "outside" dereferences NULL in main (line
// CRASH_LINE_OUTSIDE) after its last C++ call, Comm::Get_size; "inside"
// gives Comm::Send a buffer that is not mapped (line CRASH_LINE_INSIDE);
// "throw" leaves the exception of a Send to an invalid rank uncaught
// (line CRASH_LINE_THROW). The other ranks wait in a barrier.
#include <lumpi.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const int me = lumpi::COMM_WORLD.Get_rank();
  const int n = lumpi::COMM_WORLD.Get_size();
  std::printf("rank %d ready\n", me);  // line-buffered under lumpi exec: not lost
  const int victim = argc > 2 ? (argv[2][0] == 'l' ? n - 1 : 1 % n) : 0;
  if (me == victim && argc > 1 && std::strcmp(argv[1], "outside") == 0) {
    volatile int* p = nullptr;
    *p = 1;  // CRASH_LINE_OUTSIDE
  }
  if (me == victim && argc > 1 && std::strcmp(argv[1], "inside") == 0)
    lumpi::COMM_WORLD.Send(reinterpret_cast<void*>(16), 1000, lumpi::INT, (me + 1) % n, 0);  // CRASH_LINE_INSIDE
  if (me == victim && argc > 1 && std::strcmp(argv[1], "throw") == 0)
    lumpi::COMM_WORLD.Send(&me, 1, lumpi::INT, n, 0);  // CRASH_LINE_THROW
  lumpi::COMM_WORLD.Barrier();
  lumpi::Finalize();
  return 0;
}
