// scripts/hello.cpp: the first program of docs/cxx-api.md, with the C++
// API (lumpi.hpp): every rank sends its rank to rank 0 (Gather), which
// prints one line.
#include <lumpi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const lumpi::Intracomm& world = lumpi::COMM_WORLD;
  const int rank = world.Get_rank(), size = world.Get_size();
  std::vector<int> all(rank == 0 ? size : 0);
  world.Gather(&rank, 1, lumpi::INT, all.data(), 1, lumpi::INT, 0);
  if (rank == 0) {
    std::printf("hello from %d ranks:", size);
    for (int r : all) std::printf(" %d", r);
    std::printf("\n");
  }
  lumpi::Finalize();
}
