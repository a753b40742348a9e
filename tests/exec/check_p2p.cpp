// tests/exec/check_p2p.cpp: point-to-point type signatures from the C++
// door under --check (docs/checking.md). Every even rank sends 2 x INT to
// its right neighbour (Send, Isend, Send_init); an odd rank receives them
// with Recv, Irecv and Recv_init, as FLOAT when argv[1] is "bug", as INT otherwise; then
// neighbours swap one INT with Sendrecv (FLOAT on the odd side in "bug").
// Rank 0 prints "done" at the end.
#include <lumpi.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const auto& w = lumpi::COMM_WORLD;
  const int me = w.Get_rank(), n = w.Get_size();
  const bool bug = argc > 1 && std::strcmp(argv[1], "bug") == 0;
  const lumpi::Datatype& odd_type = bug ? lumpi::FLOAT : lumpi::INT;
  int out[2] = {me, me}, in[2] = {0, 0};
  if (me % 2 == 0 && me + 1 < n) {
    w.Send(out, 2, lumpi::INT, me + 1, 5);
    lumpi::Request q = w.Isend(out, 2, lumpi::INT, me + 1, 6);
    q.Wait();
    lumpi::Prequest p = w.Send_init(out, 2, lumpi::INT, me + 1, 8);
    p.Start();
    p.Wait();
    p.Free();
    w.Sendrecv(out, 1, lumpi::INT, me + 1, 7, in, 1, lumpi::INT, me + 1, 7);
  } else if (me % 2 == 1) {
    w.Recv(in, 2, odd_type, me - 1, 5);
    lumpi::Request q = w.Irecv(in, 2, odd_type, me - 1, 6);
    q.Wait();
    lumpi::Prequest p = w.Recv_init(in, 2, odd_type, me - 1, 8);
    p.Start();
    p.Wait();
    p.Free();
    w.Sendrecv(out, 1, lumpi::INT, me - 1, 7, in, 1, odd_type, me - 1, 7);
  }
  if (me == 0) std::printf("done\n");
  lumpi::Finalize();
  return 0;
}
