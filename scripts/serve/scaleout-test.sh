#!/usr/bin/env bash
# The scale-out test of issue 35: HAProxy (Debian's haproxy) in front of two `waymark serve` processes on 127.0.0.1,
# load from wrk (mix.lua); one process is killed (SIGKILL) mid-run. Passes when the requests that failed are at most
# the connections wrk keeps open (only requests in flight on the killed process may fail; HAProxy's health check then
# takes it out and retries connection failures on the other).
# usage: scripts/serve/scaleout-test.sh [SECONDS]    (needs haproxy, wrk, curl; WAYMARK_BIN, default
# .build/release/waymark; WAYMARK_MIX, the wrk script of requests, default scripts/serve/mix.lua)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
connections=4
bin="${WAYMARK_BIN:-.build/release/waymark}"
mix="${WAYMARK_MIX:-scripts/serve/mix.lua}"
[ -x "$bin" ] || swift build -c release --product waymark
export FONTCONFIG_FILE="$PWD/Tests/Fixtures/fonts/fonts.conf"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
ports=()
for i in 1 2; do
  port=$(free_port)
  echo "{\"port\": $port, \"workers\": 1, \"queue\": 16, \"cacheMegabytes\": 0}" >"$work/serve$i.json"
  "$bin" serve --config "$work/serve$i.json" >"$work/serve$i.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
done
for i in 1 2; do
  for _ in $(seq 100); do grep -q listening "$work/serve$i.log" && break; sleep 0.1; done
done
front=$(free_port)
cat >"$work/haproxy.cfg" <<CFG
global
  maxconn 256
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  retries 3
  option redispatch
  retry-on conn-failure empty-response
frontend static
  bind 127.0.0.1:$front
  default_backend waymark
backend waymark
  balance leastconn
  option httpchk GET /health
  http-check expect status 200
  default-server inter 250ms fall 2 rise 2
  server a 127.0.0.1:${ports[0]} check
  server b 127.0.0.1:${ports[1]} check
CFG
haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$front/health" >/dev/null && break; sleep 0.1; done
( sleep $((seconds / 2)); kill -KILL "${pids[0]}"; echo "killed server a (pid ${pids[0]}) at $((seconds / 2)) s" ) &
killer=$!
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$mix" "http://127.0.0.1:$front" | tee "$work/wrk.txt"
wait "$killer" || true
failed=$(awk '/^requests/ { gsub(",", ""); print $5 + $7 + $9 + $11 + $13 }' "$work/wrk.txt")
echo "failed requests: $failed (allowed: $connections, the requests in flight on the killed process)"
[ "$failed" -le "$connections" ]
