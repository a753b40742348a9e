/* scripts/halo_column.c: the column halo of a 2-D Cartesian grid with
 * MPI_Type_vector (docs/datatypes.md's worked example; scripts/halo_column.lua
 * is the same in Lua). Each process holds a 3 x 4 block of doubles whose
 * columns 0 and 3 are halos; it sends its inner edge columns to its left
 * and right neighbours and receives theirs into its halos, one column type
 * for both; rank 0 gathers every process's halos (the column type again, on
 * the sending side of MPI_Gather) and prints them.
 * Build and run: build/lumpi-cc -o halo scripts/halo_column.c && build/lumpi exec -n 4 ./halo */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define R 3
#define C 4

int main(int argc, char **argv) {
  int n, me, left, right, i, j, k, dims[2] = {0, 0}, periods[2] = {1, 1}, lr[2], *all_lr = NULL;
  double a[R][C], *halos = NULL;
  MPI_Comm grid;
  MPI_Datatype col;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Dims_create(n, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &me);
  MPI_Cart_shift(grid, 1, 1, &left, &right); /* along dimension 1: the columns */
  for (i = 0; i < R; i++)
    for (j = 0; j < C; j++) a[i][j] = (j == 0 || j == C - 1) ? -1 : 100 * me + 10 * (i + 1) + (j + 1);
  MPI_Type_vector(R, 1, C, MPI_DOUBLE, &col); /* R doubles, C apart: one column */
  MPI_Type_commit(&col);
  /* my last inner column to the right, my left halo from the left; then the mirror image */
  MPI_Sendrecv(&a[0][C - 2], 1, col, right, 0, &a[0][0], 1, col, left, 0, grid, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&a[0][1], 1, col, left, 1, &a[0][C - 1], 1, col, right, 1, grid, MPI_STATUS_IGNORE);
  if (me == 0) halos = malloc(sizeof(double) * 2 * R * (size_t)n), all_lr = malloc(sizeof(int) * 2 * (size_t)n);
  lr[0] = left, lr[1] = right;
  MPI_Gather(lr, 2, MPI_INT, all_lr, 2, MPI_INT, 0, grid);
  MPI_Gather(&a[0][0], 1, col, halos, R, MPI_DOUBLE, 0, grid); /* a column arrives as a row */
  MPI_Gather(&a[0][C - 1], 1, col, me == 0 ? halos + R * n : NULL, R, MPI_DOUBLE, 0, grid);
  if (me == 0)
    for (k = 0; k < n; k++)
      printf("rank %d: left halo from %d: %g %g %g | right halo from %d: %g %g %g\n", k, all_lr[2 * k],
             halos[k * R], halos[k * R + 1], halos[k * R + 2], all_lr[2 * k + 1], halos[R * n + k * R],
             halos[R * n + k * R + 1], halos[R * n + k * R + 2]);
  MPI_Type_free(&col);
  MPI_Comm_free(&grid);
  free(halos), free(all_lr);
  MPI_Finalize();
  return 0;
}
