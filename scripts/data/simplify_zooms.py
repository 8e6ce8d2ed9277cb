#!/usr/bin/python3
"""Simplifies a GSHHG extraction (gshhg_extract.py's GeoJSON) once per zoom, to that zoom's pixel, as shapefiles.

usage: simplify_zooms.py IN.geojson OUT_PREFIX Z [Z ...] [--pixels P] [--where FIELD=V1,V2,...] [--holes W,S,E,N ...]
  IN.geojson   water polygons (class ocean/lake) or river/border lines (level), one feature per line
  OUT_PREFIX   writes OUT_PREFIX_zZ.shp for each Z
  --pixels P   tolerance in pixels of a 256-pixel tile at zoom Z (default 0.5)
  --where      keep only features whose integer FIELD is one of the values (WDBII levels)
  --holes      boxes cut out of polygons first (the city extracts, whose own OSM sea is drawn there;
               DATA.md "Edges of the city data")

Why: tilemaker keeps every vertex it is given, and GSHHG full has 10.8 million shoreline points, most of them closer
together than a pixel at zoom 9-10 (DATA.md "World tiles"). Per feature and zoom Z the tolerance is P pixels of
Web Mercator at the feature's most poleward latitude, in degrees: P * 360 / (256 * 2^Z) * cos(lat) (a pixel spans
fewer degrees of latitude towards the poles). Then:
- polygons: GEOS SimplifyPreserveTopology (Douglas-Peucker that keeps rings valid and apart); interior rings
  (islands, GSHHG level 2/4 inside water) and whole polygons smaller than one pixel in area are dropped;
- lines: GEOS Simplify (Douglas-Peucker; the ends stay, so pieces joined across bins still meet); lines shorter
  than one pixel are dropped.
Features keep the input order and properties, so the output is the same on every run. Progress on stderr.
"""
import json
import math
import os
import sys

from osgeo import ogr, osr

ogr.UseExceptions()


def pixel_degrees(z, lat):
    return 360.0 / (256 * 2**z) * math.cos(math.radians(min(abs(lat), 85.0511)))


def parse_args(argv):
    args = list(argv[1:])
    opts = {"pixels": 0.5, "where": None, "holes": []}
    if "--holes" in args:
        i = args.index("--holes")
        opts["holes"] = [tuple(map(float, t.split(","))) for t in args[i + 1:]]
        del args[i:]
    for name in ("--pixels", "--where"):
        if name in args:
            i = args.index(name)
            opts[name[2:]] = args[i + 1]
            del args[i:i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    opts["pixels"] = float(opts["pixels"])
    if opts["where"]:
        field, values = opts["where"].split("=")
        opts["where"] = (field, {int(v) for v in values.split(",")})
    return args[0], args[1], [int(z) for z in args[2:]], opts


def features(path):
    """Yields the features of a file written one feature per line (gshhg_extract.py, cut_boxes.py)."""
    with open(path) as f:
        for line in f:
            line = line.strip().rstrip(",")
            if line.startswith('{"geometry"') or line.startswith('{"properties"') or line.startswith('{"type":"Feature"'):
                yield json.loads(line)


def box_geometry(box):
    w, s, e, n = box
    return ogr.CreateGeometryFromWkt(f"POLYGON(({w} {s},{e} {s},{e} {n},{w} {n},{w} {s}))")


def parts_of(g, single, multi):
    """The parts of geometry type `single` in g (itself, the members of a `multi` or of a collection)."""
    if g is None or g.IsEmpty():
        return []
    t = ogr.GT_Flatten(g.GetGeometryType())
    if t == single:
        return [g]
    if t in (multi, ogr.wkbGeometryCollection):
        return [p for i in range(g.GetGeometryCount()) for p in parts_of(g.GetGeometryRef(i), single, multi)]
    return []


def polygons_of(g):
    return parts_of(g, ogr.wkbPolygon, ogr.wkbMultiPolygon)


def lines_of(g):
    return parts_of(g, ogr.wkbLineString, ogr.wkbMultiLineString)


def ring_area(ring):
    if ring.GetPointCount() < 4:
        return 0.0
    p = ogr.Geometry(ogr.wkbPolygon)
    p.AddGeometry(ring)
    return abs(p.GetArea())


def simplify_polygon(poly, tol, pixel):
    """Simplified parts of one polygon, without rings or parts smaller than one square pixel."""
    out = []
    for part in polygons_of(poly.SimplifyPreserveTopology(tol)):
        rings = [part.GetGeometryRef(i) for i in range(part.GetGeometryCount())]
        if not rings:
            continue
        kept = ogr.Geometry(ogr.wkbPolygon)
        for i, ring in enumerate(rings):
            if ring_area(ring) < pixel * pixel:
                if i == 0:
                    break
                continue
            kept.AddGeometry(ring)
        if kept.GetGeometryCount():
            out.append(kept)
    return out


def main(argv):
    src, prefix, zooms, opts = parse_args(argv)
    px = opts["pixels"]
    holes = [(b, box_geometry(b)) for b in opts["holes"]]
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    driver = ogr.GetDriverByName("ESRI Shapefile")
    outs = {}
    kind = None
    counts = {z: 0 for z in zooms}
    points = {z: 0 for z in zooms}
    read = cut = 0
    for feat in features(src):
        read += 1
        props = feat["properties"]
        if opts["where"] and int(props.get(opts["where"][0], -1)) not in opts["where"][1]:
            continue
        geom = ogr.CreateGeometryFromJson(json.dumps(feat["geometry"]))
        polygonal = ogr.GT_Flatten(geom.GetGeometryType()) in (ogr.wkbPolygon, ogr.wkbMultiPolygon)
        if kind is None:
            kind = "polygon" if polygonal else "line"
            for z in zooms:
                path = f"{prefix}_z{z}.shp"
                if os.path.exists(path):
                    driver.DeleteDataSource(path)
                ds = driver.CreateDataSource(path)
                layer = ds.CreateLayer(os.path.basename(prefix), srs,
                                       ogr.wkbPolygon if polygonal else ogr.wkbLineString, ["ENCODING=UTF-8"])
                for name, value in sorted(props.items()):
                    layer.CreateField(ogr.FieldDefn(name, ogr.OFTString if isinstance(value, str) else ogr.OFTInteger))
                outs[z] = (ds, layer)
        minx, maxx, miny, maxy = geom.GetEnvelope()
        if polygonal and holes:
            for (w, s, e, n), box in holes:
                if maxx >= w and minx <= e and maxy >= s and miny <= n:
                    geom = geom.Difference(box)
                    cut += 1
        lat = max(abs(miny), abs(maxy))
        for z in zooms:
            pixel = pixel_degrees(z, lat)
            tol = px * pixel
            if polygonal:
                parts = []
                for poly in polygons_of(geom):
                    parts += simplify_polygon(poly, tol, pixel)
            else:
                parts = [line for line in lines_of(geom.Simplify(tol)) if line.Length() >= pixel]
            ds, layer = outs[z]
            for part in parts:
                f = ogr.Feature(layer.GetLayerDefn())
                for name, value in sorted(props.items()):
                    f.SetField(name, value)
                f.SetGeometry(part)
                layer.CreateFeature(f)
                counts[z] += 1
                points[z] += sum(part.GetGeometryRef(i).GetPointCount() for i in range(part.GetGeometryCount())) \
                    if polygonal else part.GetPointCount()
        if read % 50000 == 0:
            print(f"simplify_zooms: {os.path.basename(src)}: {read} features read", file=sys.stderr)
    if kind is None:  # nothing kept: empty line layers, so tilemaker still finds its shapefiles
        for z in zooms:
            ds = driver.CreateDataSource(f"{prefix}_z{z}.shp")
            layer = ds.CreateLayer(os.path.basename(prefix), srs, ogr.wkbLineString, ["ENCODING=UTF-8"])
            layer.CreateField(ogr.FieldDefn("level", ogr.OFTInteger))
            ds = None
    for z in zooms:
        if z in outs:
            outs[z][0].FlushCache()
        outs.pop(z, None)
    summary = ", ".join(f"z{z} {counts[z]} features {points[z]} points" for z in zooms)
    print(f"simplify_zooms: {os.path.basename(src)}: {read} read, {cut} cut by holes; {summary}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
