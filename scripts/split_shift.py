"""scripts/split_shift.py: a first mpi4py session on lumpi (docs/python.md):
split the world by parity, then shift along a periodic Cartesian grid.
Rank 0 prints what every rank found, in rank order."""
from mpi4py import MPI

world = MPI.COMM_WORLD
half = world.Split(color=world.rank % 2, key=world.rank)
dims = MPI.Compute_dims(world.size, 2)
grid = world.Create_cart(dims, periods=[True, True])
up, down = grid.Shift(0, 1)
came = grid.sendrecv(grid.rank, dest=down, source=up)
lines = world.gather(f"world {world.rank}: half {world.rank % 2} rank {half.rank} of {half.size}; "
                     f"grid {grid.Get_coords(grid.rank)} got {came} from above", root=0)
if world.rank == 0:
    print(f"{world.size} ranks, a {dims[0]}x{dims[1]} grid")
    print("\n".join(lines))
