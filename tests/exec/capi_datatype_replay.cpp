// tests/exec/capi_datatype_replay.cpp: fuzz_datatype's inputs replayed through
// the C API, across ranks. Each file named on the command line is one input in
// tests/fuzz/fuzz_datatype.cpp's format; every rank decodes it the same way
// (tests/fuzz/datatype_model.hpp) and builds the type with MPI_Type_*
// calls. What must hold, against the model's reference:
//   - a call refuses exactly what the reference refuses, with its class;
//   - MPI_Type_size_x, MPI_Type_get_extent_x, MPI_Type_get_true_extent_x;
//   - MPI_Pack_size, MPI_Pack (the reference's bytes) and MPI_Unpack;
//   - point-to-point in a ring, each rank to the next (MPI_Sendrecv): sent
//     as `count` elements of the random type, received as one struct with
//     the same type signature (the same basic types in the same order, laid
//     out densely in reverse), and back the other way into a poisoned
//     buffer: every element arrives where the reference puts it, nothing
//     else is written, and MPI_Get_count / MPI_Get_elements_x agree.
// Prints "done" on rank 0 when every check passed on every rank; a failure
// prints the input and what differs, and the program exits 1.
//
//   lumpi exec -n 3 capi_datatype_replay tests/fuzz/regressions/fuzz_datatype/*
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/datatype_model.hpp"

using namespace lumpi::fuzz::dt;

namespace {

const MPI_Datatype kBasicHandles[] = {MPI_CHAR,
                                      MPI_BYTE,
                                      MPI_SHORT,
                                      MPI_INT,
                                      MPI_LONG,
                                      MPI_UNSIGNED_LONG,
                                      MPI_FLOAT,
                                      MPI_DOUBLE,
                                      MPI_LONG_DOUBLE,
                                      MPI_C_BOOL,
                                      MPI_INT64_T,
                                      MPI_WCHAR,
                                      MPI_C_FLOAT_COMPLEX,
                                      MPI_C_DOUBLE_COMPLEX,
                                      MPI_C_LONG_DOUBLE_COMPLEX};
const MPI_Datatype kPairHandles[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
                                     MPI_2INT,      MPI_SHORT_INT,  MPI_LONG_DOUBLE_INT};
static_assert(sizeof kBasicHandles / sizeof kBasicHandles[0] == kNBasics);
static_assert(sizeof kPairHandles / sizeof kPairHandles[0] == kNPairs);

const char* g_input = "";
int g_failures = 0;

bool expect(bool ok, const std::string& what) {
  if (!ok && g_failures++ < 20) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::printf("rank %d: %s: %s\n", rank, g_input, what.c_str());
  }
  return ok;
}

MPI_Datatype leaf_handle(int leaf) {
  return leaf < kNBasics ? kBasicHandles[leaf] : kPairHandles[leaf - kNBasics];
}

// ---- building through the C API ----------------------------------------------------------

// The derived types one input made, freed when it is done.
struct Made {
  std::vector<MPI_Datatype> types;
  ~Made() {
    for (MPI_Datatype& t : types) MPI_Type_free(&t);
  }
};

std::vector<MPI_Aint> aints(const std::vector<i64>& v) { return std::vector<MPI_Aint>(v.begin(), v.end()); }

int darray_call(const Spec& s, MPI_Datatype old, MPI_Datatype* out) {
  std::vector<int> distribs;
  for (int d : s.distribs)
    distribs.push_back(d == 0 ? MPI_DISTRIBUTE_NONE : d == 1 ? MPI_DISTRIBUTE_BLOCK : MPI_DISTRIBUTE_CYCLIC);
  return MPI_Type_create_darray(s.nprocs, s.rank, int(s.sizes.size()), s.sizes.data(), distribs.data(),
                                s.dargs.data(), s.psizes.data(), s.order == 0 ? MPI_ORDER_C : MPI_ORDER_FORTRAN,
                                old, out);
}

int call(const Spec& s, const std::vector<MPI_Datatype>& olds, MPI_Datatype* out) {
  const MPI_Datatype old = olds.empty() ? MPI_DATATYPE_NULL : olds[0];
  const int n = int(s.blocklengths.size()), nd = int(s.displs.size());
  switch (s.op) {
    case Op::Contiguous: return MPI_Type_contiguous(s.count, old, out);
    case Op::Vector: return MPI_Type_vector(s.count, s.blocklength, s.stride, old, out);
    case Op::Hvector: return MPI_Type_create_hvector(s.count, s.blocklength, s.hstride, old, out);
    case Op::Indexed: return MPI_Type_indexed(n, s.blocklengths.data(), s.displs.data(), old, out);
    case Op::Hindexed:
      return MPI_Type_create_hindexed(n, s.blocklengths.data(), aints(s.hdispls).data(), old, out);
    case Op::IndexedBlock: return MPI_Type_create_indexed_block(nd, s.blocklength, s.displs.data(), old, out);
    case Op::HindexedBlock:
      return MPI_Type_create_hindexed_block(nd, s.blocklength, aints(s.hdispls).data(), old, out);
    case Op::Struct:
      return MPI_Type_create_struct(n, s.blocklengths.data(), aints(s.hdispls).data(), olds.data(), out);
    case Op::Subarray:
      return MPI_Type_create_subarray(int(s.sizes.size()), s.sizes.data(), s.subsizes.data(), s.starts.data(),
                                      s.order, old, out);
    case Op::Darray: return darray_call(s, old, out);
    case Op::Resized: return MPI_Type_create_resized(old, s.lb, s.extent, out);
    default: return MPI_Type_dup(old, out);
  }
}

// Whether the C API can say what the spec says: its arrays have one length each.
bool expressible(const Spec& s) {
  if ((s.op == Op::Indexed || s.op == Op::Hindexed || s.op == Op::Struct) &&
      s.displs.size() != s.blocklengths.size())
    return false;
  if (s.op == Op::Struct && s.kids.size() != s.blocklengths.size()) return false;
  for (const Spec& k : s.kids)
    if (!expressible(k)) return false;
  return true;
}

// Builds the old types, frees those marked freed (their stale handles are
// passed on), then calls the constructor. MPI_SUCCESS or the first error.
int build(const Spec& s, MPI_Datatype* out, Made& made) {
  if (s.op == Op::Leaf) {
    *out = s.null ? MPI_DATATYPE_NULL : leaf_handle(s.leaf);
    return MPI_SUCCESS;
  }
  std::vector<MPI_Datatype> olds(s.kids.size());
  for (std::size_t i = 0; i < olds.size(); ++i)
    if (int rc = build(s.kids[i], &olds[i], made); rc != MPI_SUCCESS) return rc;
  for (std::size_t i = 0; i < olds.size(); ++i)
    if (s.kids[i].freed) {
      MPI_Datatype doomed = olds[i];
      made.types.erase(std::find(made.types.begin(), made.types.end(), doomed));
      MPI_Type_free(&doomed);
    }
  int rc = call(s, olds, out);
  if (rc == MPI_SUCCESS) made.types.push_back(*out);
  return rc;
}

int class_of(Refusal r) {
  switch (r) {
    case Refusal::Count: return MPI_ERR_COUNT;
    case Refusal::Type: return MPI_ERR_TYPE;
    case Refusal::Arg: return MPI_ERR_ARG;
    default: return MPI_SUCCESS;
  }
}

// ---- queries and packing --------------------------------------------------------------------

void check_queries(MPI_Datatype t, const Map& m) {
  MPI_Count size, lb, extent, tlb, textent;
  MPI_Type_size_x(t, &size);
  MPI_Type_get_extent_x(t, &lb, &extent);
  MPI_Type_get_true_extent_x(t, &tlb, &textent);
  expect(size == m.size(), "MPI_Type_size_x " + std::to_string(size) + ", reference " + std::to_string(m.size()));
  expect(lb == m.lb && extent == m.extent(), "MPI_Type_get_extent_x differs from the reference");
  expect(tlb == m.true_lb && textent == m.true_ub - m.true_lb,
         "MPI_Type_get_true_extent_x differs from the reference");
}

// A buffer for the bytes [lo, hi) relative to its base() address.
struct Buffer {
  i64 lo;
  std::vector<unsigned char> mem;
  Buffer(i64 l, i64 h, unsigned char fill) : lo(l), mem(std::size_t(h - l), fill) {}
  void* base() {
    return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(mem.data()) - std::uintptr_t(lo));
  }
  unsigned char* at(i64 disp) { return mem.data() + (disp - lo); }
};

constexpr unsigned char kPoison = 0xA5;

// What rank `from` sends: bytes that differ by place and by rank.
void fill(Buffer& b, int from) {
  for (std::size_t i = 0; i < b.mem.size(); ++i) b.mem[i] = (unsigned char)(i * 29 + from * 71 + 1);
}

std::string reference_pack(Buffer& src, const std::vector<Element>& els) {
  std::string out;
  for (const Element& e : els)
    out.append(reinterpret_cast<const char*>(src.at(e.disp)), std::size_t(kBasics[e.basic].size));
  return out;
}

// got holds the elements of `packed` where the reference puts them, and
// poison where no element goes (bytes two elements share are not compared).
void check_scattered(Buffer& got, const std::vector<Element>& els, const std::string& packed, const char* what) {
  std::vector<int> writers(got.mem.size(), 0);
  std::vector<unsigned char> want(got.mem.size(), kPoison);
  for (const Element& e : els)
    for (int j = 0; j < kBasics[e.basic].size; ++j) {
      std::size_t i = std::size_t(e.disp + j - got.lo);
      ++writers[i];
      want[i] = (unsigned char)packed[std::size_t(e.packed + j)];
    }
  for (std::size_t i = 0; i < want.size(); ++i)
    if (writers[i] <= 1 && got.mem[i] != want[i]) {
      expect(false, std::string(what) + ": byte at " + std::to_string(i64(i) + got.lo) +
                        (writers[i] ? " differs from the reference" : " was written outside the map"));
      return;
    }
}

void check_packing(MPI_Datatype t, int count, const std::vector<Element>& els, const std::string& want, i64 lo,
                   i64 hi) {
  int size = -1;
  MPI_Pack_size(count, t, MPI_COMM_WORLD, &size);
  expect(size == int(want.size()),
         "MPI_Pack_size " + std::to_string(size) + ", reference " + std::to_string(want.size()));
  Buffer src(lo, hi, 0);
  fill(src, 0);
  std::string packed(want.size() + 1, '\0');
  int position = 0;
  expect(MPI_Pack(src.base(), count, t, packed.data(), int(packed.size()), &position, MPI_COMM_WORLD) ==
                 MPI_SUCCESS &&
             position == int(want.size()) && packed.compare(0, want.size(), want) == 0,
         "MPI_Pack differs from the reference's bytes");
  Buffer got(lo, hi, kPoison);
  position = 0;
  expect(
      MPI_Unpack(want.data(), int(want.size()), &position, got.base(), count, t, MPI_COMM_WORLD) == MPI_SUCCESS &&
          position == int(want.size()),
      "MPI_Unpack failed");
  check_scattered(got, els, want, "MPI_Unpack");
}

// ---- the ring ----------------------------------------------------------------------------

// One struct with the signature of els, its elements packed densely in reverse order.
MPI_Datatype reversed_struct(const std::vector<Element>& els, i64 total) {
  std::vector<int> ones(els.size(), 1);
  std::vector<MPI_Aint> at;
  std::vector<MPI_Datatype> types;
  for (const Element& e : els) {
    at.push_back(total - e.packed - kBasics[e.basic].size);
    types.push_back(kBasicHandles[e.basic]);
  }
  MPI_Datatype r;
  MPI_Type_create_struct(int(els.size()), ones.data(), at.data(), types.data(), &r);
  MPI_Type_commit(&r);
  return r;
}

void check_ring(MPI_Datatype t, int count, const Map& m, const std::vector<Element>& els, i64 lo, i64 hi) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const i64 total = i64(els.size()) ? els.back().packed + kBasics[els.back().basic].size : 0;
  MPI_Datatype r = reversed_struct(els, total);
  Buffer mine(lo, hi, 0), theirs(lo, hi, 0);
  fill(mine, rank);
  fill(theirs, prev);
  const std::string sent = reference_pack(theirs, els);  // what prev sends, in signature order
  std::vector<unsigned char> dense(std::size_t(total) + 1, kPoison);
  MPI_Status st;
  MPI_Sendrecv(mine.base(), count, t, next, 7, dense.data(), 1, r, prev, 7, MPI_COMM_WORLD, &st);
  bool same = true;
  for (const Element& e : els)  // element k sits at the reversed struct's displacement
    same &= std::memcmp(dense.data() + (total - e.packed - kBasics[e.basic].size), sent.data() + e.packed,
                        std::size_t(kBasics[e.basic].size)) == 0;
  expect(same && dense[std::size_t(total)] == kPoison, "send as the type, receive as the struct: elements differ");
  Buffer got(lo, hi, kPoison);  // and back: the struct's bytes into the type
  MPI_Sendrecv(dense.data(), 1, r, prev, 8, got.base(), count, t, next, 8, MPI_COMM_WORLD, &st);
  const std::string back = reference_pack(mine, els);  // next received mine and sends it back
  check_scattered(got, els, back, "receive as the type");
  int n;
  MPI_Count elements;
  MPI_Get_count(&st, t, &n);
  MPI_Get_elements_x(&st, t, &elements);
  expect(n == (m.size() == 0 ? 0 : count), "MPI_Get_count " + std::to_string(n));
  expect(elements == MPI_Count(els.size()), "MPI_Get_elements_x " + std::to_string(elements));
  MPI_Type_free(&r);
}

// ---- one input ------------------------------------------------------------------------------

void replay(const std::vector<unsigned char>& input) {
  Reader rd{input.data(), input.size()};
  const Spec spec = decode(rd, 0);
  if ((spec.op == Op::Leaf && spec.null) || !expressible(spec)) return;
  Result want;
  try {
    want = ref_map(spec);
  } catch (const TooBig&) {
    return;
  }
  Made made;
  MPI_Datatype t;
  int rc = build(spec, &t, made), cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  if (!expect(cls == class_of(want.refusal) || (want.also != Refusal::None && cls == class_of(want.also)),
              "the constructors answered class " + std::to_string(cls) + ", the reference " +
                  std::to_string(class_of(want.refusal))) ||
      rc != MPI_SUCCESS)
    return;
  MPI_Type_commit(&t);
  check_queries(t, want.map);
  const int count = rd.byte() % 4;
  i128 lo, hi;
  touched(want.map, count, &lo, &hi);
  if (hi - lo > (1 << 16) || !fits64(lo) || !fits64(hi) || want.map.entries.size() * std::size_t(count) > 4096)
    return;  // huge or long: the queries were checked, not the data
  const std::vector<Element> els = stream(want.map, count);
  if (els.empty()) return;
  Buffer src(i64(lo), i64(hi), 0);
  fill(src, 0);
  check_packing(t, count, els, reference_pack(src, els), i64(lo), i64(hi));
  check_ring(t, count, want.map, els, i64(lo), i64(hi));
}

std::vector<unsigned char> read_file(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int i = 1; i < argc; ++i) {
    g_input = argv[i];
    replay(read_file(argv[i]));
  }
  int failures = 0;
  MPI_Allreduce(&g_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && failures == 0) std::printf("done\n");
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
