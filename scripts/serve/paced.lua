-- The mix of mix.lua at a fixed rate, for latency at a given load (wrk has no rate option; wrk2 is not in Debian).
--   wrk -t2 -c8 -d30s --latency -s scripts/serve/paced.lua URL -- RATE [THREADS]
-- RATE is requests a second for the whole run, split evenly over wrk's threads (THREADS, default 2: the -t given). Each thread keeps a schedule (one
-- request every threads/RATE seconds, on CLOCK_MONOTONIC through LuaJIT's ffi) and delays each connection's next
-- request until its slot, so requests go out at RATE while the server keeps up. Latency is measured by wrk from each
-- request's send, not from its slot (no coordinated-omission correction as wrk2 makes): give enough connections that
-- one is always free at its slot (-c at least RATE × the slowest response in seconds), and compare the achieved rate
-- (printed) with RATE.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } waymark_timespec;
  int clock_gettime(int clock, waymark_timespec *t);
]]
local ts = ffi.new("waymark_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local script = debug.getinfo(1, "S").source:sub(2)
dofile((script:match("(.*/)") or "./") .. "mix.lua")

local interval_ms, next_ms
init = function(args)
  local rate = tonumber(args[1] or "")
  if not rate or rate <= 0 then
    io.stderr:write("paced.lua: give the rate after --, e.g. -- 20\n")
    os.exit(2)
  end
  interval_ms = 1000 * (tonumber(args[2] or "") or 2) / rate
end
delay = function()
  local t = now_ms()
  if not next_ms or next_ms < t - 1000 then next_ms = t end -- start, or more than a second behind: restart the schedule
  local slot = next_ms
  next_ms = next_ms + interval_ms
  local wait = slot - t
  return wait > 0 and wait or 0
end
