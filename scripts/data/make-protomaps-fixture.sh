#!/usr/bin/env bash
# Rebuilds Tests/Fixtures/protomaps/monaco.mbtiles: a few Protomaps-schema tiles of Monaco's Port Hercule (z13
# 4264/2987, z14 8529/5974, z15 17058-17059/11948-11949, XYZ), made from the pinned Monaco extract (quackosm 0.19.0,
# DATA.md) by scripts/data/build-city.sh with CITY_SCHEMA=protomaps (scripts/data/protomaps.lua). Deterministic: a rerun gives
# the same bytes (mvt_canonical.py, mbtiles_finalize.py).
#
# usage: scripts/data/make-protomaps-fixture.sh [OUT.mbtiles]     (default Tests/Fixtures/protomaps/monaco.mbtiles)
# Needs what build-city.sh needs (scripts/dev/install-deps.sh tiles; scripts/data/fetch-sources.sh for the extract and venv).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/Tests/Fixtures/protomaps/monaco.mbtiles}"
sources="${WAYMARK_SOURCES:-$root/.sources}"
pbf="$sources/src/quackosm/tests/test_files/monaco.osm.pbf"
[ -f "$pbf" ] || "$here/fetch-sources.sh" >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/waymark-pmfixture.XXXXXX")"
trap 'rm -rf "$work"' EXIT
CITY_SCHEMA=protomaps CITY_NAME="Monaco" \
  CITY_DESCRIPTION="Port Hercule, Monaco (quackosm 0.19.0 test extract, OSM 2023-12-26), Protomaps basemap schema subset (scripts/data/protomaps.lua), z13-15 test tiles" \
  "$here/build-city.sh" "$pbf" "$work/full.mbtiles"
# Keep the fixture's tiles (rows are TMS: row = 2^z - 1 - y).
"$sources/venv/bin/python" - "$work/full.mbtiles" <<'PY'
import sqlite3, sys
keep = [(13, 4264, 2987), (14, 8529, 5974)] + [(15, x, y) for x in (17058, 17059) for y in (11948, 11949)]
db = sqlite3.connect(sys.argv[1])
rows = {(z, x, (1 << z) - 1 - y) for z, x, y in keep}
have = set(db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles"))
missing = rows - have
if missing: sys.exit(f"error: the build has no tiles {sorted(missing)}")
for r in have - rows:
    db.execute("DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", r)
db.commit()
PY
mkdir -p "$(dirname "$out")"
"$sources/venv/bin/python" "$here/mbtiles_finalize.py" "$work/full.mbtiles" "$out" \
  --meta name="Waymark Monaco (Protomaps schema)" \
  --meta description="Port Hercule, Monaco (OpenStreetMap via quackosm 0.19.0's test extract), a subset of the Protomaps basemap schema v4 (scripts/data/protomaps.lua), test tiles z13-15" \
  --meta attribution="© OpenStreetMap contributors" \
  --meta type=baselayer --meta version=1 --meta format=pbf \
  --meta bounds=7.4047852,43.7234749,7.4267578,43.7393521 --meta center=7.4157715,43.7314135,15 \
  --meta minzoom=13 --meta maxzoom=15
printf '%s %s B sha256 %s\n' "$out" "$(stat -c %s "$out")" "$(sha256sum "$out" | cut -d' ' -f1)"
