// tests/exec/check_coll.cpp: the C++ door's collectives under --check
// (docs/checking.md). argv[1] picks what the last rank does differently:
//   roots  Bcast with root 1 where the others give root 0;
//   ops    Allreduce with MAX where the others give SUM;
//   types  Allgather of FLOAT where the others send INT;
//   iops   Iallreduce with MIN where the others give SUM;
//   vcounts  Gatherv: sends 2 ints to root 0, which expects 1 from each;
//   ivcounts Iallgatherv: sends 2 ints where every rank expects 1 from it;
//   ok     every rank agrees (Bcast, Allreduce, Allgather, Reduce, Scan,
//          Iallreduce, Gatherv, Iallgatherv, Alltoallv).
// Rank 0 prints "done" at the end. A rank that gets the mismatch's
// exception says so (lumpi exec --check ends the run at the report).
#include <lumpi.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const auto& w = lumpi::COMM_WORLD;
  const int me = w.Get_rank(), n = w.Get_size();
  const char* mode = argc > 1 ? argv[1] : "ok";
  const bool odd = me == n - 1;
  auto differs = [&](const char* m) { return odd && std::strcmp(mode, m) == 0; };

  try {
    int v = me;
    w.Bcast(&v, 1, lumpi::INT, differs("roots") ? 1 : 0);
    int sum = 0;
    w.Allreduce(&me, &sum, 1, lumpi::INT, differs("ops") ? lumpi::MAX : lumpi::SUM);
    std::vector<int> all(size_t(n) * 2);
    float f = float(me);
    if (differs("types")) w.Allgather(&f, 1, lumpi::FLOAT, all.data(), 1, lumpi::FLOAT);
    else w.Allgather(&me, 1, lumpi::INT, all.data(), 1, lumpi::INT);
    int top = 0, prefix = 0;
    w.Reduce(&me, &top, 1, lumpi::INT, lumpi::MAX, n - 1);
    w.Scan(&me, &prefix, 1, lumpi::INT, lumpi::SUM);
    int isum = 0;
    lumpi::Request q = w.Iallreduce(&me, &isum, 1, lumpi::INT, differs("iops") ? lumpi::MIN : lumpi::SUM);
    q.Wait();
    std::vector<int> ones(size_t(n), 1), at(static_cast<size_t>(n), 0), pair = {me, me};
    for (int i = 0; i < n; ++i) at[size_t(i)] = i;
    w.Gatherv(pair.data(), differs("vcounts") ? 2 : 1, lumpi::INT, all.data(), ones.data(), at.data(), lumpi::INT, 0);
    w.Iallgatherv(pair.data(), differs("ivcounts") ? 2 : 1, lumpi::INT, all.data(), ones.data(), at.data(),
                  lumpi::INT).Wait();
    std::vector<int> mine(size_t(n), me);
    w.Alltoallv(mine.data(), ones.data(), at.data(), lumpi::INT, all.data(), ones.data(), at.data(), lumpi::INT);
    if (v != 0 || sum != n * (n - 1) / 2 || all[size_t(n - 1)] != n - 1 || prefix != me * (me + 1) / 2 ||
        (odd && top != n - 1) || isum != sum)
      std::printf("rank %d: FAIL v=%d sum=%d prefix=%d top=%d\n", me, v, sum, prefix, top);
    if (me == 0) std::printf("done\n");
  } catch (const lumpi::Exception& e) {
    std::printf("rank %d: class %d\n", me, e.Get_error_class());
  }
  lumpi::Finalize();
  return 0;
}
