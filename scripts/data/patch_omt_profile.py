#!/usr/bin/env python3
"""Writes Waymark's patched copy of Debian tilemaker's OpenMapTiles config and Lua profile.

usage: patch_omt_profile.py EXAMPLES_DIR SEA_SHAPEFILE OUT_CONFIG.json OUT_PROCESS.lua

EXAMPLES_DIR is Debian's /usr/share/doc/tilemaker/examples (tilemaker 2.2.0-2+b1), holding
config-openmaptiles.json and process-openmaptiles.lua. Changes (each one checked; the script fails loudly
if the shipped files no longer look as expected):

config:
- the "ocean" shapefile layer (written to "water" with class=ocean by attribute_function) reads
  SEA_SHAPEFILE, the sea built from the OSM coastline by sea_polygons.py, instead of the absent
  coastline/water_polygons.shp;
- the urban_areas, ice_shelf and glacier layers are removed: their Natural Earth shapefiles are not in the
  sources (tilemaker only warns "Unable to open", but the layers would be empty);
- settings: name/description for Waymark, no example tile URL, feature ids (OSM ids) included.

Lua:
- names go to "name" (Debian writes them to "name:latin"), plus "name:en" and "name:sv";
- SetNameAttributes writes nothing for unnamed objects, and always writes name:en / name:sv, falling back to
  the OSM name, so a style can use ["get", "name:en"] without a coalesce;
- SetZOrder also copies the z_order into a temporary numeric attribute "_waymark_z", which
  mvt_canonical.py uses to keep tilemaker's drawing order while making the feature order deterministic, and
  then removes.
"""

import json
import sys
from pathlib import Path


def replace_once(text: str, old: str, new: str, what: str) -> str:
    if text.count(old) != 1:
        raise SystemExit(f"error: expected exactly one {what!r} in the Lua profile, found {text.count(old)}")
    return text.replace(old, new)


NEW_SET_NAMES = '''function SetNameAttributes(obj)
	-- Waymark: "name" is OSM's name tag; name:en / name:sv fall back to it. Nothing for unnamed objects.
	local name = obj:Find("name")
	if name == "" then return end
	obj:Attribute(preferred_language_attribute, name)
	for i,lang in ipairs(additional_languages) do
		local iname = obj:Find("name:"..lang)
		if iname=="" then iname=name end
		obj:Attribute("name:"..lang, iname)
	end
end
'''


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    examples, sea, out_config, out_lua = Path(argv[1]), argv[2], Path(argv[3]), Path(argv[4])

    config = json.loads((examples / "config-openmaptiles.json").read_text(encoding="utf-8"))
    layers = config["layers"]
    for name in ("urban_areas", "ice_shelf", "glacier"):
        if name not in layers:
            raise SystemExit(f"error: layer {name!r} not in the shipped config")
        del layers[name]
    ocean = layers.get("ocean")
    if not ocean or ocean.get("write_to") != "water" or "source" not in ocean:
        raise SystemExit("error: the shipped config has no shapefile 'ocean' layer written to 'water'")
    ocean["source"] = sea
    settings = config["settings"]
    settings["name"] = "Waymark Helsinki"
    settings["description"] = "Central Helsinki, OpenMapTiles schema, built by Waymark scripts/data/build-data.sh"
    settings["filemetadata"] = {"format": "pbf", "type": "baselayer"}
    # Feature ids = OSM ids, so base-map POI taps can report place ids derived from them (issue 7).
    settings["include_ids"] = True
    out_config.write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")

    lua = (examples / "process-openmaptiles.lua").read_text(encoding="utf-8")
    lua = replace_once(lua, 'preferred_language_attribute = "name:latin"', 'preferred_language_attribute = "name"',
                       "preferred_language_attribute")
    lua = replace_once(lua, "additional_languages = { }", 'additional_languages = { "en", "sv" }',
                       "additional_languages")
    lua = replace_once(lua, "\tway:ZOrder(zOrder)\n",
                       "\tway:ZOrder(zOrder)\n\tway:AttributeNumeric(\"_waymark_z\", zOrder)\n", "way:ZOrder(zOrder)")
    start = lua.find("function SetNameAttributes(obj)")
    end = lua.find("-- Set ele and ele_ft on any object")
    if start < 0 or end < start:
        raise SystemExit("error: SetNameAttributes not found where expected in the Lua profile")
    lua = lua[:start] + NEW_SET_NAMES + "\n" + lua[end:]
    out_lua.write_text("-- Patched for Waymark by scripts/data/patch_omt_profile.py from Debian tilemaker 2.2.0's example.\n"
                       + lua, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
