// tests/exec/deadlock_poll.cpp: deadlock_poll.c's first case in the C++
// door (lumpi.hpp): rank 1 tests a receive in a loop; rank 0 never sends
// ("never"), or sends after 2.5 s ("late", the correct twin). Run by
// tests/integration/test_deadlock_poll.py. Rank 0 prints "done" at the end.
#include <lumpi.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const bool sends = argc > 1 && !std::strcmp(argv[1], "late");
  const int me = lumpi::COMM_WORLD.Get_rank();
  int x = 0;
  if (me == 1) {
    lumpi::Request r = lumpi::COMM_WORLD.Irecv(&x, 1, lumpi::INT, 0, 5);
    while (!r.Test()) {
    }
  } else if (me == 0 && sends) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    lumpi::COMM_WORLD.Send(&x, 1, lumpi::INT, 1, 5);
  }
  lumpi::Finalize();
  if (me == 0) std::printf("done\n");
  return 0;
}
