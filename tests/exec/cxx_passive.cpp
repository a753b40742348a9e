// tests/exec/cxx_passive.cpp: passive-target progress in a pure C++ program
// (lumpi::Init, no mpi.h: issue 28 item 2, core/engine/passive.cpp), the C++
// API's twin of capi_passive.c. Rank 0 computes in a busy loop for 2 s
// without any MPI call; every other rank meanwhile locks rank 0's window,
// gets, accumulates, fetches and unlocks, and checks that it was done well
// before the target's loop ends (under 1 s). After the loop rank 0 checks
// what was accumulated. Then the same under a shared lock, and a lock_all
// epoch with MODE_NOCHECK whose flush alone asks the target.
#include <lumpi.hpp>

#include <chrono>
#include <cstdio>

namespace {

int me = 0, n = 0, failures = 0;

void check(bool ok, const char* what, double value) {
  if (ok) return;
  std::printf("rank %d: FAILED: %s (%g)\n", me, what, value);
  ++failures;
}

double now() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// The target's computation: no MPI call for `seconds`; returns a value
// that depends on every step, so the loop cannot be optimized away.
double compute(double seconds) {
  double until = now() + seconds, x = 0;
  while (now() < until)
    for (int i = 0; i < 1000; ++i) x += 1e-9 * double(i);
  return x;
}

// Rank 0 computes; each origin does its epoch under `lock_type` and checks
// how long it took.
void origins_during_compute(const lumpi::Win& win, int lock_type) {
  lumpi::COMM_WORLD.Barrier();
  if (me == 0) {
    check(compute(2.0) > 0, "the computation ran", 0);
    return;
  }
  const double t0 = now();
  long before = -1, one = 1, mine = me, fetched = -1;
  win.Lock(lock_type, 0, 0);
  win.Get(&before, 1, lumpi::LONG, 0, me, 1, lumpi::LONG);
  win.Flush(0);  // the get completes before the accumulate to its location (§11.7)
  win.Accumulate(&one, 1, lumpi::LONG, 0, 0, 1, lumpi::LONG, lumpi::SUM);
  win.Accumulate(&mine, 1, lumpi::LONG, 0, me, 1, lumpi::LONG, lumpi::SUM);
  win.Fetch_and_op(nullptr, &fetched, lumpi::LONG, 0, me, lumpi::NO_OP);
  win.Unlock(0);
  const double took = now() - t0;
  check(took < 1.0, lock_type == lumpi::LOCK_EXCLUSIVE ? "an exclusive epoch on a computing target took (s)"
                                                       : "a shared epoch on a computing target took (s)", took);
  check(fetched == before + me, "get, then fetch_and_op after adding my rank: fetched", double(fetched));
}

// lock_all with MODE_NOCHECK: only the flush asks the computing target.
void flush_during_compute(const lumpi::Win& win) {
  lumpi::COMM_WORLD.Barrier();
  if (me == 0) {
    compute(2.0);
    return;
  }
  const double t0 = now();
  long one = 1, old = -1;
  win.Lock_all(lumpi::MODE_NOCHECK);
  win.Fetch_and_op(&one, &old, lumpi::LONG, 0, 0, lumpi::SUM);
  win.Flush(0);
  win.Unlock_all();
  check(now() - t0 < 1.0, "fetch_and_op + flush on a computing target took (s)", now() - t0);
  check(old >= 2 * (n - 1), "fetch_and_op's old value", double(old));
}

}  // namespace

int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  me = lumpi::COMM_WORLD.Get_rank();
  n = lumpi::COMM_WORLD.Get_size();
  long* mem = nullptr;
  lumpi::Win win = lumpi::Win::Allocate(long(n * sizeof(long)), sizeof(long), lumpi::INFO_NULL, lumpi::COMM_WORLD, &mem);
  origins_during_compute(win, lumpi::LOCK_EXCLUSIVE);
  lumpi::COMM_WORLD.Barrier();
  if (me == 0) {
    check(mem[0] == n - 1, "every origin's accumulate landed: mem[0]", double(mem[0]));
    for (int r = 1; r < n; ++r) check(mem[r] == r, "an origin's own accumulate: mem[r]", double(mem[r]));
  }
  origins_during_compute(win, lumpi::LOCK_SHARED);
  lumpi::COMM_WORLD.Barrier();
  if (me == 0) check(mem[0] == 2 * (n - 1), "the shared epochs' accumulates: mem[0]", double(mem[0]));
  flush_during_compute(win);
  lumpi::COMM_WORLD.Barrier();
  if (me == 0) check(mem[0] == 3 * (n - 1), "lock_all's fetch_and_ops: mem[0]", double(mem[0]));
  win.Free();
  int all = 0;
  lumpi::COMM_WORLD.Allreduce(&failures, &all, 1, lumpi::INT, lumpi::SUM);
  if (me == 0 && all == 0) std::printf("cxx_passive ok\n");
  lumpi::Finalize();
  return all ? 1 : 0;
}
