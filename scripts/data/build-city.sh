#!/usr/bin/env bash
# Builds the OpenMapTiles-schema vector tiles (z0-14, with the sea) of one city extract, or with CITY_SCHEMA=protomaps
# a subset of the Protomaps basemap schema (z0-15; scripts/data/protomaps.lua).
#
# usage: scripts/data/build-city.sh IN.osm.pbf OUT.mbtiles
#   IN.osm.pbf   an OpenStreetMap extract with a header bounding box (a bbox- or polygon-clipped extract;
#                references to objects outside the file are dropped)
#   OUT.mbtiles  written fresh (gzip MVT 2.1, TMS rows, clean metadata); the extract's name is the file name
#                without extension unless CITY_NAME is set
# Environment:
#   WAYMARK_SOURCES    sources folder with the venv (default <repo>/.sources; scripts/data/fetch-sources.sh fills it)
#   CITY_NAME          name for the metadata (default: OUT's file name, e.g. "monaco")
#   CITY_DESCRIPTION   metadata description (default: "<name> (<IN's file name>), OpenMapTiles schema, ...")
#   CITY_WORK          scratch folder to use and keep (default: a temp folder, removed at the end); it holds
#                      city.fixed.osm.pbf (the repaired extract) afterwards
#   TILEMAKER_EXAMPLES Debian's tilemaker 2.2.0 examples (default /usr/share/doc/tilemaker/examples)
#   CITY_SCHEMA        openmaptiles (default: Debian's profile patched as below, z0-14) or protomaps (Waymark's
#                      scripts/data/protomaps.lua and protomaps-config.json, z0-15, the land as an "earth" shapefile: the
#                      extract's box minus the sea)
# Needs tilemaker, gdal-bin and the venv's pyosmium. Prints progress on stderr; exit status non-zero on failure.
#
# Steps (DATA.md explains the traps):
#   1. fix_osm_refs.py: drop the references the clipped extract cannot resolve (tilemaker aborts otherwise).
#   2. sea_polygons.py: close the OSM coastline along the extract's bounding box -> sea polygons (GeoJSON, then an
#      ESRI shapefile, the only external format tilemaker 2.2 reads).
#   3. patch_omt_profile.py: Debian's OpenMapTiles config + Lua profile, names in name/name:en/name:sv, the sea as
#      the "ocean" shapefile layer (water layer, class=ocean), missing shapefile layers removed.
#   4. tilemaker --threads 1, then mvt_canonical.py (deterministic feature order, gzip without timestamp), then
#      mbtiles_finalize.py (clean metadata, fresh VACUUMed file).
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,21p' "$0" >&2; exit 2; }
pbf="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sources="${WAYMARK_SOURCES:-$root/.sources}"
examples="${TILEMAKER_EXAMPLES:-/usr/share/doc/tilemaker/examples}"
vpy="$sources/venv/bin/python"
name="${CITY_NAME:-$(basename "$out" .mbtiles)}"
schema="${CITY_SCHEMA:-openmaptiles}"
case "$schema" in
  openmaptiles) maxzoom=14; schema_name="OpenMapTiles schema"; zattr=(--z-attribute _waymark_z) ;;
  protomaps) maxzoom=15; schema_name="Protomaps basemap schema (subset)"; zattr=() ;;
  *) echo "error: CITY_SCHEMA=$schema: expected openmaptiles or protomaps" >&2; exit 2 ;;
esac
[ -f "$pbf" ] || { echo "error: $1: no such file" >&2; exit 1; }
[ -x "$vpy" ] || { echo "error: $vpy missing; run scripts/data/fetch-sources.sh (without --no-venv)" >&2; exit 1; }
command -v tilemaker >/dev/null || { echo "error: tilemaker not found; run scripts/dev/install-deps.sh data" >&2; exit 1; }
if [ -n "${CITY_WORK:-}" ]; then
  work="$CITY_WORK"
  rm -rf "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/waymark-city.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/sea" "$work/earth" "$(dirname "$out")"
log() { echo "city $name: $*" >&2; }

log "repairing references"
"$vpy" "$here/fix_osm_refs.py" "$pbf" "$work/city.fixed.osm.pbf"
log "sea from the coastline"
"$vpy" "$here/sea_polygons.py" "$pbf" "$work/sea.geojson"
ogr2ogr -q -f "ESRI Shapefile" "$work/sea/sea.shp" "$work/sea.geojson" -lco ENCODING=UTF-8
if [ "$schema" = protomaps ]; then
  cp "$here/protomaps-config.json" "$work/config.json"
  cp "$here/protomaps.lua" "$work/process.lua"
else
  "$vpy" "$here/patch_omt_profile.py" "$examples" sea/sea.shp "$work/config.json" "$work/process.lua"
fi

# The extract's header bounding box (also written into the fixed file by fix_osm_refs.py).
bbox="$("$vpy" -c 'import osmium,sys
r = osmium.io.Reader(sys.argv[1], osmium.osm.osm_entity_bits.NOTHING); b = r.header().box(); r.close()
if not b.valid(): sys.exit("error: " + sys.argv[1] + " has no header bounding box")
print(f"{b.bottom_left.lon:.7f},{b.bottom_left.lat:.7f},{b.top_right.lon:.7f},{b.top_right.lat:.7f}")' "$pbf")"
IFS=, read -r west south east north <<<"$bbox"
center="$("$vpy" -c 'import sys; w,s,e,n = map(float, sys.argv[1:5]); print(f"{(w+e)/2:.7f},{(s+n)/2:.7f},14")' \
  "$west" "$south" "$east" "$north")"
if [ "$schema" = protomaps ]; then
  log "land (the box minus the sea)"
  ogr2ogr -q -f "ESRI Shapefile" "$work/earth/earth.shp" "$work/sea.geojson" -dialect sqlite -nln earth \
    -sql "SELECT ST_Difference(BuildMbr($west, $south, $east, $north, 4326), ST_Union(geometry)) AS geometry FROM sea"
fi

log "tilemaker (bbox $bbox)"
# tilemaker resolves the shapefile path against its working directory.
(cd "$work" && tilemaker --input city.fixed.osm.pbf --output city_raw.mbtiles --bbox "$bbox" \
  --config config.json --process process.lua --threads 1 >tilemaker.log 2>&1) || {
  cat "$work/tilemaker.log" >&2; echo "error: tilemaker failed" >&2; exit 1; }
grep -E "^(Shape|Generated)" "$work/tilemaker.log" | sed "s/^/city $name: tilemaker: /" >&2 || true
"$vpy" "$here/mvt_canonical.py" "$work/city_raw.mbtiles" "${zattr[@]}"
"$vpy" "$here/mbtiles_finalize.py" "$work/city_raw.mbtiles" "$out" \
  --meta name="Waymark $name" \
  --meta description="${CITY_DESCRIPTION:-$name ($(basename "$pbf")), $schema_name, sea from the OSM coastline}" \
  --meta attribution="© OpenStreetMap contributors" \
  --meta type=baselayer --meta version=1 --meta format=pbf \
  --meta bounds="$bbox" --meta center="$center" --meta minzoom=0 --meta maxzoom="$maxzoom"
