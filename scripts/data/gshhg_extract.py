#!/usr/bin/python3
"""Water polygons, rivers and borders from GSHHG/WDBII (Debian's gmt-gshhg-*) through GMT, per GMT resolution.

usage: gshhg_extract.py RES OUT_DIR [--region W/E/S/N] [--lines-only]
  RES      one of c l i h f (crude, low, intermediate, high, full)
  OUT_DIR  receives water_RES.geojson, river_RES.geojson, border_RES.geojson

GMT keeps GSHHG in bins (c 20°, l 10°, i 5°, h 2°, f 1°, columns counted east from 0°); `gmt coast -M` dumps the
shoreline pieces of every bin, open at the bin's edges. For each bin the pieces and the bin's outline are noded and
polygonised (GEOS), and each face is classified by `gmt select` at the same resolution (ocean, land, lake, island in
a lake, pond): ocean faces become `class=ocean`, lake and pond faces `class=lake`. A bin with no shoreline is one
face (classified by its centre). So every water polygon lies inside one bin: no tile ever carries a whole ocean.
Rivers (WDBII, `-Ia`) and borders (`-Na`) are dumped as lines with their WDBII level, pieces of one level joined
across bins where their ends meet.

Output is sorted and rounded to 7 decimals, so it is the same on every run. Progress goes to stderr.
"""
import json
import os
import subprocess
import sys
import tempfile

try:  # Debian's python3-gdal; join_pieces and the bin arithmetic work without it (scripts/data/test_data_scripts.py).
    from osgeo import ogr

    ogr.UseExceptions()
except ImportError:
    ogr = None
BIN = {"c": 20, "l": 10, "i": 5, "h": 2, "f": 1}


def dump(res, flag, region):
    """Runs `gmt coast -M` and yields (bin, level, [(lon, lat), ...]) per segment."""
    out = subprocess.run(["gmt", "coast", f"-R{region}", f"-D{res}", flag, "-M"], check=True,
                         capture_output=True, text=True).stdout
    seg = None
    for line in out.splitlines():
        if line.startswith(">"):
            if seg and len(seg[2]) >= 2:
                yield seg
            head = line[1:]
            b = int(head.split("#")[1].split(",")[0]) if "#" in head else -1
            level = int(head.rsplit("Level", 1)[1]) if "Level" in head else 0
            seg = (b, level, [])
        elif line.strip():
            x, y = line.split()[:2]
            seg[2].append((float(x), float(y)))
    if seg and len(seg[2]) >= 2:
        yield seg


def classify(points, res):
    """Level per point: 0 ocean, 1 land, 2 lake, 3 island, 4 pond (GSHHG), by `gmt select` at resolution res."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pts.txt")
        with open(path, "w") as f:
            for i, (x, y) in enumerate(points):
                f.write(f"{x:.9f}\t{y:.9f}\t{i}\n")
        level = [1] * len(points)
        for value, mask in ((0, "k/s/s/s/s"), (2, "s/s/k/s/s"), (3, "s/s/s/k/s"), (4, "s/s/s/s/k")):
            out = subprocess.run(["gmt", "select", path, f"-D{res}", f"-N{mask}", "-fg"], check=True,
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                if line and not line.startswith(">"):
                    level[int(float(line.split()[2]))] = value
    return level


def bin_box(b, size):
    cols = round(360 / size)
    r, c = divmod(b, cols)
    west, north = c * size, 90 - r * size
    return west, north - size, west + size, north


def ring_wkt(pts):
    return "(" + ",".join(f"{x:.10f} {y:.10f}" for x, y in pts) + ")"


def faces_of_bin(box, segments):
    """The faces (ogr polygons) of a bin: its outline and its shoreline pieces, noded and polygonised."""
    w, s, e, n = box
    outline = [(w, s), (e, s), (e, n), (w, n), (w, s)]
    lines = [outline] + [seg for seg in segments]
    lines = [[(x + 360 if x < w - 1e-9 else x - 360 if x > e + 1e-9 else x, y) for x, y in p] for p in lines]
    ml = ogr.CreateGeometryFromWkt("MULTILINESTRING(" + ",".join(ring_wkt(p) for p in lines) + ")")
    # A union with a point nodes the lines (GEOS), which polygonize needs.
    noded = ml.Union(ogr.CreateGeometryFromWkt("POINT(%r %r)" % (w, s)))
    polys = noded.Polygonize()
    return [polys.GetGeometryRef(i).Clone() for i in range(polys.GetGeometryCount())] if polys else []


def shift(geom, dx):
    if dx == 0:
        return geom
    wkt = geom.ExportToWkt()
    g = ogr.CreateGeometryFromWkt(wkt)
    for i in range(g.GetGeometryCount()):
        ring = g.GetGeometryRef(i)
        for j in range(ring.GetPointCount()):
            x, y = ring.GetX(j), ring.GetY(j)
            ring.SetPoint_2D(j, x + dx, y)
    return g


def rounded_coords(geom):
    gj = json.loads(geom.ExportToJson())

    def r(c):
        if isinstance(c[0], (int, float)):
            return [round(c[0], 7), round(c[1], 7)]
        return [r(x) for x in c]

    gj["coordinates"] = r(gj["coordinates"])
    return gj


def water(res, region, out):
    size = BIN[res]
    bins = {}
    for b, _level, pts in dump(res, "-W", region):
        bins.setdefault(b, []).append(pts)
    print(f"gshhg {res}: {sum(len(v) for v in bins.values())} shoreline pieces in {len(bins)} bins", file=sys.stderr)
    w0, e0, s0, n0 = map(float, region.split("/")) if region != "d" else (-180, 180, -90, 90)
    faces = []  # (bin, geometry)
    cols, rows = round(360 / size), round(180 / size)
    for b in range(cols * rows):
        box = bin_box(b, size)
        # The bin in -180..180.
        dx = -360 if box[0] >= 180 else 0
        bw, bs, be, bn = box[0] + dx, box[1], box[2] + dx, box[3]
        if be <= w0 or bw >= e0 or bn <= s0 or bs >= n0:
            continue
        segs = bins.get(b)
        if segs:
            try:
                fs = faces_of_bin(box, segs)
            except RuntimeError as err:
                print(f"gshhg {res}: bin {b}: {err}; skipped", file=sys.stderr)
                continue
        else:
            w, s, e, n = box
            fs = [ogr.CreateGeometryFromWkt(f"POLYGON(({w} {s},{e} {s},{e} {n},{w} {n},{w} {s}))")]
        for f in fs:
            faces.append((b, dx, f))
        if b % max(1, (cols * rows) // 20) == 0:
            print(f"gshhg {res}: bin {b}/{cols * rows}, {len(faces)} faces", file=sys.stderr)
    points = []
    for b, dx, f in faces:
        p = f.PointOnSurface()
        points.append((p.GetX() + dx, p.GetY()))
    levels = classify(points, res)
    feats = []
    for (b, dx, f), level in zip(faces, levels):
        if level == 1 or level == 3:
            continue
        g = shift(f, dx)
        # A face may have holes from pieces inside it only if polygonize made them; keep as is.
        feats.append({"type": "Feature", "properties": {"class": "ocean" if level == 0 else "lake"},
                      "geometry": rounded_coords(g)})
    feats.sort(key=lambda f: json.dumps(f, sort_keys=True))
    write(out, feats)
    counts = {}
    for f in feats:
        counts[f["properties"]["class"]] = counts.get(f["properties"]["class"], 0) + 1
    print(f"gshhg {res}: water polygons {counts}", file=sys.stderr)


def join_pieces(pieces):
    """Joins line pieces whose ends meet (bin edges cut every line): a piece is extended while exactly two pieces
    meet at its end. Deterministic: pieces are visited in sorted order."""
    pieces = sorted(tuple(p) for p in pieces if len(p) >= 2)
    ends = {}
    for i, p in enumerate(pieces):
        ends.setdefault(p[0], []).append(i)
        ends.setdefault(p[-1], []).append(i)
    used = [False] * len(pieces)
    out = []
    for i in range(len(pieces)):
        if used[i]:
            continue
        used[i] = True
        chain = list(pieces[i])
        for forward in (True, False):
            while True:
                tip = chain[-1] if forward else chain[0]
                nxt = [j for j in ends.get(tip, ()) if not used[j]]
                if len(ends.get(tip, ())) != 2 or len(nxt) != 1:
                    break
                j = nxt[0]
                used[j] = True
                q = list(pieces[j])
                if forward:
                    chain += (q if q[0] == tip else q[::-1])[1:]
                else:
                    chain = (q if q[-1] == tip else q[::-1])[:-1] + chain
        out.append(chain)
    return out


def lines(res, flag, region, out, kind):
    pieces = {}
    for _b, level, pts in dump(res, flag, region):
        pieces.setdefault(level, []).append([(round(x if x < 180 else x - 360, 7), round(y, 7)) for x, y in pts])
    feats = []
    for level in sorted(pieces):
        for chain in join_pieces(pieces[level]):
            feats.append({"type": "Feature", "properties": {"level": level},
                          "geometry": {"type": "LineString", "coordinates": [list(p) for p in chain]}})
    feats.sort(key=lambda f: json.dumps(f, sort_keys=True))
    write(out, feats)
    print(f"gshhg {res}: {kind} lines {len(feats)} (from {sum(len(v) for v in pieces.values())} pieces)",
          file=sys.stderr)


def write(path, feats):
    with open(path, "w") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(json.dumps(x, sort_keys=True, separators=(",", ":")) for x in feats))
        f.write("\n]}\n")


def main():
    args = sys.argv[1:]
    region = "-180/180/-90/90"
    lines_only = "--lines-only" in args
    if lines_only:
        args.remove("--lines-only")
    if "--region" in args:
        i = args.index("--region")
        region = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2 or args[0] not in BIN:
        sys.exit(__doc__)
    res, outdir = args
    os.makedirs(outdir, exist_ok=True)
    if not lines_only:
        water(res, region, os.path.join(outdir, f"water_{res}.geojson"))
    lines(res, "-Ia", region, os.path.join(outdir, f"river_{res}.geojson"), "river")
    lines(res, "-Na", region, os.path.join(outdir, f"border_{res}.geojson"), "border")


if __name__ == "__main__":
    main()
