-- tilemaker 2.2 profile writing a subset of the Protomaps basemap schema, version 4 (layer and property names of
-- https://docs.protomaps.com/basemaps/layers: `kind`, `kind_detail`, `min_zoom`, `sort_rank`, `name`, `name:en`),
-- used by scripts/data/build-city.sh (CITY_SCHEMA=protomaps) with scripts/data/protomaps-config.json. Waymark's own profile, written for the
-- Waymark test fixture and `waymark tiles build --schema protomaps`; not Protomaps' planetiler build.
--
-- What it writes (a subset; anything else in OSM is dropped):
--   earth       kind=earth: the land polygons of the build's shapefile (the extract's box minus the sea)
--   water       polygons kind=ocean (the sea shapefile), water (natural=water, kind_detail from water=*: lake,
--               river, pond…), lake (landuse=reservoir), basin, dock, swimming_pool, fountain; lines kind=river,
--               stream, canal, ditch, drain; label points (named water polygons, kind as the polygon)
--   landuse     kind = park, garden, playground, pitch, stadium, cemetery, residential, commercial, retail,
--               industrial, railway, hospital, school, university, college, kindergarten, grass, forest,
--               pedestrian (highway=pedestrian areas), pier (man_made=pier areas), marina, military, zoo,
--               attraction, parking
--   natural     kind = wood, scrub, grassland, heath, wetland, beach, sand, bare_rock, scree, cliff areas
--   landcover   not written (Protomaps fills it from Daylight landcover at z0-7, not from OSM)
--   roads       kind = highway (motorway), major_road (trunk, primary, secondary, tertiary), minor_road
--               (residential, unclassified, road, service), path (pedestrian, footway, path, cycleway, steps,
--               track, man_made=pier lines), rail (railway=*), ferry (route=ferry), aerialway; kind_detail the OSM
--               value; is_link, is_bridge, is_tunnel, oneway, ref, min_zoom
--   transit     not written: version 4 carries railways in roads (kind=rail); the style also reads version 3's
--               transit layer
--   buildings   kind = building or building_part; height and min_height (metres, from height / min_height or
--               3 m per building:levels)
--   pois        kind = the amenity, shop, tourism, leisure, historic or railway=station value, min_zoom 15
--               (14 for a few landmarks), from nodes and from the centroids of named areas
--   places      kind = locality (city, town, village, hamlet), neighbourhood (suburb, quarter, neighbourhood);
--               kind_detail the place value; population; min_zoom
--   boundaries  kind = country (admin_level 2), region (3-4), county (5-6), locality (7+); kind_detail the
--               smallest admin_level (number)
-- Numbers are written as MVT numbers, booleans as MVT booleans.

node_keys = { "amenity", "shop", "tourism", "leisure", "historic", "railway", "place", "natural" }

local function set(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

local majorRoads = set { "trunk", "trunk_link", "primary", "primary_link", "secondary", "secondary_link",
                         "tertiary", "tertiary_link" }
local roadMinZoom = { motorway = 3, motorway_link = 3, trunk = 6, trunk_link = 6, primary = 7, primary_link = 7,
                      secondary = 9, secondary_link = 9, tertiary = 9, tertiary_link = 9, residential = 12,
                      unclassified = 12, road = 12, service = 13, pedestrian = 12, track = 12, path = 13,
                      footway = 13, cycleway = 13, steps = 13, bridleway = 13, corridor = 14 }
local minorRoads = set { "residential", "unclassified", "road", "service", "raceway", "living_street" }
local paths = set { "pedestrian", "track", "path", "footway", "cycleway", "steps", "bridleway", "corridor" }
local links = set { "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link" }
local landuseKinds = {
  leisure = set { "park", "garden", "playground", "pitch", "stadium", "marina", "nature_reserve", "golf_course" },
  landuse = set { "cemetery", "residential", "commercial", "retail", "industrial", "railway", "grass", "forest",
                  "military" },
  amenity = set { "hospital", "school", "university", "college", "kindergarten", "parking", "grave_yard" },
  tourism = set { "zoo", "attraction" },
}
local naturalKinds = set { "wood", "scrub", "grassland", "heath", "wetland", "beach", "sand", "bare_rock", "scree" }
local waterLines = { river = 9, canal = 10, stream = 13, ditch = 15, drain = 15 }
local poiKeys = { "amenity", "shop", "tourism", "leisure", "historic" }
local landmarkPois = set { "museum", "attraction", "stadium", "station", "townhall", "place_of_worship",
                          "hospital", "university" }

local function names(obj)
  local name = obj:Find("name")
  if name == "" then return false end
  obj:Attribute("name", name)
  local en = obj:Find("name:en")
  obj:Attribute("name:en", en ~= "" and en or name)
  return true
end

local function yes(v) return v ~= "" and v ~= "no" and v ~= "0" end

local function pois(obj, isNode)
  local kind = ""
  for _, key in ipairs(poiKeys) do
    local v = obj:Find(key)
    if v ~= "" then kind = v; break end
  end
  if kind == "" and obj:Find("railway") == "station" then kind = "station" end
  if kind == "" then return end
  if not isNode and obj:Find("name") == "" then return end
  if isNode then obj:Layer("pois", false) else obj:LayerAsCentroid("pois") end
  obj:Attribute("kind", kind)
  local minZoom = landmarkPois[kind] and 14 or 15
  obj:AttributeNumeric("min_zoom", minZoom)
  obj:AttributeNumeric("sort_rank", 300)
  obj:MinZoom(minZoom)
  names(obj)
end

function node_function(node)
  local place = node:Find("place")
  if place ~= "" then
    local kind, minZoom = nil, 15
    if place == "city" then kind, minZoom = "locality", 4
    elseif place == "town" then kind, minZoom = "locality", 8
    elseif place == "village" then kind, minZoom = "locality", 10
    elseif place == "hamlet" then kind, minZoom = "locality", 12
    elseif place == "suburb" then kind, minZoom = "neighbourhood", 11
    elseif place == "quarter" or place == "neighbourhood" then kind, minZoom = "neighbourhood", 13
    end
    if kind and node:Find("name") ~= "" then
      node:Layer("places", false)
      node:Attribute("kind", kind)
      node:Attribute("kind_detail", place)
      node:AttributeNumeric("min_zoom", minZoom)
      node:AttributeNumeric("sort_rank", kind == "locality" and 100 or 200)
      local population = tonumber(node:Find("population"))
      if population then node:AttributeNumeric("population", population) end
      node:MinZoom(minZoom)
      names(node)
    end
    return
  end
  pois(node, true)
end

local function area(way, layer, kind, detail, minZoom)
  way:Layer(layer, true)
  way:Attribute("kind", kind)
  if detail and detail ~= "" then way:Attribute("kind_detail", detail) end
  if minZoom then way:AttributeNumeric("min_zoom", minZoom); way:MinZoom(minZoom) end
end

function way_function(way)
  local highway = way:Find("highway")
  local railway = way:Find("railway")
  local waterway = way:Find("waterway")
  local building = way:Find("building")
  local natural = way:Find("natural")
  local manMade = way:Find("man_made")
  local closed = way:IsClosed()
  local isArea = closed and way:Find("area") ~= "no"

  -- boundaries (ways that are administrative boundaries or members of such relations)
  local adminLevel = 99
  while true do
    local rel = way:NextRelation()
    if not rel then break end
    if way:FindInRelation("boundary") == "administrative" then
      adminLevel = math.min(adminLevel, tonumber(way:FindInRelation("admin_level")) or 99)
    end
  end
  if way:Find("boundary") == "administrative" then
    adminLevel = math.min(adminLevel, tonumber(way:Find("admin_level")) or 99)
  end
  if adminLevel < 99 and way:Find("maritime") ~= "yes" then
    local kind = adminLevel <= 2 and "country" or adminLevel <= 4 and "region" or adminLevel <= 6 and "county"
      or "locality"
    way:Layer("boundaries", false)
    way:Attribute("kind", kind)
    way:AttributeNumeric("kind_detail", adminLevel)
    way:AttributeNumeric("min_zoom", adminLevel <= 2 and 0 or adminLevel <= 4 and 4 or 8)
  end

  -- buildings
  if building ~= "" or way:Find("building:part") ~= "" then
    if not closed then return end
    way:Layer("buildings", true)
    way:Attribute("kind", building ~= "" and "building" or "building_part")
    local height = tonumber(way:Find("height"))
    local levels = tonumber(way:Find("building:levels"))
    if not height and levels then height = levels * 3 end
    if height then way:AttributeNumeric("height", height) end
    local minHeight = tonumber(way:Find("min_height"))
    if minHeight then way:AttributeNumeric("min_height", minHeight) end
    way:AttributeNumeric("sort_rank", 400)
    way:MinZoom(13)
    return
  end

  -- roads
  if highway ~= "" and not (highway == "pedestrian" and isArea and way:Find("area") == "yes") then
    if highway == "proposed" or highway == "construction" or highway == "abandoned" or highway == "elevator" then
      return
    end
    if highway == "platform" or highway == "bus_stop" then return end
    local kind = "other"
    if highway == "motorway" or highway == "motorway_link" then kind = "highway"
    elseif majorRoads[highway] then kind = "major_road"
    elseif minorRoads[highway] then kind = "minor_road"
    elseif paths[highway] then kind = "path"
    end
    local minZoom = roadMinZoom[highway] or 14
    if way:Find("access") == "private" or way:Find("access") == "no" then minZoom = math.max(minZoom, 15) end
    way:Layer("roads", false)
    way:Attribute("kind", kind)
    way:Attribute("kind_detail", highway)
    way:AttributeNumeric("min_zoom", minZoom + 1)
    way:AttributeNumeric("sort_rank", 400)
    if links[highway] then way:AttributeBoolean("is_link", true) end
    if yes(way:Find("bridge")) then way:AttributeBoolean("is_bridge", true)
    elseif yes(way:Find("tunnel")) then way:AttributeBoolean("is_tunnel", true) end
    local oneway = way:Find("oneway")
    if oneway ~= "" then way:Attribute("oneway", oneway) end
    local ref = way:Find("ref")
    if ref ~= "" then way:Attribute("ref", ref) end
    way:MinZoom(math.min(minZoom, 15))
    names(way)
    return
  end
  if railway ~= "" and not isArea then
    if railway == "abandoned" or railway == "razed" or railway == "proposed" or railway == "platform"
      or railway == "construction" then return end
    way:Layer("roads", false)
    way:Attribute("kind", "rail")
    way:Attribute("kind_detail", railway)
    way:AttributeNumeric("min_zoom", 12)
    way:AttributeNumeric("sort_rank", 400)
    if yes(way:Find("bridge")) then way:AttributeBoolean("is_bridge", true)
    elseif yes(way:Find("tunnel")) then way:AttributeBoolean("is_tunnel", true) end
    way:MinZoom(11)
    return
  end
  if way:Find("route") == "ferry" then
    way:Layer("roads", false)
    way:Attribute("kind", "ferry")
    way:AttributeNumeric("min_zoom", 12)
    way:MinZoom(11)
    names(way)
    return
  end
  if way:Find("aerialway") ~= "" then
    way:Layer("roads", false)
    way:Attribute("kind", "aerialway")
    way:Attribute("kind_detail", way:Find("aerialway"))
    way:AttributeNumeric("min_zoom", 12)
    way:MinZoom(11)
    return
  end

  -- water
  local water = way:Find("water")
  local waterKind = nil
  if natural == "water" then waterKind = "water"
  elseif way:Find("landuse") == "reservoir" then waterKind = "lake"
  elseif way:Find("landuse") == "basin" then waterKind = "basin"
  elseif waterway == "dock" then waterKind = "dock"
  elseif way:Find("leisure") == "swimming_pool" or way:Find("amenity") == "swimming_pool" then
    waterKind = "swimming_pool"
  elseif way:Find("amenity") == "fountain" then waterKind = "fountain"
  end
  if waterKind and closed and way:Find("covered") ~= "yes" then
    area(way, "water", waterKind, water)
    way:AttributeNumeric("sort_rank", 200)
    if way:Find("name") ~= "" then
      way:LayerAsCentroid("water")
      way:Attribute("kind", waterKind)
      way:AttributeNumeric("min_zoom", 14)
      names(way)
    end
    return
  end
  if waterLines[waterway] and not closed then
    way:Layer("water", false)
    way:Attribute("kind", waterway)
    way:AttributeNumeric("min_zoom", waterLines[waterway] + 1)
    way:MinZoom(waterLines[waterway])
    names(way)
    return
  end

  -- piers: areas in landuse, lines in roads (Protomaps' kind=path, kind_detail=pier)
  if manMade == "pier" then
    if isArea then area(way, "landuse", "pier")
    else
      way:Layer("roads", false)
      way:Attribute("kind", "path")
      way:Attribute("kind_detail", "pier")
      way:AttributeNumeric("min_zoom", 14)
      way:MinZoom(13)
    end
    return
  end

  if not isArea then return end

  -- natural
  if naturalKinds[natural] then
    area(way, "natural", natural)
    way:AttributeNumeric("sort_rank", 150)
    return
  end

  -- landuse
  if highway == "pedestrian" then area(way, "landuse", "pedestrian"); return end
  for key, kinds in pairs(landuseKinds) do
    local v = way:Find(key)
    if kinds[v] then
      if v == "grave_yard" then v = "cemetery" end
      area(way, "landuse", v)
      way:AttributeNumeric("sort_rank", 190)
      pois(way, false)
      return
    end
  end
  pois(way, false)
end

-- The build's shapefile layers: "earth" (the land) and "ocean" (the sea, written to "water").
function attribute_function(attr, layer)
  if layer == "ocean" then return { kind = "ocean", sort_rank = 200 } end
  return { kind = "earth" }
end
