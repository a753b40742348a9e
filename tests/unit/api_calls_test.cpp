// tests/unit/api_calls_test.cpp: the C++ API's point-to-point and
// collective calls beyond the basic ones (issue 24): the send modes and the
// attached buffer, matched probes and Message, Testany/Waitsome/Testsome,
// the v- and w-collectives and their nonblocking forms, reduce-scatter's
// nonblocking forms, the neighbourhood v- and w-forms, IN_PLACE, on
// worlds of 1, 2, 3, 5 and 7 ranks (threads of this process, api_world.hpp),
// each call against its serial answer, with zero counts, intercommunicators
// and the errors, raised before anything is sent.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "scripts/cxx/examples.hpp"
#include "tests/unit/api_world.hpp"

using namespace lumpi;
using lumpi::test::nothing_pending;
using lumpi::test::raises;
using lumpi::test::run_world;

// A rank's check: false, naming the line and the condition on stderr, when
// cond does not hold.
#define EXPECT(cond) ((cond) || (std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond), false))

namespace {

const int kCallSizes[] = {1, 2, 3, 5, 7};

// Prints what differs (ranks report through their return value).
bool same(const std::vector<int>& got, const std::vector<int>& want, const char* what) {
  if (got == want) return true;
  std::string g, w;
  for (int x : got) g += std::to_string(x) + " ";
  for (int x : want) w += std::to_string(x) + " ";
  std::fprintf(stderr, "%s: got [%s] want [%s]\n", what, g.c_str(), w.c_str());
  return false;
}

// nothing_pending in the middle of a test: a second barrier keeps the next
// step's messages from reaching a rank before it has looked.
bool quiet(const Intracomm& w) {
  const bool ok = nothing_pending(w);
  w.Barrier();
  return ok;
}

}  // namespace

// ---- point-to-point ----------------------------------------------------------------

TEST_CASE("NULL buffers that would hold data and overlapping Sendrecv buffers are ERR_BUFFER, nothing sent") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), next = (me + 1) % n, prev = (me + n - 1) % n;
      bool ok = true;
      int pair[2] = {me, -1}, got = -1;
      ok &= raises(ERR_BUFFER, "MPI_Send", "buf is NULL, but count 2 of MPI_INT", [&] { w.Send(nullptr, 2, INT, next, 3); });
      ok &= raises(ERR_BUFFER, "MPI_Irecv", "buf is NULL", [&] { w.Irecv(nullptr, 1, DOUBLE, prev, 3); });
      ok &= raises(ERR_BUFFER, "MPI_Bcast", "buf is NULL", [&] { w.Bcast(nullptr, 1, INT, 0); });
      ok &= raises(ERR_BUFFER, "MPI_Sendrecv", "sendbuf and recvbuf overlap",
                   [&] { w.Sendrecv(pair, 2, INT, next, 3, pair + 1, 1, INT, prev, 3); });
      ok &= quiet(w);
      w.Sendrecv(nullptr, 0, INT, next, 3, nullptr, 0, INT, prev, 3);  // nothing, from and into NULL
      Status s;
      w.Sendrecv_replace(pair, 1, INT, next, 4, prev, 4, s);
      ok &= EXPECT(pair[0] == prev);
      Aint at = Get_address(&got);
      const int one = 1;
      Datatype absolute = INT.Create_hindexed(1, &one, &at);  // an absolute address
      absolute.Commit();
      w.Sendrecv(&me, 1, INT, next, 5, nullptr, 1, absolute, prev, 5);  // MPI_BOTTOM
      ok &= EXPECT(got == prev);
      absolute.Free();
      return ok;
    }) == 0);
  }
}

TEST_CASE("send modes: buffered sends need the attached buffer's room, ready and persistent forms deliver") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), next = (me + 1) % n, prev = (me + n - 1) % n;
      bool ok = true;
      int v = me * 10, got = -1;
      // No buffer yet: a buffered send to a rank raises, to PROC_NULL it does not.
      ok &= raises(ERR_BUFFER, "MPI_Bsend", "no buffer is attached", [&] { w.Bsend(&v, 1, INT, next, 1); });
      ok &= raises(ERR_BUFFER, "MPI_Ibsend", "no buffer is attached", [&] { w.Ibsend(&v, 1, INT, next, 1); });
      w.Bsend(&v, 1, INT, PROC_NULL, 1);
      ok &= raises(ERR_RANK, "MPI_Bsend", "destination", [&] { w.Bsend(&v, 1, INT, n, 1); });
      ok &= EXPECT(quiet(w));
      static std::vector<char> space(1000);
      if (me == 0) {
        ok &= raises(ERR_ARG, "MPI_Buffer_attach", "size -1", [&] { Attach_buffer(space.data(), -1); });
        Attach_buffer(space.data(), int(space.size()));
        ok &= raises(ERR_BUFFER, "MPI_Buffer_attach", "already attached", [&] { Attach_buffer(space.data(), 8); });
      }
      w.Barrier();
      std::vector<int> big(250);  // 1000 bytes + BSEND_OVERHEAD do not fit
      ok &= raises(ERR_BUFFER, "MPI_Bsend", "the attached buffer has 1000", [&] {
        w.Bsend(big.data(), 250, INT, next, 1);
      });
      ok &= EXPECT(quiet(w));
      w.Bsend(&v, 1, INT, next, 2);
      w.Recv(&got, 1, INT, prev, 2);
      ok &= EXPECT(got == prev * 10);
      Request r = w.Ibsend(&v, 1, INT, next, 3);
      w.Recv(&got, 1, INT, prev, 3);
      r.Wait();
      ok &= EXPECT(got == prev * 10);
      // Ready sends: the receive is posted (and the sender told) first.
      Request posted = w.Irecv(&got, 1, INT, prev, 4);
      w.Barrier();
      w.Rsend(&v, 1, INT, next, 4);
      posted.Wait();
      ok &= EXPECT(got == prev * 10);
      posted = w.Irecv(&got, 1, INT, prev, 5);
      w.Barrier();
      w.Irsend(&v, 1, INT, next, 5).Wait();
      posted.Wait();
      ok &= EXPECT(got == prev * 10);
      // Persistent buffered and ready sends, started twice.
      Prequest b = w.Bsend_init(&v, 1, INT, next, 6), rr = w.Rsend_init(&v, 1, INT, next, 7);
      for (int round = 0; round < 2; ++round) {
        v = me * 10 + round;
        Request in = w.Irecv(&got, 1, INT, prev, 7);
        w.Barrier();
        b.Start();
        rr.Start();
        b.Wait();
        rr.Wait();
        in.Wait();
        ok &= EXPECT(got == prev * 10 + round);
        w.Recv(&got, 1, INT, prev, 6);
        ok &= EXPECT(got == prev * 10 + round);
      }
      b.Free();
      rr.Free();
      w.Barrier();
      if (me == 0) {
        void* back = nullptr;
        ok &= EXPECT(Detach_buffer(back) == 1000 && back == space.data());
        ok &= EXPECT(Detach_buffer(back) == 0 && back == nullptr);
      }
      w.Barrier();
      // Detached: a persistent buffered send's start needs the buffer again.
      Prequest late = w.Bsend_init(&v, 1, INT, next, 8);
      ok &= raises(ERR_BUFFER, "MPI_Start", "no buffer is attached", [&] { late.Start(); });
      late.Free();
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("matched probes: Mprobe and Improbe take the message, Message::Recv and Irecv receive it once") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), next = (me + 1) % n, prev = (me + n - 1) % n;
      bool ok = true;
      Message m;
      Status s;
      ok &= EXPECT(!w.Improbe(prev, 11, m, s) && m == MESSAGE_NULL);
      w.Barrier();
      int v[2] = {me, me * me};
      w.Send(v, 2, INT, next, 11);
      m = w.Mprobe(ANY_SOURCE, 11, s);
      ok &= EXPECT(s.Get_source() == prev && s.Get_tag() == 11 && s.Get_count(INT) == 2);
      ok &= !w.Iprobe(ANY_SOURCE, 11);  // taken out of the queue
      Message copy = m;
      int got[2] = {-1, -1};
      m.Recv(got, 2, INT, s);
      ok &= EXPECT(m.Is_null() && got[0] == prev && got[1] == prev * prev && s.Get_source() == prev);
      ok &= raises(ERR_REQUEST, "MPI_Mrecv", "received already", [&] { copy.Recv(got, 2, INT); });
      ok &= raises(ERR_REQUEST, "MPI_Mrecv", "MESSAGE_NULL", [&] { m.Recv(got, 2, INT); });
      ok &= raises(ERR_REQUEST, "MPI_Imrecv", "MESSAGE_NULL", [&] { m.Irecv(got, 2, INT); });
      // Improbe until it finds the message; Irecv completes at once.
      w.Send(v, 1, INT, next, 12);
      while (!w.Improbe(prev, 12, m, s)) {
      }
      Request r = m.Irecv(got, 2, INT);
      ok &= EXPECT(r.Test(s) && got[0] == prev && s.Get_count(INT) == 1 && s.Get_tag() == 12);
      // A message longer than the buffer: ERR_TRUNCATE, and it is consumed.
      w.Send(v, 2, INT, next, 13);
      m = w.Mprobe(prev, 13);
      ok &= raises(ERR_TRUNCATE, "MPI_Mrecv", "8 bytes", [&] { m.Recv(got, 1, INT); });
      ok &= EXPECT(!w.Iprobe(ANY_SOURCE, 13));
      // Zero counts and PROC_NULL.
      w.Send(nullptr, 0, INT, next, 14);
      m = w.Mprobe(prev, 14, s);
      ok &= EXPECT(s.Get_count(INT) == 0);
      m.Recv(nullptr, 0, INT, s);
      ok &= EXPECT(s.Get_source() == prev);
      m = w.Mprobe(PROC_NULL, 15, s);
      ok &= EXPECT(m == MESSAGE_NO_PROC && s.Get_source() == PROC_NULL);
      m.Recv(got, 2, INT, s);
      ok &= EXPECT(m.Is_null() && s.Get_source() == PROC_NULL && s.Get_count(INT) == 0);
      ok &= EXPECT(w.Improbe(PROC_NULL, 15, m) && m == MESSAGE_NO_PROC);
      m.Irecv(got, 2, INT).Wait(s);
      ok &= EXPECT(s.Get_source() == PROC_NULL);
      ok &= raises(ERR_RANK, "MPI_Mprobe", "source", [&] { w.Mprobe(n, 0); });
      ok &= raises(ERR_TAG, "MPI_Improbe", "tag", [&] { w.Improbe(0, -7, m); });
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("Testany, Testsome and Waitsome complete what is done, UNDEFINED when nothing is active") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank();
      bool ok = true;
      // Nothing active: Testany is true with UNDEFINED, the some-forms UNDEFINED.
      std::vector<Request> rs(3);
      int index = 0;
      int idx[8];
      Status ss[8];
      ok &= EXPECT(Request::Testany(3, rs.data(), index) && index == UNDEFINED);
      ok &= EXPECT(Request::Testsome(3, rs.data(), idx) == UNDEFINED);
      ok &= EXPECT(Request::Waitsome(3, rs.data(), idx, ss) == UNDEFINED);
      // One receive per rank (from every rank, self included), a null in between.
      std::vector<int> got(size_t(n) + 1, -1);
      rs.assign(size_t(n) + 1, Request());
      for (int k = 0; k < n; ++k) rs[size_t(k) + (k >= 1)] = w.Irecv(&got[size_t(k)], 1, INT, k, 21);
      ok &= Request::Testsome(n + 1, rs.data(), idx) == 0;  // nobody has sent yet
      ok &= EXPECT(!Request::Testany(n + 1, rs.data(), index) && index == UNDEFINED);
      w.Barrier();
      int v = 100 + me;
      for (int k = 0; k < n; ++k) w.Send(&v, 1, INT, k, 21);
      int seen = 0, out;
      std::vector<bool> hit(size_t(n) + 1, false);
      while ((out = Request::Waitsome(n + 1, rs.data(), idx, ss)) != UNDEFINED) {
        for (int i = 0; i < out; ++i) {
          ok &= EXPECT(!hit[size_t(idx[i])] && rs[size_t(idx[i])].Is_null());
          hit[size_t(idx[i])] = true;
          const int from = idx[i] - (idx[i] >= 1);
          ok &= EXPECT(ss[i].Get_source() == from && ss[i].Get_tag() == 21);
        }
        seen += out;
      }
      ok &= EXPECT(seen == n);
      for (int k = 0; k < n; ++k) ok &= got[size_t(k)] == 100 + k;
      // Testany takes one that is done.
      Request one[2] = {Request(), w.Irecv(&v, 1, INT, me, 22)};
      int self = 7;
      w.Send(&self, 1, INT, me, 22);
      Status st;
      while (!Request::Testany(2, one, index, st)) {
      }
      ok &= EXPECT(index == 1 && v == 7 && st.Get_source() == me && one[1].Is_null());
      ok &= raises(ERR_COUNT, "MPI_Waitsome", "count -1", [&] { Request::Waitsome(-1, one, idx); });
      ok &= raises(ERR_ARG, "MPI_Testsome", "indices", [&] { Request::Testsome(2, one, nullptr); });
      ok &= raises(ERR_ARG, "MPI_Testany", "requests", [&] { Request::Testany(1, nullptr, index); });
      Status set;
      set.Set_elements(DOUBLE, 3);
      ok &= EXPECT(set.Get_count(DOUBLE) == 3 && set.Get_count(INT) == 6);
      ok &= raises(ERR_COUNT, "MPI_Status_set_elements", "count -2", [&] { set.Set_elements(INT, -2); });
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

// ---- v- and w-collectives ----------------------------------------------------------

namespace {

// Rank i's block in the v-tests: i % 3 elements (zero counts included),
// placed in reverse rank order with one untouched element between blocks.
struct VLayout {
  std::vector<int> counts, displs;
  int total = 0;  // elements the buffer spans
};

VLayout v_layout(int n) {
  VLayout l;
  l.counts.resize(static_cast<size_t>(n));
  l.displs.resize(static_cast<size_t>(n));
  for (int i = n - 1; i >= 0; --i) {
    l.counts[size_t(i)] = i % 3;
    l.displs[size_t(i)] = l.total;
    l.total += i % 3 + 1;
  }
  return l;
}

// Element k of rank i's block.
int v_value(int i, int k) { return 100 * i + k; }

// The receive buffer every rank's block fills: block i of l, -1 in the gaps.
std::vector<int> v_filled(const VLayout& l) {
  std::vector<int> out(size_t(l.total), -1);
  for (size_t i = 0; i < l.counts.size(); ++i)
    for (int k = 0; k < l.counts[i]; ++k) out[size_t(l.displs[i] + k)] = v_value(int(i), k);
  return out;
}

std::vector<int> my_block(int me) {
  std::vector<int> b;
  for (int k = 0; k < me % 3; ++k) b.push_back(v_value(me, k));
  return b;
}

// Alltoallv's block from rank i to rank j: (i + 2j) % 3 elements 1000 i + 10 j + k.
int a_count(int i, int j) { return (i + 2 * j) % 3; }
int a_value(int i, int j, int k) { return 1000 * i + 10 * j + k; }

struct Exchange {
  std::vector<int> scounts, sdispls, rcounts, rdispls, send, want;
};

// Rank me's Alltoallv arguments over n peers, with the answer.
Exchange a_exchange(int me, int n) {
  Exchange x;
  for (int j = 0; j < n; ++j) {
    x.scounts.push_back(a_count(me, j));
    x.sdispls.push_back(int(x.send.size()));
    for (int k = 0; k < a_count(me, j); ++k) x.send.push_back(a_value(me, j, k));
    x.rcounts.push_back(a_count(j, me));
    x.rdispls.push_back(int(x.want.size()));
    for (int k = 0; k < a_count(j, me); ++k) x.want.push_back(a_value(j, me, k));
  }
  return x;
}

}  // namespace

TEST_CASE("Gatherv, Scatterv, Allgatherv, Alltoallv and their nonblocking forms against their serial answers") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), root = n / 2;
      bool ok = true;
      const VLayout l = v_layout(n);
      const std::vector<int> all = v_filled(l), mine = my_block(me);
      std::vector<int> got(size_t(l.total), -1);
      w.Gatherv(mine.data(), me % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT, root);
      ok &= me != root || same(got, all, "Gatherv");
      got.assign(size_t(l.total), -1);
      w.Igatherv(mine.data(), me % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT, root).Wait();
      ok &= me != root || same(got, all, "Igatherv");
      // In place at the root: its block is in recvbuf already.
      got.assign(size_t(l.total), -1);
      if (me == root) std::copy(mine.begin(), mine.end(), got.begin() + l.displs[size_t(me)]);
      w.Gatherv(me == root ? IN_PLACE : mine.data(), me % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT,
                root);
      ok &= me != root || same(got, all, "Gatherv IN_PLACE");
      // Scatterv: the root's buffer cut by the layout.
      std::vector<int> part(3, -1);
      w.Scatterv(all.data(), l.counts.data(), l.displs.data(), INT, part.data(), me % 3, INT, root);
      part.resize(size_t(me % 3));
      ok &= same(part, mine, "Scatterv");
      part.assign(3, -1);
      w.Iscatterv(all.data(), l.counts.data(), l.displs.data(), INT, part.data(), me % 3, INT, root).Wait();
      part.resize(size_t(me % 3));
      ok &= same(part, mine, "Iscatterv");
      part.assign(3, -7);
      w.Scatterv(all.data(), l.counts.data(), l.displs.data(), INT, me == root ? IN_PLACE : part.data(), me % 3, INT,
                 root);
      if (me == root) ok &= EXPECT(part == std::vector<int>(3, -7));
      // Allgatherv, and in place (each block already in recvbuf).
      got.assign(size_t(l.total), -1);
      w.Allgatherv(mine.data(), me % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT);
      ok &= same(got, all, "Allgatherv");
      got.assign(size_t(l.total), -1);
      std::copy(mine.begin(), mine.end(), got.begin() + l.displs[size_t(me)]);
      w.Iallgatherv(IN_PLACE, 0, DATATYPE_NULL, got.data(), l.counts.data(), l.displs.data(), INT).Wait();
      ok &= same(got, all, "Iallgatherv IN_PLACE");
      // Alltoallv, nonblocking, and in place (the send side is recvbuf's).
      Exchange x = a_exchange(me, n);
      std::vector<int> recv(x.want.size() + 1, -1);
      w.Alltoallv(x.send.data(), x.scounts.data(), x.sdispls.data(), INT, recv.data(), x.rcounts.data(),
                  x.rdispls.data(), INT);
      recv.pop_back();
      ok &= same(recv, x.want, "Alltoallv");
      recv.assign(x.want.size(), -1);
      w.Ialltoallv(x.send.data(), x.scounts.data(), x.sdispls.data(), INT, recv.data(), x.rcounts.data(),
                   x.rdispls.data(), INT).Wait();
      ok &= same(recv, x.want, "Ialltoallv");
      // In place the blocks must be alike both ways: rank i gives rank j i + j.
      std::vector<int> ones(size_t(n), 1), at(static_cast<size_t>(n)), sym(static_cast<size_t>(n));
      std::iota(at.begin(), at.end(), 0);
      for (int j = 0; j < n; ++j) sym[size_t(j)] = me + j;
      std::vector<int> sum(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j) sum[size_t(j)] = j + me;
      w.Alltoallv(IN_PLACE, nullptr, nullptr, DATATYPE_NULL, sym.data(), ones.data(), at.data(), INT);
      ok &= same(sym, sum, "Alltoallv IN_PLACE");
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("Gather, Scatter, Allgather, Alltoall and their nonblocking forms take IN_PLACE where the text allows it, and no aliased buffers") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), root = n / 2;
      bool ok = true;
      std::vector<int> all(size_t(2 * n)), got;
      for (int i = 0; i < 2 * n; ++i) all[size_t(i)] = 100 * (i / 2) + i % 2;  // rank r's block: 100r, 100r + 1
      const std::vector<int> mine = {100 * me, 100 * me + 1};
      // Gather: the root's block is in recvbuf already.
      for (bool nonblocking : {false, true}) {
        got.assign(size_t(2 * n), -1);
        if (me == root) std::copy(mine.begin(), mine.end(), got.begin() + 2 * me);
        const void* send = me == root ? IN_PLACE : mine.data();
        if (nonblocking)
          w.Igather(send, 2, INT, got.data(), 2, INT, root).Wait();
        else
          w.Gather(send, 2, INT, got.data(), 2, INT, root);
        ok &= me != root || same(got, all, nonblocking ? "Igather IN_PLACE" : "Gather IN_PLACE");
      }
      // Scatter: the root keeps its block where it is.
      std::vector<int> part(2, -7);
      w.Scatter(all.data(), 2, INT, me == root ? IN_PLACE : part.data(), 2, INT, root);
      ok &= same(part, me == root ? std::vector<int>(2, -7) : mine, "Scatter IN_PLACE");
      part.assign(2, -7);
      w.Iscatter(all.data(), 2, INT, me == root ? IN_PLACE : part.data(), 2, INT, root).Wait();
      ok &= same(part, me == root ? std::vector<int>(2, -7) : mine, "Iscatter IN_PLACE");
      // Allgather: every block in place.
      got.assign(size_t(2 * n), -1);
      std::copy(mine.begin(), mine.end(), got.begin() + 2 * me);
      w.Allgather(IN_PLACE, 0, DATATYPE_NULL, got.data(), 2, INT);
      ok &= same(got, all, "Allgather IN_PLACE");
      got.assign(size_t(2 * n), -1);
      std::copy(mine.begin(), mine.end(), got.begin() + 2 * me);
      w.Iallgather(IN_PLACE, 0, DATATYPE_NULL, got.data(), 2, INT).Wait();
      ok &= same(got, all, "Iallgather IN_PLACE");
      // Alltoall: block j goes to rank j, block i comes from rank i (rank i gives rank j i + j).
      std::vector<int> sym(static_cast<size_t>(n)), sum(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j) sym[size_t(j)] = sum[size_t(j)] = me + j;
      w.Alltoall(IN_PLACE, 0, DATATYPE_NULL, sym.data(), 1, INT);
      ok &= same(sym, sum, "Alltoall IN_PLACE");
      w.Ialltoall(IN_PLACE, 0, DATATYPE_NULL, sym.data(), 1, INT).Wait();
      ok &= same(sym, sum, "Ialltoall IN_PLACE");
      // Not at a non-root (ERR_ARG, nothing sent).
      if (n > 1 && me != root)
        ok &= raises(ERR_ARG, "MPI_Gather", "MPI_IN_PLACE", [&] { w.Gather(IN_PLACE, 2, INT, got.data(), 2, INT, root); });
      // sendbuf and recvbuf one buffer (MPI-3.1 §2.3): ERR_BUFFER on every
      // rank before anything is sent; where recvbuf means nothing (a
      // non-root's of Gather) the same address is no alias.
      std::vector<int> both(size_t(2 * n), me);
      const char* alias = "sendbuf and recvbuf are the same buffer";
      ok &= raises(ERR_BUFFER, "MPI_Allreduce", alias, [&] { w.Allreduce(both.data(), both.data(), 2, INT, SUM); });
      ok &= raises(ERR_BUFFER, "MPI_Allgather", alias, [&] { w.Allgather(both.data(), 2, INT, both.data(), 2, INT); });
      ok &= raises(ERR_BUFFER, "MPI_Ialltoall", alias, [&] { w.Ialltoall(both.data(), 1, INT, both.data(), 1, INT); });
      w.Allreduce(both.data(), both.data(), 0, INT, SUM);  // nothing moves: no alias
      got.assign(size_t(2 * n), -1);
      std::copy(mine.begin(), mine.end(), both.begin());
      w.Gather(me == root ? mine.data() : both.data(), 2, INT, me == root ? got.data() : both.data(), 2, INT, root);
      ok &= me != root || same(got, all, "Gather, a non-root's recvbuf its sendbuf");
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("Alltoallw: a type and a byte displacement per block, blocking and nonblocking") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank();
      bool ok = true;
      // To even ranks one int (me * 10 + j); to odd ranks two doubles (me + j/10, -me).
      struct Block {
        double d[2];
        int i;
      };
      std::vector<Block> out(static_cast<size_t>(n)), in(static_cast<size_t>(n)), want(static_cast<size_t>(n));
      std::vector<int> counts(static_cast<size_t>(n)), rcounts(static_cast<size_t>(n)), displs(static_cast<size_t>(n));
      std::vector<Datatype> types(static_cast<size_t>(n)), rtypes(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j) {
        const bool odd = j % 2 == 1;
        out[size_t(j)] = Block{{me + j / 10.0, -double(me)}, me * 10 + j};
        want[size_t(j)] = Block{{j + me / 10.0, -double(j)}, j * 10 + me};
        types[size_t(j)] = odd ? DOUBLE : INT;
        counts[size_t(j)] = odd ? 2 : 1;
        rtypes[size_t(j)] = me % 2 == 1 ? DOUBLE : INT;
        rcounts[size_t(j)] = me % 2 == 1 ? 2 : 1;
        displs[size_t(j)] = int(size_t(j) * sizeof(Block) + (odd ? 0 : offsetof(Block, i)));
      }
      std::vector<int> rdispls(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j)
        rdispls[size_t(j)] = int(size_t(j) * sizeof(Block) + (me % 2 == 1 ? 0 : offsetof(Block, i)));
      auto check = [&](const char* what) {
        for (int j = 0; j < n; ++j) {
          const Block& g = in[size_t(j)];
          const Block& e = want[size_t(j)];
          const bool right = me % 2 == 1 ? g.d[0] == e.d[0] && g.d[1] == e.d[1] && g.i == -1 : g.i == e.i;
          if (!right) std::fprintf(stderr, "%s: block %d wrong at rank %d\n", what, j, me);
          ok &= right;
        }
      };
      for (Block& b : in) b = Block{{-1, -1}, -1};
      w.Alltoallw(out.data(), counts.data(), displs.data(), types.data(), in.data(), rcounts.data(), rdispls.data(),
                  rtypes.data());
      check("Alltoallw");
      for (Block& b : in) b = Block{{-1, -1}, -1};
      w.Ialltoallw(out.data(), counts.data(), displs.data(), types.data(), in.data(), rcounts.data(),
                   rdispls.data(), rtypes.data()).Wait();
      check("Ialltoallw");
      ok &= raises(ERR_ARG, "MPI_Alltoallw", "sendtypes is null", [&] {
        w.Alltoallw(out.data(), counts.data(), displs.data(), nullptr, in.data(), rcounts.data(), rdispls.data(),
                    rtypes.data());
      });
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("reductions in place, Ireduce_scatter and Ireduce_scatter_block") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank();
      bool ok = true;
      // Ireduce_scatter: rank r gets r + 1 elements; element k of the whole
      // vector is the sum over ranks of (rank * 7 + k).
      std::vector<int> counts(static_cast<size_t>(n)), starts(static_cast<size_t>(n));
      int total = 0;
      for (int r = 0; r < n; ++r) {
        counts[size_t(r)] = r + 1;
        starts[size_t(r)] = total;
        total += r + 1;
      }
      const int ranksum = n * (n - 1) / 2;
      std::vector<int> in(static_cast<size_t>(total)), want;
      for (int k = 0; k < total; ++k) in[size_t(k)] = me * 7 + k;
      for (int k = 0; k < me + 1; ++k) want.push_back(7 * ranksum + n * (starts[size_t(me)] + k));
      std::vector<int> got(static_cast<size_t>(me + 1), -1);
      w.Ireduce_scatter(in.data(), got.data(), counts.data(), INT, SUM).Wait();
      ok &= same(got, want, "Ireduce_scatter");
      std::vector<int> inplace = in;
      w.Ireduce_scatter(IN_PLACE, inplace.data(), counts.data(), INT, SUM).Wait();
      inplace.resize(size_t(me + 1));
      ok &= same(inplace, want, "Ireduce_scatter IN_PLACE");
      inplace = in;
      w.Reduce_scatter(IN_PLACE, inplace.data(), counts.data(), INT, SUM);
      inplace.resize(size_t(me + 1));
      ok &= same(inplace, want, "Reduce_scatter IN_PLACE");
      // _block: two elements each, zero counts too.
      std::vector<double> blocks(static_cast<size_t>(2 * n)), two(2, -1);
      for (int k = 0; k < 2 * n; ++k) blocks[size_t(k)] = me + k / 2.0;
      w.Ireduce_scatter_block(blocks.data(), two.data(), 2, DOUBLE, SUM).Wait();
      ok &= EXPECT(two[0] == ranksum + n * me && two[1] == ranksum + n * (me + 0.5));
      w.Ireduce_scatter_block(nullptr, nullptr, 0, DOUBLE, MAX).Wait();
      // Allreduce, Reduce at the root, Scan in place.
      int v = me + 1;
      w.Allreduce(IN_PLACE, &v, 1, INT, SUM);
      ok &= EXPECT(v == n * (n + 1) / 2);
      v = me + 1;
      w.Iallreduce(IN_PLACE, &v, 1, INT, MAX).Wait();
      ok &= EXPECT(v == n);
      v = me + 1;
      const int root = n - 1;
      w.Reduce(me == root ? IN_PLACE : &v, &v, 1, INT, PROD, root);
      int fact = 1;
      for (int r = 1; r <= n; ++r) fact *= r;
      ok &= EXPECT(me != root || v == fact);
      v = me + 1;
      w.Scan(IN_PLACE, &v, 1, INT, SUM);
      ok &= EXPECT(v == (me + 1) * (me + 2) / 2);
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("v-collectives on intercommunicators: one block per remote rank, IN_PLACE refused") {
  for (int n : kCallSizes) {
    if (n < 2) continue;
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), nlow = n / 2;
      const bool low = me < nlow;
      Intracomm local = w.Split(low ? 0 : 1, me);
      Intercomm x = local.Create_intercomm(0, w, low ? nlow : 0, 98);
      const int remote = x.Get_remote_size();
      bool ok = true;
      // Gatherv at the low group's rank 0 from the high group (world ranks as blocks).
      const VLayout l = v_layout(remote);
      const int root = low ? (x.Get_rank() == 0 ? ROOT : PROC_NULL) : 0;
      const int lr = x.Get_rank();
      const std::vector<int> mine = my_block(lr);
      std::vector<int> got(size_t(l.total), -1);
      x.Gatherv(mine.data(), lr % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT, root);
      if (root == ROOT) ok &= same(got, v_filled(l), "inter Gatherv");
      got.assign(size_t(l.total), -1);
      x.Igatherv(mine.data(), lr % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT, root).Wait();
      if (root == ROOT) ok &= same(got, v_filled(l), "inter Igatherv");
      // Scatterv from the low root: high rank i gets block i.
      std::vector<int> part(3, -1);
      x.Scatterv(v_filled(l).data(), l.counts.data(), l.displs.data(), INT, part.data(), lr % 3, INT, root);
      part.resize(size_t(lr % 3));
      if (!low) ok &= same(part, mine, "inter Scatterv");
      // Allgatherv: each group gets the other group's blocks.
      got.assign(size_t(l.total), -1);
      x.Iallgatherv(mine.data(), lr % 3, INT, got.data(), l.counts.data(), l.displs.data(), INT).Wait();
      ok &= same(got, v_filled(l), "inter Iallgatherv");
      // Alltoallv across the groups: local rank i gives remote rank j block (i, j) of a_exchange.
      std::vector<int> scounts, sdispls, rcounts, rdispls, send, want;
      for (int j = 0; j < remote; ++j) {
        scounts.push_back(a_count(lr + (low ? 0 : 50), j));
        sdispls.push_back(int(send.size()));
        for (int k = 0; k < scounts.back(); ++k) send.push_back(a_value(lr + (low ? 0 : 50), j, k));
        rcounts.push_back(a_count(j + (low ? 50 : 0), lr));
        rdispls.push_back(int(want.size()));
        for (int k = 0; k < rcounts.back(); ++k) want.push_back(a_value(j + (low ? 50 : 0), lr, k));
      }
      std::vector<int> recv(want.size(), -1);
      x.Alltoallv(send.data(), scounts.data(), sdispls.data(), INT, recv.data(), rcounts.data(), rdispls.data(), INT);
      ok &= same(recv, want, "inter Alltoallv");
      ok &= raises(ERR_ARG, "MPI_Allgatherv", "MPI_IN_PLACE", [&] {
        x.Allgatherv(IN_PLACE, 0, INT, got.data(), l.counts.data(), l.displs.data(), INT);
      });
      ok &= raises(ERR_ARG, "MPI_Ialltoallv", "MPI_IN_PLACE", [&] {
        x.Ialltoallv(IN_PLACE, scounts.data(), sdispls.data(), INT, recv.data(), rcounts.data(), rdispls.data(), INT);
      });
      int v = 1;
      ok &= raises(ERR_ARG, "MPI_Allreduce", "MPI_IN_PLACE", [&] { x.Allreduce(IN_PLACE, &v, 1, INT, SUM); });
      ok &= raises(ERR_ROOT, "MPI_Gatherv", "root", [&] {
        x.Gatherv(mine.data(), 0, INT, got.data(), l.counts.data(), l.displs.data(), INT, remote + 3);
      });
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("v- and w-collectives: bad arguments raise the right class, naming the argument, before sending") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      bool ok = true;
      std::vector<int> buf(size_t(4 * n) + 4, 0), counts(size_t(n), 1), displs(size_t(n), 0), bad(size_t(n), 1);
      bad[0] = -1;
      int* b = buf.data();
      ok &= raises(ERR_ARG, "MPI_Allgatherv", "recvcounts is NULL",
                   [&] { w.Allgatherv(b, 1, INT, b, nullptr, displs.data(), INT); });
      ok &= raises(ERR_ARG, "MPI_Iallgatherv", "displs is NULL",
                   [&] { w.Iallgatherv(b, 1, INT, b, counts.data(), nullptr, INT); });
      ok &= raises(ERR_COUNT, "MPI_Alltoallv", "sendcounts[0] = -1 is negative", [&] {
        w.Alltoallv(b, bad.data(), displs.data(), INT, b, counts.data(), displs.data(), INT);
      });
      ok &= raises(ERR_COUNT, "MPI_Gatherv", "sendcount is negative", [&] {
        w.Gatherv(b, -2, INT, b, counts.data(), displs.data(), INT, 0);
      });
      ok &= raises(ERR_TYPE, "MPI_Scatterv", "DATATYPE_NULL", [&] {
        w.Scatterv(b, counts.data(), displs.data(), INT, b, 1, DATATYPE_NULL, 0);
      });
      ok &= raises(ERR_ROOT, "MPI_Iscatterv", "root", [&] {
        w.Iscatterv(b, counts.data(), displs.data(), INT, b, 1, INT, n);
      });
      ok &= raises(ERR_ARG, "MPI_Ialltoallw", "recvtypes is null", [&] {
        std::vector<Datatype> ts(size_t(n), INT);
        w.Ialltoallw(b, counts.data(), displs.data(), ts.data(), b, counts.data(), displs.data(), nullptr);
      });
      ok &= raises(ERR_ARG, "MPI_Ireduce_scatter", "recvcounts is null",
                   [&] { w.Ireduce_scatter(b, b, nullptr, INT, SUM); });
      ok &= raises(ERR_COUNT, "MPI_Ireduce_scatter_block", "recvcount -1",
                   [&] { w.Ireduce_scatter_block(b, b, -1, INT, SUM); });
      ok &= raises(ERR_OP, "MPI_Ireduce_scatter", "OP_NULL",
                   [&] { w.Ireduce_scatter(b, b, counts.data(), INT, OP_NULL); });
      ok &= raises(ERR_BUFFER, "MPI_Ireduce_scatter_block", "sendbuf is NULL",
                   [&] { w.Ireduce_scatter_block(nullptr, b, 1, INT, SUM); });
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

// ---- neighbourhood v- and w-forms --------------------------------------------------

TEST_CASE("Neighbor_allgatherv, Neighbor_alltoallv, Neighbor_alltoallw on rings, PROC_NULL edges untouched") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank();
      bool ok = true;
      for (bool periodic : {true, false}) {
        const int dims[1] = {n};
        const bool periods[1] = {periodic};
        Cartcomm ring = w.Create_cart(1, dims, periods, false);
        int src = 0, dst = 0;
        ring.Shift(0, 1, src, dst);  // in-neighbour 0 is src (rank - 1), 1 is dst (rank + 1)
        const int in[2] = {src, dst};
        // allgatherv: two ints (me, -me) from each, block 0 at 3, block 1 at 0.
        const int two[2] = {me, -me}, rc[2] = {2, 2}, rd[2] = {3, 0};
        std::vector<int> got(5, -9);
        ring.Neighbor_allgatherv(two, 2, INT, got.data(), rc, rd, INT);
        std::vector<int> want(5, -9);
        for (int k = 0; k < 2; ++k)
          if (in[k] != PROC_NULL) want[size_t(rd[k])] = in[k], want[size_t(rd[k] + 1)] = -in[k];
        ok &= same(got, want, "Neighbor_allgatherv");
        got.assign(5, -9);
        ring.Ineighbor_allgatherv(two, 2, INT, got.data(), rc, rd, INT).Wait();
        ok &= same(got, want, "Ineighbor_allgatherv");
        // alltoallv: to out-neighbour k (k = 0: rank - 1) k + 1 elements 10 me + k;
        // from in-neighbour 0 (rank - 1, its block 1) two, from 1 one.
        const int sc[2] = {1, 2}, sd[2] = {0, 1}, vc[2] = {2, 1}, vd[2] = {1, 0};
        const int sv[3] = {10 * me, 10 * me + 1, 10 * me + 1};
        got.assign(4, -9);
        want.assign(4, -9);
        if (src != PROC_NULL) want[1] = want[2] = 10 * src + 1;
        if (dst != PROC_NULL) want[0] = 10 * dst;
        ring.Neighbor_alltoallv(sv, sc, sd, INT, got.data(), vc, vd, INT);
        ok &= same(got, want, "Neighbor_alltoallv");
        got.assign(4, -9);
        ring.Ineighbor_alltoallv(sv, sc, sd, INT, got.data(), vc, vd, INT).Wait();
        ok &= same(got, want, "Ineighbor_alltoallv");
        // alltoallw: a double down (to rank - 1), an int up; received into a struct.
        struct Pair {
          double d = -9;
          int i = -9;
        };
        Pair pair;
        const Pair mine{me + 0.5, 7 * me};
        const int wc[2] = {1, 1};
        const long wd[2] = {long(offsetof(Pair, d)), long(offsetof(Pair, i))};
        const Datatype st[2] = {DOUBLE, INT}, rt[2] = {INT, DOUBLE};
        const long rd2[2] = {long(offsetof(Pair, i)), long(offsetof(Pair, d))};
        ring.Neighbor_alltoallw(&mine, wc, wd, st, &pair, wc, rd2, rt);
        ok &= EXPECT(pair.i == (src == PROC_NULL ? -9 : 7 * src) && pair.d == (dst == PROC_NULL ? -9 : dst + 0.5));
        pair = Pair();
        ring.Ineighbor_alltoallw(&mine, wc, wd, st, &pair, wc, rd2, rt).Wait();
        ok &= EXPECT(pair.i == (src == PROC_NULL ? -9 : 7 * src) && pair.d == (dst == PROC_NULL ? -9 : dst + 0.5));
        ok &= raises(ERR_ARG, "MPI_Neighbor_allgatherv", "MPI_IN_PLACE",
                     [&] { ring.Neighbor_allgatherv(IN_PLACE, 2, INT, got.data(), rc, rd, INT); });
        // One buffer for both ends (MPI-3.1 §2.3): ERR_BUFFER on every rank,
        // nothing sent; with nothing to move, no alias.
        const char* alias = "sendbuf and recvbuf are the same buffer";
        ok &= raises(ERR_BUFFER, "MPI_Ineighbor_alltoall", alias,
                     [&] { ring.Ineighbor_alltoall(got.data(), 1, INT, got.data(), 1, INT); });
        ok &= raises(ERR_BUFFER, "MPI_Neighbor_alltoallw", alias,
                     [&] { ring.Neighbor_alltoallw(&pair, wc, wd, st, &pair, wc, rd2, rt); });
        ring.Neighbor_allgather(got.data(), 0, INT, got.data(), 0, INT);
        ok &= raises(ERR_COUNT, "MPI_Ineighbor_alltoallv", "recvcounts[1] = -1",
                     [&] {
                       const int neg[2] = {1, -1};
                       ring.Ineighbor_alltoallv(sv, sc, sd, INT, got.data(), neg, vd, INT);
                     });
        ring.Free();
      }
      ok &= EXPECT(quiet(w));
      return ok;
    }) == 0);
  }
}

TEST_CASE("the uneven example program (Gatherv, Allgatherv in place, Mprobe) is right at 1, 2, 3, 5, 7 ranks") {
  for (int n : kCallSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [](Intracomm& w) { return examples::uneven(w) == 0; }) == 0);
  }
}
