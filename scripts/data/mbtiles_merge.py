#!/usr/bin/env python3
"""Merges vector-tile MBTiles files into one: a tile present in several inputs gets all their features.

usage: mbtiles_merge.py OUT.mbtiles IN1.mbtiles IN2.mbtiles ... --meta KEY=VALUE ...

For tiles at the same z/x/y (the shared low zooms of two cities, z0-3 for Helsinki and Monaco), layers of the same
name are joined: the features of the first input come first, then the next input's, each feature's tags re-indexed
into one key and value table; layers appear in first-seen order. A tile found in one input only is copied as it
is. The result is gzipped (level 9, mtime 0), written in (z, x, y) order by mbtiles_finalize.py's rules (one
metadata row per name: the --meta values plus a `json` row whose vector_layers are the union of the inputs'; a
fresh VACUUMed file), so the same inputs in the same order give the same bytes. Pure Python 3.
"""

import gzip
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mvt_canonical import field_bytes, field_varint, fields, packed_varints, parse_layer, varint  # noqa: E402


def unzip(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def merge_tiles(tiles: list[bytes]) -> bytes:
    """One MVT from several: same-name layers joined in input order."""
    order: list[bytes] = []
    merged: dict[bytes, dict] = {}
    for data in tiles:
        for num, _wire, v in fields(unzip(data)):
            if num != 3:
                continue
            name, extent, version, feats, keys, values = parse_layer(v)
            if name not in merged:
                order.append(name)
                merged[name] = {"extent": extent, "version": version, "feats": [], "keys": {}, "values": {}}
            m = merged[name]
            for f in feats:
                out = b""
                for fnum, _w, fv in fields(f):
                    if fnum == 2:
                        tags = packed_varints(fv)
                        new = []
                        for k, val in zip(tags[0::2], tags[1::2]):
                            new.append(m["keys"].setdefault(keys[k], len(m["keys"])))
                            new.append(m["values"].setdefault(values[val], len(m["values"])))
                        out += field_bytes(2, b"".join(varint(t) for t in new))
                    elif fnum in (1, 3):
                        out += field_varint(fnum, fv)
                    else:
                        out += field_bytes(fnum, fv)
                m["feats"].append(out)
    body = b""
    for name in order:
        m = merged[name]
        layer = field_bytes(1, name)
        layer += b"".join(field_bytes(2, f) for f in m["feats"])
        layer += b"".join(field_bytes(3, k) for k in m["keys"])
        layer += b"".join(field_bytes(4, v) for v in m["values"])
        if m["extent"] is not None:
            layer += field_varint(5, m["extent"])
        layer += field_varint(15, 2 if m["version"] is None else m["version"])
        body += field_bytes(3, layer)
    return gzip.compress(body, compresslevel=9, mtime=0)


def main(argv: list[str]) -> int:
    args, meta_args = [], []
    i = 1
    while i < len(argv):
        if argv[i] == "--meta" and i + 1 < len(argv):
            meta_args += ["--meta", argv[i + 1]]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, inputs = args[0], args[1:]
    tiles: dict[tuple[int, int, int], list[bytes]] = {}
    layers: dict[str, dict] = {}
    for path in inputs:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        for z, x, y, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            tiles.setdefault((z, x, y), []).append(bytes(data))
        row = db.execute("SELECT value FROM metadata WHERE name = 'json'").fetchone()
        for layer in json.loads(row[0]).get("vector_layers", []) if row else []:
            have = layers.setdefault(layer["id"], dict(layer, fields={}))
            have["fields"].update(layer.get("fields", {}))
            have["minzoom"] = min(have.get("minzoom", 0), layer.get("minzoom", 0))
            have["maxzoom"] = max(have.get("maxzoom", 0), layer.get("maxzoom", 0))
        db.close()
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "merged.mbtiles")
        db = sqlite3.connect(raw)
        db.executescript("CREATE TABLE metadata (name text, value text);"
                         "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);")
        shared = 0
        for key in sorted(tiles):
            parts = tiles[key]
            data = parts[0] if len(parts) == 1 else merge_tiles(parts)
            shared += len(parts) > 1
            db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (*key, data))
        vector_layers = [dict(v, fields=dict(sorted(v["fields"].items()))) for _k, v in sorted(layers.items())]
        db.execute("INSERT INTO metadata VALUES ('json', ?)",
                   (json.dumps({"vector_layers": vector_layers}, separators=(",", ":"), ensure_ascii=False),))
        db.commit()
        db.close()
        print(f"mbtiles_merge: {len(tiles)} tiles from {len(inputs)} files, {shared} shared tiles merged",
              file=sys.stderr)
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([sys.executable, os.path.join(here, "mbtiles_finalize.py"), raw, out, *meta_args], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
