-- tests/scenarios/p2p.lua: point-to-point on COMM_WORLD and COMM_SELF
-- (API.md §6): values, statuses, wildcards, PROC_NULL, ordering, requests,
-- probes, synchronous sends, and the errors raised before sending.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local right, left = (me + 1) % n, (me - 1) % n

t.case("a ring passes every value type intact", function()
  local value = {me, me + 0.5, "s" .. me, true, {nested = {me, {deep = "\0bin\255"}}},
                 [10] = "sparse", big = math.maxinteger, neg = math.mininteger}
  w:send(value, right, 3)
  local got, st = w:recv(left, 3)
  t.eq(got, {left, left + 0.5, "s" .. left, true, {nested = {left, {deep = "\0bin\255"}}},
             [10] = "sparse", big = math.maxinteger, neg = math.mininteger})
  t.eq(st.source, left)
  t.eq(st.tag, 3)
  t.eq(math.type(got[1]), "integer")
  t.eq(math.type(got[2]), "float")
end)

t.case("a large binary string arrives byte for byte", function()
  local s = string.rep(string.char(me % 256, 0, 255), 400000)
  local got = w:sendrecv(s, right, 1, left, 1)
  t.eq(#got, #s)
  t.eq(got, string.rep(string.char(left % 256, 0, 255), 400000))
end)

t.case("messages between a pair never overtake each other", function()
  for i = 1, 50 do w:send(i, right, i % 3) end
  local seen = {}
  for i = 1, 50 do seen[i] = w:recv(left, mpi.ANY_TAG) end
  local expect = {}
  for i = 1, 50 do expect[i] = i end
  t.eq(seen, expect)
end)

t.case("receives with a tag skip earlier messages of other tags", function()
  w:send("a", right, 1)
  w:send("b", right, 2)
  t.eq((w:recv(left, 2)), "b")
  t.eq((w:recv(left, 1)), "a")
end)

t.case("ANY_SOURCE receives get one message from every rank", function()
  if me ~= 0 then
    w:send(me * 10, 0, 4)
    return
  end
  local got = {}
  for _ = 1, n - 1 do
    local v, st = w:recv(mpi.ANY_SOURCE, 4)
    t.eq(v, st.source * 10)
    got[st.source] = true
  end
  for r = 1, n - 1 do t.ok(got[r], "message from rank " .. r) end
end)

t.case("PROC_NULL completes at once with the documented status", function()
  w:send("x", mpi.PROC_NULL, 5)
  local v, st = w:recv(mpi.PROC_NULL, 5)
  t.eq(v, nil)
  t.eq(st.source, mpi.PROC_NULL)
  t.eq(st.tag, mpi.ANY_TAG)
  local r = w:irecv(mpi.PROC_NULL)
  local v2, st2 = r:wait()
  t.eq(v2, nil)
  t.eq(st2.source, mpi.PROC_NULL)
end)

t.case("nonblocking requests complete with values and statuses", function()
  local rr = w:irecv(left, 9)
  local sr = w:isend({from = me}, right, 9)
  local v, st = rr:wait()
  sr:wait()
  t.eq(v, {from = left})
  t.eq(st.source, left)
  t.eq(select(2, rr:wait()).tag, 9)  -- waiting again returns the same result
end)

t.case("test polls a request until it completes", function()
  local rr = w:irecv(left, 11)
  w:send(me, right, 11)
  local done, v
  repeat done, v = rr:test() until done
  t.eq(v, left)
end)

t.case("waitall returns values in request order", function()
  local reqs = {}
  for k = 1, 3 do reqs[k] = w:irecv(left, 20 + k) end
  for k = 3, 1, -1 do w:send(k * 100 + left * 0 + me, right, 20 + k) end
  local values, statuses = mpi.waitall(reqs)
  t.eq(values, {100 + left, 200 + left, 300 + left})
  t.eq(statuses[2].tag, 22)
end)

t.case("waitany returns the request that completed", function()
  local reqs = {w:irecv(left, 31), w:irecv(left, 32)}
  w:send("second", right, 32)
  local idx, v = mpi.waitany(reqs)
  t.eq(idx, 2)
  t.eq(v, "second")
  -- tag 31 is sent to a rank only after that rank's waitany returned
  w:send("go", left, 33)
  w:recv(right, 33)
  w:send("first", right, 31)
  t.eq((reqs[1]:wait()), "first")
  t.ok(mpi.testall(reqs))
end)

t.case("a cancelled receive does not take a later message", function()
  local r = w:irecv(left, 40)
  t.ok(r:cancel())  -- nothing with tag 40 is in flight yet: the cancel must succeed
  w:barrier()       -- everyone has cancelled before anyone sends
  w:send("kept", right, 40)
  t.eq((w:recv(left, 40)), "kept")
end)

t.case("probe and iprobe see a message without receiving it", function()
  w:send({p = me}, right, 50)
  local st = w:probe(left, 50)
  t.eq(st.source, left)
  t.eq(st.tag, 50)
  local flag, st2 = w:iprobe(mpi.ANY_SOURCE, 50)
  t.ok(flag)
  t.eq(st2.source, left)
  t.eq((w:recv(left, 50)), {p = left})
  t.eq((w:iprobe(left, 50)), false)
end)

t.case("ssend completes once the receiver has matched it", function()
  if n == 1 then
    local r = w:irecv(0, 60)
    w:issend("self", 0, 60):wait()
    t.eq((r:wait()), "self")
    return
  end
  if me == 0 then
    w:ssend("sync", 1, 60)
    t.eq((w:recv(1, 61)), "matched")
  elseif me == 1 then
    t.eq((w:recv(0, 60)), "sync")
    w:send("matched", 0, 61)
  end
end)

t.case("COMM_SELF talks only to itself", function()
  local s = mpi.COMM_SELF
  t.eq(s:size(), 1)
  t.eq(s:rank(), 0)
  s:send("me", 0, 1)
  t.eq((s:recv(0, 1)), "me")
  t.eq(s:get_name(), "MPI_COMM_SELF")
  t.eq(w:get_name(), "MPI_COMM_WORLD")
end)

t.case("bad ranks and tags raise before anything is sent", function()
  local e = t.raises(function() w:send(1, n, 0) end, "MPI_ERR_RANK")
  t.eq(e.func, "MPI_Send")
  t.ok(e.message:find("destination rank " .. n, 1, true), e.message)
  t.raises(function() w:send(1, -7, 0) end, "MPI_ERR_RANK")
  t.raises(function() w:recv(n + 3, 0) end, "MPI_ERR_RANK")
  t.raises(function() w:send(1, 0, -1) end, "MPI_ERR_TAG")
  t.raises(function() w:send(1, 0, mpi.ANY_TAG) end, "MPI_ERR_TAG")
  t.raises(function() w:irecv(0, -5) end, "MPI_ERR_TAG")
  t.raises(function() w:isend(1, n) end, "MPI_ERR_RANK")
  t.raises(function() w:send(1, 1 << 32) end, "MPI_ERR_RANK")  -- must not wrap to rank 0
  t.raises(function() w:recv(0, 1 << 40) end, "MPI_ERR_TAG")
  -- nothing above was sent: the next message from the left is this one
  w:send("clean", right, 70)
  t.eq((w:recv(left, 70)), "clean")
end)

t.case("unsendable values raise MPI_ERR_TYPE naming the path", function()
  local e = t.raises(function() w:send({a = {1, 2, print}}, right) end, "MPI_ERR_TYPE")
  t.ok(e.message:find("value.a[3]", 1, true), e.message)
  local cyc = {}
  cyc.me = cyc
  t.raises(function() w:send(cyc, right) end, "MPI_ERR_TYPE")
  t.eq(tostring(e):sub(1, 26), "MPI_ERR_TYPE in MPI_Send: ")
end)

t.case("ERRORS_RETURN makes calls return nil, err", function()
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  t.eq(d:get_errhandler(), mpi.ERRORS_RETURN)
  local ok, err = d:send(1, n + 1)
  t.eq(ok, nil)
  t.eq(err.class, "MPI_ERR_RANK")
  t.eq(mpi.error_class(err.code), "MPI_ERR_RANK")
  t.raises(function() w:send(1, n + 1) end, "MPI_ERR_RANK")
end)

t.case("barrier and bcast agree on every rank", function()
  w:barrier()
  for root = 0, n - 1 do
    t.eq(w:bcast(root == me and {root = me} or nil, root), {root = root})
  end
  t.raises(function() w:bcast(1, n) end, "MPI_ERR_ROOT")
end)
