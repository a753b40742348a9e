-- lua/lumpi/draw.lua: what one rank knows about a value, for the REPL's :draw
-- and :dot (require("lumpi.draw")).
--
-- describe(v) runs on every rank and returns plain text, one fact per line,
-- "key value...", that the coordinator (repl/view/draw.cpp) gathers and draws:
--
--   kind comm|group|null|other     always first
--   class Intracomm|Intercomm|Cartcomm|Graphcomm|Distgraphcomm   (comm)
--   text <tostring(v)>             for other values
--   world <COMM_WORLD rank of this process>
--   name <name>  rank <r>  size <n>  inter 0|1
--   members <world ranks of the local group, in rank order>
--   remote <world ranks of the remote group>          (intercommunicators)
--   topo cart|graph|dist_graph|none
--   dims .. / periods 1 0 .. / coords ..               (cart)
--   index .. / edges ..                                (graph)
--   sources .. / sourceweights .. / dests .. / destweights ..   (dist_graph;
--       weights lines only when weighted)
--   note <text>                    a query that failed or does not exist yet
--
-- For a datatype (kind type): text <tostring>, bounds <size lb extent
-- true_lb true_extent>, and one "run <offset> <count> <bytes> <MPI name>"
-- per run of its type map (at most 2000; a note says how many more).
--
-- For a window (kind win): text <tostring>, rank <rank in the window's
-- group>, winmem <bytes> <disp_unit> <element type name> <elements>, and
-- values <the first 64 elements of the exposed buffer> (a note says how
-- many more).
--
-- Every query is protected: a topology method that is missing or raises
-- becomes a "note" line, so a drawing degrades instead of failing.
local M = {}

local function ints(t)
  local out = {}
  for i = 1, #t do out[i] = tostring(t[i] and math.tointeger(t[i]) or t[i]) end
  return table.concat(out, " ")
end

local function bools(t)
  local out = {}
  for i = 1, #t do out[i] = t[i] and "1" or "0" end
  return table.concat(out, " ")
end

-- Calls obj:method(...) if the method exists; nil plus a reason otherwise.
local function try(obj, method, ...)
  local ok, f = pcall(function() return obj[method] end)
  if not ok or type(f) ~= "function" then return nil, method .. " is not available" end
  local res = table.pack(pcall(f, obj, ...))
  if not res[1] then return nil, method .. " failed: " .. tostring(res[2]) end
  return table.unpack(res, 2, res.n)
end

-- By the metatable's __name: every class answers a missing method with a
-- function that raises "no method ...", so probing methods proves nothing.
local COMM_CLASSES = {Intracomm = true, Intercomm = true, Cartcomm = true, Graphcomm = true,
  Distgraphcomm = true}

local function class_name(v)
  local mt = getmetatable(v)
  return type(v) == "userdata" and type(mt) == "table" and mt.__name or nil
end

local function is_comm(v) return COMM_CLASSES[class_name(v)] == true end

local function is_group(v) return class_name(v) == "group" end

local function topo_lines(c, out)
  local kind = try(c, "topo_test")
  if kind == "cart" then
    out[#out + 1] = "topo cart"
    local dims, periods, coords = try(c, "cart_get")
    if type(dims) == "table" then
      out[#out + 1] = "dims " .. ints(dims)
      out[#out + 1] = "periods " .. bools(periods or {})
      out[#out + 1] = "coords " .. ints(coords or {})
    else
      out[#out + 1] = "note " .. tostring(periods)
    end
  elseif kind == "graph" then
    out[#out + 1] = "topo graph"
    local index, edges = try(c, "graph_get")
    if type(index) == "table" then
      out[#out + 1] = "index " .. ints(index)
      out[#out + 1] = "edges " .. ints(edges or {})
    else
      out[#out + 1] = "note " .. tostring(edges)
    end
  elseif kind == "dist_graph" then
    out[#out + 1] = "topo dist_graph"
    local sources, sw, dests, dw = try(c, "dist_graph_neighbors")
    if type(sources) == "table" then
      out[#out + 1] = "sources " .. ints(sources)
      out[#out + 1] = "dests " .. ints(dests or {})
      if type(sw) == "table" then out[#out + 1] = "sourceweights " .. ints(sw) end
      if type(dw) == "table" then out[#out + 1] = "destweights " .. ints(dw) end
    else
      out[#out + 1] = "note " .. tostring(sw)
    end
  else
    out[#out + 1] = "topo none"
  end
end

local function describe_comm(c, out)
  out[#out + 1] = "kind comm"
  local mt = getmetatable(c)
  out[#out + 1] = "class " .. tostring(type(mt) == "table" and mt.__name or "")
  out[#out + 1] = "name " .. tostring(try(c, "get_name") or "")
  out[#out + 1] = "rank " .. tostring(try(c, "rank"))
  out[#out + 1] = "size " .. tostring(try(c, "size"))
  local inter = try(c, "test_inter")
  out[#out + 1] = "inter " .. (inter and "1" or "0")
  local g, why = try(c, "group")
  local members = g and try(g, "members")
  if members then out[#out + 1] = "members " .. ints(members)
  else out[#out + 1] = "note " .. tostring(why or "group members are not available") end
  if inter then
    local rg = try(c, "remote_group")
    local remote = rg and try(rg, "members")
    if remote then out[#out + 1] = "remote " .. ints(remote) end
  else
    topo_lines(c, out)
  end
end

local function is_type(v)
  local mt = getmetatable(v)
  return type(v) == "userdata" and type(mt) == "table" and mt.__name == "datatype"
end

local function describe_type(v, out)
  out[#out + 1] = "kind type"
  out[#out + 1] = "text " .. tostring(v)
  local ok, lb, extent = pcall(v.get_extent, v)
  if not ok then return end  -- a freed type: its text says so
  local tlb, textent = v:get_true_extent()
  out[#out + 1] = ("bounds %d %d %d %d %d"):format(v:size(), lb, extent, tlb, textent)
  local okmap, map = pcall(v.typemap, v)
  if not okmap then
    out[#out + 1] = "note " .. tostring(map)
    return
  end
  for i, r in ipairs(map) do
    if i > 2000 then
      out[#out + 1] = "note " .. (#map - 2000) .. " more runs not shown"
      break
    end
    out[#out + 1] = ("run %d %d %d %s"):format(r[1], r[3], r[4], r[2])
  end
end

local function is_win(v)
  local mt = getmetatable(v)
  return type(v) == "userdata" and type(mt) == "table" and mt.__name == "Win"
end

local function element_text(x)
  if math.type(x) == "float" then return ("%.6g"):format(x) end
  if type(x) == "table" then return "(" .. tostring(x[1]) .. "," .. tostring(x[2]) .. ")" end
  return tostring(x)
end

local function describe_win(w, out)
  out[#out + 1] = "kind win"
  out[#out + 1] = "text " .. tostring(w)
  -- tostring answers after free too: "win 'name' size=24 disp_unit=8 rank=1/3"
  local size, unit, rank = tostring(w):match("size=(%d+) disp_unit=(%d+) rank=(%d+)/")
  out[#out + 1] = "rank " .. tostring(rank)
  local buf, why = try(w, "memory")
  if not buf then
    out[#out + 1] = "note " .. tostring(why)
    return
  end
  local name = tostring(buf):match("^buffer ([%w_]+)%[") or "?"
  out[#out + 1] = ("winmem %s %s MPI_%s %d"):format(tostring(size or "?"), tostring(unit or "?"), name, #buf)
  local vals = {}
  for i = 1, math.min(#buf, 64) do vals[i] = element_text(buf[i]) end
  out[#out + 1] = "values " .. table.concat(vals, " ")
  if #buf > 64 then out[#out + 1] = "note " .. (#buf - 64) .. " more elements not shown" end
end

function M.describe(v)
  local out = {}
  if v == nil then
    out[1] = "kind null"
  elseif is_type(v) then
    describe_type(v, out)
  elseif is_win(v) then
    describe_win(v, out)
  elseif is_comm(v) then
    describe_comm(v, out)
  elseif is_group(v) then
    out[1] = "kind group"
    out[2] = "rank " .. tostring(try(v, "rank"))
    out[3] = "size " .. tostring(try(v, "size"))
    local members = try(v, "members")
    if members then out[4] = "members " .. ints(members) end
  else
    out[1] = "kind other"
    out[2] = "text " .. tostring(v):gsub("\n", " ")
  end
  table.insert(out, 2, "world " .. tostring(mpi.rank()))
  return table.concat(out, "\n")
end

return M
