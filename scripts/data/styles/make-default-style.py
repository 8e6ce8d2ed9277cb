#!/usr/bin/env python3
# Generates Data/styles/default.json (run from anywhere: python3 scripts/data/styles/make-default-style.py).
# Edit this script rather than the JSON; the test MapStyleTests/StyleTests.swift checks the output loads cleanly.
# Zooms here are Google's camera zooms (what GMSCameraPosition.zoom says); stylekit.write shifts them to MapLibre's
# (one less), which is what a MapLibre style's zooms mean and what Waymark evaluates (docs/BEHAVIOUR.md D25).
import sys
sys.dont_write_bytecode = True
from stylekit import BOLD, GLYPHS, HALO, ITAL, LAND, PARK, REG, TEXT, TEXT_DARK, WATER, WOOD, Z, halo, interp, recolor, write  # noqa: F401
layers = []
# Both sources use the OpenMapTiles schema: "world" (GSHHG + GeoNames, z0-9, over-zoomed above) and "city" (the
# OpenStreetMap cities, z0-14). Every layer is written once and emitted for each source, world first, so a city draws
# over the world with the same paint; the world's copy of a layer has the id prefixed "world-".
SOURCES = ["world", "city"]
def L(**kw):
    """Emits a layer for each source; `world_filter` is a further condition on the world's copy alone."""
    if kw.get("type") == "background":
        layers.append({k: kw[k] for k in ["id", "type", "paint"]})
        return
    world_filter = kw.pop("world_filter", None)
    for src in kw.pop("sources", SOURCES):
        d = {}
        for k in ["id", "type", "source", "source_layer", "minzoom", "maxzoom", "filter", "layout", "paint"]:
            if k == "source":
                d["source"] = src
            elif k in kw:
                d[k.replace("_", "-")] = kw[k]
        if src == "world":
            d["id"] = "world-" + d["id"]
            if world_filter is not None:
                d["filter"] = ["all", d["filter"], world_filter] if "filter" in d else world_filter
        layers.append(d)

# Where the city source has data, as a GeoJSON MultiPolygon for `within`: central Helsinki's extract is cut by its
# bounding box (DATA.md: 24.9351762,60.164155 - 24.9534145,60.179113); Monaco's is clipped to the country, so its
# polygon is Monaco's land border (the city tiles' admin_level 2 boundary at z12, simplified to 12 m) closed over the
# sea. The city labels its own quarters there from zoom 13 (place-neighbourhood), so the world's places, GeoNames
# points some 100 m from OpenStreetMap's, would name them twice (Monte-Carlo as two suburbs, La Condamine as a town
# and a suburb): their labels lie too far apart to collide at street level.
HELSINKI = [[24.9351762, 60.164155], [24.9534145, 60.164155], [24.9534145, 60.179113], [24.9351762, 60.179113],
            [24.9351762, 60.164155]]
MONACO_BORDER = [
    [7.43916, 43.74903], [7.43839, 43.74944], [7.43865, 43.74988], [7.43843, 43.75047], [7.43867, 43.75081],
    [7.43867, 43.75126], [7.43794, 43.75172], [7.43693, 43.75192], [7.43676, 43.75161], [7.43759, 43.75123],
    [7.43596, 43.75], [7.43493, 43.74992], [7.4324, 43.74926], [7.43191, 43.74887], [7.43062, 43.74903],
    [7.43043, 43.74823], [7.42978, 43.74805], [7.42925, 43.74682], [7.42877, 43.74658], [7.4286, 43.7452],
    [7.42809, 43.74451], [7.42805, 43.74396], [7.42693, 43.74317], [7.42667, 43.74265], [7.42573, 43.74177],
    [7.42528, 43.74144], [7.42502, 43.7416], [7.4245, 43.74086], [7.42296, 43.74171], [7.42221, 43.74143],
    [7.42159, 43.74072], [7.42172, 43.74064], [7.42062, 43.73971], [7.41914, 43.7389], [7.41232, 43.73434],
    [7.41281, 43.73397], [7.41266, 43.73346], [7.41307, 43.73296], [7.4129, 43.73169], [7.41159, 43.73158],
    [7.41054, 43.73112], [7.40901, 43.72958], [7.41852, 43.72476]]
MONACO = MONACO_BORDER + [[7.41852, 43.715], [7.455, 43.715], [7.455, 43.74903], MONACO_BORDER[0]]
CITY_COVER = {"type": "MultiPolygon", "coordinates": [[HELSINKI], [MONACO]]}
# The world's places that name a city's quarters: none inside the cover from zoom 13; national capitals stay (the
# cities' own place nodes are unranked and never drawn as towns).
WORLD_OUTSIDE_CITIES_FROM_13 = ["any", ["<", ["zoom"], 13], ["==", ["get", "capital"], 2],
                                ["!", ["within", CITY_COVER]]]

L(id="background", type="background", paint={"background-color": LAND})
# OpenMapTiles-schema layers, bottom to top.
L(id="landcover-wood", type="fill", source_layer="landcover",
  filter=["match", ["get", "class"], ["wood", "forest"], True, False], paint={"fill-color": WOOD})
L(id="landcover-grass", type="fill", source_layer="landcover",
  filter=["match", ["get", "class"], ["grass", "farmland", "wetland"], True, False], paint={"fill-color": PARK, "fill-opacity": 0.8})
L(id="landcover-sand", type="fill", source_layer="landcover",
  filter=["==", ["get", "class"], "sand"], paint={"fill-color": "#f5ecd3"})
L(id="landuse-residential", type="fill", source_layer="landuse",
  filter=["match", ["get", "class"], ["residential", "suburb", "neighbourhood"], True, False],
  paint={"fill-color": "#f1efea"})
L(id="landuse-commercial", type="fill", source_layer="landuse",
  filter=["match", ["get", "class"], ["commercial", "retail", "industrial", "railway"], True, False],
  paint={"fill-color": "#f1ede6"})
L(id="landuse-hospital", type="fill", source_layer="landuse",
  filter=["==", ["get", "class"], "hospital"], paint={"fill-color": "#fbe4e2"})
L(id="landuse-education", type="fill", source_layer="landuse",
  filter=["match", ["get", "class"], ["school", "university", "college", "kindergarten"], True, False],
  paint={"fill-color": "#efeaf4"})
L(id="landuse-cemetery", type="fill", source_layer="landuse",
  filter=["==", ["get", "class"], "cemetery"], paint={"fill-color": "#d5e8cf"})
L(id="landuse-pitch", type="fill", source_layer="landuse",
  filter=["match", ["get", "class"], ["pitch", "stadium", "playground", "track"], True, False],
  paint={"fill-color": "#d4ecd0"})
L(id="park", type="fill", source_layer="park", paint={"fill-color": PARK})
L(id="water", type="fill", source_layer="water", paint={"fill-color": WATER})
L(id="waterway", type="line", source_layer="waterway",
  layout={"line-cap": "round", "line-join": "round"},
  paint={"line-color": WATER, "line-width": interp([[6, 0.4], [10, 0.8], [14, 1.5], [18, 4]], 1.4)})
L(id="aeroway-area", type="fill", source_layer="aeroway", minzoom=11,
  filter=["match", ["geometry-type"], ["Polygon", "MultiPolygon"], True, False], paint={"fill-color": "#e9e7ef"})
L(id="aeroway-runway", type="line", source_layer="aeroway", minzoom=11,
  filter=["match", ["geometry-type"], ["LineString", "MultiLineString"], True, False],
  paint={"line-color": "#dcd9e3", "line-width": interp([[11, 3], [18, 60]], 1.5)})
L(id="building", type="fill", source_layer="building", minzoom=14,
  paint={"fill-color": "#e8e4de", "fill-outline-color": "#d9d3c9", "fill-opacity": interp([[14, 0.5], [16, 1]])})
# Boundaries
L(id="boundary-state", type="line", source_layer="boundary", minzoom=4,
  filter=["all", [">", ["coalesce", ["get", "admin_level"], 2], 2], ["<=", ["get", "admin_level"], 8],
          ["!=", ["coalesce", ["get", "maritime"], 0], 1]],
  layout={"line-join": "round"},
  paint={"line-color": "#c3bfb8", "line-width": interp([[4, 0.4], [10, 1]]), "line-dasharray": [3, 2]})
L(id="boundary-country", type="line", source_layer="boundary",
  filter=["all", ["<=", ["coalesce", ["get", "admin_level"], 2], 2], ["!=", ["coalesce", ["get", "maritime"], 0], 1]],
  layout={"line-join": "round", "line-cap": "round"},
  paint={"line-color": "#a6a3a0", "line-width": interp([[1, 0.5], [6, 1.2], [10, 2]])})

# Roads: casings below fills, by class.
roads = [
    # class list, min zoom, fill, casing, width stops (fill, in px at zoom)
    (["motorway"], 5, "#fcd581", "#e4a73e", [[5, 0.8], [10, 2.5], [14, 6], [18, 28]]),
    (["trunk"], 6, "#fde293", "#e0b354", [[6, 0.6], [10, 2.2], [14, 5.5], [18, 26]]),
    (["primary"], 8, "#fff1b8", "#e3c67e", [[8, 0.5], [10, 1.5], [14, 5], [18, 24]]),
    (["secondary", "tertiary"], 10, "#ffffff", "#d6d2cb", [[10, 0.8], [14, 4], [18, 20]]),
    (["minor"], 12, "#ffffff", "#dcd8d1", [[12, 0.5], [14, 2.5], [18, 14]]),
    (["service", "track"], 14, "#ffffff", "#e0dcd5", [[14, 1], [18, 8]]),
]
def road_filter(classes):
    return ["all", ["match", ["get", "class"], classes, True, False],
            ["!=", ["coalesce", ["get", "brunnel"], ""], "tunnel"]]
L(id="road-tunnel", type="line", source_layer="transportation", minzoom=13,
  filter=["==", ["get", "brunnel"], "tunnel"], layout={"line-join": "round"},
  paint={"line-color": "#e6e2dc", "line-width": interp([[13, 1], [18, 10]], 1.5), "line-dasharray": [2, 1]})
L(id="path", type="line", source_layer="transportation", minzoom=14,
  filter=["==", ["get", "class"], "path"], layout={"line-join": "round"},
  paint={"line-color": "#cbc4b9", "line-width": interp([[14, 0.7], [18, 2.5]], 1.4), "line-dasharray": [2, 1.5]})
L(id="rail", type="line", source_layer="transportation", minzoom=11,
  filter=["match", ["get", "class"], ["rail", "transit"], True, False],
  paint={"line-color": "#b9b5ae", "line-width": interp([[11, 0.6], [18, 2.5]], 1.4)})
L(id="rail-hatch", type="line", source_layer="transportation", minzoom=15,
  filter=["match", ["get", "class"], ["rail", "transit"], True, False],
  paint={"line-color": "#b9b5ae", "line-width": interp([[15, 3], [18, 7]], 1.4), "line-dasharray": [0.2, 4]})

for classes, minz, fill, casing, widths in roads:
    name = "-".join(classes)
    L(id=f"road-{name}-casing", type="line", source_layer="transportation", minzoom=max(minz, 12),
      filter=road_filter(classes), layout={"line-cap": "round", "line-join": "round"},
      paint={"line-color": casing, "line-width": interp([[z, w + (1 if z < 14 else 2)] for z, w in widths], 1.5)})
for classes, minz, fill, casing, widths in reversed(roads):
    name = "-".join(classes)
    L(id=f"road-{name}", type="line", source_layer="transportation", minzoom=minz,
      filter=road_filter(classes), layout={"line-cap": "round", "line-join": "round"},
      paint={"line-color": fill, "line-width": interp(widths, 1.5)})
# 3D buildings (GMSMapView.isBuildingsEnabled hides this layer; the flat footprints of "building" stay): the city
# data's OpenMapTiles heights (the world has no buildings), raised from Google's zoom 17, where Google's map raises
# its buildings (below it, the flat footprints alone; a frame with extrusions also costs a full-frame depth pass), over
# the roads and under the labels. MapLibre draws a fill-extrusion layer at every pitch: pitched, walls and roofs;
# flat, the roofs (a tall roof a little larger than its footprint, as the camera's perspective makes it). A feature
# without `render_height` is not raised.
L(id="building-3d", type="fill-extrusion", source_layer="building", minzoom=17, sources=["city"],
  paint={"fill-extrusion-color": "#ddd7ce", "fill-extrusion-opacity": 0.9,
         "fill-extrusion-height": ["coalesce", ["get", "render_height"], 0],
         "fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0]})
# Labels
L(id="waterway-label", type="symbol", source_layer="waterway", minzoom=13,
  layout={"symbol-placement": "line", "text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]],
          "text-font": ITAL, "text-size": 12, "symbol-spacing": 350},
  paint={"text-color": "#4a87c9", **halo(1.2)})
L(id="water-name", type="symbol", source_layer="water_name", minzoom=10,
  layout={"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]], "text-font": ITAL,
          "text-size": interp([[10, 11], [16, 15]]), "text-max-width": 7, "text-letter-spacing": 0.05},
  paint={"text-color": "#4a87c9", **halo(1.2)})
L(id="road-label", type="symbol", source_layer="transportation_name", minzoom=13,
  filter=["match", ["get", "class"], ["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service"], True, False],
  layout={"symbol-placement": "line", "text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]],
          "text-font": REG, "symbol-spacing": 300, "text-max-angle": 30,
          "text-size": interp([[13, 10], [16, 12], [18, 14]]),
          "text-rotation-alignment": "map", "text-keep-upright": True,
          "symbol-sort-key": ["match", ["get", "class"], ["motorway", "trunk"], 1, "primary", 2, ["secondary", "tertiary"], 3, 4]},
  paint={"text-color": TEXT, **halo(1.5)})
L(id="housenumber", type="symbol", source_layer="housenumber", minzoom=17,
  layout={"text-field": ["to-string", ["get", "housenumber"]], "text-font": REG, "text-size": 10, "text-padding": 3},
  paint={"text-color": "#9a948c", **halo(1)})
poi_color = ["match", ["get", "class"],
    ["restaurant", "fast_food", "cafe", "bar", "pub", "ice_cream", "bakery"], "#c5692b",
    ["shop", "grocery", "clothing_store", "jewelry", "gift", "books", "supermarket", "convenience"], "#4e7fd6",
    ["park", "garden", "playground", "pitch", "sports", "stadium", "zoo"], "#3b8a44",
    ["museum", "theatre", "cinema", "art_gallery", "attraction", "monument", "castle", "place_of_worship"], "#0f9d8a",
    ["hospital", "pharmacy", "doctors", "dentist"], "#d05050",
    ["bus", "railway", "ferry_terminal", "harbor", "airport", "parking", "fuel"], "#5f7bab",
    ["lodging", "hotel"], "#c2508d",
    "#7c6f64"]
POI_RANK = ["step", ["zoom"], 2, 16, 6, 17, 14, 18, 100]
# Bus stops crowd the centre: only from zoom 17.
NOT_BUS_BELOW_17 = ["any", [">=", ["zoom"], 17], ["!=", ["get", "class"], "bus"]]
L(id="poi-dot", type="circle", source_layer="poi", minzoom=15,
  filter=["all", ["any", ["has", "name:latin"], ["has", "name"]], ["<=", ["coalesce", ["get", "rank"], 99], POI_RANK], NOT_BUS_BELOW_17],
  paint={"circle-radius": interp([[15, 2.5], [18, 4]]), "circle-color": poi_color,
         "circle-stroke-color": "#ffffff", "circle-stroke-width": 1})
L(id="poi-label", type="symbol", source_layer="poi", minzoom=15,
  filter=["all", ["any", ["has", "name:latin"], ["has", "name"]], ["<=", ["coalesce", ["get", "rank"], 99], POI_RANK], NOT_BUS_BELOW_17],
  layout={"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]], "text-font": REG,
          "text-size": 11, "text-anchor": "top", "text-offset": [0, 0.6], "text-max-width": 8,
          "symbol-sort-key": ["coalesce", ["get", "rank"], 99], "text-padding": 4},
  paint={"text-color": poi_color, **halo(1.5)})
L(id="place-neighbourhood", type="symbol", source_layer="place", minzoom=13,
  filter=["match", ["get", "class"], ["suburb", "quarter", "neighbourhood"], True, False],
  layout={"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]], "text-font": BOLD,
          "text-transform": "uppercase", "text-letter-spacing": 0.1, "text-max-width": 8,
          "text-size": interp([[13, 10], [16, 12]]),
          "symbol-sort-key": ["match", ["get", "class"], "suburb", 1, "quarter", 2, 3]},
  paint={"text-color": "#8b857d", **halo(1.5)}, world_filter=WORLD_OUTSIDE_CITIES_FROM_13)
# Places (GeoNames in the world, OSM place nodes in the cities): the data holds each place from the zoom its size
# warrants; collisions keep the biggest (symbol-sort-key: rank; within a rank national capitals first, then
# first-order capitals (OpenMapTiles' capital 4), then the rest: a modest lift, never above a bigger rank).
PLACE_NAME = ["coalesce", ["get", "name:latin"], ["get", "name"]]
PLACE_KEY = ["-", ["*", ["coalesce", ["get", "rank"], 9], 10], ["match", ["get", "capital"], 2, 5, 4, 3, 0]]
# Placement runs from the top layer down (countries, then towns, then regions), so regions only fill gaps.
L(id="place-state", type="symbol", source_layer="place", minzoom=5, maxzoom=9,
  filter=["==", ["get", "class"], "state"],
  layout={"text-field": PLACE_NAME, "text-font": REG, "text-transform": "uppercase", "text-letter-spacing": 0.1,
          "text-size": interp([[5, 10], [8, 12]]), "text-max-width": 7, "symbol-sort-key": 100},
  paint={"text-color": "#9a948c", **halo(1.5)})
L(id="place-town", type="symbol", source_layer="place", minzoom=2,
  # Ranked places only: GeoNames in the world (and OpenMapTiles tilesets, whose places carry a rank); the cities'
  # unranked OSM place nodes would otherwise duplicate the GeoNames name at the wrong size.
  # A place of rank r shows from zoom r + 1 (capitals earlier: the tiles hold them from z3); the world's top zoom
  # holds the smallest places before their zoom, so the filter keeps them back.
  filter=["all", ["match", ["get", "class"], ["city", "town", "village", "hamlet"], True, False], ["has", "rank"],
          ["any", ["==", ["get", "capital"], 2], [">=", ["zoom"], ["+", ["get", "rank"], 1]]]],
  layout={"text-field": PLACE_NAME, "text-font": REG,
          "text-size": ["interpolate", ["linear"], ["zoom"],
                        3, ["step", ["coalesce", ["get", "rank"], 9], 14, 2, 13, 3, 12, 4, 11, 6, 10],
                        12, ["step", ["coalesce", ["get", "rank"], 9], 20, 2, 19, 3, 18, 4, 17, 6, 15, 8, 13]],
          "text-max-width": 8, "text-padding": 3, "symbol-sort-key": PLACE_KEY},
  paint={"text-color": ["step", ["coalesce", ["get", "rank"], 9], TEXT_DARK, 7, TEXT], **halo(2)},
  world_filter=WORLD_OUTSIDE_CITIES_FROM_13)
L(id="place-country", type="symbol", source_layer="place", minzoom=1, maxzoom=8,
  filter=["==", ["get", "class"], "country"],
  layout={"text-field": ["coalesce", ["get", "name_en"], ["get", "name:latin"], ["get", "name"]], "text-font": BOLD,
          "text-size": ["interpolate", ["linear"], ["zoom"], 1, ["step", ["coalesce", ["get", "rank"], 9], 12, 3, 10], 6, ["step", ["coalesce", ["get", "rank"], 9], 16, 3, 13]],
          "text-transform": "uppercase", "text-letter-spacing": 0.08, "text-max-width": 6,
          "symbol-sort-key": ["coalesce", ["get", "rank"], 9]},
  paint={"text-color": "#7a746c", **halo(1.5, "rgba(255, 255, 255, 0.8)")})

style = {
  "version": 8,
  "name": "Waymark Default",
  "metadata": {"waymark:description": "A light, calm basemap in the spirit of Google's default map, for OpenMapTiles-schema tiles: the bundled world (GSHHG, GeoNames) and the bundled cities (OpenStreetMap: Helsinki, Monaco)."},
  "center": [24.9443, 60.1716], "zoom": 14,
  "glyphs": GLYPHS,
  "sources": {
    "world": {"type": "vector", "url": "mbtiles://../world.mbtiles", "minzoom": 0, "maxzoom": 9,
              "attribution": "GSHHG; GeoNames"},
    "city": {"type": "vector", "url": "mbtiles://../cities.mbtiles", "minzoom": 0, "maxzoom": 14,
             "attribution": "© OpenStreetMap contributors"},
  },
  "layers": layers,
}

write(style, "default.json")
# The dark variant (GMSMapView in dark mode, `waymark snapshot --dark`): the same layers in stylekit's dark palette.
dark = recolor(style)
dark["name"] = "Waymark Default Dark"
dark["metadata"] = {"waymark:description": "The default style in dark colours (stylekit.DARK), for dark mode."}
write(dark, "default-dark.json")
