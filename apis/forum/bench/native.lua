-- The forum's native tier: one case's SQL (the statement scenario.yaml gives the
-- implementations, prepared once per connection) through sysbench's own C client, with the
-- ids drawn as the k6 script and the driver-tier client draw them: mulberry32, thread i on
-- the stream seeded seed*100003 + i + 1. Run by native.ts:
--   sysbench native.lua --sql=… --args=commentId --rows=1 --comment-ids=N --user-ids=N --seed=S run
-- Each thread counts the answers whose row count is not the case's and prints the count at
-- its end ("fairbench-check-failures <n>"), which native.ts records as errors.
local bit = require("bit")

sysbench.cmdline.options = {
  sql = {"the statement, ? for each argument", ""},
  args = {"the arguments, comma-separated: commentId | userId | rows", ""},
  rows = {"the rows each answer must have", 1},
  comment_ids = {"comment ids are 1..comment-ids", 1},
  user_ids = {"user ids are 1..user-ids", 1},
  seed = {"the run's seed", 1},
}

local TWO32 = 4294967296

-- Math.imul: the low 32 bits of a 32-bit product (LuaJIT numbers are doubles).
local function imul(a, b)
  local ah, al = bit.rshift(a, 16), bit.band(a, 0xffff)
  local bh, bl = bit.rshift(b, 16), bit.band(b, 0xffff)
  return bit.tobit(al * bl + bit.lshift(bit.tobit(ah * bl + al * bh), 16))
end

-- bench/k6/prng.js's mulberry32, bit for bit.
function mulberry32(seed)
  local a = bit.tobit(seed % TWO32)
  return function()
    a = bit.tobit(a + 0x6d2b79f5)
    local t = a
    t = imul(bit.bxor(t, bit.rshift(t, 15)), bit.bor(t, 1))
    t = bit.bxor(t, bit.tobit(t + imul(bit.bxor(t, bit.rshift(t, 7)), bit.bor(t, 61))))
    return (bit.bxor(t, bit.rshift(t, 14)) % TWO32) / TWO32
  end
end

local function split(s)
  local out = {}
  for v in string.gmatch(s, "[^,]+") do out[#out + 1] = v end
  return out
end

local kinds, params, stmt, con, random, checkFailures

function thread_init()
  kinds = split(sysbench.opt.args)
  con = sysbench.sql.driver():connect()
  stmt = con:prepare(sysbench.opt.sql)
  params = {}
  for i = 1, #kinds do params[i] = stmt:bind_create(sysbench.sql.type.INT) end
  if #params > 0 then stmt:bind_param(unpack(params)) end
  random = mulberry32(sysbench.opt.seed * 100003 + sysbench.tid + 1)
  checkFailures = 0
end

function event()
  for i, kind in ipairs(kinds) do
    if kind == "rows" then
      params[i]:set(sysbench.opt.rows)
    else
      local range = kind == "commentId" and sysbench.opt.comment_ids or sysbench.opt.user_ids
      params[i]:set(1 + math.floor(random() * range))
    end
  end
  local rs = stmt:execute()
  if rs == nil or rs.nrows ~= sysbench.opt.rows then checkFailures = checkFailures + 1 end
  if rs ~= nil then rs:free() end
end

function thread_done()
  print("fairbench-check-failures " .. checkFailures)
  stmt:close()
  con:disconnect()
end

-- `sysbench native.lua --seed=S --comment-ids=N --args=commentId draws`: the first ids of
-- thread 0's and thread 1's streams, one per line, for the test that holds them to prng.js's.
sysbench.cmdline.commands = {
  draws = {function()
    for tid = 0, 1 do
      local r = mulberry32(sysbench.opt.seed * 100003 + tid + 1)
      for _ = 1, 5 do print(1 + math.floor(r() * sysbench.opt.comment_ids)) end
    end
  end},
}
