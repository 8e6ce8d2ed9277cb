#!/usr/bin/env bash
# Checks that the data build is deterministic: builds twice into two temp folders and compares every file
# byte for byte; then reports whether the build also matches the committed Data/ files.
#
# usage: scripts/data/check-data-determinism.sh
# Exit status: 0 when both builds are byte-identical, 1 otherwise (the differing files are named).
# The comparison with Data/ is informational (prints "matches committed" or "differs from committed"), since
# a different SQLite or GDAL version legitimately changes the bytes; see DATA.md, "Determinism".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/waymark-determinism.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

for run in a b; do
  echo "== build $run" >&2
  t0=$(date +%s)
  "$here/build-data.sh" "$tmp/$run" >"$tmp/$run.summary"
  echo "build $run: $(($(date +%s) - t0)) s" >&2
done

status=0
for f in $(cd "$tmp/a" && ls); do
  if cmp -s "$tmp/a/$f" "$tmp/b/$f"; then
    sum="$(sha256sum "$tmp/a/$f" | cut -d' ' -f1)"
    if [ -f "$root/Data/$f" ] && cmp -s "$tmp/a/$f" "$root/Data/$f"; then
      note="matches committed Data/$f"
    else
      note="differs from committed Data/$f"
    fi
    echo "identical  $f  sha256 $sum  ($note)"
  else
    echo "DIFFERENT  $f"
    status=1
  fi
done
[ "$(cd "$tmp/a" && ls)" = "$(cd "$tmp/b" && ls)" ] || { echo "DIFFERENT file lists"; status=1; }
[ "$status" -eq 0 ] && echo "determinism: OK (two builds byte-identical)" || echo "determinism: FAILED"
exit "$status"
