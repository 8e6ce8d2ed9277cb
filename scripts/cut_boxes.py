#!/usr/bin/python3
"""Cuts boxes out of the polygons of a GeoJSON file (the world's water where a city extract has its own sea).

usage: cut_boxes.py IN.geojson OUT.geojson W,S,E,N [W,S,E,N ...]

Inside a city extract's bounding box the city's OpenStreetMap coastline is the better one; the world's GSHHG water
is removed there so the two never disagree under the city's streets (DATA.md, "Edges of the city data"). Polygons
that do not meet a box are copied unchanged; the others become their difference with the boxes (GEOS, through
GDAL's Python bindings). Output keeps the input order, properties and 7-decimal rounding.
"""
import json
import sys

from osgeo import ogr

ogr.UseExceptions()


def rounded(c):
    if isinstance(c[0], (int, float)):
        return [round(c[0], 7), round(c[1], 7)]
    return [rounded(x) for x in c]


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    src, dst, boxes = argv[1], argv[2], []
    for text in argv[3:]:
        w, s, e, n = map(float, text.split(","))
        boxes.append(((w, s, e, n), ogr.CreateGeometryFromWkt(f"POLYGON(({w} {s},{e} {s},{e} {n},{w} {n},{w} {s}))")))
    data = json.load(open(src))
    out, cut = [], 0
    for f in data["features"]:
        g = None
        for (w, s, e, n), box in boxes:
            xs = [p[0] for ring in f["geometry"]["coordinates"] for p in ring]
            ys = [p[1] for ring in f["geometry"]["coordinates"] for p in ring]
            if max(xs) < w or min(xs) > e or max(ys) < s or min(ys) > n:
                continue
            g = (g or ogr.CreateGeometryFromJson(json.dumps(f["geometry"]))).Difference(box)
        if g is None:
            out.append(f)
            continue
        cut += 1
        for i in range(g.GetGeometryCount() if g.GetGeometryType() == ogr.wkbMultiPolygon else 1):
            part = g.GetGeometryRef(i) if g.GetGeometryType() == ogr.wkbMultiPolygon else g
            if part.IsEmpty() or part.GetGeometryType() != ogr.wkbPolygon:
                continue
            gj = json.loads(part.ExportToJson())
            out.append({"type": "Feature", "properties": f["properties"],
                        "geometry": {"type": "Polygon", "coordinates": rounded(gj["coordinates"])}})
    with open(dst, "w") as fh:
        fh.write('{"type":"FeatureCollection","features":[\n')
        fh.write(",\n".join(json.dumps(x, sort_keys=True, separators=(",", ":")) for x in out))
        fh.write("\n]}\n")
    print(f"cut_boxes: {len(boxes)} boxes cut from {cut} of {len(data['features'])} polygons", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
