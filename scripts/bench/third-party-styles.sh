#!/usr/bin/env bash
# Renders a third-party MapLibre style over Waymark's bundled data with MapLibre Native and with
# `waymark snapshot`, at the same cameras, and reports the pixel difference per view.
#
#   scripts/bench/third-party-styles.sh STYLE.json [--schema omt|protomaps] [--sprite PREFIX] [VIEW ...]
#
# STYLE.json is read, never changed: third_party_style.py writes a copy per data file into $OUT in which
#   - every vector source reads the bundled data: OpenMapTiles schema (default) Data/cities.mbtiles for the city
#     views and Data/world.mbtiles for the world view; --schema protomaps reads $PROTOMAPS_TILES (default
#     Tests/Fixtures/protomaps/monaco.mbtiles) for the Monaco views and, when set, $PROTOMAPS_HELSINKI_TILES (a
#     CITY_SCHEMA=protomaps build of the bundled Helsinki extract, scripts/data/build-city.sh) for the Helsinki views;
#   - `glyphs` points at one folder of SDF glyph PBFs both renderers read: Data/glyphs when it holds every
#     fontstack the style names, else PBFs made from Debian's Noto fonts by the MapLibre bench's make_glyphs.py
#     in $OUT/glyphs (so the comparison measures rendering, not fonts);
#   - --sprite PREFIX (a local PREFIX.json / PREFIX.png) replaces the style's sprite; without it a remote sprite
#     is removed (MapLibre Native's static render fails when it cannot fetch one), so neither draws icons;
#   - raster sources with remote tiles are removed with their layers, each named on stderr.
# Views (Google zooms, 1280x720 at scale 1; MapLibre gets zoom - 1, see ../shared/bench/maplibre-native):
#   omt:       helsinki_z16 60.1699,24.9384,16   helsinki_pitched 60.1699,24.9415,17,45,50   world_z2 30,10,2
#   protomaps: monaco_z16 43.7314,7.4158,16      monaco_pitched 43.7314,7.4158,17,45,50
#              helsinki_z16, helsinki_pitched (as omt's; only with $PROTOMAPS_HELSINKI_TILES)
# Prints a table (view | differing | mean diff | waymark diagnostics | --strict | style layers) and one summary line.
# "differing" is the share of pixels whose R, G or B differs by more than 16/255 (compare.py), the attribution box
# (0,696)-(300,720) left out. Waymark runs `snapshot --strict`: "incomplete" means it dropped a layer or source or
# could not read a tile (its log says which). "style layers" counts the style's layers by style_layer_census.py:
# draws (features of the view's tiles pass its filter), no features, zoom range, no source.
# Images in $OUT (default ${TMPDIR:-/tmp}/third-party-styles/<style name>): VIEW-maplibre.png, VIEW-waymark.png,
# VIEW-diff.png, VIEW-waymark.log (Waymark's stderr: dropped layers, unsupported properties, missing sprite),
# VIEW-layers.txt (the census, one line a layer).
#
# Needs the MapLibre Native venv (bash ../shared/bench/maplibre-native/setup.sh) and a release `waymark`
# (built when missing or older than Sources/). Env: MLN_VENV, MLN_BENCH (the bench folder), OUT, PROTOMAPS_TILES,
# PROTOMAPS_HELSINKI_TILES.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
usage() { sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
STYLE=$1; shift
[ -f "$STYLE" ] || { echo "$STYLE: no such style file" >&2; exit 2; }
SCHEMA=omt; SPRITE=""; ONLY=()
while [ $# -gt 0 ]; do
  case $1 in
    --schema) SCHEMA=${2:?--schema needs omt or protomaps}; shift 2 ;;
    --sprite) SPRITE=${2:?--sprite needs a PREFIX}; shift 2 ;;
    -h|--help) usage ;;
    *) ONLY+=("$1"); shift ;;
  esac
done
BENCH=${MLN_BENCH:-$(cd "$ROOT/.." && pwd)/shared/bench/maplibre-native}
[ -f "$BENCH/render.py" ] || BENCH=$(cd "$ROOT/../.." 2>/dev/null && pwd)/shared/bench/maplibre-native
[ -f "$BENCH/render.py" ] || { echo "no MapLibre Native bench (render.py): set MLN_BENCH" >&2; exit 2; }
VENV=${MLN_VENV:-$(cd "$BENCH/../../.." && pwd)/shared-venvs/maplibre-native}
PY=$VENV/bin/python
[ -x "$PY" ] || { echo "no MapLibre Native venv at $VENV: run bash $BENCH/setup.sh first (or set MLN_VENV)" >&2; exit 2; }
export MLN_VENV=$VENV
name=$(basename "$STYLE" .json)
OUT=${OUT:-${TMPDIR:-/tmp}/third-party-styles/$name}
mkdir -p "$OUT"
SIZE=1280x720

case $SCHEMA in
  omt)
    ALL_VIEWS="helsinki_z16=60.1699,24.9384,16=$ROOT/Data/cities.mbtiles
helsinki_pitched=60.1699,24.9415,17,45,50=$ROOT/Data/cities.mbtiles
world_z2=30,10,2=$ROOT/Data/world.mbtiles" ;;
  protomaps)
    PM=${PROTOMAPS_TILES:-$ROOT/Tests/Fixtures/protomaps/monaco.mbtiles}
    ALL_VIEWS="monaco_z16=43.7314,7.4158,16=$PM
monaco_pitched=43.7314,7.4158,17,45,50=$PM"
    if [ -n "${PROTOMAPS_HELSINKI_TILES:-}" ]; then
      ALL_VIEWS="$ALL_VIEWS
helsinki_z16=60.1699,24.9384,16=$PROTOMAPS_HELSINKI_TILES
helsinki_pitched=60.1699,24.9415,17,45,50=$PROTOMAPS_HELSINKI_TILES"
    fi ;;
  *) echo "--schema $SCHEMA: expected omt or protomaps" >&2; exit 2 ;;
esac

bin=$ROOT/.build/release/waymark
if [ ! -x "$bin" ] || [ -n "$(find "$ROOT/Sources" "$ROOT/Package.swift" -newer "$bin" -print -quit 2>/dev/null)" ]; then
  echo "building waymark (release) ..." >&2
  ( cd "$ROOT" && swift build -c release --product waymark >&2 ) || { echo "waymark does not build" >&2; exit 1; }
fi

# Glyphs: Data/glyphs when it has every fontstack, else made from Noto into $OUT/glyphs.
info=$(python3 "$HERE/third_party_style.py" "$STYLE" "$ROOT/Data/world.mbtiles" "$OUT/probe.json" --glyphs "$ROOT/Data/glyphs" 2>/dev/null)
GLYPHS=$ROOT/Data/glyphs
while IFS= read -r stack; do
  [ -n "$stack" ] || continue
  if [ ! -d "$GLYPHS/$stack" ]; then GLYPHS=$OUT/glyphs; break; fi
done < <(python3 -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])["fontstacks"]))' "$info")
if [ "$GLYPHS" = "$OUT/glyphs" ]; then
  while IFS= read -r stack; do
    [ -n "$stack" ] || continue
    [ -f "$GLYPHS/$stack/0-255.pbf" ] || { echo "making glyphs for $stack ..." >&2; "$PY" "$BENCH/make_glyphs.py" "$GLYPHS" "$stack" >&2; }
  done < <(python3 -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])["fontstacks"]))' "$info")
fi

rows=""
while IFS='=' read -r view cam tiles; do
  [ -n "$view" ] || continue
  if [ ${#ONLY[@]} -gt 0 ] && ! printf '%s\n' "${ONLY[@]}" | grep -qx "$view"; then continue; fi
  [ -f "$tiles" ] || { echo "$tiles is missing (make data?)" >&2; exit 1; }
  styled=$OUT/style-$(basename "$tiles" .mbtiles).json
  python3 "$HERE/third_party_style.py" "$STYLE" "$tiles" "$styled" --glyphs "$GLYPHS" ${SPRITE:+--sprite "$SPRITE"} \
    >"$OUT/rewrite.json" 2>"$OUT/rewrite.log"
  "$PY" "$BENCH/render.py" "$styled" --camera "$cam" --size "$SIZE" -o "$OUT/$view-maplibre.png" --quiet \
    2>"$OUT/$view-maplibre.log" || { echo "MapLibre Native failed on $view: $(tail -2 "$OUT/$view-maplibre.log")" >&2; exit 1; }
  rm -f "$OUT/$view-waymark.png"
  strict=ok
  ( cd "$ROOT" && FONTCONFIG_FILE=$ROOT/Tests/Fixtures/fonts/fonts.conf WAYMARK_DATA_DIR="$ROOT/Data" timeout 300 \
      "$bin" snapshot --strict --style "$styled" --camera "$cam" --size "$SIZE" --timeout 5 \
      -o "$OUT/$view-waymark.png" >/dev/null 2>"$OUT/$view-waymark.log" ) || strict=incomplete
  # --strict exits 1 on an incomplete snapshot (a dropped layer or source, an unreadable tile) and still writes it.
  [ -f "$OUT/$view-waymark.png" ] || { echo "waymark snapshot failed on $view: $(tail -2 "$OUT/$view-waymark.log")" >&2; exit 1; }
  python3 "$HERE/style_layer_census.py" "$styled" "$tiles" --camera "$cam" --size "$SIZE" >"$OUT/$view-layers.txt"
  layers=$(tail -1 "$OUT/$view-layers.txt" | sed 's/^.*: //; s/, /,/g; s/ /_/g')
  r=$("$PY" "$BENCH/compare.py" "$OUT/$view-maplibre.png" "$OUT/$view-waymark.png" --diff "$OUT/$view-diff.png" \
      --ignore 0,696,300,720 --json)
  notes=$(grep -c . "$OUT/$view-waymark.log" || true)  # lines on Waymark's stderr: warnings, dropped layers
  rows="$rows$view $("$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print("%.1f %.1f" % (100 * r["differing_fraction"], r["mean_abs_diff"]))' "$r") $notes $strict $layers"$'\n'
done <<< "$ALL_VIEWS"

echo "style: $STYLE ($(python3 -c 'import json,sys; i=json.loads(sys.argv[1]); print("%d layers kept, %d removed, types %s" % (i["layers"], len(i["removed_layers"]), ",".join(i["types"])))' "$(cat "$OUT/rewrite.json")"))"
sed 's/^/  rewrite: /' "$OUT/rewrite.log"
echo "glyphs: $GLYPHS"
printf '%-18s | %9s | %9s | %-11s | %-10s | %s\n' view differing "mean diff" diagnostics --strict "style layers (VIEW-layers.txt)"
printf '%-18s-|-%9s-|-%9s-|-%-11s-|-%-10s-|-%s\n' ------------------ --------- --------- ----------- ---------- ------------------------------
summary=""; max=0.0
while read -r view pct mean notes strict layers; do
  [ -n "$view" ] || continue
  printf '%-18s | %7s %% | %9s | %-11s | %-10s | %s\n' "$view" "$pct" "$mean" "$notes" "$strict" "$(echo "$layers" | sed 's/,/, /g; s/_/ /g')"
  summary="$summary${summary:+, }$view $pct %"
  max=$(awk -v a="$max" -v b="$pct" 'BEGIN { print (b > a ? b : a) }')
done <<< "$rows"
echo "images and logs: $OUT"
printf '%s pixel diff against MapLibre Native: max %.1f %% (%s)\n' "$name" "$max" "$summary"
