#!/usr/bin/env bash
# Throughput, latency and memory of `waymark serve` (release) for the mix in mix.lua (BENCHMARKS.md).
# usage: scripts/serve/bench.sh [SECONDS] [CONNECTIONS]    (needs wrk; builds .build/release/waymark if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-30}"
connections="${2:-4}"
. scripts/serve/bench-server.sh
trap bench_server_stop EXIT
# Warm up: each view once (tiles decoded, fonts loaded), then measure.
wrk -t1 -c1 -d3s -s scripts/serve/mix.lua "$url" >/dev/null
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s scripts/serve/mix.lua "$url"
echo "RSS after the run: $(grep -E 'VmRSS|VmHWM' /proc/$pid/status | tr -s ' ' | tr '\n' ' ')"
curl -s "$url/metrics" | grep -E '^waymark_render_duration_seconds_(sum|count)'
