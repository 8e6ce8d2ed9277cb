#!/usr/bin/env bash
# Fuzzes the overlay GeoJSON reader behind `waymark snapshot --overlays` and `--markers` (OverlayGeoJSON in
# Sources/MapData, which GeoJSONShapes and MapHost.markerCommands draw from) with libFuzzer + AddressSanitizer, like
# fuzz-mvt.sh: each input is parsed as JSON, read as shapes and as markers, and what is accepted is projected for two
# cameras (Fuzz/fuzz-overlays/FuzzOverlays.swift).
#
# usage: scripts/fuzz/fuzz-overlays.sh [SECONDS] [libFuzzer options…]      (SECONDS defaults to 600)
#
# Builds MapJSON and MapGeometry as modules, then the harness together with the MapData sources in one swiftc
# invocation (`-sanitize=fuzzer,address`), into .build-fuzz/fuzz-overlays. Seeds: Fuzz/corpus/overlays/ (small
# GeoJSON documents written by Fuzz/make-overlay-seeds.py), copied into the git-ignored Fuzz/corpus-work/overlays/
# (FUZZ_WORK to put it elsewhere). A crash writes crash-* there and exits non-zero; reproduce with
# `.build-fuzz/fuzz-overlays Fuzz/corpus-work/overlays/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
work="${FUZZ_WORK:-Fuzz/corpus-work/overlays}"
mkdir -p .build-fuzz/overlays "$work"
module() {  # name
  local name="$1"
  # shellcheck disable=SC2046
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name "$name" -package-name Waymark \
      -I .build-fuzz/overlays -emit-module -emit-module-path ".build-fuzz/overlays/$name.swiftmodule" \
      -c $(find "Sources/$name" -name '*.swift' | sort) -o ".build-fuzz/overlays/$name.o"
}
module MapJSON
module MapGeometry
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D FUZZ_SINGLE_MODULE -module-name Fuzz_overlays \
    -package-name Waymark -I .build-fuzz/overlays .build-fuzz/overlays/MapJSON.o .build-fuzz/overlays/MapGeometry.o \
    $(find Sources/MapData -name '*.swift' | sort) Fuzz/fuzz-overlays/*.swift -o .build-fuzz/fuzz-overlays 2>&1 \
    | grep -v "Cannot export local symbol" || true
cp -n Fuzz/corpus/overlays/* "$work/" 2>/dev/null || true
exec .build-fuzz/fuzz-overlays -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$work/" -print_final_stats=1 "$@" "$work"
