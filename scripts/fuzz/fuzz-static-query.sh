#!/usr/bin/env bash
# Fuzzes the Static Maps query parser and scene for SECONDS (default 600): random and mutated Google queries must
# never crash or hang, and every refusal must be a 4xx naming a parameter (Tests/StaticMapsTests/StaticMapQueryFuzzTests).
# usage: scripts/fuzz/fuzz-static-query.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --build-tests >/dev/null
WAYMARK_FUZZ_SECONDS="${1:-600}" swift test --skip-build --filter StaticMapQueryFuzzTests
