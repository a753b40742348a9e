-- tests/scenarios/split_by_parity.lua: the example of docs/scenario-tests.md
-- (test_docs_examples runs it as the docs show).
local t = require("lumpi.test")
t.np = {1, 2, 4, 7}          -- world sizes to run under (default: -n)
t.case("split by parity", function()
  local w = mpi.COMM_WORLD
  local half = w:split(w:rank() % 2, w:rank())
  t.eq(half:size(), (w:size() + 1 - w:rank() % 2) // 2)
end)
