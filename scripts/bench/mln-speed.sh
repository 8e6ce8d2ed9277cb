#!/usr/bin/env bash
# CPU time of one frame, Waymark against MapLibre Native, on issue 33's three views (same style, data and camera).
#
#   bash scripts/bench/mln-speed.sh [RUNS]
#
# Cold rows: Waymark's `map-benchmarks --json` (release) cases pipeline-cold-helsinki-z16, pipeline-world-z2 and
# pipeline-cold-helsinki-pitched, a 1280x720 frame of the default style with the renderer's caches forgotten each
# run (tiles read, decoded, styled, rasterised, labels placed and drawn); cpuSecondsPerRun = user + system CPU of
# the whole process over the timed runs (tile threads included) / runs. MapLibre Native: mln_cpu_probe.py in RUNS
# fresh processes (default 5), the same style (Data/styles/default.json) and view at MapLibre's zoom (Google zoom
# - 1), user + system CPU of the process around its first render (style load, shaders, tiles, glyphs, layout,
# placement, drawing on llvmpipe, read-back, PNG).
# Warm row: Waymark's pipeline-pitched-frame (the same pitched view again with decoded tiles and tile images kept:
# warp, labels, draw into a Cairo surface; no PNG) against MapLibre's warm renders of the view in one pool (its
# static mode places labels, draws, reads back and encodes a PNG each time; median over RUNS renders per process).
# Prints per row: Waymark CPU, MapLibre CPU (median), and the ratio Waymark / MapLibre.
# Needs the venv of ../shared/bench/maplibre-native/setup.sh (or $MLN_VENV). Compare ratios within one run.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${1:-5}
VENV=${MLN_VENV:-$(cd "$ROOT/.." && pwd)/shared-venvs/maplibre-native}
PY=$VENV/bin/python
[ -x "$PY" ] || { echo "no MapLibre Native venv at $VENV: run bash ../shared/bench/maplibre-native/setup.sh" >&2; exit 2; }
export MLN_VENV=$VENV
cd "$ROOT"
swift build -c release --product map-benchmarks >&2
WM=$(mktemp); trap 'rm -f "$WM"' EXIT
.build/release/map-benchmarks --json pipeline-cold-helsinki-z16 pipeline-world-z2 pipeline-cold-helsinki-pitched pipeline-pitched-frame > "$WM"

VIEWS="pipeline-cold-helsinki-z16=60.1699,24.9415,16,0,0=cold
pipeline-world-z2=30,10,2,0,0=cold
pipeline-cold-helsinki-pitched=60.1699,24.9415,16,45,50=cold
pipeline-pitched-frame=60.1699,24.9415,16,45,50=warm"
printf '%-32s | %12s | %12s | %6s\n' view "waymark cpu" "maplibre cpu" ratio
while IFS='=' read -r name cam mode; do
  cpus=""
  if [ "$mode" = cold ]; then
    for _ in $(seq "$RUNS"); do
      c=$("$PY" scripts/bench/mln_cpu_probe.py Data/styles/default.json --camera "$cam" --warm 0 | tail -1 \
          | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["cold_cpu_s"])')
      cpus="$cpus $c"
    done
  else
    cpus=$("$PY" scripts/bench/mln_cpu_probe.py Data/styles/default.json --camera "$cam" --warm "$RUNS" | tail -1 \
        | "$PY" -c 'import json,sys; print(" ".join(map(str, json.load(sys.stdin)["warm_cpu_s"])))')
  fi
  "$PY" - "$name" "$WM" $cpus <<'PYEOF'
import json, statistics, sys
name, path, cpus = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3:]]
data = json.load(open(path))
rows = data if isinstance(data, list) else data.get("results", data)
wm = next(r["cpuSecondsPerRun"] for r in rows if r["name"] == name)
ml = statistics.median(cpus)
print(f"{name:<32} | {wm * 1000:9.1f} ms | {ml * 1000:9.1f} ms | {wm / ml:5.2f}x")
PYEOF
done <<< "$VIEWS"
