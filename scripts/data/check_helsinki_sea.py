#!/usr/bin/python3
"""Checks that the Helsinki tileset has the sea where the coastline says, and land where it doesn't.

usage: check_helsinki_sea.py HELSINKI.mbtiles

Opens the z14 tiles with GDAL's MVT driver (python3-gdal, a dependency of Debian's gdal-bin) and tests
points against the polygons of the "water" layer. Each probe states the expected answer, known
independently of the build (the place on the ground):

- Kolera-allas, the harbour basin at the Market Square (Kauppatori): ocean;
- Siltavuorensalmi, the strait under Pitkäsilta: ocean;
- Senate Square and the Esplanadi park: not water.

The often-quoted Market Square harbour point 60.1675 N 24.9535 E lies about 5 m east of the extract's
bounding box (max lon 24.9534145): the extract holds no data there, so the script reports that point
without asserting it.

Prints one line per probe; exits 1 if any expectation fails.
"""

import sys

from osgeo import gdal, ogr, osr

gdal.UseExceptions()

PROBES = [
    # (label, lat, lon, expected class or None for "no water polygon")
    ("Kolera-allas, Market Square harbour basin", 60.16712, 24.95300, "ocean"),
    ("Siltavuorensalmi strait at Pitkasilta", 60.17640, 24.95000, "ocean"),
    ("Senate Square", 60.16950, 24.95230, None),
    ("Esplanadi park", 60.16760, 24.94800, None),
]
REPORT_ONLY = [("Market Square harbour point (outside extract bbox)", 60.1675, 24.9535)]


def water_classes(ds, lat: float, lon: float) -> list[str]:
    wgs = osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    merc = osr.SpatialReference()
    merc.ImportFromEPSG(3857)
    pt = ogr.Geometry(ogr.wkbPoint)
    pt.AddPoint_2D(lon, lat)
    pt.AssignSpatialReference(wgs)
    pt.TransformTo(merc)
    layer = ds.GetLayerByName("water")
    if layer is None:
        raise SystemExit("error: no 'water' layer at z14")
    layer.SetSpatialFilter(pt)
    found = []
    for f in layer:
        g = f.GetGeometryRef()
        if g is not None and g.Contains(pt):
            found.append(f.GetField("class") or "")
    layer.SetSpatialFilter(None)
    return sorted(found)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    ds = gdal.OpenEx(argv[1], gdal.OF_VECTOR | gdal.OF_READONLY, open_options=["ZOOM_LEVEL=14"])
    failures = 0
    for label, lat, lon, want in PROBES:
        got = water_classes(ds, lat, lon)
        ok = (want in got) if want else not got
        failures += 0 if ok else 1
        print(f"{'ok  ' if ok else 'FAIL'} {label} ({lat}, {lon}): water classes {got or 'none'}, "
              f"expected {want or 'no water'}")
    for label, lat, lon in REPORT_ONLY:
        got = water_classes(ds, lat, lon)
        print(f"info {label} ({lat}, {lon}): water classes {got or 'none'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
