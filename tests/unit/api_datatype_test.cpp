// tests/unit/api_datatype_test.cpp: the C++ API's datatypes and ops
// (core/api/api_datatype.cpp, api_op.cpp, api_type_attr.cpp, api_pack.cpp)
// on worlds of 1, 2, 3, 5 and 7 ranks run as threads (tests/unit/api_world.hpp):
// a column halo of a 2-D Cartesian grid sent as a vector type, struct types
// with holes, MAXLOC ties, a non-commutative user op, attribute callbacks
// on Dup and Free, names, and the errors of bad types and counts.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "tests/unit/api_world.hpp"

using namespace lumpi;
using lumpi::test::nothing_pending;
using lumpi::test::raises;
using lumpi::test::run_world;

namespace {

const int kSizes[] = {1, 2, 3, 5, 7};

// Prints what differs on a rank (its checks return false).
bool expect(bool ok, const char* what, int rank) {
  if (!ok) std::fprintf(stderr, "rank %d: %s\n", rank, what);
  return ok;
}

// ---- the column halo ---------------------------------------------------------------

constexpr int kRows = 4, kCols = 3;  // interior of each rank's block; one halo cell around it

double cell(int rank, int i, int j) { return rank * 1000 + i * 10 + j; }

// Each rank's (kRows+2) x (kCols+2) block, row-major; the interior holds cell().
std::vector<double> block_of(int rank) {
  std::vector<double> a(size_t((kRows + 2) * (kCols + 2)), -1.0);
  for (int i = 1; i <= kRows; ++i)
    for (int j = 1; j <= kCols; ++j) a[size_t(i * (kCols + 2) + j)] = cell(rank, i, j);
  return a;
}

// Exchanges the east and west interior columns with the neighbours along
// dimension 1 of a periodic grid, as one vector element each way.
bool column_halo(Intracomm& w) {
  int dims[2] = {0, 0};
  Compute_dims(w.Get_size(), 2, dims);
  const bool periods[2] = {true, true};
  Cartcomm grid = w.Create_cart(2, dims, periods, false);
  Datatype column = DOUBLE.Create_vector(kRows, 1, kCols + 2);
  column.Commit();
  std::vector<double> a = block_of(grid.Get_rank());
  int west, east;
  grid.Shift(1, 1, west, east);
  const int stride = kCols + 2;
  // my east interior column -> east's west halo; my west interior column -> west's east halo
  grid.Sendrecv(&a[size_t(stride + kCols)], 1, column, east, 0, &a[size_t(stride)], 1, column, west, 0);
  grid.Sendrecv(&a[size_t(stride + 1)], 1, column, west, 1, &a[size_t(stride + kCols + 1)], 1, column, east, 1);
  bool ok = true;
  for (int i = 1; i <= kRows; ++i) {
    ok &= a[size_t(i * stride)] == cell(west, i, kCols);
    ok &= a[size_t(i * stride + kCols + 1)] == cell(east, i, 1);
  }
  ok &= a[0] == -1.0 && a[size_t(stride - 1)] == -1.0;  // the corners are not in the columns
  column.Free();
  grid.Free();
  return expect(ok, "column halo", w.Get_rank());
}

// ---- structs with holes ---------------------------------------------------------------

struct Particle {
  char tag;
  double mass;  // 7 bytes of padding before it
  int id;       // 4 bytes of padding after it
};

Datatype particle_type() {
  const int lengths[3] = {1, 1, 1};
  const Aint disps[3] = {offsetof(Particle, tag), offsetof(Particle, mass), offsetof(Particle, id)};
  const Datatype types[3] = {CHAR, DOUBLE, INT};
  Datatype t = Datatype::Create_struct(3, lengths, disps, types);
  t.Commit();
  return t;
}

Particle particle(int k) { return Particle{char('a' + k), 1.5 * k, 100 + k}; }

// Bcast from the last rank into buffers whose padding holds 0x5a: the data
// arrives, the padding stays (the message carries no holes).
bool struct_bcast(Intracomm& w) {
  Datatype t = particle_type();
  Aint lb, extent;
  t.Get_extent(lb, extent);
  bool ok = t.Get_size() == 13 && lb == 0 && extent == Aint(sizeof(Particle));
  std::vector<Particle> ps(3);
  std::memset(ps.data(), 0x5a, sizeof(Particle) * ps.size());
  const int root = w.Get_size() - 1;
  if (w.Get_rank() == root)
    for (int k = 0; k < 3; ++k) ps[size_t(k)] = particle(k);
  w.Bcast(ps.data(), 3, t, root);
  for (int k = 0; k < 3; ++k) {
    const Particle& p = ps[size_t(k)];
    ok &= p.tag == char('a' + k) && p.mass == 1.5 * k && p.id == 100 + k;
    if (w.Get_rank() != root) ok &= reinterpret_cast<const unsigned char*>(&p)[1] == 0x5a;
  }
  t.Free();
  return expect(ok, "struct bcast", w.Get_rank());
}

// A ring of struct messages received as a struct with a resized extent;
// Get_count and Get_elements of the status, and Set_elements.
bool struct_ring(Intracomm& w) {
  Datatype t = particle_type();
  const int n = w.Get_size(), r = w.Get_rank();
  Particle out[2] = {particle(r), particle(r + 1)}, in[2];
  Status s;
  w.Sendrecv(out, 2, t, (r + 1) % n, 7, in, 2, t, (r + n - 1) % n, 7, s);
  const int from = (r + n - 1) % n;
  bool ok = in[0].id == 100 + from && in[1].mass == 1.5 * (from + 1) && in[1].tag == char('a' + from + 1);
  ok &= s.Get_count(t) == 2 && s.Get_elements(t) == 6 && s.Get_count(INT) == UNDEFINED;
  // Set_elements counts basic elements in type-map order: 4 are a whole
  // particle (13 bytes) and the next one's tag (1 byte).
  Status set;
  set.Set_elements(t, 4);
  ok &= set.Bytes() == 14 && set.Get_elements(t) == 4 && set.Get_count(t) == UNDEFINED;
  set.Set_elements(t, 6);
  ok &= set.Get_count(t) == 2;
  t.Free();
  return expect(ok, "struct ring", r);
}

// Gather of a vector type (every other int) into contiguous ints at the root:
// the signatures match (2 x INT), the layouts differ.
bool vector_gather(Intracomm& w) {
  Datatype every_other = INT.Create_vector(2, 1, 2);
  every_other.Commit();
  const int r = w.Get_rank(), n = w.Get_size();
  int mine[3] = {r, -9, 10 * r};
  std::vector<int> all(size_t(2 * n), -1);
  w.Gather(mine, 1, every_other, all.data(), 2, INT, 0);
  bool ok = true;
  if (r == 0)
    for (int k = 0; k < n; ++k) ok &= all[size_t(2 * k)] == k && all[size_t(2 * k + 1)] == 10 * k;
  // and back: scatter contiguous pairs into the vector layout
  int back[3] = {-1, -7, -1};
  w.Scatter(all.data(), 2, INT, back, 1, every_other, 0);
  ok &= back[0] == r && back[1] == -7 && back[2] == 10 * r;
  every_other.Free();
  return expect(ok, "vector gather/scatter", r);
}

// Ibcast of structs and Igather of a vector type; Neighbor_allgather and
// Ineighbor_alltoall of structs on a periodic ring (left, right).
bool nonblocking_and_neighbours(Intracomm& w) {
  Datatype t = particle_type();
  Datatype every_other = INT.Create_vector(2, 1, 2);
  every_other.Commit();
  const int r = w.Get_rank(), n = w.Get_size();
  std::vector<Particle> ps(2);
  std::memset(ps.data(), 0x5a, sizeof(Particle) * 2);
  if (r == 0) ps = {particle(4), particle(5)};
  int mine[3] = {r, -9, 10 * r};
  std::vector<int> all(size_t(2 * n), -1);
  Request q[2] = {w.Ibcast(ps.data(), 2, t, 0), w.Igather(mine, 1, every_other, all.data(), 2, INT, 0)};
  Request::Waitall(2, q);
  bool ok = ps[1].id == 105 && ps[0].mass == 6.0;
  if (r != 0) ok &= reinterpret_cast<const unsigned char*>(&ps[0])[1] == 0x5a;
  if (r == 0)
    for (int k = 0; k < n; ++k) ok &= all[size_t(2 * k)] == k && all[size_t(2 * k + 1)] == 10 * k;
  int dims[1] = {n};
  bool periods[1] = {true};
  Cartcomm ring = w.Create_cart(1, dims, periods, false);
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  Particle me = particle(r), got[2], to[2] = {particle(10 + r), particle(20 + r)}, from[2];
  ring.Neighbor_allgather(&me, 1, t, got, 1, t);
  ring.Ineighbor_alltoall(to, 1, t, from, 1, t).Wait();
  ok &= got[0].id == 100 + left && got[1].id == 100 + right;
  ok &= from[0].id == 100 + 20 + left && from[1].id == 100 + 10 + right;  // left sent me its block 1
  ring.Free();
  every_other.Free();
  t.Free();
  return expect(ok, "nonblocking and neighbourhood collectives with holes", r);
}

// ---- MAXLOC and MINLOC ---------------------------------------------------------------------

struct DoubleInt {
  double value;
  int index;
};

// Values rank / 2 with indices n - 1 - rank: every maximum and minimum is
// held by two ranks (at n >= 2), and the answer is the lower index of the two.
bool maxloc_ties(Intracomm& w) {
  const int n = w.Get_size(), r = w.Get_rank();
  DoubleInt mine{double(r / 2), n - 1 - r}, max{}, min{};
  w.Allreduce(&mine, &max, 1, DOUBLE_INT, MAXLOC);
  w.Allreduce(&mine, &min, 1, DOUBLE_INT, MINLOC);
  DoubleInt want_max{-1, 0}, want_min{1e9, 0};
  for (int k = 0; k < n; ++k) {
    const double v = k / 2;
    const int i = n - 1 - k;
    if (v > want_max.value || (v == want_max.value && i < want_max.index)) want_max = {v, i};
    if (v < want_min.value || (v == want_min.value && i < want_min.index)) want_min = {v, i};
  }
  DoubleInt imax{}, ireduced{-1, -1};
  Request r2[2] = {w.Iallreduce(&mine, &imax, 1, DOUBLE_INT, MAXLOC),
                   w.Ireduce(&mine, &ireduced, 1, DOUBLE_INT, MINLOC, 0)};
  Request::Waitall(2, r2);
  bool ok = max.value == want_max.value && max.index == want_max.index && min.value == want_min.value &&
            min.index == want_min.index && imax.value == max.value && imax.index == max.index;
  if (r == 0) ok &= ireduced.value == want_min.value && ireduced.index == want_min.index;
  // The same in accumulate (issue 28): every rank's pair into rank 0's window.
  DoubleInt target{-1, 1 << 30};
  Win win = Win::Create(&target, sizeof target, 1, Info(), w);
  win.Fence(0);
  win.Accumulate(&mine, 1, DOUBLE_INT, 0, 0, 1, DOUBLE_INT, MAXLOC);
  win.Fence(0);
  if (r == 0) ok &= target.value == want_max.value && target.index == want_max.index;
  win.Free();
  // Fortran's pairs: the index has the value's type (TWODOUBLE_PRECISION: two doubles).
  double same[2] = {double(r / 2), double(n - 1 - r)}, same_max[2] = {};
  w.Allreduce(same, same_max, 1, TWODOUBLE_PRECISION, MAXLOC);
  ok &= same_max[0] == want_max.value && same_max[1] == want_max.index && TWOREAL.Get_size() == 8;
  return expect(ok, "MAXLOC/MINLOC ties", r);
}

// ---- a non-commutative user op on a derived type ----------------------------------------------

constexpr int kMod = 1000003;
using Matrix = int[4];  // 2 x 2, row-major, entries mod kMod

void multiply(const int* a, const int* b, int* out) {
  long long c[4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      c[2 * i + j] = (1LL * a[2 * i] * b[j] + 1LL * a[2 * i + 1] * b[2 + j]) % kMod;
  for (int k = 0; k < 4; ++k) out[k] = int(c[k]);
}

void matrix_of(int rank, int* m) {
  m[0] = 1;
  m[1] = rank + 1;
  m[2] = 2 * rank;
  m[3] = 3;
}

// inout = in x inout on elements of a contiguous(4, INT) type: the result is
// M_0 x M_1 x ... in rank order, which no other order gives.
bool matrix_product(Intracomm& w) {
  Datatype matrix = INT.Create_contiguous(4);
  matrix.Commit();
  Op product;
  product.Init(
      [&](const void* in, void* inout, int len, const Datatype& type) {
        if (!(type == matrix)) return;  // the op is called with the call's datatype
        for (int k = 0; k < len; ++k) {
          int* io = static_cast<int*>(inout) + 4 * k;
          multiply(static_cast<const int*>(in) + 4 * k, io, io);
        }
      },
      false);
  const int r = w.Get_rank(), n = w.Get_size();
  Matrix mine, all, prefix, want_all = {1, 0, 0, 1}, want_prefix = {1, 0, 0, 1};
  matrix_of(r, mine);
  for (int k = 0; k < n; ++k) {
    Matrix m;
    matrix_of(k, m);
    multiply(want_all, m, want_all);
    if (k <= r) multiply(want_prefix, m, want_prefix);
  }
  w.Allreduce(mine, all, 1, matrix, product);
  w.Scan(mine, prefix, 1, matrix, product);
  Matrix iprefix, before = {7, 7, 7, 7}, want_before = {1, 0, 0, 1};
  for (int k = 0; k < r; ++k) {
    Matrix m;
    matrix_of(k, m);
    multiply(want_before, m, want_before);
  }
  Request q[2] = {w.Iscan(mine, iprefix, 1, matrix, product), w.Iexscan(mine, before, 1, matrix, product)};
  Request::Waitall(2, q);
  bool ok = !product.Is_commutative() && std::memcmp(all, want_all, sizeof all) == 0 &&
            std::memcmp(prefix, want_prefix, sizeof prefix) == 0 && std::memcmp(iprefix, prefix, sizeof prefix) == 0;
  if (r > 0) ok &= std::memcmp(before, want_before, sizeof before) == 0;
  // Reduce_scatter_block: block k of the product of every rank's k-th pair goes to rank k.
  const int n2 = n;
  std::vector<int> two(size_t(4 * n2));
  for (int k = 0; k < n2; ++k) matrix_of(r + k, &two[size_t(4 * k)]);
  Matrix mine_block, want_block = {1, 0, 0, 1};
  w.Reduce_scatter_block(two.data(), mine_block, 1, matrix, product);
  for (int k = 0; k < n2; ++k) {
    Matrix m;
    matrix_of(k + r, m);
    multiply(want_block, m, want_block);
  }
  ok &= std::memcmp(mine_block, want_block, sizeof mine_block) == 0;
  product.Free();
  ok &= product.Is_null();
  matrix.Free();
  return expect(ok, "non-commutative user op", r);
}

// A user sum on a vector type with holes: the holes of recvbuf stay.
bool user_op_with_holes(Intracomm& w) {
  Datatype every_other = INT.Create_vector(3, 1, 2);
  every_other.Commit();
  Op sum;
  sum.Init(
      [](const void* in, void* inout, int len, const Datatype&) {
        for (int e = 0; e < len; ++e)
          for (int k = 0; k < 5; k += 2) static_cast<int*>(inout)[5 * e + k] += static_cast<const int*>(in)[5 * e + k];
      },
      true);
  const int r = w.Get_rank(), n = w.Get_size();
  int mine[5] = {r, -1, 2 * r, -1, 1}, out[5] = {0, 42, 0, 43, 0};
  w.Reduce(mine, out, 1, every_other, sum, 0);
  bool ok = true;
  if (r == 0) ok = out[0] == n * (n - 1) / 2 && out[2] == n * (n - 1) && out[4] == n && out[1] == 42 && out[3] == 43;
  sum.Free();
  every_other.Free();
  return expect(ok, "user op on a type with holes", r);
}

// ---- caching and naming ------------------------------------------------------------------

struct Counts {
  int copies = 0, deletes = 0;
  long last_deleted = 0;
};

bool caching(Intracomm& w) {
  Counts counts;
  Keyval kv = Datatype::Create_keyval(
      [](const Datatype&, int, void* extra, void* in, void*& out, bool& flag) {
        ++static_cast<Counts*>(extra)->copies;
        out = reinterpret_cast<void*>(reinterpret_cast<long>(in) + 1);
        flag = true;
        return SUCCESS;
      },
      [](Datatype&, int, void* value, void* extra) {
        auto* c = static_cast<Counts*>(extra);
        ++c->deletes;
        c->last_deleted = reinterpret_cast<long>(value);
        return SUCCESS;
      },
      &counts);
  Keyval plain = Datatype::Create_keyval(Datatype::NULL_COPY_FN, Datatype::NULL_DELETE_FN, nullptr);
  Datatype t = DOUBLE.Create_vector(2, 1, 3);
  t.Set_attr(kv, reinterpret_cast<void*>(10L));
  t.Set_attr(plain, reinterpret_cast<void*>(5L));
  Datatype d = t.Dup();
  void* v = nullptr;
  bool ok = d.Get_attr(kv, v) && v == reinterpret_cast<void*>(11L) && counts.copies == 1;
  ok &= !d.Get_attr(plain, v);  // NULL_COPY_FN: not copied
  d.Free();
  ok &= counts.deletes == 1 && counts.last_deleted == 11 && d.Is_null();
  t.Set_attr(kv, reinterpret_cast<void*>(20L));  // replacing runs the delete callback on 10
  ok &= counts.deletes == 2 && counts.last_deleted == 10;
  t.Free();
  ok &= counts.deletes == 3 && counts.last_deleted == 20;
  Datatype::Free_keyval(kv);
  Datatype::Free_keyval(plain);
  ok &= kv.Is_null();
  return expect(ok, "caching callbacks on Dup and Free", w.Get_rank());
}

bool naming(Intracomm& w) {
  Datatype t = INT.Create_contiguous(3);
  bool ok = INT.Get_name() == "MPI_INT" && BOOL.Get_name() == "MPI_CXX_BOOL" &&
            DOUBLE_COMPLEX.Get_name() == "MPI_CXX_DOUBLE_COMPLEX" && TWOINT.Get_name() == "MPI_2INT" &&
            t.Get_name().empty();
  t.Set_name("triple");
  ok &= t.Get_name() == "triple";
  ok &= Datatype::Match_size(TYPECLASS_REAL, 8).Get_name() == "MPI_REAL8";
  int ni, na, nd, combiner;
  t.Get_envelope(ni, na, nd, combiner);
  ok &= combiner == COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1;
  int ints[1];
  Aint addrs[1];
  Datatype types[1];
  t.Get_contents(1, 0, 1, ints, addrs, types);
  ok &= ints[0] == 3 && types[0] == INT;
  t.Free();
  return expect(ok, "names, envelope, contents", w.Get_rank());
}

bool packing(Intracomm& w) {
  Datatype t = particle_type();
  Particle in[2] = {particle(1), particle(2)}, out[2] = {};
  char buf[64];
  int pos = 0;
  t.Pack(in, 2, buf, int(sizeof buf), pos, w);
  bool ok = pos == 26 && t.Pack_size(2, w) == 26;
  int at = 0;
  t.Unpack(buf, pos, out, 2, at, w);
  ok &= at == 26 && out[1].id == 102 && out[0].mass == 1.5;
  long l = -5;
  unsigned char ext[4];
  Aint xpos = 0;
  LONG.Pack_external("external32", &l, 1, ext, 4, xpos);
  ok &= xpos == 4 && LONG.Pack_external_size("external32", 3) == 12 && ext[0] == 0xff && ext[3] == 0xfb;
  t.Free();
  return expect(ok, "pack and unpack", w.Get_rank());
}

// ---- errors: before anything is sent ------------------------------------------------------

bool errors(Intracomm& w) {
  const int n = w.Get_size(), r = w.Get_rank();
  int buf[8] = {};
  Datatype loose = INT.Create_vector(2, 1, 2);  // never committed
  bool ok = raises(ERR_TYPE, "MPI_Send", "committed", [&] { w.Send(buf, 1, loose, (r + 1) % n, 0); });
  ok &= raises(ERR_TYPE, "MPI_Bcast", "committed", [&] { w.Bcast(buf, 1, loose, 0); });
  ok &= raises(ERR_TYPE, "MPI_Allreduce", "committed", [&] { w.Allreduce(buf, buf + 4, 1, loose, SUM); });
  Datatype gone = loose, copy = loose;
  gone.Free();
  ok &= gone.Is_null();
  ok &= raises(ERR_TYPE, "MPI_Send", "freed", [&] { w.Send(buf, 1, copy, (r + 1) % n, 0); });
  ok &= raises(ERR_TYPE, "MPI_Type_free", "freed", [&] { copy.Free(); });
  ok &= raises(ERR_COUNT, "MPI_Send", "count -1", [&] { w.Send(buf, -1, INT, (r + 1) % n, 0); });
  ok &= raises(ERR_COUNT, "MPI_Recv", "count -2", [&] { w.Recv(buf, -2, DOUBLE, 0, 0); });
  ok &= raises(ERR_COUNT, "MPI_Type_vector", "count", [&] { INT.Create_vector(-1, 1, 1); });
  ok &= raises(ERR_TYPE, "MPI_Type_contiguous", "oldtype", [&] { DATATYPE_NULL.Create_contiguous(2); });
  ok &= raises(ERR_TYPE, "MPI_Type_free", "predefined", [&] {
    Datatype i = INT;
    i.Free();
  });
  ok &= raises(ERR_OP, "MPI_Op_free", "predefined", [&] {
    Op s = SUM;
    s.Free();
  });
  ok &= raises(ERR_OP, "MPI_Allreduce", "MAXLOC", [&] { w.Allreduce(buf, buf + 4, 1, DOUBLE, MAXLOC); });
  ok &= raises(ERR_TYPE, "MPI_Type_get_contents", "predefined", [&] {
    int i;
    Aint a;
    Datatype d;
    INT.Get_contents(0, 0, 0, &i, &a, &d);
  });
  Datatype pair = INT.Create_contiguous(2);
  pair.Commit();
  ok &= raises(ERR_TYPE, "MPI_Gather", "differ", [&] { w.Gather(buf, 1, pair, buf + 4, 2, DOUBLE, r); });
  ok &= raises(ERR_TRUNCATE, "MPI_Unpack", "need", [&] {
    int at = 0;
    pair.Unpack(buf, 4, buf + 4, 1, at, w);
  });
  pair.Free();
  ok &= nothing_pending(w);
  return expect(ok, "errors", r);
}

}  // namespace

TEST_CASE("api datatypes: a column halo of a 2-D Cartesian grid as a vector type") {
  for (int n : kSizes) CHECK(run_world(n, column_halo) == 0);
}

TEST_CASE("api datatypes: structs with holes in Bcast, Sendrecv, Gather, Scatter, nonblocking and neighbourhood collectives") {
  for (int n : kSizes) {
    CHECK(run_world(n, struct_bcast) == 0);
    CHECK(run_world(n, struct_ring) == 0);
    CHECK(run_world(n, vector_gather) == 0);
    CHECK(run_world(n, nonblocking_and_neighbours) == 0);
  }
}

TEST_CASE("api ops: MAXLOC and MINLOC keep the lowest index on ties, in Allreduce and Accumulate") {
  for (int n : kSizes) CHECK(run_world(n, maxloc_ties) == 0);
}

TEST_CASE("api ops: a user op combines in rank order; holes stay") {
  for (int n : kSizes) {
    CHECK(run_world(n, matrix_product) == 0);
    CHECK(run_world(n, user_op_with_holes) == 0);
  }
}

TEST_CASE("api datatypes: caching callbacks, names, envelope, packing") {
  for (int n : kSizes) {
    CHECK(run_world(n, caching) == 0);
    CHECK(run_world(n, naming) == 0);
    CHECK(run_world(n, packing) == 0);
  }
}

TEST_CASE("api datatypes: uncommitted, freed types and bad counts raise before sending") {
  for (int n : kSizes) CHECK(run_world(n, errors) == 0);
}
