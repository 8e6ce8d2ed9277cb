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

def write(style, file_name):
    """Writes `style` as Data/styles/<file_name> (beside this file; into $WAYMARK_STYLE_OUT instead when that is set, as
    scripts/dev/check_styles.py does) and prints its layer count."""
    folder = os.environ.get("WAYMARK_STYLE_OUT") or os.path.dirname(os.path.abspath(__file__))
    open(os.path.join(folder, file_name), "w").write(dump(style) + "\n")
    print(len(style["layers"]), "layers")
