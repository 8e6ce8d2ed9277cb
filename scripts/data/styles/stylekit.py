# Shared by the style generators (make-default-style.py, make-protomaps-style.py): the palette, expression helpers
# and the JSON writer, so the bundled styles look alike and are written alike.
import json
import os

Z = ["zoom"]
def interp(stops, base=1.0, inp=Z):
    e = ["interpolate", ["linear"] if base == 1 else ["exponential", base], inp]
    for z, v in stops: e += [z, v]
    return e
REG = ["Noto Sans Regular"]; BOLD = ["Noto Sans Bold"]; ITAL = ["Noto Sans Italic"]
# The styles' glyph PBFs (Data/glyphs, built by scripts/data/build-glyphs.py for the three fontstacks above), relative
# to Data/styles as the sources' mbtiles:// URLs are. Text with characters outside them is drawn with Pango.
GLYPHS = "../glyphs/{fontstack}/{range}.pbf"
LAND = "#f5f3ef"; WATER = "#aadaff"; PARK = "#c8e6c1"; WOOD = "#bfdfb4"
TEXT = "#5f6368"; TEXT_DARK = "#3c4043"; HALO = "#ffffff"
def halo(width=1.5, color=HALO):
    return {"text-halo-color": color, "text-halo-width": width}

def dump(v, indent=0):
    pad = "  " * indent
    one = json.dumps(v, ensure_ascii=False)
    if len(one) + len(pad) <= 110 or not isinstance(v, (dict, list)):
        return one
    if isinstance(v, dict):
        items = [f'{"  " * (indent + 1)}{json.dumps(k)}: {dump(x, indent + 1)}' for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = ["  " * (indent + 1) + dump(x, indent + 1) for x in v]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"

# The zoom convention (docs/BEHAVIOUR.md D25, MapRenderer.styleZoom(for:)): the generators write their zooms as Google's
# camera zooms (256-point tiles: what an app's GMSCameraPosition.zoom says), which is how the map was designed and
# tuned. A MapLibre style's zooms are MapLibre's (512-pixel tiles), one level less for the same ground scale, and
# Waymark evaluates every style at camera zoom - 1 as MapLibre does. `maplibre_zooms` shifts a style written in
# Google's zooms down by one so it draws the same at the same camera; `write` applies it to every bundled style.
def maplibre_zooms(style):
    """A copy of `style` with every zoom in it one less: layer `minzoom` (not below 0) and `maxzoom`, the root `zoom`,
    the stops of `interpolate` and `step` over `["zoom"]`, and the other side of a comparison with `["zoom"]`
    (`[">=", ["zoom"], ["+", e, 1]]` becomes `[">=", ["zoom"], e]`). Raises on any other use of `["zoom"]` and on
    legacy `stops` functions, so no zoom escapes the shift."""
    def less(x):
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return x - 1
        if isinstance(x, list) and len(x) == 3 and x[0] == "+" and isinstance(x[2], (int, float)):
            return walk(x[1]) if x[2] == 1 else ["+", walk(x[1]), x[2] - 1]
        return ["-", walk(x), 1]
    def walk(v):
        if isinstance(v, dict):
            if "stops" in v:
                raise SystemExit(f"maplibre_zooms: legacy function {json.dumps(v)[:80]}: write an expression")
            return {k: walk(x) for k, x in v.items()}
        if not isinstance(v, list):
            return v
        if v == Z:
            raise SystemExit("maplibre_zooms: [\"zoom\"] outside interpolate, step or a comparison")
        head = v[0] if v else None
        if head in ("interpolate", "interpolate-hcl", "interpolate-lab") and len(v) > 3 and v[2] == Z:
            out = [head, v[1], Z]
            for i in range(3, len(v), 2):
                out += [less(v[i]), walk(v[i + 1])]
            return out
        if head == "step" and len(v) > 2 and v[1] == Z:
            out = ["step", Z, walk(v[2])]
            for i in range(3, len(v), 2):
                out += [less(v[i]), walk(v[i + 1])]
            return out
        if head in ("<", "<=", ">", ">=", "==", "!=") and len(v) == 3 and Z in (v[1], v[2]):
            return [head, Z, less(v[2])] if v[1] == Z else [head, less(v[1]), Z]
        return [walk(x) for x in v]
    out = json.loads(json.dumps(style))
    if "zoom" in out:
        out["zoom"] = out["zoom"] - 1
    for layer in out["layers"]:
        if "minzoom" in layer:
            layer["minzoom"] = max(0, layer["minzoom"] - 1)
        if "maxzoom" in layer:
            layer["maxzoom"] = layer["maxzoom"] - 1
        for key in ("filter", "layout", "paint"):
            if key in layer:
                layer[key] = walk(layer[key])
    return out

def write(style, file_name):
    """Writes `style`, its zooms Google's, as Data/styles/<file_name> with MapLibre's zooms (`maplibre_zooms`),
    in the repository's Data/styles (into $WAYMARK_STYLE_OUT instead when that is set, as scripts/dev/check_styles.py does), and
    prints its layer count."""
    folder = os.environ.get("WAYMARK_STYLE_OUT") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Data", "styles")
    open(os.path.join(folder, file_name), "w").write(dump(maplibre_zooms(style)) + "\n")
    print(len(style["layers"]), "layers")

# The dark variants' palette (Google-like dark map colours: blue-grey land, deep blue water, muted greens, warm
# highways, light grey text). Each light colour of a style has its dark counterpart here; colours that mean something
# else per property (white is a road fill, a text halo and a POI ring) are looked up by property first.
DARK = {
    LAND: "#1f2630", WATER: "#17263c", PARK: "#1f3a32", WOOD: "#1d3a2e", "#f5ecd3": "#2d2b25",
    "#f1efea": "#232a35", "#f1ede6": "#252b35", "#fbe4e2": "#3a2a2e", "#efeaf4": "#2a2a3a", "#d5e8cf": "#21352e",
    "#d4ecd0": "#213a30", "#e9e7ef": "#2a2f3d", "#dcd9e3": "#3a4050", "#e8e4de": "#2b323d", "#d9d3c9": "#353d49",
    "#ddd7ce": "#323a46",
    "#c3bfb8": "#4b5563", "#a6a3a0": "#6b7280", "#e6e2dc": "#2f3744", "#cbc4b9": "#4a5260", "#b9b5ae": "#4a5260",
    "#fcd581": "#746855", "#e4a73e": "#1f2835", "#fde293": "#6a5f4f", "#e0b354": "#1f2835", "#fff1b8": "#4d5566",
    "#e3c67e": "#212a37", "#ffffff": "#38414e", "#d6d2cb": "#212a37", "#dcd8d1": "#212a37", "#e0dcd5": "#212a37",
    TEXT: "#9aa0a6", TEXT_DARK: "#e8eaed", "#9a948c": "#8a8f98", "#8b857d": "#8a8f98", "#7a746c": "#b0b5bd",
    "#4a87c9": "#6f8fb8", "#c5692b": "#d59563", "#4e7fd6": "#7fa6e8", "#3b8a44": "#6bbf73", "#0f9d8a": "#4cc3b0",
    "#d05050": "#e57373", "#5f7bab": "#8ea6cc", "#c2508d": "#de85b5", "#7c6f64": "#a89c90",
    "rgba(255, 255, 255, 0.8)": "rgba(31, 38, 48, 0.8)",
}
DARK_BY_PROPERTY = {"text-halo-color": {HALO: "#1f2630"}, "circle-stroke-color": {HALO: "#1f2630"}}

def recolor(style, table=DARK, by_property=DARK_BY_PROPERTY):
    """A copy of `style` with every colour string of its paint properties replaced through `table` (and
    `by_property` first); raises on a colour the table lacks, so a new colour cannot slip into a variant unmapped."""
    def walk(v, prop):
        if isinstance(v, list):
            return [walk(x, prop) for x in v]
        if isinstance(v, str) and (v.startswith("#") or v.startswith("rgba(")):
            mapped = by_property.get(prop, {}).get(v, table.get(v))
            if mapped is None:
                raise SystemExit(f"recolor: no dark colour for {v} ({prop})")
            return mapped
        return v
    out = json.loads(json.dumps(style))
    for layer in out["layers"]:
        for name, value in layer.get("paint", {}).items():
            if name.endswith("color"):
                layer["paint"][name] = walk(value, name)
    return out
