-- scripts/seed_examples.lua: the worked examples of the MPI text's §6.5
-- ("Motivating Examples"), as written there, each checked against what the
-- text says it shows. The C originals elide their buffers ("..."); here
-- every message carries who sent it and for which call, so a check can
-- tell a message of one context or call from another.
-- Run: lumpi -n 4 scripts/seed_examples.lua   (4 ranks or more; -i keeps the
-- communicators of Library Example #2 in globals for :draw)
local w = mpi.COMM_WORLD
local me, size = w:rank(), w:size()
assert(size >= 4, "the seed's Library Example #2 names world ranks 0 to 3: run with -n 4 or more")

local function say(fmt, ...)
  if me == 0 then print(string.format(fmt, ...)) end
end

-- The seed's #1a: every process knows its rank and the size of "all".
local function example_1a()
  local ranks = w:allgather(me)
  for r = 0, size - 1 do assert(ranks[r + 1] == r) end
  say("#1a: %d processes, each with its rank in MPI_COMM_WORLD", size)
end

-- #1b: even ranks send to the next odd one ("unless highest-numbered").
local function example_1b()
  local got = 0
  if me % 2 == 0 then
    if me + 1 < size then w:send({from = me}, me + 1, 0) end
  else
    local v = w:recv(me - 1, 0)
    assert(v.from == me - 1)
    got = 1
  end
  say("#1b: %d even->odd pairs exchanged", w:allreduce(got, mpi.SUM))
end

-- #2: one collective, rank 0's data to every process.
local function example_2()
  local data = w:bcast(me == 0 and "input of rank 0" or nil, 0)
  assert(data == "input of rank 0")
  say("#2: MPI_Bcast gave every process rank 0's data")
end

-- #3: commslave is "all but the zeroth process"; rank 0 falls through to
-- the world's reduce while the others reduce in commslave first. Distinct
-- contexts keep the two reductions apart.
local function example_3()
  local world_group = w:group()
  local rest = world_group:excl({0})
  local commslave = w:create(rest)
  local slaves
  if me ~= 0 then
    slaves = commslave:reduce(1, mpi.SUM, 1)  -- root 1 of commslave, as in the text
    commslave:free()
  end
  local all = w:reduce(me, mpi.SUM, 0)
  if me == 2 then assert(slaves == size - 1) end
  if me == 0 then assert(all == size * (size - 1) // 2) end
  world_group:free()
  rest:free()
  say("#3: commslave's reduce (%d members) and the world's stayed apart", size - 1)
end

-- #4: point-to-point and collectives on one communicator are safe together:
-- a ring of Irecv/Isend stays pending over 50 reduces on the_comm.
local function example_4()
  local ranks = {}
  for r = 2, math.min(8, size - 1), 2 do ranks[#ranks + 1] = r end  -- the seed's {2, 4, 6, 8}
  local world_group = w:group()
  local sub = world_group:incl(ranks)
  local the_comm = w:create(sub)
  if the_comm then
    local k, n = the_comm:rank(), the_comm:size()
    local recv = the_comm:irecv(mpi.ANY_SOURCE, 12345)
    local send = the_comm:isend({from = k}, (k + 1) % n, 12345)
    for i = 1, 50 do assert(the_comm:reduce(i, mpi.SUM, 0) == (k == 0 and i * n or nil)) end
    local values = mpi.waitall({recv, send})
    assert(values[1].from == (k - 1) % n)
    the_comm:free()
  end
  world_group:free()
  sub:free()
  say("#4: a ring of %d pending messages crossed 50 reduces on the_comm untouched", #ranks)
end

-- Library Example #1: two handles of one library, each on its own dup of
-- the world, with operations pending while the user reduces on the world.
local function library_1()
  local function init(comm) return {comm = comm:dup()} end
  local function start(h, tag) -- a ring on the library's private communicator
    h.recv = h.comm:irecv((me - 1) % size, 0)
    h.send = h.comm:isend({from = me, lib = tag}, (me + 1) % size, 0)
  end
  local function finish(h)
    h.send:wait()
    return (h.recv:wait())
  end
  local a, b = init(w), init(w)
  start(a, "a")
  start(b, "b")
  for i = 1, 3 do w:reduce(i, mpi.SUM, 0) end  -- the user's own work on the world
  local ga, gb = finish(a), finish(b)
  assert(ga.lib == "a" and gb.lib == "b" and ga.from == (me - 1) % size)
  a.comm:free()
  b.comm:free()
  say("#L1: two library instances on two dups of the world never saw each other's messages")
end

-- Library Example #2's lib_call: rank 0 of comm takes one message from each
-- other member with MPI_ANY_SOURCE, MPI_ANY_TAG and returns the call numbers
-- it saw; with_barrier is EXAMPLE_2C's MPI_Barrier.
local function lib_call(comm, call, with_barrier)
  local seen = {}
  if comm:rank() == 0 then
    for _ = 1, comm:size() - 1 do seen[#seen + 1] = comm:recv(mpi.ANY_SOURCE, mpi.ANY_TAG).call end
  else
    comm:send({call = call}, 0, 7)
  end
  if with_barrier then comm:barrier() end
  return seen
end

-- Library Example #2, variant A, B or C, under one legal schedule that
-- lets a member of comm_b outside comm_a run ahead: world rank 3 holds
-- back (for as long as the variant lets it) until rank 0 has left its
-- first lib_call(comm_b). Returns rank 0's call numbers for both calls.
local function library_2(variant)
  local list_b = variant == "A" and {0, 2} or {0, 2, 3}
  local barrier = variant == "C"
  local world_group = w:group()
  local group_a, group_b = world_group:incl({0, 1}), world_group:incl(list_b)
  comm_a, comm_b = w:create(group_a), w:create(group_b)  -- globals, for :draw
  local hold = variant == "B" and me == 3             -- C's barrier forbids holding back
  local first, second
  if comm_a then lib_call(comm_a, 1, barrier) end
  if hold then w:recv(0, 99) end                     -- the adversary's schedule
  if comm_b then
    first = lib_call(comm_b, 1, barrier)
    if me == 0 and variant == "B" then w:send("go", 3, 99) end
    second = lib_call(comm_b, 2, barrier)
  end
  if comm_a then comm_a:free() end
  if comm_b then comm_b:free() end
  group_a:free(); group_b:free(); world_group:free()
  return first, second
end

local function calls(list) return "{" .. table.concat(list or {}, ", ") .. "}" end

local function library_2_all()
  for _, variant in ipairs({"A", "B", "C"}) do
    local first, second = library_2(variant)
    if me == 0 then
      local masked = false
      for _, c in ipairs(first) do masked = masked or c ~= 1 end
      assert(masked == (variant == "B"), "variant " .. variant .. ": unexpected outcome " .. calls(first))
      print(string.format("#L2%s: rank 0's first lib_call(comm_b) got calls %s, the second %s%s", variant,
        calls(first), calls(second), masked and ": back-masking, as the text warns" or ": safe"))
    end
    w:barrier()
  end
end

example_1a()
example_1b()
example_2()
example_3()
example_4()
library_1()
library_2_all()
say("every example behaves as §6.5 says: ok")
