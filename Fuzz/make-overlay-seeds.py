#!/usr/bin/env python3
"""Writes the libFuzzer seeds in Fuzz/corpus/overlays/: small GeoJSON documents of the kinds `waymark snapshot
--overlays` and `--markers` read (every geometry type, simplestyle properties, edge values). Run from the repo root."""
import json
import os

OUT = "Fuzz/corpus/overlays"


def feature(geometry, properties=None):
    return {"type": "Feature", "properties": properties, "geometry": geometry}


def collection(*features):
    return {"type": "FeatureCollection", "features": list(features)}


ring = [[24.90, 60.16], [24.96, 60.16], [24.96, 60.19], [24.90, 60.19], [24.90, 60.16]]
hole = [[24.92, 60.17], [24.94, 60.17], [24.94, 60.18], [24.92, 60.17]]
style = {"stroke": "#f00", "stroke-width": 4, "stroke-opacity": 0.5, "fill": "00ff80", "fill-opacity": 0.25}
SEEDS = {
    "lines.geojson": collection(
        feature({"type": "LineString", "coordinates": [[24.93, 60.17], [24.96, 60.17, 12.0]]}, style),
        feature({"type": "MultiLineString", "coordinates": [[[0, 0], [1, 1]], [[2, 2], [3, 3]]]}, {})),
    "polygons.geojson": collection(
        feature({"type": "Polygon", "coordinates": [ring, hole]}, {"fill": "#abc"}),
        feature({"type": "MultiPolygon", "coordinates": [[ring], [[[179, 0], [181, 0], [181, 1], [179, 0]]]]})),
    "markers.geojson": collection(
        feature({"type": "Point", "coordinates": [24.94, 60.17]}, {"name": "Helsinki"}),
        feature({"type": "MultiPoint", "coordinates": [[-180, -90], [360, 90], [0, 0]]}),
        feature(None)),
    "collection.geojson": collection(feature({"type": "GeometryCollection", "geometries": [
        {"type": "Point", "coordinates": [1, 2]},
        {"type": "LineString", "coordinates": [[1, 2], [3, 4]]},
        {"type": "GeometryCollection", "geometries": [{"type": "Polygon", "coordinates": [ring]}]}]})),
    "feature.geojson": feature({"type": "LineString", "coordinates": [[-359.5, 89.9], [359.5, -89.9]]},
                               {"stroke-width": 0}),
    "geometry.geojson": {"type": "Polygon", "coordinates": [ring]},
    "bad-position.geojson": collection(feature({"type": "Point", "coordinates": [1e308, 0]})),
    "bad-type.geojson": {"type": "Blob", "coordinates": []},
}

os.makedirs(OUT, exist_ok=True)
for name, doc in SEEDS.items():
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
