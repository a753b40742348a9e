// tests/unit/api_calls_test.cpp: the C++ API's point-to-point and
// collective calls beyond the basic ones (issue 24): the send modes and the
// attached buffer, matched probes and Message, Testany/Waitsome/Testsome,
// the v- and w-collectives and their nonblocking forms, reduce-scatter's
// nonblocking forms, the neighbourhood v- and w-forms, IN_PLACE, on
// worlds of 1, 2, 3, 5 and 7 ranks (threads of this process, api_world.hpp),
// each call against its serial answer, with zero counts, intercommunicators
// and the errors, raised before anything is sent.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "tests/unit/api_world.hpp"

using namespace lumpi;
using namespace lumpi::testing;

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
