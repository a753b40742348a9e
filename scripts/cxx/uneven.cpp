// scripts/cxx/uneven.cpp: data of uneven sizes with lumpi's C++ API. Rank i
// owns a row of i + 1 numbers (the triangular numbers' run from i(i+1)/2);
// Gatherv brings the rows back to back to rank 0, Allgatherv with IN_PLACE
// to every rank (each row already in place), and around the ring each rank
// sends its row to its right neighbour, which sizes its buffer by a matched
// probe (Mprobe) before receiving the message (Message::Recv). Every rank
// checks what it got against the serial answer 0, 1, 2, ...
// Run: lumpi exec -n 4 cxx-uneven   (built when LUMPI_CXX_EXAMPLES is ON)
#include <cstdio>
#include <vector>

#include "scripts/cxx/examples.hpp"

namespace examples {

int uneven(const lumpi::Intracomm& world) {
  const int p = world.Get_size(), me = world.Get_rank();
  std::vector<int> counts(static_cast<size_t>(p)), displs(static_cast<size_t>(p));
  for (int i = 0; i < p; ++i) counts[size_t(i)] = i + 1, displs[size_t(i)] = i * (i + 1) / 2;
  const int total = p * (p + 1) / 2;
  std::vector<int> row(static_cast<size_t>(me + 1));
  for (int k = 0; k <= me; ++k) row[size_t(k)] = displs[size_t(me)] + k;
  std::vector<int> all(static_cast<size_t>(total), -1);
  world.Gatherv(row.data(), me + 1, lumpi::INT, all.data(), counts.data(), displs.data(), lumpi::INT, 0);
  bool ok = true;
  for (int k = 0; me == 0 && k < total; ++k) ok = ok && all[size_t(k)] == k;
  all.assign(static_cast<size_t>(total), -1);
  for (int k = 0; k <= me; ++k) all[size_t(displs[size_t(me)] + k)] = row[size_t(k)];
  world.Allgatherv(lumpi::IN_PLACE, 0, lumpi::INT, all.data(), counts.data(), displs.data(), lumpi::INT);
  for (int k = 0; k < total; ++k) ok = ok && all[size_t(k)] == k;
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  lumpi::Request out = world.Isend(row.data(), me + 1, lumpi::INT, right, 3);
  lumpi::Status st;
  lumpi::Message m = world.Mprobe(lumpi::ANY_SOURCE, 3, st);
  std::vector<int> got(static_cast<size_t>(st.Get_count(lumpi::INT)));
  m.Recv(got.data(), int(got.size()), lumpi::INT, st);
  out.Wait();
  ok = ok && st.Get_source() == left && int(got.size()) == left + 1;
  for (int k = 0; k < int(got.size()); ++k) ok = ok && got[size_t(k)] == displs[size_t(left)] + k;
  return agree(world, ok);
}

}  // namespace examples

#ifndef LUMPI_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  int rc = examples::uneven(lumpi::COMM_WORLD);
  if (lumpi::COMM_WORLD.Get_rank() == 0)
    std::printf("uneven: %s on %d ranks\n", rc ? "WRONG" : "ok", lumpi::COMM_WORLD.Get_size());
  lumpi::Finalize();
  return rc;
}
#endif
