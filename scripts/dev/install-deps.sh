#!/usr/bin/env bash
# Installs the Debian packages a Waymark target needs, only if some are missing.
# usage: scripts/dev/install-deps.sh build|test|data|tiles
#   build: C libraries, fonts and gdk-pixbuf's WebP loader for building and running the library, `waymark` and
#          `map-benchmarks`
#   test:  build + what the tests drive (Xvfb, xdotool, ImageMagick, gpsd's gpsfake)
#   data:  build + the map data tools used by `make data` (tilemaker, GDAL, osmium, osmcoastline, sqlite3, python venv,
#          GMT with the GSHHG data)
#   tiles: only the tools `waymark tiles build` runs (tilemaker, GDAL, sqlite3, python venv); no build libraries
# Runs apt-get as root, or through sudo. Exits non-zero, naming the packages, when it cannot install them.
set -euo pipefail
build=(pkg-config libcairo2-dev libpango1.0-dev libgdk-pixbuf-2.0-dev libsdl2-dev libsqlite3-dev zlib1g-dev libcurl4-openssl-dev
       libmicrohttpd-dev nettle-dev libxml2-dev libpng-dev
       fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji webp-pixbuf-loader)
test_extra=(xvfb xdotool imagemagick x11-utils gpsd gpsd-clients sqlite3 python3 haproxy wrk curl)
data_extra=(tilemaker gdal-bin python3-gdal osmium-tool osmcoastline sqlite3 unzip python3-venv python3-pip
            gmt gmt-gshhg-low gmt-gshhg-high gmt-gshhg-full)
tiles=(tilemaker gdal-bin sqlite3 python3-venv python3-pip)
case "${1:-build}" in
  build) want=("${build[@]}") ;;
  test) want=("${build[@]}" "${test_extra[@]}") ;;
  data) want=("${build[@]}" "${data_extra[@]}") ;;
  tiles) want=("${tiles[@]}") ;;
  *) echo "usage: $0 build|test|data|tiles" >&2; exit 2 ;;
esac
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
  echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
