#!/usr/bin/env python3
"""Extracts named points of interest from an OSM extract into a GeoJSON FeatureCollection of Points.

usage: build_pois.py INPUT.osm.pbf OUTPUT.geojson

INPUT must have every reference resolved (run fix_osm_refs.py first). Only objects with a `name` tag count.
Categories (first matching rule wins):

| category         | OSM tags                                                                 |
|------------------|--------------------------------------------------------------------------|
| museum           | tourism=museum                                                           |
| gallery          | tourism=gallery, amenity=arts_centre                                     |
| station          | railway=station or halt, public_transport=station                        |
| place_of_worship | amenity=place_of_worship                                                 |
| hotel            | tourism=hotel, hostel or guest_house                                     |
| attraction       | tourism=attraction or viewpoint, historic=monument or castle             |
| library          | amenity=library                                                          |
| theatre          | amenity=theatre or concert_hall                                          |
| cinema           | amenity=cinema                                                           |
| marketplace      | amenity=marketplace                                                      |
| townhall         | amenity=townhall                                                         |
| university       | amenity=university or college                                            |
| shopping         | shop=mall or department_store                                            |
| park             | leisure=park                                                             |
| cafe             | amenity=cafe                                                             |
| restaurant       | amenity=restaurant with a cuisine tag (keeps the set near 300 features)  |

Geometry: a node's location; for a way or multipolygon relation that forms an area, an interior point
(the middle of the widest span of a horizontal line through the middle of the polygon's bounding box, as
GEOS's interior point does); for a way that is not an area, its middle vertex.

Properties: name, category, osm_id ("node/123", "way/456", "relation/789"). Objects with the same name
and category are kept once, preferring node, then way, then relation, then the smaller id. Features are
sorted by (category, name, osm_id); coordinates are rounded to 7 decimals. Prints counts on stderr.
Needs pyosmium (osmium==4.3.2).
"""

import json
import sys

import osmium

RULES = [
    ("museum", [("tourism", {"museum"})]),
    ("gallery", [("tourism", {"gallery"}), ("amenity", {"arts_centre"})]),
    ("station", [("railway", {"station", "halt"}), ("public_transport", {"station"})]),
    ("place_of_worship", [("amenity", {"place_of_worship"})]),
    ("hotel", [("tourism", {"hotel", "hostel", "guest_house"})]),
    ("attraction", [("tourism", {"attraction", "viewpoint"}), ("historic", {"monument", "castle"})]),
    ("library", [("amenity", {"library"})]),
    ("theatre", [("amenity", {"theatre", "concert_hall"})]),
    ("cinema", [("amenity", {"cinema"})]),
    ("marketplace", [("amenity", {"marketplace"})]),
    ("townhall", [("amenity", {"townhall"})]),
    ("university", [("amenity", {"university", "college"})]),
    ("shopping", [("shop", {"mall", "department_store"})]),
    ("park", [("leisure", {"park"})]),
    ("cafe", [("amenity", {"cafe"})]),
]
KIND_ORDER = {"node": 0, "way": 1, "relation": 2}


def category(tags) -> str | None:
    for cat, rules in RULES:
        for key, values in rules:
            if tags.get(key) in values:
                return cat
    if tags.get("amenity") == "restaurant" and "cuisine" in tags:
        return "restaurant"
    return None


def interior_point(rings: list[list[tuple[float, float]]]) -> tuple[float, float]:
    """Midpoint of the widest interior span on the horizontal line through the bbox middle."""
    ys = [p[1] for r in rings for p in r]
    y = (min(ys) + max(ys)) / 2
    # Nudge off vertices so no crossing is counted twice.
    if any(p[1] == y for r in rings for p in r):
        y += (max(ys) - min(ys)) * 1e-6
    xs = []
    for r in rings:
        for (x1, y1), (x2, y2) in zip(r, r[1:]):
            if (y1 > y) != (y2 > y):
                xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    xs.sort()
    best = None
    for a, b in zip(xs[0::2], xs[1::2]):
        if best is None or b - a > best[1] - best[0]:
            best = (a, b)
    if best is None:  # degenerate ring: fall back to the first vertex
        return rings[0][0]
    return ((best[0] + best[1]) / 2, y)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    found: dict[tuple[str, str], tuple[tuple[int, int], dict]] = {}

    def add(kind: str, oid: int, name: str, cat: str, lon: float, lat: float) -> None:
        key = (name, cat)
        rank = (KIND_ORDER[kind], oid)
        if key in found and found[key][0] <= rank:
            return
        found[key] = (
            rank,
            {
                "type": "Feature",
                "properties": {"name": name, "category": cat, "osm_id": f"{kind}/{oid}"},
                "geometry": {"type": "Point", "coordinates": [round(lon, 7), round(lat, 7)]},
            },
        )

    area_ways: set[int] = set()
    fp = osmium.FileProcessor(argv[1]).with_locations().with_areas()
    for obj in fp:
        name = obj.tags.get("name")
        if not name:
            continue
        cat = category(obj.tags)
        if cat is None:
            continue
        if isinstance(obj, osmium.osm.Node):
            add("node", obj.id, name, cat, obj.location.lon, obj.location.lat)
        elif isinstance(obj, osmium.osm.Area):
            rings = []
            for outer in obj.outer_rings():
                rings.append([(n.lon, n.lat) for n in outer])
                for inner in obj.inner_rings(outer):
                    rings.append([(n.lon, n.lat) for n in inner])
            if not rings or len(rings[0]) < 4:
                continue
            lon, lat = interior_point(rings)
            kind = "way" if obj.from_way() else "relation"
            if kind == "way":
                area_ways.add(obj.orig_id())
            add(kind, obj.orig_id(), name, cat, lon, lat)
        elif isinstance(obj, osmium.osm.Way):
            # Areas are reported separately (after all ways); remember open ways here.
            nodes = [(n.lon, n.lat) for n in obj.nodes if n.location.valid()]
            if len(nodes) >= 2 and not obj.is_closed():
                mid = nodes[len(nodes) // 2]
                add("way", obj.id, name, cat, mid[0], mid[1])

    features = sorted((f for _, f in found.values()),
                      key=lambda f: (f["properties"]["category"], f["properties"]["name"], f["properties"]["osm_id"]))
    with open(argv[2], "w", encoding="utf-8") as fh:
        fh.write('{"type":"FeatureCollection","features":[\n')
        fh.write(",\n".join(json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in features))
        fh.write("\n]}\n")
    counts: dict[str, int] = {}
    for f in features:
        counts[f["properties"]["category"]] = counts.get(f["properties"]["category"], 0) + 1
    print(f"build_pois: {len(features)} features: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
