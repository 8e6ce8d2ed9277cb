#!/usr/bin/env python3
"""MapLibre Native's throughput on the static maps benchmark mix (BENCHMARKS.md "Static maps server").

    python3 scripts/serve/maplibre-bench.py [SECONDS] [WORKERS]      (defaults: 30 s, 2 worker processes)

Renders the three views of scripts/serve/mix.lua at 640x640 (scale 1) over Data/styles/default.json with MapLibre
Native (../shared/bench/maplibre-native/, `mapli` in the venv that its setup.sh makes), in WORKERS processes of one
MapLibre render pool each, round robin over the views, for SECONDS after one untimed warm-up render of each view in
every process. Prints images a second (all processes together), the per-view median render times and the workers'
peak RSS (VmHWM). PNG encoding is included, as it is for `waymark serve`.

The street-level view carries the mix's 10 markers and its path as a GeoJSON source drawn with a circle layer and a
line layer (MapLibre Native has no static-marker API), so MapLibre draws about what Waymark draws. Zooms are Google's;
render.py's camera conversion (MapLibre zoom = Google zoom - 1, same ground area) is used.

Env: MLN_DIR (default ../shared/bench/maplibre-native from the checkout), MLN_VENV (render.py's default venv).
"""
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLN_DIR = os.environ.get("MLN_DIR") or os.path.join(os.path.dirname(ROOT), "shared", "bench", "maplibre-native")
sys.path.insert(0, MLN_DIR)
sys.dont_write_bytecode = True
import render  # noqa: E402  (MLN_DIR/render.py: style preparation, glyphs, camera conversion)

RED = [(60.1690, 24.9400), (60.1695, 24.9420), (60.1700, 24.9440), (60.1705, 24.9460), (60.1710, 24.9480)]
BLUE = [(60.1685, 24.9410), (60.1690, 24.9430), (60.1695, 24.9450), (60.1700, 24.9470), (60.1705, 24.9490)]
PATH = [(60.1680, 24.9390), (60.1690, 24.9420), (60.1700, 24.9450), (60.1712, 24.9490)]

# (name, style id, camera) for the three views of mix.lua, in its order.
VIEWS = [
    ("street z16 + 10 markers + path", "street", dict(lat=60.1699, lon=24.9443, zoom=16, bearing=0, pitch=0)),
    ("Helsinki z12", "base", dict(lat=60.1699, lon=24.9443, zoom=12, bearing=0, pitch=0)),
    ("world z2", "base", dict(lat=30, lon=10, zoom=2, bearing=0, pitch=0)),
]


def styles():
    """The bundled style prepared for MapLibre, and a copy with the street view's markers and path."""
    style, base = render.load_style(os.path.join(ROOT, "Data", "styles", "default.json"))
    style, _ = render.prepare_style(style, base)
    street = json.loads(json.dumps(style))

    def point(color, lat, lon):
        return {"type": "Feature", "properties": {"color": color},
                "geometry": {"type": "Point", "coordinates": [lon, lat]}}

    features = [point("#ff0000", *p) for p in RED] + [point("#0000ff", *p) for p in BLUE]
    street["sources"]["overlay"] = {"type": "geojson", "data": {"type": "FeatureCollection", "features": features + [
        {"type": "Feature", "properties": {},
         "geometry": {"type": "LineString", "coordinates": [[lon, lat] for lat, lon in PATH]}}]}}
    street["layers"] += [
        {"id": "overlay-path", "type": "line", "source": "overlay", "filter": ["==", ["geometry-type"], "LineString"],
         "paint": {"line-color": "#0000ff", "line-opacity": 0.8, "line-width": 5}},
        {"id": "overlay-markers", "type": "circle", "source": "overlay", "filter": ["==", ["geometry-type"], "Point"],
         "paint": {"circle-color": ["get", "color"], "circle-radius": 9, "circle-stroke-color": "#ffffff",
                   "circle-stroke-width": 1.5}},
    ]
    return {"base": style, "street": street}


def worker(index, seconds, start, results):
    mapli = render.import_mapli()
    glyphs = os.path.abspath(os.environ.get("MLN_GLYPHS") or os.path.join(sys.prefix, "glyphs"))
    render.install_glyph_handler(mapli, glyphs, {}, log=None)
    pool = mapli.RenderPool(workers=1)
    for sid, style in styles().items():
        pool.register_style(sid, json=style)
    kws = [(sid, render.mapli_camera(cam, (640, 640), 1.0)) for _, sid, cam in VIEWS]
    for sid, kw in kws:  # warm-up: styles parsed, shaders compiled, tiles and glyphs loaded
        pool.render(sid, **kw)
    start.wait()
    times = [[] for _ in VIEWS]
    i = index  # the workers start on different views, as wrk's connections do
    end = time.perf_counter() + seconds
    while True:
        t = time.perf_counter()
        if t >= end:
            break
        v = i % len(VIEWS)
        pool.render(kws[v][0], **kws[v][1])
        times[v].append(time.perf_counter() - t)
        i += 1
    with open("/proc/self/status") as f:
        hwm = next((line.split()[1] for line in f if line.startswith("VmHWM")), "0")
    results.put((times, int(hwm)))
    results.close()
    results.join_thread()  # the result is written before the process leaves without finalising
    for cache in render._GLYPH_CACHES:
        cache.quiesce()
    os._exit(0)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(workers + 1)
    results = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(i, seconds, start, results)) for i in range(workers)]
    for p in procs:
        p.start()
    start.wait()
    t0 = time.perf_counter()
    got = [results.get() for _ in procs]
    wall = time.perf_counter() - t0
    for p in procs:
        p.join()
    images = sum(len(t) for times, _ in got for t in times)
    print(f"maplibre-native: {workers} worker processes, {seconds:g} s: {images} images, "
          f"{images / wall:.2f} images/s")
    for v, (name, _, _) in enumerate(VIEWS):
        ts = [t for times, _ in got for t in times[v]]
        if ts:
            print(f"  {name}: {len(ts)} renders, median {statistics.median(ts) * 1000:.1f} ms")
    print(f"  peak RSS (VmHWM) per worker: {', '.join(f'{h / 1024:.0f} MB' for _, h in got)}")


if __name__ == "__main__":
    render.ensure_venv()
    main()
