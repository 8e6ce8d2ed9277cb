#!/usr/bin/env bash
# Fuzzes Google's styling rules (Sources/MapStyle/GoogleStyle): the JSON parser, and random rule arrays applied to the
# bundled styles, which must give only valid colours and finite numbers; libFuzzer + AddressSanitizer, like
# fuzz-mvt.sh.
#
# usage: scripts/fuzz/fuzz-google-style.sh [SECONDS] [libFuzzer options…]      (SECONDS defaults to 600)
#
# Builds WaymarkTime, MapGeometry and MapJSON as modules, then the harness Fuzz/fuzz-google-style/FuzzGoogleStyle.swift
# together with the MapStyle sources in one swiftc invocation (`-sanitize=fuzzer,address`, see fuzz-mvt.sh for why
# not SwiftPM), into .build-fuzz/fuzz-google-style. Seeds: Fuzz/corpus/google-style/ (the night, retro and greyscale
# test styles and Google's reference example), copied into the git-ignored Fuzz/corpus-work/google-style/. A crash writes crash-* into Fuzz/corpus-work/ and exits
# non-zero; reproduce with `.build-fuzz/fuzz-google-style Fuzz/corpus-work/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
mkdir -p .build-fuzz/google-style Fuzz/corpus-work/google-style
module() {  # name, dependency objects…
  local name="$1"; shift
  # shellcheck disable=SC2046
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name "$name" -package-name Waymark \
      -I .build-fuzz/google-style -emit-module -emit-module-path ".build-fuzz/google-style/$name.swiftmodule" \
      -c $(find "Sources/$name" -name '*.swift' | sort) -o ".build-fuzz/google-style/$name.o"
}
module WaymarkTime
module MapGeometry
module MapJSON
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D FUZZ_SINGLE_MODULE -module-name Fuzz_google_style \
    -package-name Waymark -I .build-fuzz/google-style .build-fuzz/google-style/WaymarkTime.o .build-fuzz/google-style/MapGeometry.o \
    .build-fuzz/google-style/MapJSON.o $(find Sources/MapStyle -name '*.swift' | sort) Fuzz/fuzz-google-style/*.swift \
    -o .build-fuzz/fuzz-google-style 2>&1 | grep -v "Cannot export local symbol" || true
cp -n Fuzz/corpus/google-style/* Fuzz/corpus-work/google-style/ 2>/dev/null || true
exec .build-fuzz/fuzz-google-style -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=Fuzz/corpus-work/ -print_final_stats=1 "$@" Fuzz/corpus-work/google-style
