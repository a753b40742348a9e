// tests/unit/api_test.cpp: the public C++ API (core/api/lumpi.hpp) on worlds of
// 1, 2, 3, 4 and 7 ranks run as threads of this process, each thread with its
// own Engine on an ipc endpoint and its own lumpi::Intracomm world: class
// shape (what must not compile), split, dup and clone, topologies,
// intercommunicators, point-to-point, collectives, attributes, exceptions on
// bad arguments, and the C++ example programs of scripts/cxx/.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <thread>
#include <type_traits>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "core/api/api_detail.hpp"
#include "core/engine/engine.hpp"
#include "core/api/lumpi.hpp"
#include "scripts/cxx/examples.hpp"
#include "tests/unit/api_world.hpp"

using namespace lumpi;
using lumpi::test::nothing_pending;
using lumpi::test::raises;
using lumpi::test::run_world;

namespace {

const int kSizes[] = {1, 2, 3, 4, 7};

// ---- what must not compile (§16.1.7, Example 16.4) --------------------------------

template <class C>
concept HasShift = requires(const C& c, int& s, int& d) { c.Shift(0, 1, s, d); };
template <class C>
concept HasMerge = requires(const C& c) { c.Merge(true); };
template <class C>
concept HasScan = requires(const C& c, const int* in, int* out) { c.Scan(in, out, 1, INT, SUM); };
template <class C>
concept HasCreateCart = requires(const C& c, const int* d, const bool* p) { c.Create_cart(1, d, p, false); };
template <class C>
concept HasGetNeighbors = requires(const C& c, int* n) { c.Get_neighbors(0, 1, n); };
template <class C>
concept HasDistNeighbors = requires(const C& c, int& i, int& o, bool& w) { c.Get_dist_neighbors_count(i, o, w); };
template <class C>
concept HasRemoteSize = requires(const C& c) { c.Get_remote_size(); };
template <class C>
concept HasDup = requires(const C& c) { c.Dup(); };
template <class C>
concept HasIneighbor = requires(const C& c, const int* s, int* r) { c.Ineighbor_allgather(s, 1, INT, r, 1, INT); };

}  // namespace

TEST_CASE("kind-specific operations exist only on their class") {
  static_assert(HasShift<Cartcomm>);
  static_assert(!HasShift<Intercomm> && !HasShift<Intracomm> && !HasShift<Graphcomm> &&
                !HasShift<Distgraphcomm> && !HasShift<Comm>);
  static_assert(HasMerge<Intercomm> && !HasMerge<Intracomm> && !HasMerge<Cartcomm>);
  static_assert(HasScan<Intracomm> && HasScan<Cartcomm> && !HasScan<Intercomm> && !HasScan<Comm>);
  static_assert(HasCreateCart<Intracomm> && !HasCreateCart<Intercomm>);
  static_assert(HasGetNeighbors<Graphcomm> && !HasGetNeighbors<Cartcomm> && !HasGetNeighbors<Intercomm>);
  static_assert(HasDistNeighbors<Distgraphcomm> && !HasDistNeighbors<Graphcomm>);
  static_assert(HasRemoteSize<Intercomm> && !HasRemoteSize<Intracomm>);
  static_assert(HasIneighbor<Cartcomm> && HasIneighbor<Graphcomm> && HasIneighbor<Distgraphcomm> &&
                !HasIneighbor<Intracomm> && !HasIneighbor<Intercomm> && !HasIneighbor<Comm>);
  // Dup is not on Comm (it is not virtual) and returns the class it is called on.
  static_assert(!HasDup<Comm>);
  static_assert(std::is_same_v<decltype(std::declval<Intracomm>().Dup()), Intracomm>);
  static_assert(std::is_same_v<decltype(std::declval<Intercomm>().Dup()), Intercomm>);
  static_assert(std::is_same_v<decltype(std::declval<Cartcomm>().Dup()), Cartcomm>);
  static_assert(std::is_same_v<decltype(std::declval<Graphcomm>().Dup()), Graphcomm>);
  static_assert(std::is_same_v<decltype(std::declval<Distgraphcomm>().Dup()), Distgraphcomm>);
  // Comm is abstract; a derived class cannot be made from a base (Example 16.4).
  static_assert(std::is_abstract_v<Comm>);
  static_assert(!std::is_constructible_v<Cartcomm, Intracomm>);
  static_assert(!std::is_constructible_v<Graphcomm, Intracomm>);
  static_assert(!std::is_constructible_v<Intracomm, Intercomm>);
  static_assert(!std::is_constructible_v<Intercomm, Intracomm>);
  static_assert(std::is_constructible_v<Intracomm, Cartcomm>);  // the base from a derived one slices
  // COMM_NULL initialises and compares with every class (Example 16.5).
  Intercomm x = COMM_NULL;
  Cartcomm c;
  CHECK(x == COMM_NULL);
  CHECK(COMM_NULL == c);
  CHECK(HasShift<Cartcomm>);
  CHECK_FALSE(HasShift<Intercomm>);
}

TEST_CASE("Info numbers its keys in the order they were first set; Delete and Dup keep that order") {
  Info i = Info::Create();
  for (const char* k : {"zeta", "alpha", "mid"}) i.Set(k, "1");
  i.Set("zeta", "2");  // setting again does not move it
  CHECK(i.Get_nkeys() == 3);
  CHECK(i.Get_nthkey(0) == "zeta");
  CHECK(i.Get_nthkey(2) == "mid");
  i.Delete("alpha");
  Info d = i.Dup();
  CHECK(d.Get_nthkey(1) == "mid");
  std::string v;
  CHECK((d.Get("zeta", v) && v == "2"));
  CHECK_THROWS_AS(d.Get_nthkey(2), Exception);
  d.Free();
  i.Free();
}

TEST_CASE("size, rank, names and errors on COMM_NULL") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            bool ok = w.Get_size() == n && w.Get_rank() >= 0 && w.Get_rank() < n && !w.Is_inter();
            ok &= w.Get_name() == "MPI_COMM_WORLD" && w.Get_topology() == UNDEFINED;
            w.Set_name("world   ");
            ok &= w.Get_name() == "world";
            ok &= Comm::Compare(w, w) == IDENT;
            ok &= w.Get_errhandler() == ERRORS_THROW_EXCEPTIONS;
            Intracomm none;
            ok &= raises(ERR_COMM, "MPI_Comm_size", "COMM_NULL", [&] { none.Get_size(); });
            ok &= raises(ERR_ARG, "MPI_Comm_set_errhandler", "ERRORS_RETURN",
                         [&] { w.Set_errhandler(ERRORS_RETURN); });
            return ok;
          }) == 0);
  }
}

TEST_CASE("split orders by key, gives COMM_NULL for UNDEFINED, and frees") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank();
            Intracomm half = w.Split(me % 2, -me);  // reversed order
            int members = (n + 1 - me % 2) / 2;     // ranks with my parity
            int above = 0;
            for (int r = me + 2; r < n; r += 2) ++above;
            bool ok = half.Get_size() == members && half.Get_rank() == above;
            Intracomm some = w.Split(me == 0 ? UNDEFINED : 1, 0);
            ok &= (me == 0) == (some == COMM_NULL);
            if (me != 0) ok &= some.Get_size() == n - 1 && some.Get_rank() == me - 1;
            Intracomm alias = half;  // a copy of the handle, the same communicator
            half.Free();
            ok &= half == COMM_NULL;
            ok &= raises(ERR_COMM, "MPI_Comm_rank", "freed", [&] { alias.Get_rank(); });
            return ok;
          }) == 0);
  }
}

TEST_CASE("Split_type: SHARED is the host, HW_DOMAIN gives strict subsets down to COMM_NULL, bad types raise") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            Intracomm host = w.Split_type(COMM_TYPE_SHARED, 0);  // one host here
            bool ok = host.Get_size() == n && host.Get_rank() == w.Get_rank();
            Info domain = Info::Create();
            domain.Set(HW_DOMAIN_TYPE, "mpi_shared_memory");  // §6.4.2: the value that gives SHARED's split
            Intracomm as_shared = w.Split_type(COMM_TYPE_HW_DOMAIN, 0, domain);
            ok &= as_shared != COMM_NULL && Comm::Compare(as_shared, host) == CONGRUENT;
            for (Intracomm level = w; level != COMM_NULL;) {  // each domain a strict subset
              Intracomm sub = level.Split_type(COMM_TYPE_HW_DOMAIN, 0);
              ok &= sub == COMM_NULL || (Comm::Compare(sub, level) == UNEQUAL && sub.Get_size() < level.Get_size());
              level = sub;
            }
            ok &= w.Split_type(UNDEFINED, 0) == COMM_NULL;
            ok &= raises(ERR_ARG, "MPI_Comm_split_type", "split_type 99 is not MPI_COMM_TYPE_SHARED",
                         [&] { w.Split_type(99, 0); });
            domain.Free();
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("Dup keeps the class; Clone keeps the dynamic class") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            int dims[1] = {n};
            bool periods[1] = {true};
            Cartcomm cart = w.Create_cart(1, dims, periods, false);
            Cartcomm again = cart.Dup();
            bool ok = again.Get_topology() == CART && Comm::Compare(cart, again) == CONGRUENT;
            int src, dst;
            again.Shift(0, 1, src, dst);
            ok &= dst == (w.Get_rank() + 1) % n;
            const Comm& base = cart;
            std::unique_ptr<Comm> clone = base.Clone();
            ok &= dynamic_cast<Cartcomm*>(clone.get()) != nullptr;
            ok &= clone->Get_topology() == CART && Comm::Compare(*clone, cart) == CONGRUENT;
            std::unique_ptr<Comm> plain = static_cast<const Comm&>(w).Clone();
            ok &= dynamic_cast<Cartcomm*>(plain.get()) == nullptr &&
                  dynamic_cast<Intracomm*>(plain.get()) != nullptr;
            Intracomm sliced = cart;  // an Intracomm view keeps the topology
            ok &= sliced.Get_topology() == CART;
            again.Free();
            clone->Free();
            plain->Free();
            return ok;
          }) == 0);
  }
}

TEST_CASE("Cartesian create, coordinates, shift and sub against the serial grid") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            int dims[2] = {0, 0};
            Compute_dims(n, 2, dims);
            bool periods[2] = {true, false};
            Cartcomm g = w.Create_cart(2, dims, periods, false);
            const int me = g.Get_rank();
            bool ok = g.Get_dim() == 2 && dims[0] * dims[1] == n && dims[0] >= dims[1];
            int d[2], c[2];
            bool p[2];
            g.Get_topo(2, d, p, c);
            ok &= d[0] == dims[0] && d[1] == dims[1] && p[0] && !p[1];
            ok &= c[0] == me / dims[1] && c[1] == me % dims[1];
            ok &= g.Get_cart_rank(c) == me;
            int src, dst;
            g.Shift(0, 1, src, dst);  // periodic
            ok &= dst == ((c[0] + 1) % dims[0]) * dims[1] + c[1];
            ok &= src == ((c[0] + dims[0] - 1) % dims[0]) * dims[1] + c[1];
            g.Shift(1, 1, src, dst);  // not periodic
            ok &= dst == (c[1] + 1 < dims[1] ? me + 1 : PROC_NULL);
            ok &= src == (c[1] > 0 ? me - 1 : PROC_NULL);
            bool keep_cols[2] = {false, true};
            Cartcomm row = g.Sub(keep_cols);
            ok &= row.Get_size() == dims[1] && row.Get_rank() == c[1] && row.Get_dim() == 1;
            int sum = 0, one = 1;
            row.Allreduce(&one, &sum, 1, INT, SUM);
            ok &= sum == dims[1];
            // A grid smaller than the world leaves the others out.
            int small[1] = {n - 1};
            bool pp[1] = {false};
            if (n > 1) {
              Cartcomm part = w.Create_cart(1, small, pp, false);
              ok &= (w.Get_rank() == n - 1) == (part == COMM_NULL);
            }
            ok &= raises(ERR_ARG, "MPI_Cart_shift", "direction", [&] { g.Shift(2, 1, src, dst); });
            return ok;
          }) == 0);
  }
}

TEST_CASE("graph and distributed-graph communicators: neighbours and messages along edges") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), right = (me + 1) % n, left = (me + n - 1) % n;
            std::vector<int> index, edges;
            for (int r = 0; r < n; ++r) {  // a ring: (r-1, r+1)
              edges.push_back((r + n - 1) % n);
              edges.push_back((r + 1) % n);
              index.push_back(int(edges.size()));
            }
            Graphcomm g = w.Create_graph(n, index.data(), edges.data(), false);
            int nn, ne;
            g.Get_dims(&nn, &ne);
            bool ok = g.Get_topology() == GRAPH && nn == n && ne == 2 * n;
            ok &= g.Get_neighbors_count(me) == 2;
            int nb[2];
            g.Get_neighbors(me, 2, nb);
            ok &= nb[0] == left && nb[1] == right;
            int got = -1;
            g.Sendrecv(&me, 1, INT, nb[1], 0, &got, 1, INT, nb[0], 0);
            ok &= got == left;

            int src[1] = {left}, dst[1] = {right}, ws[1] = {me + 1}, wd[1] = {right + 1};
            Distgraphcomm d = w.Dist_graph_create_adjacent(1, src, ws, 1, dst, wd, INFO_NULL, false);
            int in, out;
            bool weighted;
            d.Get_dist_neighbors_count(in, out, weighted);
            ok &= in == 1 && out == 1 && weighted && d.Get_topology() == DIST_GRAPH;
            int s[1], sw[1], t[1], tw[1];
            d.Get_dist_neighbors(1, s, sw, 1, t, tw);
            ok &= s[0] == left && t[0] == right && sw[0] == me + 1 && tw[0] == right + 1;
            // Dist_graph_create: every edge given by its source.
            int one[1] = {me}, deg[1] = {1};
            Distgraphcomm e = w.Dist_graph_create(1, one, deg, dst, nullptr, INFO_NULL, false);
            e.Get_dist_neighbors_count(in, out, weighted);
            ok &= in == 1 && out == 1 && !weighted;
            e.Get_dist_neighbors(1, s, nullptr, 1, t, nullptr);
            ok &= s[0] == left && t[0] == right;
            Distgraphcomm e2 = e.Dup();
            ok &= e2.Get_topology() == DIST_GRAPH;
            return ok;
          }) == 0);
  }
}

namespace {

// Neighbor_allgather/alltoall and Ineighbor_allgather/alltoall on c agree,
// and block k holds what in-neighbour k sent (PROC_NULL: left at -1).
bool neighbour_forms_agree(const Topocomm& c, const std::vector<int>& in, size_t outdeg, const char* name) {
  const int me = c.Get_rank();
  std::vector<int> send(2 * outdeg + 2);
  for (size_t k = 0; k < send.size(); ++k) send[k] = 100 * me + int(k);
  std::vector<int> a(2 * in.size() + 1, -1), b = a, x = a, y = a;
  c.Neighbor_allgather(send.data(), 2, INT, a.data(), 2, INT);
  c.Neighbor_alltoall(send.data(), 2, INT, b.data(), 2, INT);
  Request r[2] = {c.Ineighbor_allgather(send.data(), 2, INT, x.data(), 2, INT),
                  c.Ineighbor_alltoall(send.data(), 2, INT, y.data(), 2, INT)};
  Request::Waitall(2, r);
  bool ok = a == x && b == y && x.back() == -1 && y.back() == -1;
  for (size_t k = 0; k < in.size(); ++k)
    ok &= in[k] == PROC_NULL ? x[2 * k] == -1 && y[2 * k] == -1
                             : x[2 * k] == 100 * in[k] && x[2 * k + 1] == 100 * in[k] + 1;
  if (!ok) std::fprintf(stderr, "%s: the neighbourhood collectives disagree on rank %d\n", name, me);
  return ok;
}

}  // namespace

TEST_CASE("neighbourhood collectives, blocking and nonblocking, on Cartesian, graph and dist graph") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), left = (me + n - 1) % n, right = (me + 1) % n;
            int dims[1] = {n};
            bool periodic[1] = {true}, open[1] = {false};
            Cartcomm ring = w.Create_cart(1, dims, periodic, false);
            Cartcomm line = w.Create_cart(1, dims, open, false);
            std::vector<int> index, edges, src, dst;
            for (int r = 0; r < n; ++r) {
              edges.push_back((r + n - 1) % n);
              edges.push_back((r + 1) % n);
              index.push_back(int(edges.size()));
            }
            Graphcomm g = w.Create_graph(n, index.data(), edges.data(), false);
            for (int j = 0; j < n; ++j) {
              if (j < me) src.push_back(j);
              if (j > me) dst.push_back(j);
            }
            Distgraphcomm d = w.Dist_graph_create_adjacent(int(src.size()), src.data(), nullptr, int(dst.size()),
                                                           dst.data(), nullptr, INFO_NULL, false);
            bool ok = neighbour_forms_agree(ring, {left, right}, 2, "ring");
            ok &= neighbour_forms_agree(line, {me > 0 ? left : PROC_NULL, me < n - 1 ? right : PROC_NULL}, 2, "line");
            ok &= neighbour_forms_agree(g, {left, right}, 2, "graph");
            ok &= neighbour_forms_agree(d, src, dst.size(), "dist graph");
            int buf[2] = {0, 0}, out[2] = {0, 0};
            ok &= raises(ERR_TYPE, "MPI_Ineighbor_alltoall", "differ",
                         [&] { ring.Ineighbor_alltoall(buf, 1, INT, out, 1, LONG); });
            ok &= raises(ERR_COUNT, "MPI_Neighbor_allgather", "sendcount is negative: -1",
                         [&] { ring.Neighbor_allgather(buf, -1, INT, buf, 1, INT); });
            ok &= raises(ERR_BUFFER, "MPI_Ineighbor_allgather", "recvbuf is NULL",
                         [&] { ring.Ineighbor_allgather(buf, 1, INT, nullptr, 1, INT); });
            ok &= nothing_pending(w);
            return ok;
          }) == 0);
  }
}

TEST_CASE("intercommunicator create, traffic, collectives, dup and merge") {
  for (int n : kSizes) {
    if (n < 2) continue;
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), nlow = n / 2;
            const bool low = me < nlow;
            Intracomm local = w.Split(low ? 0 : 1, me);
            Intercomm x = local.Create_intercomm(0, w, low ? nlow : 0, 99);
            const int remote = low ? n - nlow : nlow;
            bool ok = x.Is_inter() && x.Get_remote_size() == remote &&
                      x.Get_size() == (low ? nlow : n - nlow) && x.Get_topology() == UNDEFINED;
            Group rg = x.Get_remote_group();
            ok &= rg.Get_size() == remote && rg.Get_rank() == UNDEFINED;
            // Local rank 0 of each side sends to remote rank 0.
            if (x.Get_rank() == 0) {
              int v = low ? 111 : 222, got = 0;
              x.Sendrecv(&v, 1, INT, 0, 5, &got, 1, INT, 0, 5);
              ok &= got == (low ? 222 : 111);
            }
            // Bcast from the low group's rank 0 to the high group.
            int val = low && x.Get_rank() == 0 ? 42 : 0;
            int root = low ? (x.Get_rank() == 0 ? ROOT : PROC_NULL) : 0;
            x.Bcast(&val, 1, INT, root);
            if (!low) ok &= val == 42;
            // Gather at the low group's rank 0 from every high rank.
            std::vector<int> from(static_cast<size_t>(remote), -1);
            x.Gather(&me, 1, INT, from.data(), 1, INT, root);
            if (root == ROOT)
              for (int i = 0; i < remote; ++i) ok &= from[size_t(i)] == nlow + i;
            // Allreduce: each group gets the other group's sum.
            int mine = me, other = 0, want = 0;
            x.Allreduce(&mine, &other, 1, INT, SUM);
            for (int r = 0; r < n; ++r)
              if ((r < nlow) != low) want += r;
            ok &= other == want;
            Intercomm y = x.Dup();
            std::unique_ptr<Comm> z = x.Clone();
            ok &= dynamic_cast<Intercomm*>(z.get()) != nullptr && Comm::Compare(*z, x) == CONGRUENT;
            Intracomm merged = y.Merge(!low);
            ok &= merged.Get_size() == n && merged.Get_rank() == me && !merged.Is_inter();
            ok &= Comm::Compare(merged, w) == CONGRUENT;
            return ok;
          }) == 0);
  }
}

TEST_CASE("point-to-point: blocking, nonblocking, synchronous, probe, wildcards, truncation") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), right = (me + 1) % n, left = (me + n - 1) % n;
            bool ok = true;
            std::vector<double> out(5), in(5, -1);
            for (int i = 0; i < 5; ++i) out[size_t(i)] = me * 10 + i + 0.5;
            Request reqs[2] = {w.Irecv(in.data(), 5, DOUBLE, left, 3),
                               w.Isend(out.data(), 5, DOUBLE, right, 3)};
            Status sts[2];
            Request::Waitall(2, reqs, sts);
            ok &= reqs[0].Is_null() && reqs[1].Is_null();
            ok &= sts[0].Get_source() == left && sts[0].Get_tag() == 3 && sts[0].Get_count(DOUBLE) == 5;
            for (int i = 0; i < 5; ++i) ok &= in[size_t(i)] == left * 10 + i + 0.5;
            // Ssend completes once matched; Probe sees size and source first.
            if (me == 0) {
              for (int r = 1; r < n; ++r) {
                Status st;
                w.Probe(ANY_SOURCE, 8, st);
                std::vector<int64_t> buf(size_t(st.Get_count(INT64_T)));
                w.Recv(buf.data(), int(buf.size()), INT64_T, st.Get_source(), 8);
                ok &= int(buf.size()) == st.Get_source() && (buf.empty() || buf.back() == st.Get_source());
              }
            } else {
              std::vector<int64_t> buf(size_t(me), me);
              w.Ssend(buf.data(), me, INT64_T, 0, 8);
            }
            // A message larger than the buffer: ERR_TRUNCATE at the receiver.
            int two[2] = {1, 2}, one = 0;
            w.Send(two, 2, INT, me, 9);
            ok &= raises(ERR_TRUNCATE, "MPI_Recv", "room for 4", [&] { w.Recv(&one, 1, INT, me, 9); });
            // Sendrecv_replace around the ring; PROC_NULL is a no-op.
            int token = me;
            Status st;
            w.Sendrecv_replace(&token, 1, INT, right, 4, left, 4, st);
            ok &= token == left && st.Get_source() == left;
            w.Send(&token, 1, INT, PROC_NULL, 0);
            w.Recv(&token, 1, INT, PROC_NULL, 0, st);
            ok &= st.Get_source() == PROC_NULL && token == left;
            // Test polls until done; Waitany on nulls is UNDEFINED.
            Request r = w.Irecv(&token, 1, INT, me, 11);
            ok &= !r.Test();
            w.Send(&me, 1, UNSIGNED_CHAR, me, 11);  // 1 byte into an int buffer: allowed, count 1 byte
            while (!r.Test(st)) {
            }
            ok &= st.Get_count(UNSIGNED_CHAR) == 1 && st.Get_count(INT) == UNDEFINED;
            Request none[2];
            ok &= Request::Waitany(2, none) == UNDEFINED;
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("persistent requests: started, completed and restarted around a ring") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), right = (me + 1) % n, left = (me + n - 1) % n;
            int out = 0, in = -1;
            Prequest reqs[2] = {w.Recv_init(&in, 1, INT, left, 6), w.Send_init(&out, 1, INT, right, 6)};
            bool ok = !reqs[0].Is_null();
            Status st;
            reqs[0].Wait(st);  // inactive: an empty status at once
            ok &= st.Get_source() == ANY_SOURCE;
            for (int round = 0; round < 3; ++round) {
              out = me * 10 + round;  // the send takes the buffer at Start
              Prequest::Startall(2, reqs);
              ok &= raises(ERR_REQUEST, "MPI_Start", "already active", [&] { reqs[0].Start(); });
              Status sts[2];
              Request::Waitall(2, reqs, sts);
              ok &= in == left * 10 + round && sts[0].Get_source() == left;
              ok &= !reqs[0].Is_null() && !reqs[1].Is_null();  // inactive, not null
            }
            Prequest s = w.Ssend_init(&out, 1, INT, me, 12);
            Prequest r = w.Recv_init(&in, 1, INT, me, 12);
            r.Start();
            s.Start();
            s.Wait();
            r.Wait();
            ok &= in == out;
            ok &= raises(ERR_RANK, "MPI_Send_init", "destination", [&] { w.Send_init(&out, 1, INT, n, 0); });
            for (auto& q : reqs) q.Free();
            s.Free();
            r.Free();
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("persistent requests: get_status, startall's checks, and free of an active one (MPI-3.1 §3.9)") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), right = (me + 1) % n, left = (me + n - 1) % n;
            int a = -1, b = -1, one = 1;
            Prequest r = w.Recv_init(&a, 1, INT, me, 20);
            r.Start();
            w.Send(&one, 1, INT, me, 20);
            Status st;
            bool ok = r.Get_status(st) && st.Get_tag() == 20 && a == 1;
            ok &= r.Is_active();  // Get_status neither completes nor deactivates it
            ok &= raises(ERR_REQUEST, "MPI_Start", "already active", [&] { r.Start(); });
            r.Wait();
            ok &= !r.Is_active() && !r.Is_null();
            Prequest twice[2] = {r, r};
            ok &= raises(ERR_REQUEST, "MPI_Startall", "requests[1] appears twice",
                         [&] { Prequest::Startall(2, twice); });
            Prequest none[2] = {r, Prequest()};
            ok &= raises(ERR_REQUEST, "MPI_Startall", "requests[1] is MPI_REQUEST_NULL",
                         [&] { Prequest::Startall(2, none); });
            ok &= !r.Is_active();  // checked before any started
            // freed while active, each receive still takes its message
            Prequest pr = w.Recv_init(&a, 1, INT, left, 21);
            pr.Start();
            pr.Free();
            Request ir = w.Irecv(&b, 1, INT, left, 22);
            ir.Free();
            w.Barrier();
            int out = 100 + me;
            w.Send(&out, 1, INT, right, 21);
            w.Send(&out, 1, INT, right, 22);
            for (int i = 0; i < 100000 && (a != 100 + left || b != 100 + left); ++i) w.Iprobe(left, 99);
            ok &= a == 100 + left && b == 100 + left;
            r.Free();
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("ERRORS_ARE_FATAL ends the process with status 1 and the error on stderr") {
  const std::string log = "/tmp/lumpi-api-fatal-" + std::to_string(getpid());
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(log.c_str(), "w", stderr)) _exit(2);
    run_world(1, [](Intracomm& w) {
      w.Set_errhandler(ERRORS_ARE_FATAL);
      int x = 0;
      w.Send(&x, 1, INT, 5, 0);  // ends the process
      return true;
    });
    _exit(0);
  }
  REQUIRE(pid > 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  // The child ended without cleaning up: remove its endpoints' directory.
  const std::string prefix = "lumpi-api-" + std::to_string(pid) + "-";
  for (const auto& entry : std::filesystem::directory_iterator("/tmp"))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) std::filesystem::remove_all(entry.path());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(log);
  CHECK(text.find("MPI_ERR_RANK in MPI_Send: destination rank 5") != std::string::npos);
  CHECK(text.find("ERRORS_ARE_FATAL") != std::string::npos);
}

TEST_CASE("collectives against their serial answers") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank();
            bool ok = true;
            w.Barrier();
            for (int root = 0; root < n; ++root) {
              long b[3] = {0, 0, 0};
              if (me == root) b[0] = root, b[1] = 7, b[2] = -root;
              w.Bcast(b, 3, LONG, root);
              ok &= b[0] == root && b[1] == 7 && b[2] == -root;
              int mine[2] = {me, me * me}, sum[2] = {0, 0};
              w.Reduce(mine, sum, 2, INT, SUM, root);
              if (me == root) ok &= sum[0] == n * (n - 1) / 2 && sum[1] == (n - 1) * n * (2 * n - 1) / 6;
              std::vector<int> all(size_t(2 * n), -1);
              w.Gather(mine, 2, INT, all.data(), 2, INT, root);
              if (me == root)
                for (int r = 0; r < n; ++r) ok &= all[size_t(2 * r)] == r && all[size_t(2 * r + 1)] == r * r;
              std::vector<float> parts(static_cast<size_t>(n));
              for (int r = 0; r < n; ++r) parts[size_t(r)] = float(r) + 0.25f;
              float part = 0;
              w.Scatter(parts.data(), 1, FLOAT, &part, 1, FLOAT, root);
              ok &= part == float(me) + 0.25f;
            }
            std::vector<int> ranks(size_t(n), -1);
            w.Allgather(&me, 1, INT, ranks.data(), 1, INT);
            for (int r = 0; r < n; ++r) ok &= ranks[size_t(r)] == r;
            std::vector<int> to(static_cast<size_t>(n)), from(size_t(n), -1);
            for (int r = 0; r < n; ++r) to[size_t(r)] = me * 100 + r;
            w.Alltoall(to.data(), 1, INT, from.data(), 1, INT);
            for (int r = 0; r < n; ++r) ok &= from[size_t(r)] == r * 100 + me;
            double x = me + 1.0, mx = 0, prod = 0;
            w.Allreduce(&x, &mx, 1, DOUBLE, MAX);
            w.Allreduce(&x, &prod, 1, DOUBLE, PROD);
            double fact = 1;
            for (int r = 1; r <= n; ++r) fact *= r;
            ok &= mx == n && prod == fact;
            unsigned char bits = (unsigned char)(1u << (me % 8)), orred = 0;
            w.Allreduce(&bits, &orred, 1, BYTE, BOR);
            ok &= orred == (unsigned char)((1u << std::min(n, 8)) - 1);
            int64_t v = me + 1, pre = 0, ex = -5;
            w.Scan(&v, &pre, 1, INT64_T, SUM);
            w.Exscan(&v, &ex, 1, INT64_T, SUM);
            ok &= pre == int64_t(me + 1) * (me + 2) / 2;
            ok &= me == 0 ? ex == -5 : ex == int64_t(me) * (me + 1) / 2;
            std::vector<int> counts(static_cast<size_t>(n));
            for (int r = 0; r < n; ++r) counts[size_t(r)] = r % 2 + 1;
            const int total = std::accumulate(counts.begin(), counts.end(), 0);
            std::vector<int> contrib(static_cast<size_t>(total), me);
            std::vector<int> block(static_cast<size_t>(counts[size_t(me)]), -1);
            w.Reduce_scatter(contrib.data(), block.data(), counts.data(), INT, SUM);
            for (int b : block) ok &= b == n * (n - 1) / 2;
            std::vector<int> blk(size_t(n * 2), 1);
            int got2[2] = {0, 0};
            w.Reduce_scatter_block(blk.data(), got2, 2, INT, SUM);
            ok &= got2[0] == n && got2[1] == n;
            int a[3] = {1, 5, 3}, b[3] = {4, 2, 6};
            MIN.Reduce_local(a, b, 3, INT);
            ok &= b[0] == 1 && b[1] == 2 && b[2] == 3;
            // §5.9.7: no IN_PLACE in Reduce_local (it crashed on the sentinel)
            ok &= raises(ERR_ARG, "MPI_Reduce_local", "inbuf is MPI_IN_PLACE",
                         [&] { SUM.Reduce_local(IN_PLACE, b, 3, INT); });
            ok &= raises(ERR_ARG, "MPI_Reduce_local", "inoutbuf is MPI_IN_PLACE",
                         [&] { SUM.Reduce_local(a, IN_PLACE, 3, INT); });
            ok &= b[0] == 1 && b[1] == 2 && b[2] == 3;
            return ok;
          }) == 0);
  }
}

// f must raise on every rank of w with class cls, the same what() on every
// rank, naming `words`; w still works afterwards.
bool fails_everywhere(const Intracomm& w, int cls, const std::string& words, const std::function<void()>& f) {
  std::string what;
  bool ok = false;
  try {
    f();
    std::fprintf(stderr, "rank %d: no exception\n", w.Get_rank());
  } catch (const Exception& e) {
    what = e.what();
    ok = e.Get_error_class() == cls && what.find(words) != std::string::npos;
    if (!ok) std::fprintf(stderr, "rank %d: unexpected exception: %s\n", w.Get_rank(), e.what());
  }
  long mine[2] = {long(std::hash<std::string>{}(what) & 0x7fffffff), 0}, all[2] = {0, 0};
  mine[1] = -mine[0];
  w.Allreduce(mine, all, 2, LONG, MAX);
  return ok && all[0] == mine[0] && all[1] == mine[1];
}

TEST_CASE("a call whose arguments must agree fails on every rank alike, at 3, 4, 5 and 7 ranks") {
  for (int n : {3, 4, 5, 7}) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank(), k = n / 2 + 1;
            bool ok = fails_everywhere(w, ERR_RANK, "remote_leader 0 is the local leader itself (on rank 0)",
                                       [&] { w.Create_intercomm(0, w, 0, 5); });
            Intracomm half = w.Split(me % 2, me);
            Intercomm x = half.Create_intercomm(0, w, me % 2 == 0 ? 1 : 0, 27);
            ok &= fails_everywhere(w, ERR_ARG, "COMM_WORLD rank 2", [&] { x.Merge(me == 2); });
            const int first = 0;  // world rank 2 passes only its group's rank 0
            ok &= fails_everywhere(w, ERR_GROUP, "COMM_WORLD rank 2",
                                   [&] { x.Create(me == 2 ? half.Get_group().Incl(1, &first) : half.Get_group()); });
            const int range[1][3] = {{0, k - 1, 1}};
            Group g = w.Get_group(), low = g.Range_incl(1, range);
            ok &= fails_everywhere(w, ERR_GROUP, "group of rank " + std::to_string(k),
                                   [&] { w.Create(me < k ? low : g); });
            std::vector<int> counts(size_t(n), 1), in(size_t(n) + 1, 1);
            if (me == n - 1) counts[0] = 2;
            int out[2] = {0, 0};
            ok &= fails_everywhere(w, ERR_COUNT, "rank " + std::to_string(n - 1), [&] {
              w.Reduce_scatter(in.data(), out, counts.data(), INT, SUM);
            });
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("bad arguments raise the right class, naming the argument, before any communication") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            int buf[4] = {0, 0, 0, 0};
            bool ok = true;
            ok &= raises(ERR_RANK, "MPI_Send", "destination rank " + std::to_string(n),
                         [&] { w.Send(buf, 1, INT, n, 0); });
            ok &= raises(ERR_TAG, "MPI_Send", "tag -5", [&] { w.Send(buf, 1, INT, 0, -5); });
            ok &= raises(ERR_COUNT, "MPI_Send", "count -1", [&] { w.Send(buf, -1, INT, 0, 0); });
            ok &= raises(ERR_BUFFER, "MPI_Isend", "buf is NULL", [&] { w.Isend(nullptr, 1, INT, 0, 0); });
            ok &= raises(ERR_TYPE, "MPI_Send", "DATATYPE_NULL", [&] { w.Send(buf, 1, Datatype(), 0, 0); });
            ok &= raises(ERR_RANK, "MPI_Recv", "source rank -7", [&] { w.Recv(buf, 1, INT, -7, 0); });
            ok &= raises(ERR_ROOT, "MPI_Bcast", "root " + std::to_string(n), [&] { w.Bcast(buf, 1, INT, n); });
            ok &= raises(ERR_OP, "MPI_Allreduce", "MPI_BYTE", [&] { w.Allreduce(buf, buf + 1, 1, BYTE, SUM); });
            ok &= raises(ERR_OP, "MPI_Allreduce", "MPI_BAND", [&] {
              double d = 0, e = 0;
              w.Allreduce(&d, &e, 1, DOUBLE, BAND);
            });
            ok &= raises(ERR_OP, "MPI_Reduce", "OP_NULL", [&] { w.Reduce(buf, buf + 1, 1, INT, Op(), 0); });
            ok &= raises(ERR_TYPE, "MPI_Gather", "differ", [&] { w.Gather(buf, 1, INT, buf + 2, 1, LONG, w.Get_rank()); });
            int dims[2] = {n + 1, 1};
            bool periods[2] = {false, false};
            ok &= raises(ERR_DIMS, "MPI_Cart_create", "ndims -1", [&] { w.Create_cart(-1, dims, periods, false); });
            ok &= raises(ERR_ARG, "MPI_Cart_create", "periods is null", [&] { w.Create_cart(2, dims, nullptr, false); });
            ok &= raises(ERR_ARG, "MPI_Comm_split", "color -3", [&] { w.Split(-3, 0); });
            Keyval k;
            void* v = nullptr;
            ok &= raises(ERR_KEYVAL, "MPI_Comm_set_attr", "KEYVAL_INVALID", [&] { w.Set_attr(k, v); });
            ok &= raises(ERR_KEYVAL, "MPI_Comm_delete_attr", "TAG_UB", [&] { w.Delete_attr(TAG_UB); });
            ok &= raises(ERR_RANK, "MPI_Group_incl", "out of range", [&] {
              int r[1] = {n};
              w.Get_group().Incl(1, r);
            });
            Group none;
            ok &= raises(ERR_GROUP, "MPI_Comm_create", "GROUP_NULL", [&] { w.Create(none); });
            try {
              w.Send(buf, 1, INT, -9, 0);
              ok = false;
            } catch (const Exception& e) {
              ok &= std::string(e.what()) == "MPI_ERR_RANK in MPI_Send: " + e.Get_message() &&
                    e.Get_error_code() == ERR_RANK && std::string(e.Get_class_name()) == "MPI_ERR_RANK";
            }
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("attributes: keyvals, copy and delete callbacks, TAG_UB") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [](Intracomm& w) {
            int copies = 0, deletes = 0;
            Keyval dup = Comm::Create_keyval(Comm::DUP_FN,
                                             [&](Comm&, int, void*, void* extra) {
                                               ++*static_cast<int*>(extra);
                                               return SUCCESS;
                                             },
                                             &deletes);
            Keyval nocopy = Comm::Create_keyval(
                [&](const Comm&, int, void*, void*, void*&, bool& flag) {
                  ++copies;
                  flag = false;
                  return SUCCESS;
                },
                Comm::NULL_DELETE_FN, nullptr);
            int a = 1, b = 2;
            Intracomm c = w.Dup();
            c.Set_attr(dup, &a);
            c.Set_attr(nocopy, &a);
            c.Set_attr(dup, &b);  // replacing runs the delete callback
            bool ok = deletes == 1;
            void* v = nullptr;
            ok &= c.Get_attr(dup, v) && v == &b;
            Intracomm d = c.Dup();
            ok &= copies == 1 && d.Get_attr(dup, v) && v == &b && !d.Get_attr(nocopy, v);
            ok &= !w.Get_attr(dup, v);  // attributes stay on their communicator
            d.Delete_attr(dup);
            ok &= deletes == 2 && !d.Get_attr(dup, v);
            c.Free();  // deletes dup (nocopy has the null delete)
            ok &= deletes == 3;
            d.Free();
            ok &= deletes == 3;
            ok &= w.Get_attr(TAG_UB, v) && *static_cast<int*>(v) >= 32767;
            // A copy callback's error fails the Dup, before it communicates.
            Keyval bad = Comm::Create_keyval(
                [](const Comm&, int, void*, void*, void*&, bool&) { return ERR_OTHER; }, nullptr, nullptr);
            Intracomm e = w.Dup();
            e.Set_attr(bad, nullptr);
            ok &= raises(ERR_OTHER, "MPI_Comm_dup", "copy callback", [&] { e.Dup(); });
            e.Delete_attr(bad);
            ok &= e.Dup().Get_size() == w.Get_size();
            Keyval freed = dup;
            Comm::Free_keyval(dup);
            ok &= dup.Is_null();
            ok &= raises(ERR_KEYVAL, "MPI_Comm_get_attr", "freed", [&] { w.Get_attr(freed, v); });
            nocopy.Free();
            bad.Free();
            return ok && nothing_pending(w);
          }) == 0);
  }
}

TEST_CASE("groups and Create from a group") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            const int me = w.Get_rank();
            Group all = w.Get_group();
            bool ok = all.Get_size() == n && all.Get_rank() == me;
            std::vector<int> evens;
            for (int r = 0; r < n; r += 2) evens.push_back(r);
            Group even = all.Incl(int(evens.size()), evens.data());
            Group odd = Group::Difference(all, even);
            ok &= even.Get_size() + odd.Get_size() == n;
            ok &= Group::Compare(Group::Union(even, odd), all) == SIMILAR || n <= 2;
            std::vector<int> back(evens.size());
            Group::Translate_ranks(even, int(evens.size()), std::vector<int>(evens.size(), 0).data(), all, back.data());
            ok &= back.empty() || back[0] == 0;
            Intracomm ev = w.Create(even);
            ok &= (me % 2 == 0) == !(ev == COMM_NULL);
            if (me % 2 == 0) ok &= ev.Get_rank() == me / 2 && ev.Get_size() == int(evens.size());
            ok &= GROUP_EMPTY.Get_size() == 0 && GROUP_EMPTY.Get_rank() == UNDEFINED;
            Info info = Info::Create();
            info.Set("mpi_assert_no_any_tag", "true");
            w.Set_info(info);
            std::string val;
            ok &= w.Get_info().Get("mpi_assert_no_any_tag", val) && val == "true";
            return ok;
          }) == 0);
  }
}

TEST_CASE("the C++ example programs are right at sizes 1, 2, 3, 4, 6, 7") {
  for (int n : {1, 2, 3, 4, 6, 7}) {
    CAPTURE(n);
    CHECK(run_world(n, [](Intracomm& w) { return examples::ring(w) == 0; }) == 0);
    CHECK(run_world(n, [](Intracomm& w) { return examples::rows_cols(w) == 0; }) == 0);
    CHECK(run_world(n, [](Intracomm& w) { return examples::halo(w) == 0; }) == 0);
    CHECK(run_world(n, [](Intracomm& w) { return examples::particles(w) == 0; }) == 0);
  }
}

// MPI-3.1 §8.3: a user handler is called with the communicator and the code,
// then the call throws; dup and split inherit it (§6.4.2); §8.5 added codes.
TEST_CASE("user-defined error handlers, inheritance and added error codes") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
            int calls = 0, last = 0;
            const Comm* seen = nullptr;
            Errhandler eh = Comm::Create_errhandler([&](Comm& c, int code) {
              ++calls, last = code, seen = &c;
              (void)seen;
            });
            Intracomm d = w.Dup();
            d.Set_errhandler(eh);
            bool ok = d.Get_errhandler() == eh;
            ok &= raises(ERR_RANK, "MPI_Send", "out of range", [&] { d.Send(&n, 1, INT, n, 0); });
            ok &= calls == 1 && last == ERR_RANK;
            Intracomm child = d.Dup(), part = d.Split(w.Get_rank() % 2, 0);
            ok &= child.Get_errhandler() == eh && part.Get_errhandler() == eh;
            ok &= raises(ERR_RANK, "MPI_Send", "", [&] { part.Send(&n, 1, INT, -9, 0); });
            ok &= calls == 2;
            const int cls = Add_error_class();
            const int code = Add_error_code(cls);
            Add_error_string(code, "ours");
            ok &= Get_error_class(code) == cls && Get_error_string(code) == "ours" && Get_last_used_code() >= code;
            try {
              child.Call_errhandler(code);
              ok = false;
            } catch (const Exception& e) {
              ok &= e.Get_error_code() == code && e.Get_error_class() == cls && e.Get_error_string() == "ours";
            }
            ok &= calls == 3 && last == code;
            ok &= raises(ERR_ARG, "MPI_Comm_call_errhandler", "not an error code", [&] { child.Call_errhandler(-5); });
            eh.Free();
            ok &= eh.Is_null();
            ok &= raises(ERR_RANK, "MPI_Send", "", [&] { child.Send(&n, 1, INT, n, 0); });
            ok &= calls == 5;  // (the ERR_ARG above went through the handler too)
            ok &= raises(ERR_ARG, "MPI_Errhandler_free", "predefined", [&] {
              Errhandler p = ERRORS_ARE_FATAL;
              p.Free();
            });
            int v = 0, s = 0;
            Get_version(v, s);
            ok &= v == 3 && s == 1 && !Get_processor_name().empty();
            part.Free(), child.Free(), d.Free();
            return ok;
          }) == 0);
  }
}

// ---- windows (MPI-3.1 chapter 11; core/api/api_win.cpp) -----------------------------------

TEST_CASE("Win: fence epochs, passive-target locks, attributes and errors at 1, 2, 3, 4, 7 ranks") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank();
      std::vector<int> mem(n + 1, 0);
      Win win = Win::Create(mem.data(), long(mem.size() * sizeof(int)), sizeof(int), Info(), w);
      bool ok = true;
      win.Fence(0);
      int v = 100 + me, one = 1;
      win.Put(&v, 1, INT, (me + 1) % n, me, 1, INT);
      win.Accumulate(&one, 1, INT, 0, n, 1, INT, SUM);
      win.Put(&v, 1, INT, PROC_NULL, 12345, 1, INT);  // a no-op (MPI-2.1 Ballot 3 item 6)
      win.Fence(0);
      int left = (me + n - 1) % n;
      ok &= mem[size_t(left)] == 100 + left;
      if (me == 0) ok &= mem[size_t(n)] == n;
      int got = -1;
      win.Get(&got, 1, INT, 0, n, 1, INT);
      win.Fence(MODE_NOSUCCEED);
      ok &= got == n;
      // passive target: everyone increments rank 0's slot 0 under an exclusive lock
      win.Lock(LOCK_EXCLUSIVE, 0, 0);
      int cur = 0;
      win.Get(&cur, 1, INT, 0, 0, 1, INT);
      win.Flush(0);
      ++cur;
      win.Put(&cur, 1, INT, 0, 0, 1, INT);
      win.Unlock(0);
      w.Barrier();
      if (me == 0) ok &= mem[0] == (n == 1 ? 100 : 0) + n;  // (its own fence put at n = 1), then n increments
      // attributes: predefined ones, and a delete callback at Free
      void* p = nullptr;
      ok &= win.Get_attr(WIN_BASE, p) && p == mem.data();
      ok &= win.Get_attr(WIN_SIZE, p) && *static_cast<long*>(p) == long(mem.size() * sizeof(int));
      ok &= win.Get_attr(WIN_CREATE_FLAVOR, p) && *static_cast<int*>(p) == WIN_FLAVOR_CREATE;
      int deleted = 0;
      Keyval kv = Win::Create_keyval(Win::NULL_COPY_FN,
                                     [&deleted](Win&, int, void* value, void*) {
                                       deleted += *static_cast<int*>(value);
                                       return SUCCESS;
                                     },
                                     nullptr);
      int seven = 7;
      win.Set_attr(kv, &seven);
      win.Set_name("counters");
      ok &= win.Get_name() == "counters";
      ok &= win.Get_group().Get_size() == n;
      // errors, before anything is sent
      ok &= raises(ERR_RMA_SYNC, "MPI_Put", "no access epoch", [&] { win.Put(&v, 1, INT, 0, 0, 1, INT); });
      ok &= raises(ERR_RMA_SYNC, "MPI_Win_unlock", "not locked", [&] { win.Unlock(0); });
      ok &= raises(ERR_LOCKTYPE, "MPI_Win_lock", "lock_type", [&] { win.Lock(3, 0, 0); });
      ok &= raises(ERR_RANK, "MPI_Win_lock", "out of range", [&] { win.Lock(LOCK_SHARED, n, 0); });
      ok &= raises(ERR_KEYVAL, "MPI_Comm_set_attr", "", [&] { w.Set_attr(kv, &seven); });
      win.Fence(0);
      ok &= raises(ERR_RMA_RANGE, "MPI_Put", "outside", [&] { win.Put(&v, 1, INT, 0, n + 1, 1, INT); });
      ok &= raises(ERR_DISP, "MPI_Put", "target_disp", [&] { win.Put(&v, 1, INT, 0, -1, 1, INT); });
      ok &= raises(ERR_TYPE, "MPI_Put", "bytes", [&] { win.Put(&v, 1, INT, 0, 0, 2, INT); });
      win.Fence(MODE_NOSUCCEED);
      win.Free();
      ok &= win.Is_null() && deleted == 7;
      Win::Free_keyval(kv);
      ok &= raises(ERR_WIN, "MPI_Win_fence", "WIN_NULL", [&] { win.Fence(0); });
      // allocate, accumulate REPLACE
      double* base = nullptr;
      Win a = Win::Allocate(2 * sizeof(double), sizeof(double), Info(), w, &base);
      a.Fence(0);
      double x = 2.5;
      a.Accumulate(&x, 1, DOUBLE, (me + 1) % n, 1, 1, DOUBLE, REPLACE);
      a.Fence(0);
      ok &= base[1] == 2.5 && base[0] == 0.0;
      a.Free();
      return nothing_pending(w) && ok;
    }) == 0);
  }
}

TEST_CASE("Win: the accumulate family, lock_all, post/start, requests, info, shared and dynamic windows at 1, 2, 3, 4, 7 ranks") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      const int me = w.Get_rank(), right = (me + 1) % n, left = (me + n - 1) % n;
      bool ok = true;
      long counter = 0, one = 1, ticket = -1;
      Win c = Win::Create(&counter, sizeof counter, sizeof counter, Info(), w);
      c.Lock_all(0);
      c.Fetch_and_op(&one, &ticket, LONG, 0, 0, SUM);
      c.Flush(0);
      c.Unlock_all();
      long sum = 0;
      w.Allreduce(&ticket, &sum, 1, LONG, SUM);
      ok &= sum == long(n) * (n - 1) / 2;  // the tickets are 0 .. n-1
      w.Barrier();
      int flag = 0, mine = me + 1, zero = 0, old = -1;
      Win f = Win::Create(&flag, sizeof flag, sizeof flag, Info(), w);
      f.Lock_all(MODE_NOCHECK);
      f.Compare_and_swap(&mine, &zero, &old, INT, 0, 0);
      f.Flush_local_all();
      ok &= raises(ERR_RMA_SYNC, "MPI_Win_lock", "lock_all", [&] { f.Lock(LOCK_SHARED, 0, 0); });
      f.Unlock_all();
      int won = old == 0, winners = 0;
      w.Allreduce(&won, &winners, 1, INT, SUM);
      ok &= winners == 1;
      // post/start/complete/wait: each rank exposes to its left, accesses its right
      Group world = w.Get_group(), from_left = world.Incl(1, &left), to_right = world.Incl(1, &right);
      double mem[2] = {0, 0}, x = me + 0.5, prev = -1;
      Win p = Win::Create(mem, sizeof mem, sizeof(double), Info(), w);
      ok &= raises(ERR_RMA_SYNC, "MPI_Win_complete", "start", [&] { p.Complete(); });
      p.Post(from_left, 0);
      p.Start(to_right, 0);
      p.Put(&x, 1, DOUBLE, right, 0, 1, DOUBLE);
      p.Get_accumulate(&x, 1, DOUBLE, &prev, 1, DOUBLE, right, 1, 1, DOUBLE, REPLACE);
      p.Complete();
      while (!p.Test()) {
      }
      ok &= mem[0] == left + 0.5 && mem[1] == left + 0.5 && prev == 0;
      // request-based, under a lock; info
      ok &= raises(ERR_RMA_SYNC, "MPI_Rget", "passive", [&] { p.Rget(&prev, 1, DOUBLE, right, 0, 1, DOUBLE); });
      w.Barrier();
      p.Lock(LOCK_EXCLUSIVE, right, 0);
      double y = 0, got = -1;
      Request rs[2] = {p.Raccumulate(&x, 1, DOUBLE, right, 0, 1, DOUBLE, SUM),
                       p.Rget(&y, 1, DOUBLE, right, 0, 1, DOUBLE)};
      Request::Waitall(2, rs);
      p.Get_accumulate(nullptr, 0, DOUBLE, &got, 1, DOUBLE, right, 0, 1, DOUBLE, NO_OP);
      p.Unlock(right);
      ok &= y == 2 * x && got == y;
      Info i = Info::Create();
      i.Set("accumulate_ordering", "none");
      p.Set_info(i);
      std::string v;
      ok &= p.Get_info().Get("accumulate_ordering", v) && v == "none";
      ok &= p.Get_info().Get("no_locks", v) && v == "false";
      w.Barrier();
      p.Sync();
      // shared memory: the right neighbour's part read with a plain load
      int* part = nullptr;
      Win s = Win::Allocate_shared(sizeof(int), sizeof(int), Info(), w, &part);
      *part = 10 + me;
      s.Sync();
      w.Barrier();
      long bytes = 0;
      int unit = 0, *theirs = nullptr;
      s.Shared_query(right, bytes, unit, &theirs);
      ok &= bytes == long(sizeof(int)) && unit == int(sizeof(int)) && *theirs == 10 + right;
      w.Barrier();
      // dynamic: attach, put at the address the target gave
      long cell[2] = {0, 0};
      Win d = Win::Create_dynamic(Info(), w);
      d.Attach(cell, sizeof cell);
      long addr = long(reinterpret_cast<std::uintptr_t>(&cell[1])), addrs[64] = {};
      w.Allgather(&addr, 1, LONG, addrs, 1, LONG);
      long five = 5 + me;
      d.Lock(LOCK_EXCLUSIVE, right, 0);
      d.Put(&five, 1, LONG, right, addrs[right], 1, LONG);
      d.Unlock(right);
      w.Barrier();
      ok &= cell[1] == 5 + left && cell[0] == 0;
      ok &= raises(ERR_RMA_ATTACH, "MPI_Win_detach", "attached", [&] { d.Detach(&cell[1]); });
      d.Detach(cell);
      c.Free(), f.Free(), p.Free(), s.Free(), d.Free();
      return nothing_pending(w) && ok;
    }) == 0);
  }
}

TEST_CASE("Win: user-defined error handlers (MPI-3.1 §8.3.2, §8.3.6) at 1, 2, 3, 4, 7 ranks") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Intracomm& w) {
      int cell = 0, calls = 0, last = 0;
      bool same = false;
      Win win = Win::Create(&cell, sizeof cell, sizeof(int), Info(), w);
      Errhandler eh = Win::Create_errhandler([&](Win& seen, int code) {
        ++calls, last = code, same = seen == win;
      });
      Errhandler ceh = Comm::Create_errhandler([](Comm&, int) {});
      bool ok = raises(ERR_ARG, "MPI_Win_set_errhandler", "made for a communicator", [&] { win.Set_errhandler(ceh); });
      Intracomm d = w.Dup();
      ok &= raises(ERR_ARG, "MPI_Comm_set_errhandler", "made for a window", [&] { d.Set_errhandler(eh); });
      ok &= d.Get_errhandler() == ERRORS_THROW_EXCEPTIONS && win.Get_errhandler() == ERRORS_THROW_EXCEPTIONS;
      win.Set_errhandler(eh);
      ok &= win.Get_errhandler() == eh;
      ok &= raises(ERR_RMA_SYNC, "MPI_Win_unlock", "", [&] { win.Unlock(0); });
      ok &= calls == 1 && last == ERR_RMA_SYNC && same;
      win.Fence(0);
      ok &= raises(ERR_RMA_RANGE, "MPI_Put", "", [&] { win.Put(&cell, 1, INT, (w.Get_rank() + 1) % n, 1, 1, INT); });
      ok &= calls == 2 && last == ERR_RMA_RANGE;
      win.Fence(0);
      ok &= cell == 0;
      const int cls = Add_error_class();
      const int code = Add_error_code(cls);
      ok &= raises(cls, "MPI_Win_call_errhandler", "called by", [&] { win.Call_errhandler(code); });
      ok &= calls == 3 && last == code;
      ok &= raises(ERR_ARG, "MPI_Win_call_errhandler", "not an error code", [&] { win.Call_errhandler(-5); });
      eh.Free();
      ok &= raises(ERR_RMA_SYNC, "MPI_Win_flush", "", [&] { win.Flush(0); });
      ok &= calls == 5;  // the window keeps a freed handler it uses
      win.Set_errhandler(ERRORS_THROW_EXCEPTIONS);
      ok &= raises(ERR_ARG, "MPI_Errhandler_free", "", [&] { eh.Free(); });
      win.Free();
      ok &= raises(ERR_WIN, "MPI_Win_call_errhandler", "WIN_NULL", [&] { win.Call_errhandler(code); });
      ceh.Free();
      d.Free();
      return nothing_pending(w) && ok;
    }) == 0);
  }
}
