#!/usr/bin/env python3
"""Builds the bundled styles' glyph PBFs (Data/glyphs/<fontstack>/<start>-<end>.pbf) from Debian's Noto fonts.

    .sources/venv/bin/python scripts/data/build-glyphs.py [--out DIR] [--styles FILE...] [--tiles DIR] [--fonts DIR]
        [--check]

MapLibre's glyph PBFs (glyphs.proto: glyphs { stacks { name, range, glyphs { id, bitmap, width, height, left, top,
advance } } }) with node-fontnik's signed distance fields: a 24 px em (FreeType at 72 dpi, no hinting), a 3 px buffer
around each glyph, a radius of 8 px and a cutoff of 0.25 (the outline sits at 192 of 255; 255 is deep inside).

Only the code points the bundled data's labels use are written (DATA.md, "Glyphs"): for every fontstack the styles in
Data/styles name in `text-font`, the label texts of the symbol layers that use it (their `text-field`, with
`text-transform`), read from every feature of the layer's `source-layer` in the tilesets the style names, plus
printable ASCII (numbers, coordinates, what the UI and user data most often show). A code point the font lacks is
left out. A range file holds only those glyphs, and a range with none is not written (a renderer reads a missing
file as an empty range). Text with a character outside the files is drawn with Pango (Waymark) or without that
character (MapLibre).

Needs freetype-py and numpy (scripts/data/tools-requirements.txt, pinned with sha256; fetch-sources.sh installs them
into .sources/venv) and Debian's fonts-noto-core (scripts/dev/install-deps.sh data). Deterministic: a rerun writes
the same bytes. --check builds into a temporary folder and compares with --out byte for byte (exit 1 on a
difference).
"""
import argparse
import gzip
import json
import os
import shutil
import sqlite3
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mvt_canonical import fields, parse_layer  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EM, BUFFER, RADIUS, CUTOFF = 24, 3, 8, 0.25
# The Noto file of each fontstack the bundled styles name (fonts-noto-core).
FONT_FILES = {
    "Noto Sans Regular": "NotoSans-Regular.ttf",
    "Noto Sans Bold": "NotoSans-Bold.ttf",
    "Noto Sans Italic": "NotoSans-Italic.ttf",
}
BASE_CODEPOINTS = set(range(0x20, 0x7F))


# ------------------------------------------------------------------------------------------- which code points
def label_specs(style_path, tiles_dir=None):
    """(source file, source-layer, fontstack, text-field, text-transform, layer id) of every text layer of a style;
    an mbtiles:// source's file is looked up by its name in `tiles_dir` when given."""
    style = json.load(open(style_path))
    base = os.path.dirname(os.path.abspath(style_path))
    files = {}
    for sid, src in style.get("sources", {}).items():
        url = src.get("url", "")
        if url.startswith("mbtiles://"):
            files[sid] = os.path.normpath(os.path.join(base, url[len("mbtiles://"):]))
            if tiles_dir:
                files[sid] = os.path.join(tiles_dir, os.path.basename(files[sid]))
    specs = []
    for layer in style.get("layers", []):
        layout = layer.get("layout", {})
        if layer.get("type") != "symbol" or "text-field" not in layout:
            continue
        font = layout.get("text-font", ["Open Sans Regular", "Arial Unicode MS Regular"])
        if not (isinstance(font, list) and all(isinstance(f, str) for f in font)):
            sys.exit(f"build-glyphs: {style_path}: layer {layer['id']}: text-font must be a list of names")
        transform = layout.get("text-transform", "none")
        if not isinstance(transform, str):
            sys.exit(f"build-glyphs: {style_path}: layer {layer['id']}: text-transform must be a constant")
        path = files.get(layer.get("source"))
        specs.append((path, layer.get("source-layer"), ",".join(font), layout["text-field"], transform, layer["id"]))
    return specs


def evaluate(expr, props, where):
    """The string a text-field expression gives for a feature's properties (the subset the styles use)."""
    if isinstance(expr, str):
        if "{" in expr:  # legacy token string: "{name}"
            out = expr
            for k, v in props.items():
                out = out.replace("{" + k + "}", v)
            return out
        return expr
    if isinstance(expr, (int, float)):
        return str(expr)
    if isinstance(expr, list) and expr:
        op = expr[0]
        if op == "get" and len(expr) == 2:
            return props.get(expr[1])
        if op == "coalesce":
            for e in expr[1:]:
                v = evaluate(e, props, where)
                if v is not None:
                    return v
            return None
        if op == "to-string" and len(expr) == 2:
            v = evaluate(expr[1], props, where)
            return "" if v is None else v
        if op == "concat":
            return "".join(evaluate(e, props, where) or "" for e in expr[1:])
    sys.exit(f"build-glyphs: {where}: text-field {json.dumps(expr)[:80]} is not an expression this script evaluates")


def value_string(raw):
    """A Tile.Value as the text a label shows (numbers as MapLibre's to-string writes whole ones)."""
    import struct

    for num, wire, v in fields(raw):
        if num == 1 and wire == 2:
            return v.decode("utf-8", "replace")
        if num == 2 and wire == 5:
            f = struct.unpack("<f", v)[0]
            return str(int(f)) if f == int(f) else repr(f)
        if num == 3 and wire == 1:
            f = struct.unpack("<d", v)[0]
            return str(int(f)) if f == int(f) else repr(f)
        if num in (4, 5) and wire == 0:
            return str(v)
        if num == 6 and wire == 0:
            return str((v >> 1) ^ -(v & 1))
        if num == 7 and wire == 0:
            return "true" if v else "false"
    return None


def tile_layers(path):
    """Yields (layer name, [feature property dicts]) for every distinct tile of an MBTiles file."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    seen = set()
    for (data,) in db.execute("SELECT tile_data FROM tiles"):
        key = hash(data)
        if key in seen:
            continue
        seen.add(key)
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        for num, _w, raw in fields(data):
            if num != 3:
                continue
            name, _e, _v, feats, keys, values = parse_layer(raw)
            keys = [k.decode() for k in keys]
            values = [value_string(v) for v in values]
            props_list = []
            for feat in feats:
                tags = []
                for fnum, _fw, fv in fields(feat):
                    if fnum == 2:
                        from mvt_canonical import packed_varints

                        tags = packed_varints(fv)
                props = {}
                for i in range(0, len(tags) - 1, 2):
                    if tags[i] < len(keys) and tags[i + 1] < len(values) and values[tags[i + 1]] is not None:
                        props[keys[tags[i]]] = values[tags[i + 1]]
                props_list.append(props)
            yield name.decode(), props_list
    db.close()


def codepoints_by_fontstack(style_paths, tiles_dir=None):
    """{fontstack: set of code points} the styles' labels use over their tilesets, plus BASE_CODEPOINTS."""
    wanted = {}
    by_file = {}
    for sp in style_paths:
        for path, source_layer, fontstack, field, transform, lid in label_specs(sp, tiles_dir):
            wanted.setdefault(fontstack, set()).update(BASE_CODEPOINTS)
            if path is None or not os.path.exists(path):
                continue
            by_file.setdefault(path, {}).setdefault(source_layer, set()).add(
                (fontstack, json.dumps(field), transform, f"{os.path.basename(sp)} {lid}"))
    for path, layers in sorted(by_file.items()):
        texts = {}  # (fontstack, transform) -> set of label strings
        for layer_name, props_list in tile_layers(path):
            for fontstack, field, transform, where in layers.get(layer_name, ()):
                bucket = texts.setdefault((fontstack, transform), set())
                expr = json.loads(field)
                for props in props_list:
                    v = evaluate(expr, props, where)
                    if v:
                        bucket.add(v)
        for (fontstack, transform), strings in texts.items():
            cps = wanted[fontstack]
            for s in strings:
                if transform == "uppercase":
                    s = s.upper()
                elif transform == "lowercase":
                    s = s.lower()
                cps.update(ord(c) for c in s)
        print(f"glyphs: labels read from {os.path.relpath(path, ROOT)}", file=sys.stderr)
    return wanted


# ------------------------------------------------------------------------------------------- signed distance fields
def glyph_rings(outline):
    """The outline's contours as closed polylines in font pixels (curves cut into pieces of about one pixel)."""
    import numpy as np

    rings = []
    pts = []

    def flush():
        if len(pts) >= 2:
            if pts[0] != pts[-1]:
                pts.append(pts[0])
            rings.append(np.array(pts, dtype=np.float64))
        pts.clear()

    def bezier(controls):
        p0 = pts[-1]
        length = sum(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip([p0] + controls, controls))
        steps = max(2, min(48, int(length + 0.999999)))
        ctrl = [p0] + controls
        for i in range(1, steps + 1):
            t = i / steps
            q = list(ctrl)
            while len(q) > 1:  # de Casteljau
                q = [((1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]) for a, b in zip(q, q[1:])]
            pts.append(q[0])

    def xy(v):
        return (v.x / 64.0, v.y / 64.0)

    def move_to(a, _):
        flush()
        pts.append(xy(a))

    def line_to(a, _):
        pts.append(xy(a))

    def conic_to(c, a, _):
        bezier([xy(c), xy(a)])

    def cubic_to(c1, c2, a, _):
        bezier([xy(c1), xy(c2), xy(a)])

    outline.decompose(None, move_to=move_to, line_to=line_to, conic_to=conic_to, cubic_to=cubic_to)
    flush()
    return rings


def sdf_glyph(face, codepoint):
    """(bitmap, width, height, left, top, advance) of a code point the face maps, node-fontnik's way."""
    import freetype
    import numpy as np

    face.load_char(codepoint, freetype.FT_LOAD_NO_HINTING)
    advance = face.glyph.metrics.horiAdvance // 64
    ascender = face.size.ascender // 64
    rings = glyph_rings(face.glyph.outline) if face.glyph.format == freetype.FT_GLYPH_FORMAT_OUTLINE else []
    if not rings:
        return b"", 0, 0, 0, 0, advance
    every = np.concatenate(rings)
    left, bottom = (int(v) for v in np.round(every.min(axis=0)))
    right, top = (int(v) for v in np.round(every.max(axis=0)))
    width, height = right - left, top - bottom
    if width <= 0 or height <= 0:
        return b"", 0, 0, 0, 0, advance
    # Segments in bitmap space (x from the buffer's left edge, y up from its bottom edge).
    a = np.concatenate([r[:-1] for r in rings]) - (left - BUFFER, bottom - BUFFER)
    b = np.concatenate([r[1:] for r in rings]) - (left - BUFFER, bottom - BUFFER)
    cols, rows = width + 2 * BUFFER, height + 2 * BUFFER
    gy, gx = np.mgrid[0:rows, 0:cols]
    px = gx.reshape(-1, 1) + 0.5
    py = gy.reshape(-1, 1) + 0.5
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    safe = np.where(length2 > 0, length2, 1)
    t = np.clip(((px - ax) * ex + (py - ay) * ey) / safe, 0, 1)
    dist = np.sqrt(((px - ax - t * ex) ** 2 + (py - ay - t * ey) ** 2).min(axis=1))
    dist = np.minimum(dist, RADIUS)
    # Inside by the even-odd rule: a ray to the right crosses an odd number of edges.
    straddles = (ay > py) != (by > py)
    dy = np.where(ey != 0, ey, 1)
    crossing_x = ax + ex * (py - ay) / dy
    inside = (np.count_nonzero(straddles & (px < crossing_x), axis=1) % 2) == 1
    signed = np.where(inside, -dist, dist) * (256 / RADIUS) + CUTOFF * 256
    level = 255 - np.clip(np.trunc(np.minimum(signed, 255)), 0, 255).astype(np.uint8)
    bitmap = level.reshape(rows, cols)[::-1]  # rows from the top
    return bitmap.tobytes(), width, height, left, top - ascender, advance


def varint(n):
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def pb_uint(num, v):
    return varint(num << 3) + varint(v)


def pb_sint(num, v):
    return varint(num << 3) + varint((v << 1) ^ (v >> 63))


def pb_bytes(num, b):
    return varint(num << 3 | 2) + varint(len(b)) + b


def range_pbf(fontstack, start, glyphs):
    """One range's PBF: a single fontstack message holding `glyphs` [(code point, sdf_glyph tuple)] in order."""
    body = pb_bytes(1, fontstack.encode()) + pb_bytes(2, f"{start}-{start + 255}".encode())
    for cp, (bitmap, w, h, left, top, advance) in glyphs:
        g = pb_uint(1, cp) + (pb_bytes(2, bitmap) if bitmap else b"")
        g += pb_uint(3, w) + pb_uint(4, h) + pb_sint(5, left) + pb_sint(6, top) + pb_uint(7, advance)
        body += pb_bytes(3, g)
    return pb_bytes(1, body)


def build(out, fonts_dir, wanted):
    import freetype

    total = 0
    for fontstack in sorted(wanted):
        file = FONT_FILES.get(fontstack)
        if file is None:
            sys.exit(f"build-glyphs: no font for fontstack {fontstack!r}: add it to FONT_FILES")
        path = os.path.join(fonts_dir, file)
        if not os.path.exists(path):
            sys.exit(f"build-glyphs: {path} is missing: install Debian's fonts-noto-core")
        face = freetype.Face(path)
        face.set_char_size(EM * 64, 0, 72, 72)
        ranges = {}
        missing = 0
        for cp in sorted(wanted[fontstack]):
            if face.get_char_index(cp) == 0:
                missing += 1
                continue
            ranges.setdefault(cp // 256 * 256, []).append((cp, sdf_glyph(face, cp)))
        folder = os.path.join(out, fontstack)
        os.makedirs(folder, exist_ok=True)
        size = 0
        for start, glyphs in sorted(ranges.items()):
            data = range_pbf(fontstack, start, glyphs)
            with open(os.path.join(folder, f"{start}-{start + 255}.pbf"), "wb") as f:
                f.write(data)
            size += len(data)
        count = sum(len(g) for g in ranges.values())
        total += size
        print(f"glyphs: {fontstack}: {count} glyphs in {len(ranges)} ranges, {size} B ({missing} code points "
              f"not in {file})", file=sys.stderr)
    print(f"glyphs: {total} B in all", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "Data", "glyphs"))
    p.add_argument("--fonts", default="/usr/share/fonts/truetype/noto", help="folder of the Noto .ttf files")
    p.add_argument("--styles", nargs="*", help="style files (default: Data/styles/*.json)")
    p.add_argument("--tiles", help="folder of the styles' .mbtiles files (default: as the styles name them)")
    p.add_argument("--check", action="store_true", help="build in a temporary folder and compare with --out")
    args = p.parse_args()
    styles = args.styles or sorted(
        os.path.join(ROOT, "Data", "styles", f) for f in os.listdir(os.path.join(ROOT, "Data", "styles"))
        if f.endswith(".json"))
    wanted = codepoints_by_fontstack(styles, args.tiles)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            build(tmp, args.fonts, wanted)
            same = sorted(os.listdir(tmp)) == sorted(os.listdir(args.out)) and all(
                sorted(os.listdir(os.path.join(tmp, d))) == sorted(os.listdir(os.path.join(args.out, d)))
                and all(open(os.path.join(tmp, d, f), "rb").read() == open(os.path.join(args.out, d, f), "rb").read()
                        for f in os.listdir(os.path.join(tmp, d)))
                for d in os.listdir(tmp))
            print("glyphs: identical to " + args.out if same else "glyphs: DIFFER from " + args.out, file=sys.stderr)
            return 0 if same else 1
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    build(args.out, args.fonts, wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
