# Sourced by bench.sh, compare.sh and soak.sh: from the checkout's root, builds the release `waymark` if
# $WAYMARK_BIN (default .build/release/waymark) is missing, starts `waymark serve` with scripts/serve/bench.json and
# waits for it to listen. Sets `bin`, `pid` (the server), `url` and `server_log`; `bench_server_stop` stops it and
# removes the log (call it from the script's EXIT trap). Exits 1 naming the log when the server does not start.
bin="${WAYMARK_BIN:-.build/release/waymark}"
[ -x "$bin" ] || swift build -c release --product waymark
export FONTCONFIG_FILE="$PWD/Tests/Fixtures/fonts/fonts.conf"
server_log=$(mktemp)
"$bin" serve --config scripts/serve/bench.json >"$server_log" 2>&1 &
pid=$!
bench_server_stop() {
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  rm -f "$server_log"
}
for _ in $(seq 100); do grep -q listening "$server_log" && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$server_log" | head -1)
[ -n "$port" ] || { echo "the server did not start: $(cat "$server_log")" >&2; bench_server_stop; exit 1; }
url="http://127.0.0.1:$port"
