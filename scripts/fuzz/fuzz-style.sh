#!/usr/bin/env bash
# Fuzzes the style and TileJSON parsers (Sources/MapStyle) with libFuzzer + AddressSanitizer, like fuzz-mvt.sh.
#
# usage: scripts/fuzz/fuzz-style.sh [SECONDS] [libFuzzer options…]      (SECONDS defaults to 600)
#
# Builds WaymarkTime, MapGeometry and MapJSON as modules, then the harness Fuzz/fuzz-style/FuzzStyle.swift together
# with the MapStyle sources in one swiftc invocation (`-sanitize=fuzzer,address`, see fuzz-mvt.sh for why not
# SwiftPM), into .build-fuzz/fuzz-style. Seeds: Fuzz/corpus/style/ (the bundled style and small TileJSON documents),
# copied into the git-ignored Fuzz/corpus-work/style/. A crash writes crash-* into Fuzz/corpus-work/ and exits
# non-zero; reproduce with `.build-fuzz/fuzz-style Fuzz/corpus-work/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
mkdir -p .build-fuzz/style Fuzz/corpus-work/style
module() {  # name, dependency objects…
  local name="$1"; shift
  # shellcheck disable=SC2046
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name "$name" -package-name Waymark \
      -I .build-fuzz/style -emit-module -emit-module-path ".build-fuzz/style/$name.swiftmodule" \
      -c $(find "Sources/$name" -name '*.swift' | sort) -o ".build-fuzz/style/$name.o"
}
module WaymarkTime
module MapGeometry
module MapJSON
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D FUZZ_SINGLE_MODULE -module-name Fuzz_style \
    -package-name Waymark -I .build-fuzz/style .build-fuzz/style/WaymarkTime.o .build-fuzz/style/MapGeometry.o \
    .build-fuzz/style/MapJSON.o $(find Sources/MapStyle -name '*.swift' | sort) Fuzz/fuzz-style/*.swift \
    -o .build-fuzz/fuzz-style 2>&1 | grep -v "Cannot export local symbol" || true
cp -n Fuzz/corpus/style/* Fuzz/corpus-work/style/ 2>/dev/null || true
exec .build-fuzz/fuzz-style -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=Fuzz/corpus-work/ -print_final_stats=1 "$@" Fuzz/corpus-work/style
