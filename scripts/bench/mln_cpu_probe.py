#!/usr/bin/env python3
"""CPU time of one MapLibre Native frame, for scripts/bench/mln-speed.sh (issue 33's speed goals).

    python mln_cpu_probe.py STYLE --camera LAT,LON,ZOOM[,BEARING[,PITCH]] [--size WxH] [--warm N]

Run with the Python of the MapLibre Native venv (../shared/bench/maplibre-native/setup.sh). It reuses that
folder's render.py for the style preparation (relative URLs, glyphs made on demand) and the camera convention
(Google zoom; MapLibre gets zoom - 1). In this fresh process it registers the style and renders the view once
("cold": style load, shader compile, tile reads and parsing, glyphs, layout, placement, drawing, read-back and
PNG encoding), then N more times in the same pool ("warm"). CPU time is user + system of the whole process
(getrusage(RUSAGE_SELF): MapLibre's worker and tile threads and llvmpipe's rasteriser threads included),
measured around each render call only. Prints one JSON line: {"cold_cpu_s", "cold_wall_s", "warm_cpu_s": [...],
"warm_wall_s": [...]}.
"""
import argparse
import json
import os
import resource
import sys
import time


def cpu_seconds():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    tool = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "bench", "maplibre-native"))
    tool = os.environ.get("MLN_TOOL", tool)
    sys.path.insert(0, tool)
    import render  # noqa: E402  (../shared/bench/maplibre-native/render.py)

    p = argparse.ArgumentParser()
    p.add_argument("style")
    p.add_argument("--camera", required=True)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--warm", type=int, default=5)
    args = p.parse_args()
    cam = render.parse_camera(args.camera)
    size = render.parse_size(args.size)
    style, base = render.load_style(args.style)
    style, _ = render.prepare_style(style, base)
    kw = render.mapli_camera(cam, size, 1.0)
    mapli = render.import_mapli()
    glyphs = os.path.abspath(os.environ.get("MLN_GLYPHS") or os.path.join(sys.prefix, "glyphs"))
    if style["glyphs"].startswith(render.GLYPH_SCHEME):
        render.install_glyph_handler(mapli, glyphs, {}, log=None)
    pool = mapli.RenderPool(workers=1)
    pool.register_style("s", json=style)

    c0, t0 = cpu_seconds(), time.perf_counter()
    pool.render("s", **kw)
    cold_cpu, cold_wall = cpu_seconds() - c0, time.perf_counter() - t0
    warm_cpu, warm_wall = [], []
    for _ in range(args.warm):
        c0, t0 = cpu_seconds(), time.perf_counter()
        pool.render("s", **kw)
        warm_cpu.append(cpu_seconds() - c0)
        warm_wall.append(time.perf_counter() - t0)
    print(json.dumps(dict(cold_cpu_s=cold_cpu, cold_wall_s=cold_wall, warm_cpu_s=warm_cpu, warm_wall_s=warm_wall)))


if __name__ == "__main__":
    main()
