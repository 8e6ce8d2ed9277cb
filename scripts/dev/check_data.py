#!/usr/bin/env python3
"""The bundled data keeps its budget: every file under Data/ together is at most 64 MiB (67,108,864 bytes), and no
tile of the bundled world (Data/world.mbtiles) is above zoom 9 (it stops there on purpose; the city extracts,
Data/helsinki.mbtiles and Data/cities.mbtiles, go to street level and count in the byte budget like every file).

Usage: scripts/dev/check_data.py [REPO_DIR]   (exit 0 within budget, 1 with one line per problem)
"""

import os
import sqlite3
import sys

BUDGET_BYTES = 64 * 1024 * 1024
WORLD_MAX_ZOOM = 9
WORLD_FILE = "world.mbtiles"


def data_bytes(data_dir):
    """The total size in bytes of every regular file under data_dir (symlinks not followed)."""
    total = 0
    for root, _dirs, files in os.walk(data_dir):
        for name in files:
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def max_zoom(mbtiles_path):
    """The highest zoom_level in an MBTiles file's tiles table, or None when it has no tiles."""
    with sqlite3.connect(f"file:{mbtiles_path}?mode=ro", uri=True) as db:
        row = db.execute("SELECT MAX(zoom_level) FROM tiles").fetchone()
    return row[0]


def problems(data_dir, budget=BUDGET_BYTES, world_max_zoom=WORLD_MAX_ZOOM):
    """One line per way data_dir breaks the budget; empty when it keeps it."""
    found = []
    total = data_bytes(data_dir)
    if total > budget:
        found.append(f"Data/ holds {total:,} bytes, over the budget of {budget:,} bytes (64 MiB) by {total - budget:,}")
    world = os.path.join(data_dir, WORLD_FILE)
    if not os.path.isfile(world):
        found.append(f"Data/{WORLD_FILE} is missing")
    else:
        zoom = max_zoom(world)
        if zoom is not None and zoom > world_max_zoom:
            found.append(f"Data/{WORLD_FILE} has tiles at zoom {zoom}; the bundled world stops at zoom {world_max_zoom}")
    return found


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    data_dir = os.path.join(repo, "Data")
    found = problems(data_dir)
    for line in found:
        print(line)
    if not found:
        print(f"check_data: Data/ holds {data_bytes(data_dir):,} of {BUDGET_BYTES:,} bytes")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
