-- lua/lumpi/complete.lua: candidates for the REPL's tab completion
-- (require("lumpi.complete")), evaluated on rank 0 of the target.
--
-- candidates(base, sep, partial) returns the names, one per line, that can
-- follow `base .. sep` and start with `partial`: globals and keywords when
-- base is empty, fields after ".", methods after ":". `base` is a chain of
-- names ("mpi.COMM_WORLD"); it is looked up field by field, never run as
-- code, so completing has no side effects beyond __index metamethods.
local M = {}

local keywords = { "and", "break", "do", "else", "elseif", "end", "false", "for",
  "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return",
  "then", "true", "until", "while" }

local function lookup(base)
  local v = _G
  for name in base:gmatch("[^%.]+") do
    if not name:match("^[%a_][%w_]*$") then return nil end
    local ok, nv = pcall(function() return v[name] end)
    if not ok or nv == nil then return nil end
    v = nv
  end
  return v
end

-- Adds the string keys of t (and of its __index chain) to names. Only table
-- __index links are followed: a communicator's chain (Cartcomm -> Intracomm
-- -> Comm, lua/classes.cpp) ends in a function, the fallback for names the
-- value lacks, which is never called, so only the value's own methods appear.
local function add_keys(t, names, methods_only, depth)
  if depth > 8 then return end
  if type(t) == "table" then
    for k, val in pairs(t) do
      if type(k) == "string" and k:match("^[%a_][%w_]*$")
          and (not methods_only or type(val) == "function") then
        names[k] = true
      end
    end
  end
  local mt = getmetatable(t)
  if type(mt) == "table" and type(mt.__index) == "table" then
    add_keys(mt.__index, names, methods_only, depth + 1)
  end
end

function M.candidates(base, sep, partial)
  local names = {}
  if base == "" then
    add_keys(_G, names, false, 0)
    for _, k in ipairs(keywords) do names[k] = true end
  else
    local v = lookup(base)
    if v == nil then return "" end
    if type(v) == "string" then v = string end
    add_keys(v, names, sep == ":", 0)
  end
  local out = {}
  for k in pairs(names) do
    if k:sub(1, #partial) == partial and not k:match("^__") then out[#out + 1] = k end
  end
  table.sort(out)
  return table.concat(out, "\n")
end

return M
