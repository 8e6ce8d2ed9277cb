#!/usr/bin/env bash
# Issue 29: builds Tests/CompileChecks (code written for Google's SDK calling the model classes from nonisolated
# code) and checks its diagnostics: the Swift 5 target must compile without a warning, the Swift 6 target with only
# the warnings listed in Tests/CompileChecks/expected-swift6-warnings.txt (the ones Xcode gives too; one substring a
# line, empty today). The package has its own scratch path (.build/compile-checks), so a cold run builds
# GoogleMaps and its dependencies once more (see README, "Porting an iOS map screen", for the measured cost); later
# runs rebuild only the two check targets, which are touched so their diagnostics are printed every time.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-swift}"
pkg=Tests/CompileChecks
scratch=.build/compile-checks
touch "$pkg"/Sources/Swift5Checks/*.swift "$pkg"/Sources/Swift6Checks/*.swift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$SWIFT" build --package-path "$pkg" --scratch-path "$scratch" >"$log" 2>&1; then
    grep -E 'error' "$log" | head -40
    echo "compile-checks: the check package does not build (log above)" >&2
    exit 1
fi
status=0
# Warnings from the package's own sources reach every user building it (GoogleMapsUtils is built here whenever its
# sources changed since the last run; a clean scratch path builds it every time).
own=$(grep -E "/Sources/[A-Za-z]+/.*: warning:" "$log" | grep -v "CompileChecks/Sources/" | sort -u || true)
if [ -n "$own" ]; then
    echo "compile-checks: the package's own sources warned (users building it see these):" >&2
    echo "$own" >&2
    status=1
fi
swift5=$(grep -E "CompileChecks/Sources/Swift5Checks/.*: warning:" "$log" | sort -u || true)
if [ -n "$swift5" ]; then
    echo "compile-checks: Swift 5 mode must compile silently, but warned:" >&2
    echo "$swift5" >&2
    status=1
fi
expected="$pkg/expected-swift6-warnings.txt"
is_expected() {
    local want
    while IFS= read -r want; do
        case "$want" in '' | '#'*) continue ;; esac
        case "$1" in *"$want"*) return 0 ;; esac
    done <"$expected"
    return 1
}
while IFS= read -r line; do
    [ -z "$line" ] && continue
    if ! is_expected "$line"; then
        echo "compile-checks: Swift 6 mode warned where Xcode does not:" >&2
        echo "$line" >&2
        status=1
    fi
done < <(grep -E "CompileChecks/Sources/Swift6Checks/.*: warning:" "$log" | sort -u || true)
[ "$status" -eq 0 ] && echo "compile-checks: Swift 5 silent, Swift 6 only the expected warnings"
exit "$status"
