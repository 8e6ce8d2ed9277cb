-- The benchmark mix of BENCHMARKS.md "Static maps server": 640x640 Static Maps requests over the bundled data, in
-- turn: street level in Helsinki with 10 markers and a path, Helsinki at zoom 12, the world at zoom 2.
-- A script that sets `paths` first and then runs this file (dofile) keeps its own requests (the scale-out test's
-- small images).
paths = paths or {
  "/maps/api/staticmap?center=60.1699,24.9443&zoom=16&size=640x640"
    .. "&markers=color:red%7Clabel:A%7C60.1690,24.9400%7C60.1695,24.9420%7C60.1700,24.9440%7C60.1705,24.9460%7C60.1710,24.9480"
    .. "&markers=color:blue%7C60.1685,24.9410%7C60.1690,24.9430%7C60.1695,24.9450%7C60.1700,24.9470%7C60.1705,24.9490"
    .. "&path=color:0x0000ffcc%7Cweight:5%7C60.1680,24.9390%7C60.1690,24.9420%7C60.1700,24.9450%7C60.1712,24.9490",
  "/maps/api/staticmap?center=60.1699,24.9443&zoom=12&size=640x640",
  "/maps/api/staticmap?center=30,10&zoom=2&size=640x640",
}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors connect %d read %d write %d status %d timeout %d\n",
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout))
  io.write(string.format("p50 %.1f ms, p99 %.1f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
