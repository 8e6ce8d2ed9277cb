#!/usr/bin/env bash
# The speed goals of issue 35 in one run (BENCHMARKS.md "Static maps server"): `waymark serve` (release) at full load
# on the mix of mix.lua, MapLibre Native on the same three views with two worker processes (maplibre-bench.py), then
# `waymark serve` again at 80 % of the rate it reached, paced by paced.lua, for its p99 latency; the load average
# before each step and the server's peak RSS.
# usage: scripts/serve/compare.sh [SECONDS] [CONNECTIONS]   (default 30 s a step, 4 connections at full load)
# Env: WAYMARK_BIN (default .build/release/waymark); needs wrk and the venv of ../shared/bench/maplibre-native/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-30}"
connections="${2:-4}"
out=$(mktemp)
. scripts/serve/bench-server.sh
trap 'bench_server_stop; rm -f "$out"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

wrk -t1 -c1 -d3s -s scripts/serve/mix.lua "$url" >/dev/null # warm-up: each view once
echo "== waymark serve, full load: $connections connections, ${seconds} s (load average $(load))"
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s scripts/serve/mix.lua "$url" | tee "$out" |
  grep -E 'Requests/sec|^p50|errors'
max=$(awk '/Requests\/sec/ {print $2}' "$out")

echo "== MapLibre Native, 2 worker processes, ${seconds} s (load average $(load))"
python3 scripts/serve/maplibre-bench.py "$seconds" 2

rate=$(awk -v m="$max" 'BEGIN {printf "%.1f", m * 0.8}')
echo "== waymark serve at 80 % of $max: $rate requests/s paced, 8 connections, ${seconds} s (load average $(load))"
wrk -t2 -c8 -d"${seconds}s" --timeout 10s --latency -s scripts/serve/paced.lua "$url" -- "$rate" 2 | tee "$out" |
  grep -E 'Requests/sec|^p50|errors'
echo "== waymark serve memory: $(grep -E 'VmRSS|VmHWM' /proc/$pid/status | tr -s ' \t' ' ' | tr '\n' ' ')"
curl -s "$url/metrics" | grep -E '^waymark_render_duration_seconds_(sum|count)'
