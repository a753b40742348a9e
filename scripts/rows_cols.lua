-- scripts/rows_cols.lua: split COMM_WORLD into the rows and the columns of
-- a process grid, the way a matrix code does. Every rank is in one row and
-- one column communicator; its rank there is its column (row) index, because
-- the split key orders the members. Sums along rows and columns are checked
-- against a serial computation.
-- Run: lumpi -n 6 scripts/rows_cols.lua   (then, in the REPL: :draw row_comm)
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local dims = mpi.dims_create(n, 2)        -- e.g. 6 -> {3, 2}: 3 rows of 2
local nrows, ncols = dims[1], dims[2]
local row, col = me // ncols, me % ncols

row_comm = w:split(row, col)              -- global, so :draw row_comm works after :load
col_comm = w:split(col, row)
row_comm:set_name("row " .. row)
col_comm:set_name("col " .. col)

local row_sum = row_comm:allreduce(me, mpi.SUM)
local col_sum = col_comm:allreduce(me, mpi.SUM)
-- serial oracle: row r holds world ranks r*ncols .. r*ncols+ncols-1
local want_row, want_col = 0, 0
for c = 0, ncols - 1 do want_row = want_row + row * ncols + c end
for r = 0, nrows - 1 do want_col = want_col + r * ncols + col end
assert(row_sum == want_row and col_sum == want_col, "wrong row or column sum")
assert(row_comm:rank() == col and col_comm:rank() == row, "split key did not order the ranks")

print(string.format("world %d at (%d,%d): '%s' rank %d of %d, '%s' rank %d of %d, row sum %d, col sum %d",
  me, row, col, row_comm:get_name(), row_comm:rank(), row_comm:size(),
  col_comm:get_name(), col_comm:rank(), col_comm:size(), row_sum, col_sum))
w:barrier()
if me == 0 then print(string.format("%dx%d grid: every row and column sum checked: ok", nrows, ncols)) end
