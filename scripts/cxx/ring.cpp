// scripts/cxx/ring.cpp: a ring of sends in C++ with lumpi's C++ API. A token
// goes once around the ring 0 -> 1 -> ... -> p-1 -> 0, each rank adding its
// rank + 1, so rank 0 gets p(p+1)/2 back; then every rank passes its rank to
// its right neighbour with Sendrecv and checks it got its left neighbour's.
// Run: lumpi exec -n 4 ring   (built when LUMPI_CXX_EXAMPLES is ON)
#include <cstdio>

#include "scripts/cxx/examples.hpp"

namespace examples {

int ring(const lumpi::Intracomm& world) {
  const int p = world.Get_size(), me = world.Get_rank();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  const int tag = 7;
  long token = 0;
  bool ok = true;
  if (me == 0) {
    token = 1;
    world.Send(&token, 1, lumpi::LONG, right, tag);
    lumpi::Status st;
    world.Recv(&token, 1, lumpi::LONG, left, tag, st);
    ok = token == long(p) * (p + 1) / 2 && st.Get_source() == left && st.Get_count(lumpi::LONG) == 1;
  } else {
    world.Recv(&token, 1, lumpi::LONG, left, tag);
    token += me + 1;
    world.Send(&token, 1, lumpi::LONG, right, tag);
  }
  int got = -1;
  world.Sendrecv(&me, 1, lumpi::INT, right, tag, &got, 1, lumpi::INT, left, tag);
  ok = ok && got == left;
  return agree(world, ok);
}

}  // namespace examples

#ifndef LUMPI_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  int rc = examples::ring(lumpi::COMM_WORLD);
  if (lumpi::COMM_WORLD.Get_rank() == 0)
    std::printf("ring: %s on %d ranks\n", rc ? "WRONG" : "ok", lumpi::COMM_WORLD.Get_size());
  lumpi::Finalize();
  return rc;
}
#endif
