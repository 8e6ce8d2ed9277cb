#!/usr/bin/env bash
# Throughput, latency and memory of `waymark serve` (release) for the mix in mix.lua (BENCHMARKS.md).
# usage: scripts/serve/bench.sh [SECONDS] [CONNECTIONS]    (needs wrk; builds .build/release/waymark if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-30}"
connections="${2:-4}"
bin="${WAYMARK_BIN:-.build/release/waymark}"
[ -x "$bin" ] || swift build -c release --product waymark
export FONTCONFIG_FILE="$PWD/Tests/Fixtures/fonts/fonts.conf"
log=$(mktemp)
"$bin" serve --config scripts/serve/bench.json >"$log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q listening "$log" && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$log" | head -1)
[ -n "$port" ] || { echo "the server did not start: $(cat "$log")" >&2; exit 1; }
url="http://127.0.0.1:$port"
# Warm up: each view once (tiles decoded, fonts loaded), then measure.
wrk -t1 -c1 -d3s -s scripts/serve/mix.lua "$url" >/dev/null
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s scripts/serve/mix.lua "$url"
echo "RSS after the run: $(grep -E 'VmRSS|VmHWM' /proc/$pid/status | tr -s ' ' | tr '\n' ' ')"
curl -s "$url/metrics" | grep -E '^waymark_render_duration_seconds_(sum|count)'
