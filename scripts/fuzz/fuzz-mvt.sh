#!/usr/bin/env bash
# Fuzzes the Mapbox Vector Tile decoder (Sources/MapData) with libFuzzer + AddressSanitizer.
# Called as scripts/fuzz/fuzz-pmtiles.sh (a symlink to this file) it fuzzes the PMTiles v3 header and directory decoders
# (Fuzz/fuzz-pmtiles/, seeds in Fuzz/corpus/pmtiles/ written by scripts/data/make-pmtiles-fixtures.py) the same way;
# as scripts/fuzz/fuzz-glyphs.sh, the glyph PBF decoder (Fuzz/fuzz-glyphs/, seeds in Fuzz/corpus/glyphs/).
#
# usage: scripts/fuzz/fuzz-mvt.sh [SECONDS] [libFuzzer options…]      (SECONDS defaults to 600)
#
# Builds the harness Fuzz/fuzz-mvt/FuzzMVT.swift together with the MapData sources in one swiftc invocation
# (`-sanitize=fuzzer,address`), into .build-fuzz/fuzz-mvt. The SwiftPM route
# (`WAYMARK_FUZZ=1 swift build -c release --product fuzz-mvt --sanitize=fuzzer --sanitize=address`) also links, but
# on this toolchain it left the library target without coverage instrumentation (libFuzzer reports "no interesting
# inputs"), so the script compiles directly. The run starts from a scratch copy of the committed seeds
# Fuzz/corpus/mvt/ (written by Fuzz/make-seeds.py) in the git-ignored Fuzz/corpus-work/mvt/. A crash writes a
# crash-* input into Fuzz/corpus-work/ and the script exits non-zero; reproduce with
# `.build-fuzz/fuzz-mvt Fuzz/corpus-work/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
name="$(basename "$0" .sh)"   # fuzz-mvt or fuzz-pmtiles
corpus="${name#fuzz-}"
mkdir -p .build-fuzz "Fuzz/corpus-work/$corpus"
# MapData imports MapGeometry and MapJSON: each built first as its own module (whole-module, one object file), then
# linked in.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name MapGeometry -emit-module \
    -emit-module-path .build-fuzz/MapGeometry.swiftmodule -c $(find Sources/MapGeometry -name '*.swift' | sort) \
    -o .build-fuzz/MapGeometry.o
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name MapJSON -emit-module \
    -emit-module-path .build-fuzz/MapJSON.swiftmodule -c $(find Sources/MapJSON -name '*.swift' | sort) \
    -o .build-fuzz/MapJSON.o
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D FUZZ_SINGLE_MODULE -module-name "Fuzz_$corpus" -package-name Waymark \
    -I .build-fuzz .build-fuzz/MapGeometry.o .build-fuzz/MapJSON.o \
    $(find Sources/MapData -name '*.swift' | sort) "Fuzz/$name"/*.swift -o ".build-fuzz/$name" 2>&1 \
    | grep -v "Cannot export local symbol" || true
cp -n "Fuzz/corpus/$corpus"/* "Fuzz/corpus-work/$corpus/" 2>/dev/null || true
exec ".build-fuzz/$name" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=Fuzz/corpus-work/ -print_final_stats=1 "$@" "Fuzz/corpus-work/$corpus"
