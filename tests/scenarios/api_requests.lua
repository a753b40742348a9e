-- tests/scenarios/api_requests.lua: the return shapes API.md §3/§6 promise
-- for requests and the point-to-point defaults: r:test() -> done, value,
-- status; cancel completes a request (MPI_Cancel: wait/test return, the
-- status says cancelled); mpi.waitall/waitany/testall; status tables.
local t = require("lumpi.test")
t.np = {1, 2, 3, 5}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local right, left = (me + 1) % n, (me - 1) % n

t.case("send tag defaults to 0, recv defaults to ANY_SOURCE and ANY_TAG", function()
  w:send({me}, right)
  local v, st = w:recv()
  t.eq(v, {left})
  t.eq(st.source, left)
  t.eq(st.tag, 0)
  t.ok(st.error ~= nil, "status.error is present")
end)

t.case("PROC_NULL completes at once", function()
  t.eq(select("#", w:send(1, mpi.PROC_NULL)), 0)
  local v, st = w:recv(mpi.PROC_NULL)
  t.eq(v, nil)
  t.eq(st.source, mpi.PROC_NULL)
  t.eq(st.tag, mpi.ANY_TAG)
end)

t.case("r:test returns done, value, status", function()
  local r = w:irecv(left, 11)
  t.eq(r:test(), false)
  w:barrier()  -- every rank tested before anyone sends
  w:send(me * 10, right, 11)
  local v, st = r:wait()
  t.eq(v, left * 10)
  local done, v2, st2 = r:test()  -- a finished request answers again
  t.eq(done, true)
  t.eq(v2, left * 10)
  t.eq(st2, st)
  t.eq(st.source, left)
  t.eq(st.tag, 11)
end)

t.case("a cancelled receive completes: test and wait return, status.cancelled", function()
  local r = w:irecv(left, 12)
  t.eq(r:cancel(), true)
  local done, v, st = r:test()
  t.eq(done, true)
  t.eq(v, nil)
  t.eq(st.cancelled, true)
  local v2, st2 = r:wait()
  t.eq(v2, nil)
  t.eq(st2.cancelled, true)
  t.eq(r:cancel(), false, "a complete request cannot be cancelled again")
end)

t.case("waitall returns values and statuses in request order", function()
  local reqs = {w:irecv(left, 13), w:irecv(left, 14)}
  w:send("b", right, 14)
  w:send("a", right, 13)
  local values, statuses = mpi.waitall(reqs)
  t.eq(values, {"a", "b"})
  t.eq(statuses[1].tag, 13)
  t.eq(statuses[2].tag, 14)
  t.eq(statuses[2].source, left)
end)

t.case("testall: false while pending, then true, values, statuses", function()
  local reqs = {w:irecv(left, 15)}
  t.eq(mpi.testall(reqs), false)
  w:barrier()
  w:send(me, right, 15)
  local done, values, statuses
  repeat done, values, statuses = mpi.testall(reqs) until done
  t.eq(values, {left})
  t.eq(statuses[1].source, left)
  t.eq(statuses[1].tag, 15)
end)

t.case("waitany returns index, value, status", function()
  local reqs = {w:irecv(left, 16), w:irecv(left, 17)}
  w:send("x", right, 17)
  local i, v, st = mpi.waitany(reqs)
  t.eq(i, 2)
  t.eq(v, "x")
  t.eq(st.tag, 17)
  t.ok(reqs[1]:cancel())
  t.eq(mpi.waitany({}), mpi.UNDEFINED)
end)

t.case("sendrecv and iprobe shapes", function()
  local v, st = w:sendrecv(me, right, 18, left, 18)
  t.eq(v, left)
  t.eq(st.source, left)
  t.eq(w:iprobe(left, 19), false)
  w:send(1, me, 19)
  local flag, st2 = w:iprobe(me, 19)
  t.eq(flag, true)
  t.eq(st2.source, me)
  t.eq(st2.tag, 19)
  t.eq(w:probe(me, 19).tag, 19)
  t.eq((w:recv(me, 19)), 1)
end)

t.case("a receive still pending when its communicator is freed completes with its status", function()
  local d = w:dup()
  local r = d:irecv(left, 8)
  d:send("late", right, 8)
  d:free()  -- MPI-3.1 §6.4.3: pending operations complete normally
  collectgarbage()
  local junk = {}
  for i = 1, 20000 do junk[i] = {i} end  -- reuse whatever memory the communicator had
  local v, st = r:wait()
  t.eq(v, "late")
  t.eq(st.source, left)
  t.eq(st.tag, 8)
end)
