-- real_bench.lua: the Lua workload of bench/real.sh: recursion, string handling and table
-- sorts with a comparator, the interpreter's common paths.  usage: lua real_bench.lua SCALE
local scale = tonumber(arg[1]) or 1

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

-- Park and Miller's generator: the same numbers on every machine.
local seed = 42
local function rnd(m)
  seed = (seed * 16807) % 2147483647
  return seed % m
end

local function word()
  local t = {}
  for i = 1, 3 + rnd(8) do
    local k = 1 + rnd(26)
    t[i] = string.sub("etaoinshrdlucmfwypvbgkqjxz", k, k)
  end
  return table.concat(t)
end

local function strings(n)
  local parts, count = {}, 0
  for i = 1, n do
    local w = word()
    parts[#parts + 1] = string.format("%s:%d", w:upper(), #w)
    if #parts == 64 then
      local line = table.concat(parts, " ")
      for k in line:gmatch("(%u+):%d") do count = count + #k end
      line = line:gsub("[AEIOU]", string.lower)
      count = count + select(2, line:gsub("%d", ""))
      parts = {}
    end
  end
  return count
end

local function sorts(n)
  local t = {}
  for i = 1, n do t[i] = {key = word(), v = rnd(1000)} end
  table.sort(t, function(a, b)
    if a.v ~= b.v then return a.v < b.v end
    return a.key < b.key
  end)
  local keys = {}
  for i = 1, n do keys[i] = t[i].key end
  table.sort(keys)
  return t[1].v + #keys[n]
end

local acc = 0
for _ = 1, scale do acc = acc + fib(25) end
print("fib", acc)
print("strings", strings(20000 * scale))
print("sorts", sorts(10000 * scale))
