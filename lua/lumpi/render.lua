-- lua/lumpi/render.lua: how a rank shows a value at the REPL.
--
-- One line per value, compared by the coordinator as text, so the rendering
-- must depend on the value only: table keys are sorted, strings inside
-- tables are quoted, cycles print as <cycle>. Top-level strings print raw,
-- as in lua's own REPL.
local M = {}

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

local function is_identifier(s)
  return type(s) == "string" and s:match("^[%a_][%w_]*$") ~= nil
end

local function show(v, seen, depth)
  local t = type(v)
  if t == "string" then return string.format("%q", v):gsub("\\\n", "\\n") end
  if t ~= "table" then return tostring(v) end
  local mt = getmetatable(v)
  if mt and mt.__tostring then return tostring(v) end
  if seen[v] then return "<cycle>" end
  if depth > 20 then return "{...}" end
  seen[v] = true
  local parts, n = {}, #v
  for i = 1, n do parts[#parts + 1] = show(v[i], seen, depth + 1) end
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, key_order)
  for _, k in ipairs(keys) do
    local ks = is_identifier(k) and k or "[" .. show(k, seen, depth + 1) .. "]"
    parts[#parts + 1] = ks .. "=" .. show(v[k], seen, depth + 1)
  end
  seen[v] = nil
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- render(...) -> the values as one line, tab-separated, or nil for none.
function M.values(...)
  local n = select("#", ...)
  if n == 0 then return nil end
  local out = {}
  for i = 1, n do
    local v = select(i, ...)
    out[i] = type(v) == "string" and v or show(v, {}, 0)
  end
  return table.concat(out, "\t")
end

M.show = function(v) return show(v, {}, 0) end

return M
