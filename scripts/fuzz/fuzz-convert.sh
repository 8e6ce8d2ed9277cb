#!/usr/bin/env bash
# Fuzzes the tile archive converter (Sources/MapStorage/TileArchiveConverter.swift, `waymark tiles convert`) with
# libFuzzer + AddressSanitizer: each input is written as a .pmtiles file and converted to MBTiles and back
# (Fuzz/fuzz-convert/FuzzConvert.swift). Seeds: the PMTiles seeds Fuzz/corpus/pmtiles/.
#
# usage: scripts/fuzz/fuzz-convert.sh [SECONDS] [libFuzzer options…]      (SECONDS defaults to 600)
#
# Compiles MapGeometry, MapJSON, MapData and MapGeocoding as modules, then MapStorage (which imports Debian's SQLite
# and zlib through the CSQLite and CZlib module maps) with the harness in one swiftc invocation, into
# .build-fuzz/fuzz-convert, as scripts/fuzz/fuzz-mvt.sh does. Set FUZZ_WORK to put the working corpus elsewhere
# (default Fuzz/corpus-work/convert).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
work="${FUZZ_WORK:-Fuzz/corpus-work/convert}"
mkdir -p .build-fuzz "$work"
# MapData and MapStorage import MapGeometry: built as its own instrumented module first.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name MapGeometry -package-name Waymark \
    -emit-module -emit-module-path .build-fuzz/MapGeometry.swiftmodule -c \
    $(find Sources/MapGeometry -name '*.swift' | sort) -o .build-fuzz/MapGeometry.o
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name MapJSON -emit-module \
    -emit-module-path .build-fuzz/MapJSON.swiftmodule -c $(find Sources/MapJSON -name '*.swift' | sort) \
    -o .build-fuzz/MapJSON.o
# MapStorage imports MapGeocoding (the forward geocoder's database rows): built as its own instrumented module.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name MapGeocoding -package-name Waymark \
    -emit-module -emit-module-path .build-fuzz/MapGeocoding.swiftmodule -c \
    $(find Sources/MapGeocoding -name '*.swift' | sort) -o .build-fuzz/MapGeocoding.o
# MapStorage imports MapData: built as its own instrumented module first.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name MapData -package-name Waymark \
    -emit-module -emit-module-path .build-fuzz/MapData.swiftmodule -I .build-fuzz -c \
    $(find Sources/MapData -name '*.swift' | sort) -o .build-fuzz/MapData.o
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D FUZZ_SINGLE_MODULE -module-name Fuzz_convert \
    -package-name Waymark -I .build-fuzz -I Sources/CSQLite -I Sources/CZlib .build-fuzz/MapGeometry.o \
    .build-fuzz/MapJSON.o .build-fuzz/MapData.o .build-fuzz/MapGeocoding.o $(find Sources/MapStorage -name '*.swift' | sort) Fuzz/fuzz-convert/*.swift \
    -lsqlite3 -lz -o .build-fuzz/fuzz-convert 2>&1 | grep -v "Cannot export local symbol" || true
cp -n Fuzz/corpus/pmtiles/* "$work/" 2>/dev/null || true
exec .build-fuzz/fuzz-convert -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$work/" -print_final_stats=1 "$@" "$work"
