-- help_coverage: lua/lumpi/help.lua answers for everything the live `mpi` module
-- has, and names nothing it lacks.
--
-- Forward: every function and constant of mpi and mpi.hw, and every method
-- reachable through the metatables (and their __index chains) of the values
-- a program can make (COMM_WORLD, a dup, a Cartesian, graph and
-- distributed-graph communicator, an intercommunicator and its merge, a
-- group, a request, an op, a keyval, an error object) and of every
-- metatable the binding registered, has an entry of its class or an
-- ancestor. Backward: every entry's name exists where the entry says.
local t = require("lumpi.test")
local help = require("lumpi.help")
t.np = {1, 2, 4}

-- The values to walk, made the way a user makes them.
local function make_values()
  local w = mpi.COMM_WORLD
  local n, r = w:size(), w:rank()
  local v = {w, mpi.COMM_SELF, w:dup(), w:group(), mpi.GROUP_EMPTY, mpi.SUM,
    mpi.op_create(function(a, b) return a + b end, true), mpi.comm_create_keyval{},
    mpi.KEYVAL_INVALID, mpi.TAG_UB}
  v[#v + 1] = w:cart_create(mpi.dims_create(n, 2), {true, false})
  local index, edges = {}, {}
  for i = 1, n do index[i] = i; edges[i] = i % n end
  v[#v + 1] = w:graph_create(index, edges)
  v[#v + 1] = w:dist_graph_create_adjacent({(r - 1) % n}, {(r + 1) % n})
  local c, req = w:idup()
  req:wait()
  v[#v + 1], v[#v + 2] = c, req
  local recv = mpi.COMM_SELF:irecv(0, 5)
  mpi.COMM_SELF:send("x", 0, 5)
  recv:wait()
  v[#v + 1] = recv
  v[#v + 1] = select(2, pcall(w.send, w, 1, n))  -- an error object
  local ty = mpi.type_contiguous(2, mpi.INT)
  ty:commit()
  local win = w:win_allocate(8, 8)
  v[#v + 1], v[#v + 2], v[#v + 3] = ty, mpi.INT, win
  v[#v + 1] = mpi.comm_create_errhandler(function() end)
  v[#v + 1] = mpi.buffer(mpi.DOUBLE, 2)
  v[#v + 1], v[#v + 2] = mpi.type_create_keyval{}, mpi.win_create_keyval{}
  v[#v + 1] = w:ibarrier()
  v[#v + 1] = mpi.REPLACE
  if n >= 2 then
    local color = r % 2
    local half = w:split(color, r)
    local inter = half:intercomm_create(0, w, 1 - color, 3)
    v[#v + 1] = inter
    v[#v + 1] = inter:remote_group()
    v[#v + 1] = inter:intercomm_merge(color == 1)
  end
  return v
end

-- available[class][name] = true for every method found; comm_any[name] for
-- methods of a metatable shared by every kind of communicator.
local function collect(values)
  local available, comm_any, lacking = {}, {}, {}
  local function note(class, exact, name, f)
    if type(name) ~= "string" or name:match("^__") or type(f) ~= "function" then return end
    available[class] = available[class] or {}
    available[class][name] = true
    if not exact and help.lineage(class)[#help.lineage(class)] == "Comm" then
      comm_any[name] = true
    end
    local what = class .. ":" .. name
    if #help.method_entries(class, name, exact) == 0 and not lacking[what] then
      lacking[what] = true
      lacking[#lacking + 1] = what
    end
  end
  local function walk(class, exact, mt)
    if class and type(mt) == "table" then
      help.each_method(mt, function(name, f) note(class, exact, name, f) end)
    end
  end
  for _, v in ipairs(values) do
    local class, exact = help.class_of(v)
    walk(class, exact, getmetatable(v))
  end
  for k, mt in pairs(debug.getregistry()) do
    if type(k) == "string" and k:match("^lumpi%.") and type(mt) == "table" then
      local short = k:match("([%w_]+)$")
      local class = help.classes[short] and short
      if class then
        walk(class, class ~= "Comm", mt)
      else  -- a metatable of no class in help must have no methods
        help.each_method(mt, function(name, f)
          if type(f) == "function" and not name:match("^__") and not lacking[k .. ":" .. name] then
            lacking[k .. ":" .. name] = true
            lacking[#lacking + 1] = k .. ":" .. name .. " (no class in lua/lumpi/help.lua)"
          end
        end)
      end
    end
  end
  return available, comm_any, lacking
end

local values = make_values()

t.case("every function and constant of mpi has help", function()
  local lacking = {}
  for k, v in pairs(mpi) do
    if not help.by_key["mpi." .. k] then lacking[#lacking + 1] = "mpi." .. k end
    if k == "hw" then
      for hk in pairs(v) do
        if not help.by_key["mpi.hw." .. hk] then lacking[#lacking + 1] = "mpi.hw." .. hk end
      end
    end
  end
  table.sort(lacking)
  t.eq(lacking, {})
end)

t.case("every method of every value and metatable has help", function()
  local _, _, lacking = collect(values)
  local list = {table.unpack(lacking)}
  table.sort(list)
  t.eq(list, {})
end)

t.case("every help entry names something that exists", function()
  local available, comm_any = collect(values)
  local ghosts = {}
  for _, e in ipairs(help.entries) do
    if e.class == "mpi" then
      if mpi[e.name] == nil and not e.absent then ghosts[#ghosts + 1] = e.key end
    elseif e.class == "mpi.hw" then
      if mpi.hw[e.name] == nil then ghosts[#ghosts + 1] = e.key end
    else
      local found = false
      for class, names in pairs(available) do
        for _, anc in ipairs(help.lineage(class)) do
          for _, owner in ipairs(help.owners(e)) do
            if anc == owner and names[e.name] then found = true end
          end
        end
      end
      local is_comm = help.lineage(e.class)[#help.lineage(e.class)] == "Comm"
      if not found and not (is_comm and comm_any[e.name]) then ghosts[#ghosts + 1] = e.key end
    end
  end
  t.eq(ghosts, {})
end)

t.case("every entry is complete and its references resolve", function()
  local bad = {}
  for _, e in ipairs(help.entries) do
    for _, field in ipairs({"call", "mpi", "does", "sec", "kind"}) do
      if type(e[field]) ~= "string" or e[field] == "" then bad[#bad + 1] = e.key .. " lacks " .. field end
    end
    -- every function and method says the errors it raises (constants raise none)
    if e.kind ~= "constant" and type(e.errors) ~= "table" then bad[#bad + 1] = e.key .. " lacks errors" end
    for _, s in ipairs(e.see or {}) do
      if not help.by_key[s] and not help.classes[s] then bad[#bad + 1] = e.key .. " sees " .. s end
    end
  end
  t.eq(bad, {})
end)

t.case("text finds each entry by its key, its name and its MPI name", function()
  local bad = {}
  for _, e in ipairs(help.entries) do
    local needle = "[" .. e.key .. "]"
    for _, q in ipairs({e.key, e.name, e.mpi}) do
      if not help.text(q):find(needle, 1, true) then bad[#bad + 1] = e.key .. " by " .. q end
    end
  end
  t.eq(bad, {})
end)

t.case("look-ups by class, C++ name and near misses", function()
  t.ok(help.text("Cartcomm.shift"):find("[Cartcomm.cart_shift]", 1, true))
  t.ok(help.text("MPI_CART_SHIFT"):find("[Cartcomm.cart_shift]", 1, true))
  t.ok(help.text("Cartcomm.split"):find("[Comm.split]", 1, true))  -- inherited
  t.ok(help.text("Graphcomm.neighbor_alltoall"):find("[Cartcomm.neighbor_alltoall]", 1, true))
  t.ok(help.text("comm:split"):find("[Comm.split]", 1, true))
  t.ok(help.text("SUM"):find("[mpi.SUM]", 1, true))
  t.ok(help.text("Group"):find("class Group", 1, true))
  t.eq(help.text("coords"), "no help for 'coords'; did you mean Cartcomm.cart_coords?")
  t.ok(help.text("zzzzqqq"):find("^no help for 'zzzzqqq'"))
end)

t.case("help(x) takes values", function()
  local help = _G.help
  t.ok(help(mpi.COMM_WORLD):find("[mpi.COMM_WORLD]", 1, true))
  t.ok(help(mpi.COMM_WORLD):find("class Intracomm", 1, true))
  t.ok(help(mpi.COMM_WORLD:group()):find("class Group", 1, true))
  t.ok(help(mpi.COMM_WORLD.split):find("[Comm.split]", 1, true))
  t.ok(help(mpi.dims_create):find("[mpi.dims_create]", 1, true))
  t.ok(help(mpi.hw.info):find("[mpi.hw.info]", 1, true))
  t.ok(help(mpi.SUM):find("[mpi.SUM]", 1, true))
  t.ok(help(mpi.UNWEIGHTED):find("[mpi.UNWEIGHTED]", 1, true))
  t.ok(help("split") == require("lumpi.help").text("split"))
  local cart = mpi.COMM_WORLD:cart_create({mpi.COMM_WORLD:size()})
  t.ok(help(cart):find("class Cartcomm", 1, true))
  t.ok(help():find("Classes:", 1, true))
end)

t.case("a missing method names the class and the nearest names, for every class", function()
  local w = mpi.COMM_WORLD
  local ty = mpi.type_contiguous(2, mpi.INT)
  local function says(v, method, want)
    local ok, err = pcall(function() return v[method](v) end)
    t.ok(not ok, method .. " should fail")
    t.ok(tostring(err):find(want, 1, true), tostring(err))
  end
  says(w:cart_create({w:size()}), "coords", "no method 'coords' on Cartcomm; did you mean cart_coords?")
  says(w, "barier", "no method 'barier' on Intracomm; did you mean barrier")
  says(w:group(), "sise", "no method 'sise' on Group; did you mean size")
  says(ty, "comit", "no method 'comit' on Datatype; did you mean commit?")
  local win = w:win_allocate(8, 8)
  says(win, "fance", "no method 'fance' on Win; did you mean fence?")
  says(w:ibarrier(), "wiat", "no method 'wiat' on Request; did you mean wait?")
  says(mpi.op_create(function(a, b) return a end, true), "fre", "no method 'fre' on Op; did you mean free?")
  says(mpi.comm_create_errhandler(function() end), "fre", "no method 'fre' on Errhandler; did you mean free?")
  says(mpi.SUM, "zzzzzz", "no method 'zzzzzz' on Op")
  -- fields that are not methods still read as nil
  t.eq(win.__close, nil)
  t.eq(w:group()[1], nil)
  win:free()
  ty:free()
end)
