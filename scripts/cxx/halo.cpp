// scripts/cxx/halo.cpp: a periodic 2-D Cartesian halo exchange. The world
// becomes a periodic Compute_dims grid; each rank owns a kRows x kCols block
// of a global field f(i, j) = 1000 i + j, with one ghost cell on every side.
// Columns are exchanged first (packed, as there are no derived datatypes yet),
// then whole rows including the ghost columns, so corners arrive too. Every
// ghost cell is checked against f with periodic wrap-around, and one 5-point
// stencil sum over the whole field against the serial sum.
// Run: lumpi exec -n 6 halo   (built when LUMPI_CXX_EXAMPLES is ON)
#include <cstdio>
#include <vector>

#include "scripts/cxx/examples.hpp"

namespace examples {

namespace {

constexpr int kRows = 3, kCols = 4;  // owned block; the local array is (kRows+2) x (kCols+2)

struct Field {
  int gi, gj;  // global extent
  long at(int i, int j) const { return 1000L * ((i % gi + gi) % gi) + (j % gj + gj) % gj; }
};

struct Block {
  std::vector<long> v = std::vector<long>((kRows + 2) * (kCols + 2));
  long& operator()(int i, int j) { return v[size_t(i * (kCols + 2) + j)]; }  // i, j in 0..k+1
};

// Column j (rows 1..kRows) packed, and unpacked into column j.
std::vector<long> column(Block& b, int j) {
  std::vector<long> out;
  for (int i = 1; i <= kRows; ++i) out.push_back(b(i, j));
  return out;
}
void set_column(Block& b, int j, const std::vector<long>& c) {
  for (int i = 1; i <= kRows; ++i) b(i, j) = c[size_t(i - 1)];
}

void exchange(const lumpi::Cartcomm& grid, Block& b) {
  int src, dst;
  // Direction 1 (columns): send my last owned column right, get my left ghost.
  grid.Shift(1, 1, src, dst);
  std::vector<long> out = column(b, kCols), in(kRows);
  grid.Sendrecv(out.data(), kRows, lumpi::LONG, dst, 1, in.data(), kRows, lumpi::LONG, src, 1);
  set_column(b, 0, in);
  out = column(b, 1);
  grid.Sendrecv(out.data(), kRows, lumpi::LONG, src, 2, in.data(), kRows, lumpi::LONG, dst, 2);
  set_column(b, kCols + 1, in);
  // Direction 0 (rows, ghost columns included): down, then up.
  grid.Shift(0, 1, src, dst);
  const int w = kCols + 2;
  grid.Sendrecv(&b(kRows, 0), w, lumpi::LONG, dst, 3, &b(0, 0), w, lumpi::LONG, src, 3);
  grid.Sendrecv(&b(1, 0), w, lumpi::LONG, src, 4, &b(kRows + 1, 0), w, lumpi::LONG, dst, 4);
}

}  // namespace

int halo(const lumpi::Intracomm& world) {
  int dims[2] = {0, 0};
  lumpi::Compute_dims(world.Get_size(), 2, dims);
  const bool periods[2] = {true, true};
  lumpi::Cartcomm grid = world.Create_cart(2, dims, periods, false);
  int coords[2];
  grid.Get_coords(grid.Get_rank(), 2, coords);
  const Field f{dims[0] * kRows, dims[1] * kCols};
  const int i0 = coords[0] * kRows, j0 = coords[1] * kCols;  // global index of my (1, 1)

  Block b;
  for (int i = 1; i <= kRows; ++i)
    for (int j = 1; j <= kCols; ++j) b(i, j) = f.at(i0 + i - 1, j0 + j - 1);
  exchange(grid, b);

  bool ok = true;
  for (int i = 0; i <= kRows + 1; ++i)
    for (int j = 0; j <= kCols + 1; ++j) ok = ok && b(i, j) == f.at(i0 + i - 1, j0 + j - 1);

  // One stencil step: the sum over the field of N + S + E + W, in parallel and serially.
  long local = 0, total = 0, serial = 0;
  for (int i = 1; i <= kRows; ++i)
    for (int j = 1; j <= kCols; ++j) local += b(i - 1, j) + b(i + 1, j) + b(i, j - 1) + b(i, j + 1);
  grid.Allreduce(&local, &total, 1, lumpi::LONG, lumpi::SUM);
  for (int i = 0; i < f.gi; ++i)
    for (int j = 0; j < f.gj; ++j) serial += f.at(i - 1, j) + f.at(i + 1, j) + f.at(i, j - 1) + f.at(i, j + 1);
  ok = ok && total == serial;
  grid.Free();
  return agree(world, ok);
}

}  // namespace examples

#ifndef LUMPI_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  int rc = examples::halo(lumpi::COMM_WORLD);
  if (lumpi::COMM_WORLD.Get_rank() == 0)
    std::printf("halo: %s on %d ranks\n", rc ? "WRONG" : "ok", lumpi::COMM_WORLD.Get_size());
  lumpi::Finalize();
  return rc;
}
#endif
