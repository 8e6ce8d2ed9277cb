#!/usr/bin/env python3
"""Writes the PMTiles test fixtures in Tests/Fixtures/pmtiles/ and the fuzz seeds in Fuzz/corpus/pmtiles/ with the
pinned `pmtiles` package (protomaps' reference writer, scripts/data/tools-requirements.txt), from Data/helsinki.mbtiles.

usage: .sources/venv/bin/python scripts/data/make-pmtiles-fixtures.py        (from the repository root; the venv comes
       from scripts/data/fetch-sources.sh)

Fixtures (every tile payload stored exactly as in the MBTiles file, still gzip-compressed):
  helsinki.pmtiles        pmtiles.convert.mbtiles_to_pmtiles on the whole file: clustered, gzip directories.
  helsinki-leaves.pmtiles zooms 0-13, leaf directories of 3 entries each (the writer's leaf builder, forced small).
  unclustered.pmtiles     zooms 0-12 written in descending tile-id order: clustered = 0.
  internal-none.pmtiles   zooms 0-12 with uncompressed directories and metadata (internal compression 1).
  runlength.pmtiles       the z5 tile written at all 16 z2 and all 64 z3 addresses except z3 tile id 30 (the z6
                          tile there): run-length entries, one payload stored.
The writer's output is deterministic (gzip mtime 0), so a rerun gives identical files.
"""
import gzip
import io
import json
import os
import sqlite3

import pmtiles.writer as pw
from pmtiles.convert import mbtiles_to_pmtiles, mbtiles_to_header_json
from pmtiles.tile import (Compression, Entry, serialize_header, tileid_to_zxy, write_varint, zxy_to_tileid)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MBTILES = os.path.join(ROOT, "Data", "helsinki.mbtiles")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "pmtiles")
SEEDS = os.path.join(ROOT, "Fuzz", "corpus", "pmtiles")


def read_mbtiles(maxzoom=99):
    db = sqlite3.connect(MBTILES)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    tiles = {}
    for z, x, row, data in db.execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level <= ?", (maxzoom,)):
        tiles[zxy_to_tileid(z, x, (1 << z) - 1 - row)] = bytes(data)
    db.close()
    return meta, tiles


def write_with(path, meta, tiles, order, leaf_size=None):
    """The package's Writer, with `order` of tile ids; a fixed leaf size replaces its root-size search."""
    saved = pw.optimize_directories
    if leaf_size:
        pw.optimize_directories = lambda entries, target: pw.build_roots_leaves(entries, leaf_size)
    try:
        header, metadata = mbtiles_to_header_json(dict(meta))
        with pw.write(path) as writer:
            for tile_id in order:
                writer.write_tile(tile_id, tiles[tile_id])
            writer.finalize(header, metadata)
    finally:
        pw.optimize_directories = saved


def plain_directory(entries):
    """The directory encoding of pmtiles.tile.serialize_directory, without its gzip step."""
    b = io.BytesIO()
    write_varint(b, len(entries))
    last = 0
    for e in entries:
        write_varint(b, e.tile_id - last)
        last = e.tile_id
    for e in entries:
        write_varint(b, e.run_length)
    for e in entries:
        write_varint(b, e.length)
    for i, e in enumerate(entries):
        contiguous = i > 0 and e.offset == entries[i - 1].offset + entries[i - 1].length
        write_varint(b, 0 if contiguous else e.offset + 1)
    return b.getvalue()


def write_uncompressed(path, meta, tiles, leaf_size=None):
    """An archive with internal compression none (the package's writer always gzips directories)."""
    entries, data = [], b""
    for tile_id in sorted(tiles):
        entries.append(Entry(tile_id, len(data), len(tiles[tile_id]), 1))
        data += tiles[tile_id]
    leaves = b""
    if leaf_size:
        roots = []
        for i in range(0, len(entries), leaf_size):
            leaf = plain_directory(entries[i:i + leaf_size])
            roots.append(Entry(entries[i].tile_id, len(leaves), len(leaf), 0))
            leaves += leaf
        root = plain_directory(roots)
    else:
        root = plain_directory(entries)
    header, metadata = mbtiles_to_header_json(dict(meta))
    metadata = json.dumps(metadata).encode()
    header.update(
        root_offset=127, root_length=len(root), metadata_offset=127 + len(root), metadata_length=len(metadata),
        leaf_directory_offset=127 + len(root) + len(metadata), leaf_directory_length=len(leaves),
        tile_data_length=len(data), addressed_tiles_count=len(entries), tile_entries_count=len(entries),
        tile_contents_count=len(entries), clustered=True, internal_compression=Compression.NONE,
        min_zoom=tileid_to_zxy(entries[0].tile_id)[0], max_zoom=tileid_to_zxy(entries[-1].tile_id)[0])
    header["tile_data_offset"] = header["leaf_directory_offset"] + len(leaves)
    with open(path, "wb") as f:
        f.write(serialize_header(header) + root + metadata + leaves + data)


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(SEEDS, exist_ok=True)
    mbtiles_to_pmtiles(MBTILES, os.path.join(OUT, "helsinki.pmtiles"), None)

    meta, tiles = read_mbtiles(13)
    write_with(os.path.join(OUT, "helsinki-leaves.pmtiles"), meta, tiles, sorted(tiles), leaf_size=3)

    meta, tiles = read_mbtiles(12)
    write_with(os.path.join(OUT, "unclustered.pmtiles"), meta, tiles, sorted(tiles, reverse=True))
    write_uncompressed(os.path.join(OUT, "internal-none.pmtiles"), meta, tiles)

    z5 = next(data for tile_id, data in tiles.items() if tileid_to_zxy(tile_id)[0] == 5)
    z6 = next(data for tile_id, data in tiles.items() if tileid_to_zxy(tile_id)[0] == 6)
    repeated = {tile_id: z5 for tile_id in range(zxy_to_tileid(2, 0, 0), zxy_to_tileid(4, 0, 0))}
    repeated[30] = z6
    write_with(os.path.join(OUT, "runlength.pmtiles"), {**meta, "minzoom": "2", "maxzoom": "3"}, repeated,
               sorted(repeated))

    # Fuzz seeds: small archives with uncompressed directories (the fuzz build has no zlib), tiny payloads.
    small = {tile_id: bytes([tile_id % 251]) * (1 + tile_id % 5) for tile_id in range(0, 200, 3)}
    seed_meta = {"name": "seed", "format": "pbf", "minzoom": "0", "maxzoom": "6"}
    write_uncompressed(os.path.join(SEEDS, "flat.pmtiles"), seed_meta, small)
    write_uncompressed(os.path.join(SEEDS, "leaves.pmtiles"), seed_meta, small, leaf_size=4)
    write_uncompressed(os.path.join(SEEDS, "one.pmtiles"), seed_meta, {0: b"x"})


if __name__ == "__main__":
    main()
