-- scripts/cache_lib.lua: a library that caches its state on the user's
-- communicator (attribute caching, MPI §6.7). The library needs a private
-- communicator so its messages never meet the user's; it makes one with
-- dup() on first use and keeps it in an attribute, so later calls find it
-- instead of paying for another collective dup. The delete callback frees
-- the private communicator when the user frees theirs; the copy callback
-- says that a dup of the user's communicator gets no cached state.
-- Run: lumpi -n 4 scripts/cache_lib.lua
local w = mpi.COMM_WORLD
local me = w:rank()

local lib = { dups = 0 }
lib.keyval = mpi.comm_create_keyval{
  copy = mpi.COMM_NULL_COPY_FN,           -- a dup'ed user comm starts without our state
  delete = function(comm, kv, state, extra)
    lib.freed = (lib.freed or 0) + 1
    state.private:free()                  -- collective, like the free that called us
  end,
}

-- The library's entry point: a sum over `comm` on the library's own context.
function lib.total(comm, x)
  local state, found = comm:get_attr(lib.keyval)
  if not found then
    state = { private = comm:dup(), calls = 0 }
    state.private:set_name("cache_lib private")
    comm:set_attr(lib.keyval, state)
    lib.dups = lib.dups + 1
  end
  state.calls = state.calls + 1
  return state.private:allreduce(x, mpi.SUM), state.calls
end

user = w:dup()                            -- the user's communicator
local a = lib.total(user, 1)
local b, calls = lib.total(user, me)
local n = w:size()
assert(a == n and b == n * (n - 1) // 2, "wrong sums")
assert(lib.dups == 1 and calls == 2, "the cached communicator was not reused")

local copy = user:dup()
local _, found = copy:get_attr(lib.keyval)
assert(not found, "COMM_NULL_COPY_FN should not copy the attribute")

user:free()                               -- runs the delete callback
assert(lib.freed == 1, "the delete callback did not run")
copy:free()
if me == 0 then
  print(string.format("2 library calls, %d dup (cached on the first call); dup of the user comm has no cache;", lib.dups))
  print(string.format("freeing the user comm ran the delete callback %d time(s): ok", lib.freed))
end
