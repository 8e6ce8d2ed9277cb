#!/usr/bin/env python3
# Generates Data/styles/protomaps.json (run from anywhere: python3 scripts/data/styles/make-protomaps-style.py): Waymark's own
# style for tilesets in the Protomaps basemap schema (https://docs.protomaps.com/basemaps/layers; version 4 property
# names `kind`, `kind_detail`, `min_zoom`, `name`, and version 3's `pmap:kind`, `pmap:kind_detail`, `pmap:level` too),
# drawn in the default style's palette (stylekit.py, shared with make-default-style.py) so that the same place looks
# the same from either schema. Edit this script rather than the JSON; Tests/GoogleMapsTests/BundledStyleTests.swift
# draws it over a Monaco fixture built by scripts/data/make-protomaps-fixture.sh. Zooms here are Google's camera zooms;
# stylekit.write shifts them to MapLibre's (one less) as the JSON needs (docs/BEHAVIOUR.md D25).
import sys
sys.dont_write_bytecode = True
from stylekit import BOLD, GLYPHS, HALO, ITAL, LAND, PARK, REG, TEXT, TEXT_DARK, WATER, WOOD, halo, interp, write  # noqa: F401
# Outside the tileset's land and water (beyond an extract's edge): a neutral grey, darker than the land.
BACKGROUND = "#e4e2de"
SRC = "protomaps"
# Version 4 names first, version 3's prefixed ones as the fallback.
KIND = ["coalesce", ["get", "kind"], ["get", "pmap:kind"], ""]
DETAIL = ["coalesce", ["get", "kind_detail"], ["get", "pmap:kind_detail"], ""]
NAME = ["coalesce", ["get", "name:latin"], ["get", "name"]]
TUNNEL = ["any", ["==", ["get", "is_tunnel"], True], ["==", ["get", "pmap:level"], -1]]
POLY = ["match", ["geometry-type"], ["Polygon", "MultiPolygon"], True, False]
LINE = ["match", ["geometry-type"], ["LineString", "MultiLineString"], True, False]
POINT = ["match", ["geometry-type"], ["Point", "MultiPoint"], True, False]
def kind_in(*kinds, expr=KIND):
    return ["match", expr, list(kinds), True, False]

layers = []
def L(**kw):
    d = {}
    for k in ["id", "type", "source_layer", "minzoom", "maxzoom", "filter", "layout", "paint"]:
        if k in kw:
            d[k.replace("_", "-")] = kw[k]
        if k == "type" and kw["type"] != "background":
            d["source"] = SRC
    layers.append(d)

L(id="background", type="background", paint={"background-color": BACKGROUND})
L(id="earth", type="fill", source_layer="earth", filter=POLY, paint={"fill-color": LAND})
L(id="landcover", type="fill", source_layer="landcover", maxzoom=8,
  paint={"fill-color": ["match", KIND, ["forest"], WOOD, ["grassland", "farmland", "scrub"], PARK,
                        ["barren"], "#f0ebe0", ["glacier"], "#ffffff", LAND],
         "fill-opacity": interp([[5, 1], [8, 0]])})
L(id="natural-wood", type="fill", source_layer="natural", filter=kind_in("wood", "forest"), paint={"fill-color": WOOD})
L(id="natural-grass", type="fill", source_layer="natural",
  filter=kind_in("scrub", "grassland", "heath", "wetland"), paint={"fill-color": PARK, "fill-opacity": 0.8})
L(id="natural-sand", type="fill", source_layer="natural", filter=kind_in("beach", "sand"),
  paint={"fill-color": "#f5ecd3"})
L(id="natural-rock", type="fill", source_layer="natural", filter=kind_in("bare_rock", "scree", "glacier"),
  paint={"fill-color": "#ebe7e0"})
landuse = [
    ("residential", ["residential", "neighbourhood"], "#f1efea"),
    ("commercial", ["commercial", "retail", "industrial", "railway", "military", "naval_base"], "#f1ede6"),
    ("hospital", ["hospital"], "#fbe4e2"),
    ("education", ["school", "university", "college", "kindergarten"], "#efeaf4"),
    ("cemetery", ["cemetery"], "#d5e8cf"),
    ("pitch", ["pitch", "stadium", "playground", "track", "recreation_ground"], "#d4ecd0"),
    ("park", ["park", "garden", "national_park", "nature_reserve", "protected_area", "golf_course", "grass",
              "dog_park", "zoo"], PARK),
    ("wood", ["forest", "wood", "orchard"], WOOD),
    ("beach", ["beach"], "#f5ecd3"),
    ("pedestrian", ["pedestrian", "platform"], "#f7f6f3"),
    ("pier", ["pier", "marina"], "#ebe7e0"),
]
for name, kinds, color in landuse:
    L(id=f"landuse-{name}", type="fill", source_layer="landuse", filter=kind_in(*kinds), paint={"fill-color": color})
L(id="water", type="fill", source_layer="water", filter=POLY, paint={"fill-color": WATER})
L(id="water-line", type="line", source_layer="water", filter=LINE,
  layout={"line-cap": "round", "line-join": "round"},
  paint={"line-color": WATER, "line-width": interp([[9, 0.5], [14, 1.5], [18, 4]], 1.4)})
L(id="aeroway", type="line", source_layer="roads", minzoom=11, filter=kind_in("aeroway"),
  paint={"line-color": "#dcd9e3", "line-width": interp([[11, 1], [18, 30]], 1.5)})
L(id="buildings", type="fill", source_layer="buildings", minzoom=14,
  paint={"fill-color": "#e8e4de", "fill-outline-color": "#d9d3c9", "fill-opacity": interp([[14, 0.5], [16, 1]])})
L(id="boundaries-region", type="line", source_layer="boundaries", minzoom=4,
  filter=kind_in("region", "county"), layout={"line-join": "round"},
  paint={"line-color": "#c3bfb8", "line-width": interp([[4, 0.4], [10, 1]]), "line-dasharray": [3, 2]})
L(id="boundaries-country", type="line", source_layer="boundaries", filter=kind_in("country"),
  layout={"line-join": "round", "line-cap": "round"},
  paint={"line-color": "#a6a3a0", "line-width": interp([[1, 0.5], [6, 1.2], [10, 2]])})

# Roads: the default style's classes by Protomaps kind (major_road split by kind_detail), casings below fills.
roads = [
    ("highway", kind_in("highway"), 5, "#fcd581", "#e4a73e", [[5, 0.8], [10, 2.5], [14, 6], [18, 28]]),
    ("trunk", ["all", kind_in("major_road"), kind_in("trunk", "trunk_link", expr=DETAIL)], 6,
     "#fde293", "#e0b354", [[6, 0.6], [10, 2.2], [14, 5.5], [18, 26]]),
    ("primary", ["all", kind_in("major_road"), kind_in("primary", "primary_link", expr=DETAIL)], 8,
     "#fff1b8", "#e3c67e", [[8, 0.5], [10, 1.5], [14, 5], [18, 24]]),
    ("medium", ["any", kind_in("medium_road"), ["all", kind_in("major_road"),
                ["!", kind_in("trunk", "trunk_link", "primary", "primary_link", expr=DETAIL)]]], 10,
     "#ffffff", "#d6d2cb", [[10, 0.8], [14, 4], [18, 20]]),
    ("minor", ["all", kind_in("minor_road"), ["!=", DETAIL, "service"]], 12,
     "#ffffff", "#dcd8d1", [[12, 0.5], [14, 2.5], [18, 14]]),
    ("service", ["any", ["all", kind_in("minor_road"), ["==", DETAIL, "service"]], kind_in("other")], 14,
     "#ffffff", "#e0dcd5", [[14, 1], [18, 8]]),
]
L(id="roads-tunnel", type="line", source_layer="roads", minzoom=13,
  filter=["all", TUNNEL, kind_in("highway", "major_road", "medium_road", "minor_road")], layout={"line-join": "round"},
  paint={"line-color": "#e6e2dc", "line-width": interp([[13, 1], [18, 10]], 1.5), "line-dasharray": [2, 1]})
L(id="roads-path", type="line", source_layer="roads", minzoom=14,
  filter=["all", kind_in("path"), ["!=", DETAIL, "pier"], ["!", TUNNEL]], layout={"line-join": "round"},
  paint={"line-color": "#cbc4b9", "line-width": interp([[14, 0.7], [18, 2.5]], 1.4), "line-dasharray": [2, 1.5]})
L(id="roads-pier", type="line", source_layer="roads", minzoom=13, filter=["==", DETAIL, "pier"],
  paint={"line-color": "#ebe7e0", "line-width": interp([[13, 1], [18, 12]], 1.5)})
# Railways: version 4 in roads (kind=rail), version 3 in transit.
for layer in ["roads", "transit"]:
    L(id=f"{layer}-rail", type="line", source_layer=layer, minzoom=11, filter=["all", kind_in("rail"), ["!", TUNNEL]],
      paint={"line-color": "#b9b5ae", "line-width": interp([[11, 0.6], [18, 2.5]], 1.4)})
L(id="roads-ferry", type="line", source_layer="roads", minzoom=11, filter=kind_in("ferry"),
  paint={"line-color": "#7fb9e8", "line-width": interp([[11, 0.6], [18, 2]]), "line-dasharray": [3, 2]})
for name, filt, minz, fill, casing, widths in roads:
    L(id=f"roads-{name}-casing", type="line", source_layer="roads", minzoom=max(minz, 12),
      filter=["all", filt, ["!", TUNNEL]], layout={"line-cap": "round", "line-join": "round"},
      paint={"line-color": casing, "line-width": interp([[z, w + (1 if z < 14 else 2)] for z, w in widths], 1.5)})
for name, filt, minz, fill, casing, widths in reversed(roads):
    L(id=f"roads-{name}", type="line", source_layer="roads", minzoom=minz,
      filter=["all", filt, ["!", TUNNEL]], layout={"line-cap": "round", "line-join": "round"},
      paint={"line-color": fill, "line-width": interp(widths, 1.5)})
# 3D buildings, as the default style's building-3d (GMSMapView.isBuildingsEnabled hides them; the flat footprints of
# "buildings" stay): the schema's `height` and `min_height` (metres), raised from Google's zoom 17, over the roads and
# under the labels. A feature without `height` is not raised.
L(id="buildings-3d", type="fill-extrusion", source_layer="buildings", minzoom=17,
  paint={"fill-extrusion-color": "#ddd7ce", "fill-extrusion-opacity": 0.9,
         "fill-extrusion-height": ["coalesce", ["get", "height"], 0],
         "fill-extrusion-base": ["coalesce", ["get", "min_height"], 0]})

# Labels
L(id="water-line-label", type="symbol", source_layer="water", minzoom=13, filter=["all", LINE, ["has", "name"]],
  layout={"symbol-placement": "line", "text-field": NAME, "text-font": ITAL, "text-size": 12, "symbol-spacing": 350},
  paint={"text-color": "#4a87c9", **halo(1.2)})
L(id="water-label", type="symbol", source_layer="water", minzoom=10, filter=["all", POINT, ["has", "name"]],
  layout={"text-field": NAME, "text-font": ITAL, "text-size": interp([[10, 11], [16, 15]]), "text-max-width": 7,
          "text-letter-spacing": 0.05},
  paint={"text-color": "#4a87c9", **halo(1.2)})
L(id="roads-label", type="symbol", source_layer="roads", minzoom=13,
  filter=["all", ["has", "name"], kind_in("highway", "major_road", "medium_road", "minor_road")],
  layout={"symbol-placement": "line", "text-field": NAME, "text-font": REG, "symbol-spacing": 300,
          "text-max-angle": 30, "text-size": interp([[13, 10], [16, 12], [18, 14]]),
          "text-rotation-alignment": "map", "text-keep-upright": True,
          "symbol-sort-key": ["match", KIND, "highway", 1, "major_road", 2, "medium_road", 3, 4]},
  paint={"text-color": TEXT, **halo(1.5)})
poi_color = ["match", KIND,
    ["restaurant", "fast_food", "cafe", "bar", "pub", "ice_cream", "bakery"], "#c5692b",
    ["supermarket", "convenience", "clothes", "jewelry", "gift", "books", "shop"], "#4e7fd6",
    ["park", "garden", "playground", "pitch", "sports_centre", "stadium", "zoo"], "#3b8a44",
    ["museum", "theatre", "cinema", "arts_centre", "attraction", "monument", "castle", "place_of_worship"], "#0f9d8a",
    ["hospital", "pharmacy", "doctors", "dentist", "clinic"], "#d05050",
    ["bus_station", "station", "ferry_terminal", "marina", "aerodrome", "parking", "fuel"], "#5f7bab",
    ["hotel", "hostel", "guest_house"], "#c2508d",
    "#7c6f64"]
# Protomaps' min_zoom is a MapLibre zoom (512-pixel world); this script's zooms are Google's (256 points), one more at
# the same scale: a POI shows from Google zoom min_zoom + 1, which stylekit.write turns into MapLibre zoom min_zoom.
POI_SHOWN = ["all", ["has", "name"], [">=", ["zoom"], ["+", ["coalesce", ["get", "min_zoom"], 0], 1]]]
L(id="pois-dot", type="circle", source_layer="pois", minzoom=15, filter=POI_SHOWN,
  paint={"circle-radius": interp([[15, 2.5], [18, 4]]), "circle-color": poi_color,
         "circle-stroke-color": "#ffffff", "circle-stroke-width": 1})
L(id="pois-label", type="symbol", source_layer="pois", minzoom=15, filter=POI_SHOWN,
  layout={"text-field": NAME, "text-font": REG, "text-size": 11, "text-anchor": "top", "text-offset": [0, 0.6],
          "text-max-width": 8, "symbol-sort-key": ["coalesce", ["get", "min_zoom"], 99], "text-padding": 4},
  paint={"text-color": poi_color, **halo(1.5)})
L(id="places-neighbourhood", type="symbol", source_layer="places", minzoom=13,
  filter=["all", ["has", "name"], kind_in("neighbourhood", "macrohood")],
  layout={"text-field": NAME, "text-font": BOLD, "text-transform": "uppercase", "text-letter-spacing": 0.1,
          "text-max-width": 8, "text-size": interp([[13, 10], [16, 12]]),
          "symbol-sort-key": ["coalesce", ["get", "min_zoom"], 99]},
  paint={"text-color": "#8b857d", **halo(1.5)})
L(id="places-locality", type="symbol", source_layer="places",
  filter=["all", ["has", "name"], kind_in("locality"), [">=", ["zoom"], ["coalesce", ["get", "min_zoom"], 0]]],
  layout={"text-field": NAME, "text-font": REG, "text-size": interp([[4, 11], [12, 17], [16, 20]]),
          "text-max-width": 8, "text-padding": 3, "symbol-sort-key": ["coalesce", ["get", "min_zoom"], 99]},
  paint={"text-color": TEXT_DARK, **halo(2)})
L(id="places-region", type="symbol", source_layer="places", minzoom=5, maxzoom=9, filter=kind_in("region"),
  layout={"text-field": NAME, "text-font": REG, "text-transform": "uppercase", "text-letter-spacing": 0.1,
          "text-size": interp([[5, 10], [8, 12]]), "text-max-width": 7},
  paint={"text-color": "#9a948c", **halo(1.5)})
L(id="places-country", type="symbol", source_layer="places", minzoom=1, maxzoom=8, filter=kind_in("country"),
  layout={"text-field": ["coalesce", ["get", "name:en"], NAME], "text-font": BOLD,
          "text-size": interp([[1, 11], [6, 15]]), "text-transform": "uppercase", "text-letter-spacing": 0.08,
          "text-max-width": 6},
  paint={"text-color": "#7a746c", **halo(1.5, "rgba(255, 255, 255, 0.8)")})

style = {
  "version": 8,
  "name": "Waymark Protomaps",
  "metadata": {"waymark:description": "Waymark's default palette for Protomaps-basemap-schema tiles (layers earth, "
               "water, landuse, landcover, natural, roads, transit, buildings, pois, places, boundaries; "
               "version 4 or 3 property names). Point the protomaps source at your archive: "
               "MapLibreStyle.bundled(named: \"protomaps\", sourceURL: \"pmtiles://https://...\")."},
  "center": [7.4246, 43.7384], "zoom": 14,
  "glyphs": GLYPHS,
  "sources": {
    SRC: {"type": "vector", "url": "pmtiles://protomaps.pmtiles", "minzoom": 0, "maxzoom": 15,
          "attribution": "© OpenStreetMap contributors"},
  },
  "layers": layers,
}

write(style, "protomaps.json")
