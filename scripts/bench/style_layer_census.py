#!/usr/bin/env python3
"""Which layers of a style have something to draw at one view, for third-party-styles.sh.

    style_layer_census.py STYLE.json TILES.mbtiles --camera LAT,LON,ZOOM[,BEARING[,PITCH]] [--size WxH] [--json]

ZOOM is Google's (256-point tiles), as in `waymark snapshot`; the style is evaluated at ZOOM - 1 (MapLibre's).
For every layer of STYLE, in order, one line:
  draws N      N features of the tiles around the view are in the layer's source-layer and pass its filter
  no features  the layer is in zoom range but no feature of those tiles passes its filter (nothing to draw)
  zoom range   the style zoom is outside the layer's minzoom/maxzoom
  no source    the layer's source is not in the style (removed by third_party_style.py, or missing)
  background   a background layer (always drawn)
"The tiles around the view" are the data tiles at min(floor(style zoom), the file's maxzoom) whose square
overlaps a box around the centre: the view's half-diagonal, times 3 with pitch (a pitched view sees farther up
the screen). It is a census of what the style *could* draw there, not a per-pixel visibility test; features in
every layer are counted the same way for every renderer.

Filters: the legacy syntax (==, !=, <, <=, >, >=, in, !in, has, !has, all, any, none, $type, $id) and the
expressions a filter can use (get, has, !, ==, !=, <, <=, >, >=, in, all, any, case, match, coalesce, literal,
zoom, geometry-type, + - * /, to-number, to-string, to-boolean). A filter with any other operator is counted
as passing and its layer line says "(filter not evaluated: OP)". MVT reading: scripts/data/mvt_canonical.py.
"""
import argparse
import gzip
import json
import math
import os
import sqlite3
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data"))
from mvt_canonical import fields, packed_varints, parse_layer  # noqa: E402

GEOM_TYPES = {1: "Point", 2: "LineString", 3: "Polygon"}


class Unsupported(Exception):
    pass


def tile_value(raw):
    for num, wire, v in fields(raw):
        if num == 1:
            return v.decode("utf-8", "replace")
        if num == 2 and wire == 5:
            return struct.unpack("<f", v)[0]
        if num == 3 and wire == 1:
            return struct.unpack("<d", v)[0]
        if num == 4 and wire == 0:
            return v - (1 << 64) if v >= 1 << 63 else v
        if num == 5 and wire == 0:
            return v
        if num == 6 and wire == 0:
            return (v >> 1) ^ -(v & 1)
        if num == 7 and wire == 0:
            return bool(v)
    return None


def decode_tile(data):
    """{layer name: [(geometry type, properties, id)]} of one (gzip or raw) MVT tile."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    out = {}
    for num, _wire, raw in fields(data):
        if num != 3:
            continue
        name, _extent, _version, feats, keys, values = parse_layer(raw)
        keys = [k.decode("utf-8", "replace") for k in keys]
        values = [tile_value(v) for v in values]
        rows = out.setdefault(name.decode("utf-8", "replace"), [])
        for f in feats:
            fid, ftype, tags = None, 0, []
            for n, _w, v in fields(f):
                if n == 1:
                    fid = v
                elif n == 2:
                    tags = packed_varints(v)
                elif n == 3:
                    ftype = v
            props = {keys[tags[i]]: values[tags[i + 1]] for i in range(0, len(tags) - 1, 2)}
            rows.append((GEOM_TYPES.get(ftype, "Unknown"), props, fid))
    return out


# --- filters -------------------------------------------------------------------------------------------------

LEGACY_ONLY = {"!in", "!has", "none"}
COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}


def is_expression(f):
    """MapLibre's isExpressionFilter."""
    if not isinstance(f, list) or not f:
        return True
    op = f[0]
    if op == "has":
        return len(f) >= 2 and f[1] not in ("$id", "$type")
    if op == "in":
        return len(f) >= 3 and (not isinstance(f[1], str) or isinstance(f[2], list))
    if op in LEGACY_ONLY:
        return False
    if op in COMPARISONS:
        return len(f) != 3 or isinstance(f[1], list) or isinstance(f[2], list)
    if op in ("any", "all"):
        return all(is_expression(g) or isinstance(g, bool) for g in f[1:])
    return True


def legacy_get(key, feat):
    kind, props, fid = feat
    if key == "$type":
        return kind
    if key == "$id":
        return fid
    return props.get(key)


def same_type(a, b):
    num = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    return (isinstance(a, num) and isinstance(b, num)) or type(a) is type(b)


def legacy(f, feat):
    op = f[0]
    if op == "all":
        return all(legacy_or_expr(g, feat) for g in f[1:])
    if op == "any":
        return any(legacy_or_expr(g, feat) for g in f[1:])
    if op == "none":
        return not any(legacy_or_expr(g, feat) for g in f[1:])
    if op == "has":
        return legacy_get(f[1], feat) is not None
    if op == "!has":
        return legacy_get(f[1], feat) is None
    v = legacy_get(f[1], feat)
    if op == "in":
        return v is not None and any(same_type(v, w) and v == w for w in f[2:])
    if op == "!in":
        return not (v is not None and any(same_type(v, w) and v == w for w in f[2:]))
    w = f[2]
    if op == "==":
        return v is not None and same_type(v, w) and v == w
    if op == "!=":
        return not (v is not None and same_type(v, w) and v == w)
    if v is None or not same_type(v, w):
        return False
    return {"<": v < w, "<=": v <= w, ">": v > w, ">=": v >= w}[op]


def legacy_or_expr(f, feat, zoom=None):
    if isinstance(f, bool):
        return f
    return bool(expr(f, feat, zoom)) if is_expression(f) else legacy(f, feat)


def expr(e, feat, zoom):
    if not isinstance(e, list):
        return e
    if not e:
        raise Unsupported("[]")
    op = e[0]
    kind, props, _fid = feat
    if not isinstance(op, str):
        return e
    if op == "literal":
        return e[1]
    if op == "get":
        return props.get(expr(e[1], feat, zoom)) if len(e) == 2 else None
    if op == "has":
        return expr(e[1], feat, zoom) in props if len(e) == 2 else False
    if op == "zoom":
        return zoom
    if op == "geometry-type":
        return kind
    if op == "!":
        return not expr(e[1], feat, zoom)
    if op == "all":
        return all(expr(g, feat, zoom) for g in e[1:])
    if op == "any":
        return any(expr(g, feat, zoom) for g in e[1:])
    if op in COMPARISONS:
        a, b = expr(e[1], feat, zoom), expr(e[2], feat, zoom)
        if op == "==":
            return a == b and same_type(a, b) if a is not None and b is not None else a is b
        if op == "!=":
            return not (a == b and same_type(a, b)) if a is not None and b is not None else a is not b
        if a is None or b is None or not same_type(a, b):
            return False
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    if op == "in":
        needle, hay = expr(e[1], feat, zoom), expr(e[2], feat, zoom)
        if isinstance(hay, str):
            return isinstance(needle, str) and needle in hay
        return isinstance(hay, list) and any(needle == h and same_type(needle, h) for h in hay)
    if op == "case":
        for i in range(1, len(e) - 1, 2):
            if expr(e[i], feat, zoom):
                return expr(e[i + 1], feat, zoom)
        return expr(e[-1], feat, zoom)
    if op == "match":
        v = expr(e[1], feat, zoom)
        for i in range(2, len(e) - 1, 2):
            labels = e[i] if isinstance(e[i], list) else [e[i]]
            if any(v == lab and same_type(v, lab) for lab in labels):
                return expr(e[i + 1], feat, zoom)
        return expr(e[-1], feat, zoom)
    if op == "coalesce":
        for g in e[1:]:
            v = expr(g, feat, zoom)
            if v is not None:
                return v
        return None
    if op in ("+", "-", "*", "/"):
        vals = [expr(g, feat, zoom) for g in e[1:]]
        if any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in vals):
            return None
        if op == "+":
            return sum(vals)
        if op == "*":
            return math.prod(vals)
        if op == "-":
            return -vals[0] if len(vals) == 1 else vals[0] - vals[1]
        return vals[0] / vals[1] if vals[1] else None
    if op == "to-number":
        for g in e[1:]:
            v = expr(g, feat, zoom)
            try:
                return float(v)
            except (TypeError, ValueError):
                continue
        return None
    if op == "to-string":
        v = expr(e[1], feat, zoom)
        return "" if v is None else (("true" if v else "false") if isinstance(v, bool) else str(v))
    if op == "to-boolean":
        return bool(expr(e[1], feat, zoom))
    raise Unsupported(op)


# --- view ----------------------------------------------------------------------------------------------------


def lonlat_to_world(lon, lat):
    """Web Mercator in [0, 1) squares."""
    s = math.sin(math.radians(max(min(lat, 85.05112878), -85.05112878)))
    return (lon + 180) / 360, 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)


def view_tiles(db, lat, lon, gzoom, pitch, width, height):
    style_zoom = gzoom - 1
    maxz = db.execute("SELECT MAX(zoom_level) FROM tiles").fetchone()[0]
    z = max(0, min(int(math.floor(style_zoom)), maxz))
    world_px = 512 * 2 ** style_zoom  # MapLibre's 512-pixel tiles at the style zoom
    reach = math.hypot(width, height) / 2 / world_px * (3 if pitch > 0 else 1)
    cx, cy = lonlat_to_world(lon, lat)
    n = 2**z
    x0, x1 = int(math.floor((cx - reach) * n)), int(math.floor((cx + reach) * n))
    y0, y1 = int(math.floor((cy - reach) * n)), int(math.floor((cy + reach) * n))
    tiles = []
    for x in range(max(x0, 0), min(x1, n - 1) + 1):
        for y in range(max(y0, 0), min(y1, n - 1) + 1):
            row = db.execute(
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                (z, x, n - 1 - y),
            ).fetchone()
            if row:
                tiles.append(decode_tile(row[0]))
    return z, tiles


def census(style, tiles, style_zoom):
    rows = []
    sources = style.get("sources", {})
    for layer in style["layers"]:
        lid, kind = layer.get("id"), layer.get("type")
        if kind == "background":
            rows.append((lid, kind, "background", None, ""))
            continue
        if layer.get("source") not in sources:
            rows.append((lid, kind, "no source", None, ""))
            continue
        if style_zoom < layer.get("minzoom", 0) or style_zoom >= layer.get("maxzoom", 24):
            rows.append((lid, kind, "zoom range", None, ""))
            continue
        f = layer.get("filter")
        count, note = 0, ""
        for tile in tiles:
            for feat in tile.get(layer.get("source-layer"), []):
                if f is None:
                    count += 1
                    continue
                try:
                    ok = legacy_or_expr(f, feat, style_zoom)
                except Unsupported as e:
                    ok, note = True, f"(filter not evaluated: {e})"
                count += bool(ok)
        rows.append((lid, kind, "draws" if count else "no features", count, note))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("style")
    p.add_argument("tiles")
    p.add_argument("--camera", required=True)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    a = p.parse_args()
    try:
        with open(a.style, encoding="utf-8") as fh:
            style = json.load(fh)
        cam = [float(v) for v in a.camera.split(",")]
        width, height = (int(v) for v in a.size.lower().split("x"))
    except (OSError, ValueError) as e:
        sys.exit(f"style_layer_census: bad input ({e})")
    if len(cam) < 3:
        sys.exit(f"style_layer_census: --camera {a.camera}: expected LAT,LON,ZOOM[,BEARING[,PITCH]]")
    lat, lon, gzoom = cam[:3]
    pitch = cam[4] if len(cam) > 4 else 0.0
    if not os.path.isfile(a.tiles):
        sys.exit(f"style_layer_census: {a.tiles}: no such file")
    try:
        db = sqlite3.connect(f"file:{os.path.abspath(a.tiles)}?mode=ro", uri=True)
        z, tiles = view_tiles(db, lat, lon, gzoom, pitch, width, height)
    except (sqlite3.Error, TypeError, OSError, ValueError) as e:
        sys.exit(f"style_layer_census: {a.tiles}: not a readable MBTiles file ({e})")
    rows = census(style, tiles, gzoom - 1)
    counts = {}
    for r in rows:
        counts[r[2]] = counts.get(r[2], 0) + 1
    if a.json:
        print(json.dumps({"tile_zoom": z, "tiles": len(tiles), "counts": counts,
                          "layers": [{"id": r[0], "type": r[1], "state": r[2], "features": r[3], "note": r[4]}
                                     for r in rows]}))
        return
    for lid, kind, state, n, note in rows:
        print(f"{lid:34} {kind:15} {state}{' ' + str(n) if n else ''}{' ' + note if note else ''}")
    print(f"{len(tiles)} tiles at z{z}: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
