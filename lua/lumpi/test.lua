-- lua/lumpi/test.lua: the scenario library `require("lumpi.test")` (API.md §13).
--
-- A scenario file runs on every rank. Each t.case runs at once, under a
-- protected call, and reports "begin" and its outcome to the coordinator,
-- which decides pass/fail over all ranks and prints the summary. Assertion
-- failures carry the file and line of the assertion and both values.
local host = require("lumpi.host")
local render = require("lumpi.render")

local t = {}
local declared_np
-- After a hang or a crash, the runner reruns the file on a fresh world and
-- skips the cases already reported.
local skip_cases = tonumber(os.getenv("LUMPI_TEST_SKIP")) or 0
local case_count = 0

local Failure = {__tostring = function(f) return f.message end}
local Skip = {__tostring = function(s) return "skipped: " .. s.reason end}
local SizeSkip = {__tostring = function() return "world size not in t.np" end}

-- "file.lua:12" of the first Lua frame outside this library, from `level` up.
local function where(level)
  for l = level, level + 20 do
    local info = debug.getinfo(l, "Sl")
    if not info then break end
    if info.what ~= "C" and info.source ~= "=lumpi.test" then
      return (info.short_src or "?") .. ":" .. (info.currentline or 0)
    end
  end
  return "?"
end

local function fail(level, text)
  error(setmetatable({message = where(level + 1) .. ": " .. text}, Failure), 0)
end

-- Deep equality (API.md §13) with Lua's own == at the leaves: 1 == 1.0, as
-- in Lua; scenarios that care about integer vs float check math.type.
local function deep_eq(a, b, seen)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in pairs(a) do
    local w = rawget(b, k)
    if w == nil or not deep_eq(v, w, seen) then return false end
  end
  for k in pairs(b) do
    if rawget(a, k) == nil then return false end
  end
  return true
end

-- ---- assertions ------------------------------------------------------------

function t.eq(a, b, msg)
  if deep_eq(a, b) then return end
  fail(2, "t.eq failed" .. (msg and (" (" .. msg .. ")") or "") ..
           ": got " .. render.show(a) .. ", expected " .. render.show(b))
end

function t.ok(v, msg)
  if v then return v end
  fail(2, "t.ok failed" .. (msg and (" (" .. msg .. ")") or "") .. ": got " .. render.show(v))
end

-- Runs fn, which must raise; with `class`, the error's MPI class must match.
-- Returns the error.
function t.raises(fn, class)
  local ok, err = pcall(fn)
  if ok then fail(2, "t.raises failed: no error raised" .. (class and (", expected " .. class) or "")) end
  if class then
    local got = type(err) == "table" and err.class or nil
    if got ~= class then
      fail(2, "t.raises failed: expected " .. class .. ", got " .. (got or tostring(err)))
    end
  end
  return err
end

-- Collective over COMM_WORLD: every rank must hold an equal value.
function t.same_everywhere(v)
  local w = mpi.COMM_WORLD
  local mine = render.show(v)
  local all = w:allgather(mine)
  for r = 1, #all do
    if all[r] ~= mine then
      fail(2, "t.same_everywhere failed: rank " .. w:rank() .. " holds " .. mine ..
               ", rank " .. (r - 1) .. " holds " .. all[r])
    end
  end
  return v
end

function t.skip(reason)
  error(setmetatable({reason = reason or "skipped"}, Skip), 0)
end

-- ---- cases -------------------------------------------------------------------

local function describe(err)
  if getmetatable(err) == Failure then return err.message end
  local text = type(err) == "table" and tostring(err) or tostring(err)
  return text
end

local function handler(err)
  if getmetatable(err) == Failure or getmetatable(err) == Skip then return err end
  if type(err) == "table" and err.class then  -- an MPI error object: add where it was raised
    return setmetatable({message = where(3) .. ": " .. tostring(err)}, Failure)
  end
  return setmetatable({message = tostring(err)}, Failure)
end

function t.case(name, fn)
  case_count = case_count + 1
  if case_count <= skip_cases then return end
  local key = case_count  -- cases are told apart by number: names may repeat
  host.event("begin", key, name)
  local ok, err = xpcall(fn, handler)
  if ok then
    host.event("case", key, name, "pass", "")
  elseif getmetatable(err) == Skip then
    host.event("case", key, name, "skip", err.reason)
  else
    host.event("case", key, name, "fail", describe(err))
  end
end

-- t.np = {1, 2, 4}: the world sizes this file runs under. On a world of
-- another size the file stops here (the coordinator runs it at each size).
setmetatable(t, {
  __index = function(_, k) if k == "np" then return declared_np end end,
  __newindex = function(tbl, k, v)
    if k ~= "np" then return rawset(tbl, k, v) end
    if type(v) == "number" then v = {v} end
    declared_np = v
    local sizes, here = {}, false
    for i, n in ipairs(v) do
      sizes[i] = tostring(n)
      if n == mpi.size() then here = true end
    end
    host.event("np", table.concat(sizes, ","))
    if not here then error(setmetatable({}, SizeSkip), 0) end
  end,
})

return t
