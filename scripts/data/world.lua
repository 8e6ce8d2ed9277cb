-- tilemaker 2.2 profile of the world tileset (scripts/data/build-world.sh): every feature comes from a shapefile layer
-- of the generated config; this file only maps shapefile columns to OpenMapTiles-schema attributes.
node_keys = {}
function node_function(node) end
function way_function(way) end

local function prefix(s, p) return string.sub(s, 1, #p) == p end

-- WDBII river levels (GMT `coast -I`): 0 river-lakes, 1-4 permanent rivers (major to minor), 5-7 intermittent,
-- 8-10 canals.
local function river(level)
  if level >= 8 then return { class = "canal" } end
  if level >= 5 then return { class = "stream", intermittent = 1 } end
  if level >= 3 then return { class = "stream" } end
  return { class = "river" }
end

function attribute_function(attr, layer)
  if prefix(layer, "water_") then return { class = attr["class"] } end
  if prefix(layer, "river_") then return river(tonumber(attr["level"]) or 4) end
  if prefix(layer, "border_") then
    -- WDBII border levels (GMT `coast -N`): 1 national, 2 internal (Americas and Australia), 3 maritime.
    local level = tonumber(attr["level"]) or 1
    if level == 3 then return { admin_level = 2, maritime = 1 } end
    if level == 2 then return { admin_level = 4, maritime = 0 } end
    return { admin_level = 2, maritime = 0 }
  end
  if layer == "admin1" then return { admin_level = 4, maritime = 0 } end
  if prefix(layer, "place_") then
    -- _waymark_pop orders the places of a tile (mvt_canonical.py --priority-field, removed there); population
    -- itself is kept only for cities (rank <= 4): a number per village is bytes no style uses.
    local rank = tonumber(attr["rank"])
    -- name:latin only where it differs from name (the style's coalesce falls back to name); no iso_a2 (no style or
    -- code reads it, and it is two bytes per place at every zoom).
    local out = { name = attr["name"], class = attr["class"], rank = rank,
                  capital = tonumber(attr["capital"]), _waymark_pop = tonumber(attr["population"]) }
    if rank ~= nil and rank <= 4 then out["population"] = tonumber(attr["population"]) end
    if attr["name_latin"] and attr["name_latin"] ~= "" and attr["name_latin"] ~= attr["name"] then
      out["name:latin"] = attr["name_latin"]
    end
    if attr["name_en"] and attr["name_en"] ~= "" then out["name_en"] = attr["name_en"] end
    -- Countries' names in other languages (build_places.py NE_LANGUAGES: name_de, ..., name_zht) as the
    -- OpenMapTiles schema's name:de, ..., name:zh-Hant.
    for key, value in pairs(attr) do
      local lang = string.match(key, "^name_(%l%l%l?)$")
      if lang and lang ~= "en" and value ~= nil and value ~= "" then
        out["name:" .. (lang == "zht" and "zh-Hant" or lang)] = value
      end
    end
    if out["capital"] == 0 then out["capital"] = nil end
    return out
  end
  return {}
end
