#!/usr/bin/env python3
"""Rewrites every tile of an MBTiles file into a canonical Mapbox Vector Tile 2.1 encoding.

usage: mvt_canonical.py FILE.mbtiles [--z-attribute NAME] [--priority-field NAME] [--extent ZMIN-ZMAX=E ...]

Why: tilemaker 2.2 orders the features of a layer by (z_order, geometry type, *address* of the attribute
set, object id). The address part changes from run to run (ASLR, allocator arenas), so the same input gives
differently ordered features and differently numbered key/value tables: valid tiles, but not byte-identical.

What it does, per tile (gzip or raw in, gzip out):
- layers stay in their order; version, name and extent are kept;
- when --z-attribute NAME is given, the features carrying that numeric attribute (the build's patched Lua
  profile copies tilemaker's z_order into it) are grouped into runs of equal value in their original order,
  so the drawing order by z_order is preserved exactly; the attribute is then removed from the feature;
- inside each run, features are sorted by (geometry type, sorted (key, value) pairs, geometry, id); with
  --priority-field NAME, features are first sorted by that numeric attribute, largest first (GDAL 3.6
  interleaves features of several source layers written to one target layer in a run-dependent order;
  the world build uses population so the order inside "places" is label priority);
- a priority field whose name starts with "_waymark" is a build-time attribute: removed once sorted;
- with --extent ZMIN-ZMAX=E (repeatable), the layers of tiles at zooms ZMIN..ZMAX are requantised from their
  extent to E (smaller varints: the world's top zooms need no 4096 grid for GSHHG's tens of metres): points are
  rounded to the new grid, repeated points removed, lines with fewer than 2 points and rings with fewer than 3
  or whose area vanished or changed sign are dropped (an exterior ring with its holes), features left without
  geometry dropped;
- a feature's tags are written sorted by key; the key and value tables are rebuilt in first-use order;
- the tile is gzip-compressed at level 9 with mtime 0 (no timestamp, no file name).

The metadata "json" row loses NAME from every vector_layers "fields" map. Decoding is bounds-checked; a
malformed tile stops the script with its z/x/y. Pure Python 3, no dependencies.
"""

import gzip
import json
import multiprocessing
import os
import sqlite3
import sys
import zlib


class MVTError(Exception):
    pass


def read_varint(b: bytes, i: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if i >= len(b):
            raise MVTError("truncated varint")
        c = b[i]
        i += 1
        result |= (c & 0x7F) << shift
        if c < 0x80:
            return result, i
        shift += 7
        if shift > 63:
            raise MVTError("varint too long")


def fields(b: bytes):
    i = 0
    while i < len(b):
        key, i = read_varint(b, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, i = read_varint(b, i)
        elif wire == 2:
            n, i = read_varint(b, i)
            if i + n > len(b):
                raise MVTError("truncated bytes field")
            val, i = b[i : i + n], i + n
        elif wire == 1:
            val, i = b[i : i + 8], i + 8
        elif wire == 5:
            val, i = b[i : i + 4], i + 4
        else:
            raise MVTError(f"unsupported wire type {wire}")
        yield num, wire, val


def packed_varints(b: bytes) -> list[int]:
    out, i = [], 0
    while i < len(b):
        v, i = read_varint(b, i)
        out.append(v)
    return out


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        c = n & 0x7F
        n >>= 7
        if n:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)


def field_varint(num: int, v: int) -> bytes:
    return varint(num << 3) + varint(v)


def field_bytes(num: int, b: bytes) -> bytes:
    return varint((num << 3) | 2) + varint(len(b)) + b


def value_number(raw: bytes) -> float | None:
    """The numeric content of an encoded Tile.Value, or None for strings/bools."""
    import struct

    for num, wire, v in fields(raw):
        if num == 2 and wire == 5:
            return struct.unpack("<f", v)[0]
        if num == 3 and wire == 1:
            return struct.unpack("<d", v)[0]
        if num in (4, 5) and wire == 0:
            return float(v)
        if num == 6 and wire == 0:
            return float((v >> 1) ^ -(v & 1))
    return None


def parse_layer(raw: bytes):
    """A layer's (name, extent, version, raw features, raw keys, raw values); extent/version None when absent."""
    name, extent, version, feats, keys, values = b"", None, None, [], [], []
    for num, _wire, v in fields(raw):
        if num == 1:
            name = v
        elif num == 2:
            feats.append(v)
        elif num == 3:
            keys.append(v)
        elif num == 4:
            values.append(v)
        elif num == 5:
            extent = v
        elif num == 15:
            version = v
    return name, extent, version, feats, keys, values


def zigzag(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def decode_geometry(ftype: int, geom: bytes) -> list[list[tuple[int, int]]]:
    """The parts of a feature's geometry in tile units: points (one part each), lines, or rings (unclosed)."""
    ints = packed_varints(geom)
    parts: list[list[tuple[int, int]]] = []
    x = y = i = 0
    while i < len(ints):
        cmd, count = ints[i] & 7, ints[i] >> 3
        i += 1
        if cmd == 7:
            continue
        if cmd not in (1, 2) or i + 2 * count > len(ints):
            raise MVTError("bad geometry command")
        for _ in range(count):
            a, b = ints[i], ints[i + 1]
            i += 2
            x += (a >> 1) ^ -(a & 1)
            y += (b >> 1) ^ -(b & 1)
            if cmd == 1 and ftype != 1:
                parts.append([])
            if ftype == 1 or not parts:
                parts.append([])
            parts[-1].append((x, y))
    return parts


def encode_geometry(ftype: int, parts: list[list[tuple[int, int]]]) -> bytes:
    out: list[int] = []
    cx = cy = 0

    def move(p):
        nonlocal cx, cy
        out.extend((zigzag(p[0] - cx), zigzag(p[1] - cy)))
        cx, cy = p

    if ftype == 1:
        out.append(1 | (len(parts) << 3))
        for part in parts:
            move(part[0])
    else:
        for part in parts:
            out.append(1 | (1 << 3))
            move(part[0])
            out.append(2 | ((len(part) - 1) << 3))
            for p in part[1:]:
                move(p)
            if ftype == 3:
                out.append(7 | (1 << 3))
    return b"".join(varint(v) for v in out)


def signed_area(ring: list[tuple[int, int]]) -> int:
    return sum(ring[i][0] * ring[(i + 1) % len(ring)][1] - ring[(i + 1) % len(ring)][0] * ring[i][1]
               for i in range(len(ring)))


def requantize(ftype: int, geom: bytes, old: int, new: int) -> bytes | None:
    """The geometry on a grid of `new` units per tile instead of `old`; None when nothing is left."""
    parts = decode_geometry(ftype, geom)
    out = []
    if ftype == 1:
        out = [[((x * new + old // 2) // old, (y * new + old // 2) // old)] for [(x, y)] in parts]
        return encode_geometry(1, out) if out else None
    keep_holes = False
    exterior_sign = None
    for part in parts:
        q = []
        for x, y in part:
            p = ((x * new + old // 2) // old, (y * new + old // 2) // old)
            if not q or q[-1] != p:
                q.append(p)
        if ftype == 2:
            if len(q) >= 2:
                out.append(q)
            continue
        if ftype != 3:
            return geom
        if len(part) >= 2 and part[-1] == part[0]:
            part = part[:-1]
        if len(q) >= 2 and q[-1] == q[0]:
            q.pop()
        a0 = signed_area(part)
        if exterior_sign is None:
            exterior_sign = 1 if a0 >= 0 else -1
        exterior = (a0 >= 0) == (exterior_sign > 0)
        a1 = signed_area(q) if len(q) >= 3 else 0
        ok = a1 != 0 and (a1 > 0) == (a0 > 0)
        if exterior:
            keep_holes = ok
        if ok and (exterior or keep_holes):
            out.append(q)
    return encode_geometry(ftype, out) if out else None


def canonical_layer(raw: bytes, z_attr: str | None, priority: str | None = None, new_extent: int | None = None) -> bytes:
    name, extent, version, feats_raw, raw_keys, values = parse_layer(raw)
    keys: list[str] = [k.decode("utf-8") for k in raw_keys]
    old_extent = 4096 if extent is None else extent
    if new_extent is not None and new_extent != old_extent:
        extent = new_extent
    else:
        new_extent = None

    feats = []  # (z or None, type, sorted tag pairs, geometry bytes, id or None)
    for fr in feats_raw:
        fid, ftype, geom, tags = None, 0, b"", []
        for num, wire, v in fields(fr):
            if num == 1:
                fid = v
            elif num == 2:
                tags = packed_varints(v)
            elif num == 3:
                ftype = v
            elif num == 4:
                geom = v
        if new_extent is not None:
            geom = requantize(ftype, geom, old_extent, new_extent)
            if geom is None:
                continue
        if len(tags) % 2:
            raise MVTError("odd tag count")
        pairs = []
        z = None
        prio = 0.0
        for k, vi in zip(tags[0::2], tags[1::2]):
            if k >= len(keys) or vi >= len(values):
                raise MVTError("tag index out of range")
            if z_attr is not None and keys[k] == z_attr:
                z = value_number(values[vi])
                continue
            if priority is not None and keys[k] == priority:
                prio = value_number(values[vi]) or 0.0
                if priority.startswith("_waymark"):
                    continue
            pairs.append((keys[k], values[vi]))
        pairs.sort()
        feats.append((z, ftype, tuple(pairs), geom, fid, -prio))

    # Runs of equal z in the original order keep tilemaker's z_order drawing order.
    runs: list[list] = []
    for f in feats:
        if runs and runs[-1][0][0] == f[0]:
            runs[-1].append(f)
        else:
            runs.append([f])
    ordered = []
    for run in runs:
        ordered.extend(sorted(run, key=lambda f: (f[5], f[1], f[2], f[3], -1 if f[4] is None else f[4])))

    key_index: dict[str, int] = {}
    val_index: dict[bytes, int] = {}
    out_feats = []
    for _, ftype, pairs, geom, fid, _ in ordered:
        tags = []
        for k, v in pairs:
            tags.append(key_index.setdefault(k, len(key_index)))
            tags.append(val_index.setdefault(v, len(val_index)))
        body = b""
        if fid is not None:
            body += field_varint(1, fid)
        if tags:
            body += field_bytes(2, b"".join(varint(t) for t in tags))
        body += field_varint(3, ftype)
        body += field_bytes(4, geom)
        out_feats.append(body)

    out = field_bytes(1, name)
    out += b"".join(field_bytes(2, f) for f in out_feats)
    out += b"".join(field_bytes(3, k.encode("utf-8")) for k in key_index)
    out += b"".join(field_bytes(4, v) for v in val_index)
    if extent is not None:
        out += field_varint(5, extent)
    out += field_varint(15, 2 if version is None else version)
    return out


def canonical_tile(data: bytes, z_attr: str | None, priority: str | None = None, extent: int | None = None) -> bytes:
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:1] == b"\x78":
        data = zlib.decompress(data)
    out = b""
    for num, wire, v in fields(data):
        if num != 3 or wire != 2:
            raise MVTError(f"unexpected top-level field {num}")
        out += field_bytes(3, canonical_layer(v, z_attr, priority, extent))
    return gzip.compress(out, compresslevel=9, mtime=0)


def _canonical_job(a):
    """canonical_tile for a worker process: the new bytes, or the error message."""
    try:
        return canonical_tile(*a)
    except (MVTError, OSError, zlib.error) as e:
        return str(e)


def main(argv: list[str]) -> int:
    args = argv[1:]
    z_attr = None
    if "--z-attribute" in args:
        i = args.index("--z-attribute")
        z_attr = args[i + 1]
        del args[i : i + 2]
    priority = None
    if "--priority-field" in args:
        i = args.index("--priority-field")
        priority = args[i + 1]
        del args[i : i + 2]
    extents: dict[int, int] = {}
    while "--extent" in args:
        i = args.index("--extent")
        zooms, e = args[i + 1].split("=")
        lo, _, hi = zooms.partition("-")
        for z in range(int(lo), int(hi or lo) + 1):
            extents[z] = int(e)
        del args[i : i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    jobs = max(1, int(os.environ.get("MVT_JOBS", "4")))
    db = sqlite3.connect(args[0])
    rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3").fetchall()
    # Repeated tiles (open ocean, empty land) are canonicalised once; distinct (extent, bytes) pairs go to MVT_JOBS
    # worker processes (default 4). Each result depends only on its input, so the file is the same for any count.
    work: dict[tuple[int | None, bytes], int] = {}
    for z, _x, _y, data in rows:
        work.setdefault((extents.get(z), bytes(data)), len(work))
    items = list(work)
    print(f"mvt_canonical: {len(rows)} tiles, {len(items)} distinct, {jobs} jobs", file=sys.stderr)
    args_of = [(data, z_attr, priority, extent) for extent, data in items]
    if jobs > 1 and len(items) > 1000:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_canonical_job, args_of, chunksize=256)
    else:
        results = [_canonical_job(a) for a in args_of]
    for z, x, y, data in rows:
        new = results[work[(extents.get(z), bytes(data))]]
        if isinstance(new, str):
            raise SystemExit(f"error: {args[0]}: tile z{z}/x{x}/row{y}: {new}")
        db.execute("UPDATE tiles SET tile_data = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                   (new, z, x, y))
    temporary = [name for name in (z_attr, priority) if name and (name == z_attr or name.startswith("_waymark"))]
    if temporary:
        row = db.execute("SELECT value FROM metadata WHERE name = 'json'").fetchone()
        if row:
            meta = json.loads(row[0])
            for layer in meta.get("vector_layers", []):
                for name in temporary:
                    layer.get("fields", {}).pop(name, None)
            db.execute("UPDATE metadata SET value = ? WHERE name = 'json'", (json.dumps(meta, separators=(",", ":")),))
    db.commit()
    db.close()
    print(f"mvt_canonical: {len(rows)} tiles rewritten in {args[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
