// scripts/cxx/rows_cols.cpp: split a world into the rows and the columns of
// a Compute_dims grid, sum a value along each, and check both sums against
// the serial ones. Rank r sits at row r / ncols, column r % ncols and holds
// r * r + 1.
// Run: lumpi exec -n 6 rows_cols   (built when LUMPI_CXX_EXAMPLES is ON)
#include <cstdio>

#include "scripts/cxx/examples.hpp"

namespace examples {

namespace {
long value(int rank) { return long(rank) * rank + 1; }
}  // namespace

int rows_cols(const lumpi::Intracomm& world) {
  const int p = world.Get_size(), me = world.Get_rank();
  int dims[2] = {0, 0};
  lumpi::Compute_dims(p, 2, dims);
  const int nrows = dims[0], ncols = dims[1];
  const int row = me / ncols, col = me % ncols;

  lumpi::Intracomm rows = world.Split(row, col);  // my row, ranked by column
  lumpi::Intracomm cols = world.Split(col, row);  // my column, ranked by row
  long mine = value(me), row_sum = 0, col_sum = 0;
  rows.Allreduce(&mine, &row_sum, 1, lumpi::LONG, lumpi::SUM);
  cols.Allreduce(&mine, &col_sum, 1, lumpi::LONG, lumpi::SUM);

  long want_row = 0, want_col = 0;
  for (int c = 0; c < ncols; ++c) want_row += value(row * ncols + c);
  for (int r = 0; r < nrows; ++r) want_col += value(r * ncols + col);
  const bool ok = rows.Get_size() == ncols && rows.Get_rank() == col && cols.Get_size() == nrows &&
                  cols.Get_rank() == row && row_sum == want_row && col_sum == want_col;
  rows.Free();
  cols.Free();
  return agree(world, ok);
}

}  // namespace examples

#ifndef LUMPI_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  int rc = examples::rows_cols(lumpi::COMM_WORLD);
  if (lumpi::COMM_WORLD.Get_rank() == 0)
    std::printf("rows_cols: %s on %d ranks\n", rc ? "WRONG" : "ok", lumpi::COMM_WORLD.Get_size());
  lumpi::Finalize();
  return rc;
}
#endif
