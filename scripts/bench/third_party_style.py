#!/usr/bin/env python3
"""Point a third-party MapLibre style at Waymark's bundled data, for third-party-styles.sh.

    third_party_style.py STYLE.json TILES OUT.json [--glyphs DIR] [--sprite PREFIX] [--source-map FILE]

Writes a copy of STYLE with:
- every vector source (a remote TileJSON `url` or `tiles`) read from TILES instead: `mbtiles:///abs/x.mbtiles`
  (or `pmtiles://` for a .pmtiles file), which both MapLibre Native and `waymark snapshot` read;
- `glyphs` pointing at DIR/{fontstack}/{range}.pbf (absolute path), so both renderers draw the same SDF glyphs
  and the comparison measures rendering, not fonts;
- `sprite` pointing at PREFIX (a local file path without .json/.png) when given; otherwise a remote sprite is
  removed (named on stderr): MapLibre Native's static render fails outright when it cannot fetch the sprite, so
  without it both renderers draw the style's text and no icons;
- raster and raster-dem sources with remote tiles removed, with their layers (neither renderer can fetch them
  offline), each named on stderr: nothing is dropped silently.

Prints on stdout one JSON object: {"layers": N, "removed_layers": [...], "fontstacks": [...], "sprite": ...}.
The style file itself is never modified.
"""
import argparse
import json
import os
import sys


def is_remote(url):
    return isinstance(url, str) and url.split(":", 1)[0] in ("http", "https")


def source_url_for(tiles):
    path = os.path.abspath(tiles)
    if path.endswith(".pmtiles"):
        return "pmtiles://file://" + path
    return "mbtiles://" + path


def fontstacks(value, out):
    """Collects the literal fontstacks of a `text-font` value (an array of names, or an expression)."""
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value) and value[0] not in ("literal", "step", "match",
                                                                                  "case", "coalesce", "get"):
            out.add(tuple(value))
            return
        for v in value:
            fontstacks(v, out)
    elif isinstance(value, dict):
        for stop in value.get("stops", []):
            if isinstance(stop, list) and len(stop) == 2:
                fontstacks(stop[1], out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("style")
    p.add_argument("tiles", help="the .mbtiles (or .pmtiles) file every vector source reads")
    p.add_argument("out")
    p.add_argument("--glyphs", required=True, help="folder of {fontstack}/{range}.pbf")
    p.add_argument("--sprite", help="local sprite prefix (PREFIX.json, PREFIX.png)")
    a = p.parse_args()

    try:
        with open(a.style, encoding="utf-8") as f:
            style = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{a.style}: not a readable style JSON ({e})")
    if style.get("version") != 8 or not isinstance(style.get("layers"), list):
        sys.exit(f"{a.style}: not a MapLibre style v8 (no version 8 or no layers)")

    removed_sources = set()
    for name, src in list(style.get("sources", {}).items()):
        kind = src.get("type")
        if kind == "vector":
            for key in ("url", "tiles", "urls"):
                src.pop(key, None)
            src["url"] = source_url_for(a.tiles)
        elif kind in ("raster", "raster-dem"):
            urls = src.get("tiles", []) + ([src["url"]] if "url" in src else [])
            if any(is_remote(u) for u in urls):
                removed_sources.add(name)
                del style["sources"][name]
                print(f"removed source {name!r} ({kind}, remote tiles: no network here)", file=sys.stderr)
    removed_layers = []
    kept = []
    for layer in style["layers"]:
        if layer.get("source") in removed_sources:
            removed_layers.append(layer["id"])
            print(f"removed layer {layer['id']!r} (its source {layer['source']!r} was removed)", file=sys.stderr)
        else:
            kept.append(layer)
    style["layers"] = kept

    style["glyphs"] = "file://" + os.path.abspath(a.glyphs) + "/{fontstack}/{range}.pbf"
    if a.sprite:
        style["sprite"] = "file://" + os.path.abspath(a.sprite)
    elif is_remote(style.get("sprite")):
        print(f"removed sprite {style.pop('sprite')!r} (remote: no network here; give --sprite PREFIX)", file=sys.stderr)

    stacks = set()
    for layer in kept:
        if layer.get("type") == "symbol":
            layout = layer.get("layout", {})
            if "text-field" in layout:
                fontstacks(layout.get("text-font", ["Open Sans Regular", "Arial Unicode MS Regular"]), stacks)

    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(style, f, indent=1)
    print(json.dumps({
        "layers": len(kept),
        "removed_layers": removed_layers,
        "fontstacks": sorted(",".join(s) for s in stacks),
        "sprite": style.get("sprite"),
        "types": sorted({l.get("type") for l in kept}),
    }))


if __name__ == "__main__":
    main()
