-- tests/scenarios/requests_persistent.lua: the rest of MPI's requests in Lua
-- (MPI-3.1 §3.7.3-3.7.6, §3.9): persistent requests in every send mode and
-- for receives, r:start and mpi.startall, mpi.testany/waitsome/testsome,
-- r:get_status, r:free, and the MPI_ERR_REQUEST cases, raised before
-- anything is sent. Each case uses tags of its own.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local right, left = (me + 1) % n, (me - 1) % n

local EMPTY = {source = mpi.ANY_SOURCE, tag = mpi.ANY_TAG, error = 0}

-- The fields of a status, as a plain table.
local function fields(st) return {source = st.source, tag = st.tag, error = st.error} end

-- Sends a marker to the right and waits for the left one's: everything the
-- left neighbour sent before its marker has then arrived (messages between
-- a pair never overtake).
local function settle(tag)
  w:send("marker", right, tag)
  w:recv(left, tag)
end

t.case("a persistent send and receive, restarted, carry each round's value around the ring", function()
  local msg = {round = 0, from = me}
  local s = w:send_init(msg, right, 100)
  local r = w:recv_init(left, 100)
  t.eq(tostring(s), "persistent request (inactive)")
  for round = 1, 5 do
    msg.round = round  -- a table is read again at each start
    r:start()
    s:start()
    t.eq(tostring(r), "persistent request (active)")
    local v, st = r:wait()
    t.eq(v, {round = round, from = left})
    t.eq(st.source, left)
    t.eq(st.tag, 100)
    t.eq(s:wait(), nil)
    t.eq(tostring(r), "persistent request (inactive)")
  end
  s:free()
  r:free()
end)

t.case("a scalar value is fixed at send_init; waitany loops complete each start once", function()
  local s = w:send_init(me * 7, right, 101)
  local r = w:recv_init(left, 101)
  for _ = 1, 3 do
    mpi.startall({r, s})
    local got = {}
    for _ = 1, 2 do
      local i, v = mpi.waitany({r, s})
      t.ok(not got[i], "index " .. i .. " returned twice")
      got[i] = true
      if i == 1 then t.eq(v, left * 7) end
    end
    t.eq(mpi.waitany({r, s}), mpi.UNDEFINED)  -- both inactive again
  end
end)

t.case("typed persistent requests read the buffer at each start and fill it at each completion", function()
  local out, into = mpi.buffer(mpi.INT, 3), mpi.buffer(mpi.INT, 3)
  local s = w:send_init(out, 3, mpi.INT, right, 102)
  local r = w:recv_init(into, 3, mpi.INT, left, 102)
  for round = 1, 4 do
    for i = 1, 3 do out[i] = me * 100 + round * 10 + i end
    mpi.startall({r, s})
    local values, statuses = mpi.waitall({r, s})
    t.ok(rawequal(values[1], into), "a typed receive's value is its buffer")
    t.eq({into[1], into[2], into[3]}, {left * 100 + round * 10 + 1, left * 100 + round * 10 + 2,
                                       left * 100 + round * 10 + 3})
    t.eq(statuses[1]:get_count(mpi.INT), 3)
    t.eq(statuses[1].source, left)
  end
  r:free()
  s:free()
end)

t.case("every send mode's persistent request delivers, round after round", function()
  local modes = {"send_init", "bsend_init", "ssend_init", "rsend_init"}
  local sends, recvs = {}, {}
  for k, mode in ipairs(modes) do
    recvs[k] = w:recv_init(left, 110 + k)
    sends[k] = w[mode](w, {mode = mode, from = me}, right, 110 + k)
  end
  for _ = 1, 3 do
    mpi.startall(recvs)
    w:barrier()  -- every receive is posted before a ready send starts
    mpi.startall(sends)
    local values, statuses = mpi.waitall(recvs)
    for k, mode in ipairs(modes) do
      t.eq(values[k], {mode = mode, from = left})
      t.eq(statuses[k].tag, 110 + k)
    end
    local sv = mpi.waitall(sends)
    t.eq(#sv, 0)
  end
end)

t.case("a persistent synchronous send completes only once its message is matched", function()
  local s = w:ssend_init("sync", right, 120)
  s:start()
  t.eq(s:test(), false)
  t.eq(s:get_status(), false)
  w:barrier()  -- nobody has posted the receive before this
  t.eq((w:recv(left, 120)), "sync")
  local v, st = s:wait()
  t.eq(v, nil)
  t.eq(st.error, 0)
  s:start()  -- and again
  t.eq((w:recv(left, 120)), "sync")
  s:wait()
end)

t.case("waitsome and testsome return the right indices and values, skipping nil and inactive", function()
  local idle = w:recv_init(left, 139)  -- never started: inactive
  local reqs = {w:irecv(left, 131), nil, w:irecv(left, 133), idle, w:irecv(left, 135)}
  w:send("c", right, 133)
  w:send("a", right, 131)
  settle(130)
  local idx, values, statuses = mpi.waitsome(reqs)
  t.eq(idx, {1, 3})
  t.eq(values, {"a", "c"})
  t.eq(statuses[1].tag, 131)
  t.eq(statuses[2].tag, 133)
  t.eq(statuses[2].source, left)
  local idx2, values2 = mpi.testsome(reqs)  -- 1 and 3 were returned: skipped now
  t.eq(idx2, {})
  t.eq(values2, {})
  w:barrier()  -- every rank has looked before anyone sends the next one
  w:send("e", right, 135)
  settle(130)
  local idx3, values3, statuses3 = mpi.testsome(reqs)
  t.eq(idx3, {5})
  t.eq(values3, {"e"})
  t.eq(statuses3[1].tag, 135)
  t.eq(mpi.waitsome(reqs), mpi.UNDEFINED)
  t.eq(mpi.testsome(reqs), mpi.UNDEFINED)
  t.eq(mpi.waitsome({}), mpi.UNDEFINED)
  local i, v, st = mpi.waitany(reqs)
  t.eq({i, v, fields(st)}, {mpi.UNDEFINED, nil, EMPTY})
  t.eq((reqs[3]:wait()), "c")  -- a complete ordinary request still answers wait
  idle:free()
end)

t.case("waitsome over persistent requests: every start is returned once", function()
  local rs, ss = {}, {}
  for k = 1, 3 do
    rs[k] = w:recv_init(left, 140 + k)
    ss[k] = w:send_init(k * 1000 + me, right, 140 + k)
  end
  for _ = 1, 2 do
    mpi.startall(rs)
    mpi.startall(ss)
    local seen = {}
    while true do
      local idx, values = mpi.waitsome(rs)
      if idx == mpi.UNDEFINED then break end
      for k, i in ipairs(idx) do
        t.ok(not seen[i], "index " .. i .. " returned twice")
        seen[i] = true
        t.eq(values[k], i * 1000 + left)
      end
    end
    t.eq(seen, {true, true, true})
    mpi.waitall(ss)
  end
end)

t.case("testany: false while pending, the completed index, then true and UNDEFINED", function()
  local reqs = {nil, w:irecv(left, 151), w:irecv(left, 152)}
  t.eq(mpi.testany(reqs), false)
  w:barrier()  -- every rank has tested before anyone sends
  w:send("b", right, 152)
  settle(150)
  local flag, i, v, st = mpi.testany(reqs)
  t.eq({flag, i, v, st.tag, st.source}, {true, 3, "b", 152, left})
  t.eq(mpi.testany(reqs), false)  -- 3 is skipped now, 2 still pending
  w:barrier()
  w:send("a", right, 151)
  settle(150)
  flag, i, v = mpi.testany(reqs)
  t.eq({flag, i, v}, {true, 2, "a"})
  flag, i, v, st = mpi.testany(reqs)
  t.eq({flag, i, v, fields(st)}, {true, mpi.UNDEFINED, nil, EMPTY})
  flag, i = mpi.testany({})
  t.eq({flag, i}, {true, mpi.UNDEFINED})
end)

t.case("get_status does not consume: wait and waitany still return the result", function()
  local r = w:irecv(left, 160)
  t.eq(r:get_status(), false)
  w:barrier()
  w:send({x = me}, right, 160)
  local flag, st
  repeat flag, st = r:get_status() until flag
  t.eq(st.source, left)
  t.eq(st.tag, 160)
  t.eq(r:get_status(), true)  -- as often as asked
  local i, v = mpi.waitany({r})
  t.eq({i, v}, {1, {x = left}})

  local p = w:recv_init(left, 161)
  local f0, st0 = p:get_status()  -- inactive: true and an empty status (MPI-2.2 change)
  t.eq({f0, fields(st0)}, {true, EMPTY})
  p:start()
  w:send(me, right, 161)
  repeat flag, st = p:get_status() until flag
  t.eq(st.tag, 161)
  t.eq(tostring(p), "persistent request (active)")
  local flag2, idx = mpi.testany({p})  -- still there for the completion calls
  t.eq({flag2, idx}, {true, 1})
  t.eq(tostring(p), "persistent request (inactive)")
  p:free()
end)

t.case("an inactive persistent request completes at once with an empty status", function()
  local p = w:recv_init(left, 170)
  local v, st = p:wait()
  t.eq({v, fields(st)}, {nil, EMPTY})
  local done, v2, st2 = p:test()
  t.eq({done, v2, fields(st2)}, {true, nil, EMPTY})
  local values, statuses = mpi.waitall({p, nil, p})
  t.eq(values, {})
  t.eq({fields(statuses[1]), fields(statuses[2]), fields(statuses[3])}, {EMPTY, EMPTY, EMPTY})
  t.eq(mpi.testall({nil, p}), true)
  t.eq(st:get_count(mpi.INT), 0)
  -- a completed start returns its result once, then the empty one
  p:start()
  w:send("once", right, 170)
  t.eq((p:wait()), "once")
  t.eq({p:wait()}, {nil, st})
  p:free()
end)

t.case("testall leaves pending persistent requests active and retires them all when complete", function()
  local r = w:recv_init(left, 180)
  r:start()
  t.eq(mpi.testall({r}), false)
  t.eq(tostring(r), "persistent request (active)")
  w:barrier()
  w:send("t", right, 180)
  local done, values
  repeat done, values = mpi.testall({r, nil}) until done
  t.eq(values, {"t"})
  t.eq(tostring(r), "persistent request (inactive)")
  r:free()
end)

t.case("a freed active receive still takes its message", function()
  local r = w:irecv(left, 190)
  r:free()
  t.eq(tostring(r), "request (freed)")
  w:send("first", right, 190)
  w:send("second", right, 190)
  t.eq((w:recv(left, 190)), "second")  -- "first" went to the freed receive
end)

t.case("a freed active typed receive still fills its buffer", function()
  local buf = mpi.buffer(mpi.INT, 2)
  local r = w:irecv(buf, 2, mpi.INT, left, 191)
  r:free()
  r = nil
  collectgarbage("collect")  -- the handle may go: the buffer stays until the message lands
  w:send(mpi.buffer(mpi.INT, 2, {me, me * 2}), 2, mpi.INT, right, 191)
  settle(192)
  t.eq({buf[1], buf[2]}, {left, left * 2})
end)

t.case("freeing an active persistent receive or synchronous send lets it complete", function()
  local p = w:recv_init(left, 193)
  p:start()
  p:free()
  t.raises(function() p:start() end, "MPI_ERR_REQUEST")
  local s = w:issend("matched", right, 194)
  s:free()
  w:send("taken", right, 193)
  w:send("left for recv", right, 193)
  t.eq((w:recv(left, 193)), "left for recv")
  t.eq((w:recv(left, 194)), "matched")
  local q = w:send_init(1, right, 195)  -- an inactive one: simply gone
  q:free()
  t.eq(tostring(q), "request (freed)")
end)

t.case("a freed active persistent typed receive still fills its buffer, and start raises after", function()
  local buf = mpi.buffer(mpi.INT, 3)
  local p = w:recv_init(buf, 3, mpi.INT, left, 196)
  p:start()
  t.eq(p:get_status(), false)
  w:barrier()  -- no message is sent before every rank has looked
  p:free()
  t.eq(tostring(p), "request (freed)")
  local err = t.raises(function() p:start() end, "MPI_ERR_REQUEST")
  t.eq(err.func, "MPI_Start")
  err = t.raises(function() p:free() end, "MPI_ERR_REQUEST")
  t.eq(err.func, "MPI_Request_free")
  p = nil
  collectgarbage("collect")
  w:send(mpi.buffer(mpi.INT, 3, {me, me + 1, me + 2}), 3, mpi.INT, right, 196)
  settle(197)
  t.eq({buf[1], buf[2], buf[3]}, {left, left + 1, left + 2})
end)

t.case("a freed request raises MPI_ERR_REQUEST at every later use, naming it", function()
  local r = w:isend(1, mpi.PROC_NULL)
  r:free()
  for _, m in ipairs({"wait", "test", "get_status", "cancel", "free", "start"}) do
    local err = t.raises(function() r[m](r) end, "MPI_ERR_REQUEST")
    t.ok(err.message:find("request was freed", 1, true), err.message)
  end
  local err = t.raises(function() mpi.waitall({w:isend(1, mpi.PROC_NULL), r}) end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("requests[2] was freed", 1, true), err.message)
  t.eq(err.func, "MPI_Waitall")
  for _, f in ipairs({"waitany", "testany", "waitsome", "testsome", "testall", "startall"}) do
    t.raises(function() mpi[f]({r}) end, "MPI_ERR_REQUEST")
  end
  t.eq(select(2, pcall(r.free, r)).func, "MPI_Request_free")
end)

t.case("start errors: active, not persistent, nil, twice, and none of startall starts", function()
  local a = w:recv_init(left, 200)
  local b = w:recv_init(left, 201)
  a:start()
  local err = t.raises(function() a:start() end, "MPI_ERR_REQUEST")
  t.eq(err.func, "MPI_Start")
  t.ok(err.message:find("already active", 1, true), err.message)
  err = t.raises(function() mpi.startall({b, a}) end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("requests[2] is already active", 1, true), err.message)
  t.eq(tostring(b), "persistent request (inactive)")  -- checked before any started
  err = t.raises(function() mpi.startall({b, nil, b}) end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("requests[2] is nil", 1, true), err.message)
  err = t.raises(function() mpi.startall({b, b}) end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("requests[2] appears twice", 1, true), err.message)
  t.eq(tostring(b), "persistent request (inactive)")
  local ordinary = w:isend(1, mpi.PROC_NULL)
  err = t.raises(function() ordinary:start() end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("not a persistent request", 1, true), err.message)
  t.raises(function() mpi.startall({ordinary}) end, "MPI_ERR_REQUEST")
  t.raises(function() mpi.startall({1}) end, "MPI_ERR_REQUEST")
  t.raises(function() mpi.startall(5) end, "MPI_ERR_ARG")
  t.raises(function() b:cancel() end, "MPI_ERR_REQUEST")  -- not active
  t.ok(a:cancel())  -- an active persistent receive can be cancelled
  local _, st = a:wait()
  t.eq(st.cancelled, true)
  t.eq(tostring(a), "persistent request (inactive)")
  a:free()
  b:free()
end)

t.case("init errors raise before anything is sent, naming the argument", function()
  t.raises(function() w:send_init(1, n) end, "MPI_ERR_RANK")
  t.raises(function() w:bsend_init(1, -7) end, "MPI_ERR_RANK")
  t.raises(function() w:ssend_init(1, right, -1) end, "MPI_ERR_TAG")
  t.raises(function() w:rsend_init(1, right, "x") end, "MPI_ERR_ARG")
  local err = t.raises(function() w:send_init({f = print}, right) end, "MPI_ERR_TYPE")
  t.ok(err.message:find("value.f", 1, true), err.message)
  t.eq(err.func, "MPI_Send_init")
  t.raises(function() w:recv_init(n + 1) end, "MPI_ERR_RANK")
  t.raises(function() w:recv_init(left, -5) end, "MPI_ERR_TAG")
  t.raises(function() w:recv_init(mpi.buffer(mpi.INT, 1), -1, mpi.INT, left) end, "MPI_ERR_COUNT")
  t.raises(function() w:send_init(mpi.buffer(mpi.INT, 1), 2, mpi.INT, right) end, "MPI_ERR_BUFFER")
  t.raises(function() mpi.COMM_SELF.send_init(42, 1, 0) end, "MPI_ERR_COMM")
  -- a table that becomes unsendable raises at start, and the request stays inactive
  local msg = {1}
  local s = w:send_init(msg, right, 210)
  msg.f = print
  err = t.raises(function() s:start() end, "MPI_ERR_TYPE")
  t.eq(err.func, "MPI_Start")
  t.eq(tostring(s), "persistent request (inactive)")
  t.raises(function() mpi.startall({s}) end, "MPI_ERR_TYPE")
  t.eq(tostring(s), "persistent request (inactive)")
  msg.f = nil
  local r = w:recv_init(left, 210)
  mpi.startall({s, r})
  t.eq(mpi.waitall({r, s}), {{1}})
end)

t.case("sequence errors, and what a collective's request cannot do", function()
  t.raises(function() mpi.waitsome("x") end, "MPI_ERR_ARG")
  t.raises(function() mpi.testsome(nil) end, "MPI_ERR_ARG")
  local err = t.raises(function() mpi.testany({w:isend(1, mpi.PROC_NULL), 1}) end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("requests[2] is not a request", 1, true), err.message)
  local b = w:ibarrier()
  err = t.raises(function() b:free() end, "MPI_ERR_REQUEST")
  t.ok(err.message:find("§5.12", 1, true), err.message)
  t.eq(b:wait(), nil)  -- still usable
  local c, rq = w:idup()
  t.raises(function() rq:free() end, "MPI_ERR_REQUEST")
  rq:wait()
  c:free()
end)

t.case("errors of a request's calls answer to its communicator's handler", function()
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  local p = d:recv_init(left, 220)
  p:start()
  local v, err = p:start()
  t.eq(v, nil)
  t.eq(err.class, "MPI_ERR_REQUEST")
  t.ok(p:cancel())
  p:wait()
  p:free()
  local v2, err2 = p:get_status()
  t.eq({v2, err2.class, err2.func}, {nil, "MPI_ERR_REQUEST", "MPI_Request_get_status"})
  local none, e3 = d:send_init(1, n)
  t.eq({none, e3.class}, {nil, "MPI_ERR_RANK"})
  d:free()
end)
