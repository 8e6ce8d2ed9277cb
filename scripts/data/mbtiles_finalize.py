#!/usr/bin/env python3
"""Copies an MBTiles file into a fresh, clean, deterministic one.

usage: mbtiles_finalize.py SRC.mbtiles DST.mbtiles [--dedupe] --meta KEY=VALUE [--meta KEY=VALUE ...]

--dedupe stores each distinct tile once: tables `map` (zoom_level, tile_column, tile_row, tile_id; WITHOUT ROWID,
primary key z/x/y) and `images` (tile_id, tile_data), and `tiles` as a view joining them, the layout MBTiles 1.3
allows and mbutil/tilemaker use; tile_id numbers distinct tiles in (z, x, y) order of first use. Readers query
`tiles` as usual.

- Tiles: only rows inside the grid are kept (0 <= tile_column, tile_row < 2^zoom_level; GDAL 3.6 writes
  rows at tile_row = -1 and tile_column = 2^z from its tile buffer) and, when minzoom/maxzoom are given,
  only zoom levels in that range. Rows are inserted in (zoom_level, tile_column, tile_row) order. Rows stay
  TMS (tile_row = 2^z - 1 - y), as the MBTiles 1.3 spec says.
- Metadata: exactly one row per name. The rows are the --meta values plus the source's "json" row
  (vector_layers), re-serialised compactly. Every other source row (GDAL's scheme=tms, tilemaker's
  "scheme": "xyz", generators, timestamps) is dropped.
- The file is written with the MBTiles schema (metadata and tiles tables, unique indexes), page size 4096,
  rollback journal, then VACUUMed, so the same content gives the same bytes.
Prints tile counts per zoom level and the number of out-of-grid rows dropped on stderr.
"""

import json
import os
import sqlite3
import sys


def main(argv: list[str]) -> int:
    args = argv[1:]
    meta: dict[str, str] = {}
    rest = []
    dedupe = "--dedupe" in args
    if dedupe:
        args = [a for a in args if a != "--dedupe"]
    i = 0
    while i < len(args):
        if args[i] == "--meta" and i + 1 < len(args) and "=" in args[i + 1]:
            k, v = args[i + 1].split("=", 1)
            meta[k] = v
            i += 2
        else:
            rest.append(args[i])
            i += 1
    if len(rest) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    src_path, dst_path = rest
    src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True)
    row = src.execute("SELECT value FROM metadata WHERE name = 'json' LIMIT 1").fetchone()
    if row and "json" not in meta:
        meta["json"] = json.dumps(json.loads(row[0]), separators=(",", ":"), ensure_ascii=False)
    minzoom = int(meta["minzoom"]) if "minzoom" in meta else 0
    maxzoom = int(meta["maxzoom"]) if "maxzoom" in meta else 30

    if os.path.exists(dst_path):
        os.remove(dst_path)
    dst = sqlite3.connect(dst_path)
    dst.execute("PRAGMA page_size = 4096")
    dst.execute("PRAGMA journal_mode = DELETE")
    dst.executescript(
        """
        CREATE TABLE metadata (name text, value text);
        CREATE UNIQUE INDEX metadata_name ON metadata (name);
        """
        + (
            """
        CREATE TABLE map (zoom_level integer, tile_column integer, tile_row integer, tile_id integer,
                          PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
        CREATE TABLE images (tile_id integer PRIMARY KEY, tile_data blob);
        CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                                    map.tile_row AS tile_row, images.tile_data AS tile_data
                             FROM map JOIN images ON images.tile_id = map.tile_id;
        """
            if dedupe
            else """
        CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """
        )
    )
    ids: dict[bytes, int] = {}
    dst.executemany("INSERT INTO metadata (name, value) VALUES (?, ?)", sorted(meta.items()))
    kept: dict[int, int] = {}
    dropped = 0
    for z, x, y, data in src.execute(
        "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row"
    ):
        if not (minzoom <= z <= maxzoom and 0 <= x < (1 << z) and 0 <= y < (1 << z)):
            dropped += 1
            continue
        if dedupe:
            data = bytes(data)
            tid = ids.get(data)
            if tid is None:
                tid = ids[data] = len(ids) + 1
                dst.execute("INSERT INTO images VALUES (?, ?)", (tid, data))
            dst.execute("INSERT INTO map VALUES (?, ?, ?, ?)", (z, x, y, tid))
        else:
            dst.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, y, bytes(data)))
        kept[z] = kept.get(z, 0) + 1
    dst.commit()
    dst.execute("VACUUM")
    dst.close()
    src.close()
    print(
        f"mbtiles_finalize: {dst_path}: {sum(kept.values())} tiles ("
        + ", ".join(f"z{z}: {n}" for z, n in sorted(kept.items()))
        + f"); {dropped} out-of-grid/out-of-range rows dropped"
        + (f"; {len(ids)} distinct tiles stored" if dedupe else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
