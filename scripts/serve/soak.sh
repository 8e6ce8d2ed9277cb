#!/usr/bin/env bash
# Memory of `waymark serve` (release) over a long run of the mix in mix.lua (BENCHMARKS.md "Static maps server"):
# samples VmRSS and VmHWM from /proc/PID/status every 10 s under wrk load and compares the end with minute 1.
# usage: scripts/serve/soak.sh [SECONDS] [CONNECTIONS]   (default 600 s, 4 connections; needs wrk)
# Env: WAYMARK_BIN (default .build/release/waymark), SOAK_LOG (the samples, default a temporary file, printed).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
connections="${2:-4}"
samples="${SOAK_LOG:-$(mktemp)}"
. scripts/serve/bench-server.sh
trap bench_server_stop EXIT
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s scripts/serve/mix.lua "$url" >"$samples.wrk" &
load=$!
echo "seconds VmRSS_kB VmHWM_kB" >"$samples"
start=$(date +%s)
while kill -0 "$load" 2>/dev/null; do
  sleep 10
  kill -0 "$load" 2>/dev/null || break
  echo "$(($(date +%s) - start)) $(awk '/^VmRSS/ {r=$2} /^VmHWM/ {h=$2} END {print r, h}' /proc/$pid/status)" >>"$samples"
done
wait "$load"
cat "$samples"
tail -3 "$samples.wrk"
awk 'NR > 1 && $1 >= 60 && !first {first = $2} NR > 1 {last = $2; hwm = $3}
  END {printf "RSS at minute 1 %.1f MiB, at the end %.1f MiB (%+.1f %%), peak (VmHWM) %.1f MiB\n",
    first / 1024, last / 1024, (last - first) * 100 / first, hwm / 1024}' "$samples"
