#!/usr/bin/env python3
"""Builds sea polygons for a clipped OSM extract from its natural=coastline ways.

usage: sea_polygons.py INPUT.osm.pbf OUTPUT.geojson

OSM coastlines are drawn with the land on the left and the water on the right. A bounding-box extract cuts
them, and the way keeps the ids of nodes that are not in the file. This script:

1. reads the extract's header bounding box and every natural=coastline way;
2. splits each way into runs of consecutive nodes that are in the file (a gap means the coastline left the
   box there), drops runs of fewer than 2 nodes, and joins runs end to start into chains;
3. closes each open chain along the bounding box: both ends are moved to the nearest box edge (the true
   crossing lies between the last node inside and the first missing one), and from a chain's end the ring
   walks the box boundary clockwise (water on the right) to the next chain start, taking the corners it
   passes, until it returns to the first chain;
4. adds closed coastline rings: counter-clockwise ones (land inside) become holes of the sea polygon that
   contains them; clockwise ones are sea on their own. With no open chain, islands are holes in a sea that
   fills the whole box; with no coastline at all the output is empty (the box is assumed to be land).

Writes a GeoJSON FeatureCollection of Polygons (RFC 7946 winding, coordinates rounded to 1e-7 degrees, the
OSM precision) with a "class": "ocean" property, sorted, so the output is deterministic. Prints a summary on
stderr. Needs pyosmium (osmium==4.3.2).
"""

import json
import math
import sys

import osmium

Point = tuple[float, float]


def ring_area2(ring: list[Point]) -> float:
    """Twice the signed area (shoelace); positive when counter-clockwise with y up."""
    s = 0.0
    for i in range(len(ring) - 1):
        x1, y1 = ring[i]
        x2, y2 = ring[i + 1]
        s += x1 * y2 - x2 * y1
    return s


def point_in_ring(p: Point, ring: list[Point]) -> bool:
    x, y = p
    inside = False
    for i in range(len(ring) - 1):
        x1, y1 = ring[i]
        x2, y2 = ring[i + 1]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                inside = not inside
    return inside


class Box:
    """The extract's bounding box with a clockwise perimeter parameter t in [0, 4).

    t in [0,1): north edge west→east; [1,2): east edge north→south; [2,3): south edge east→west;
    [3,4): west edge south→north. Clockwise with y (latitude) up, so the box interior is on the right.
    """

    def __init__(self, w: float, s: float, e: float, n: float) -> None:
        self.w, self.s, self.e, self.n = w, s, e, n
        self.kx = math.cos(math.radians((s + n) / 2))  # metres per degree of lon relative to lat

    def project(self, p: Point) -> tuple[float, Point]:
        """The nearest point on the boundary and its t."""
        x = min(max(p[0], self.w), self.e)
        y = min(max(p[1], self.s), self.n)
        d = {
            "n": abs(self.n - y),
            "e": abs(self.e - x) * self.kx,
            "s": abs(y - self.s),
            "w": abs(x - self.w) * self.kx,
        }
        edge = min("nesw", key=lambda k: (d[k], "nesw".index(k)))
        if edge == "n":
            q = (x, self.n)
        elif edge == "e":
            q = (self.e, y)
        elif edge == "s":
            q = (x, self.s)
        else:
            q = (self.w, y)
        return self.param(q, edge), q

    def param(self, q: Point, edge: str) -> float:
        x, y = q
        if edge == "n":
            return (x - self.w) / (self.e - self.w)
        if edge == "e":
            return 1 + (self.n - y) / (self.n - self.s)
        if edge == "s":
            return 2 + (self.e - x) / (self.e - self.w)
        return 3 + (y - self.s) / (self.n - self.s)

    def corners_between(self, t0: float, t1: float) -> list[Point]:
        """Corners passed walking clockwise from t0 to t1 (t1 may be ≤ t0: wraps around)."""
        corners = [(1.0, (self.e, self.n)), (2.0, (self.e, self.s)), (3.0, (self.w, self.s)), (4.0, (self.w, self.n))]
        span = (t1 - t0) % 4.0
        out = []
        for tc, c in corners + [(tc + 4.0, c) for tc, c in corners]:
            d = tc - t0
            if 0 < d < span:
                out.append((d, c))
        out.sort()
        return [c for _, c in out]


def read_coastline(path: str) -> tuple[Box, list[list[int]], dict[int, Point]]:
    reader = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
    b = reader.header().box()
    reader.close()
    if not b.valid():
        raise SystemExit(f"error: {path} has no header bounding box; cannot close the coastline")
    box = Box(b.bottom_left.lon, b.bottom_left.lat, b.top_right.lon, b.top_right.lat)
    ways: list[list[int]] = []
    for w in osmium.FileProcessor(path, osmium.osm.WAY):
        if w.tags.get("natural") == "coastline":
            ways.append([n.ref for n in w.nodes])
    wanted = {r for refs in ways for r in refs}
    loc: dict[int, Point] = {}
    for n in osmium.FileProcessor(path, osmium.osm.NODE):
        if n.id in wanted and n.location.valid():
            loc[n.id] = (round(n.location.lon, 7), round(n.location.lat, 7))
    return box, ways, loc


def chains_from_ways(ways: list[list[int]], loc: dict[int, Point]) -> list[list[int]]:
    runs: list[list[int]] = []
    for refs in ways:
        cur: list[int] = []
        for r in refs:
            if r in loc:
                cur.append(r)
            else:
                if len(cur) >= 2:
                    runs.append(cur)
                cur = []
        if len(cur) >= 2:
            runs.append(cur)
    # Join runs end to start (coastline ways share their end nodes), deterministically.
    runs.sort()
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(runs):
            if a[0] == a[-1]:
                continue
            for j, b in enumerate(runs):
                if i != j and b[0] != b[-1] and a[-1] == b[0]:
                    runs[i] = a + b[1:]
                    del runs[j]
                    merged = True
                    break
            if merged:
                break
    return runs


def clip_segment(a: Point, b: Point, box: Box) -> tuple[Point, Point] | None:
    """The part of segment a-b inside the box (Liang-Barsky), or None."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box.w), (dx, box.e - a[0]), (-dy, a[1] - box.s), (dy, box.n - a[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return None

    def at(t: float) -> Point:
        if t == 0.0:
            return a
        if t == 1.0:
            return b
        return (round(a[0] + t * dx, 7), round(a[1] + t * dy, 7))

    return at(t0), at(t1)


def clip_chain(pts: list[Point], box: Box) -> list[list[Point]]:
    """Splits a coastline chain into its runs inside the box, each ending exactly on the box where it leaves (a
    polygon extract keeps whole ways, so coastline nodes can lie outside the header box). A chain wholly inside
    comes back unchanged."""
    runs: list[list[Point]] = []
    cur: list[Point] = []
    for a, b in zip(pts, pts[1:]):
        seg = clip_segment(a, b, box)
        if seg is None:
            if len(cur) >= 2:
                runs.append(cur)
            cur = []
            continue
        p, q = seg
        if not cur or cur[-1] != p:
            if len(cur) >= 2:
                runs.append(cur)
            cur = [p]
        if q != p:
            cur.append(q)
    if len(cur) >= 2:
        runs.append(cur)
    return runs


def build_sea(box: Box, chains: list[list[int]], loc: dict[int, Point]) -> list[list[list[Point]]]:
    rings, open_chains = [], []
    for c in chains:
        pts = [loc[r] for r in c]
        inside = all(box.w <= x <= box.e and box.s <= y <= box.n for x, y in pts)
        if c[0] == c[-1] and len(c) >= 4 and inside:
            rings.append(pts)
        elif inside:
            open_chains.append(pts)
        else:
            # A run that starts and ends on one box edge within 1 % of that edge is a sliver where the extract's cut
            # and the box meet (Monaco's south-west corner): it would close into a ring of its own and break the
            # alternation of coast ends along the box, so it is dropped.
            for run in clip_chain(pts, box):
                (t0, _), (t1, _) = box.project(run[0]), box.project(run[-1])
                if int(t0) == int(t1) and abs(t1 - t0) < 0.01:
                    continue
                open_chains.append(run)
    starts = []  # (t, index, projected point)
    ends = []
    for i, pts in enumerate(open_chains):
        ts, ps = box.project(pts[0])
        te, pe = box.project(pts[-1])
        starts.append((ts, i, ps))
        ends.append((te, i, pe))

    polygons: list[list[list[Point]]] = []
    used: set[int] = set()
    for first in sorted(range(len(open_chains)), key=lambda i: starts[i][0]):
        if first in used:
            continue
        ring: list[Point] = [starts[first][2]]
        cur = first
        while True:
            used.add(cur)
            ring.extend(open_chains[cur])
            te, _, pe = ends[cur]
            ring.append(pe)
            # Next chain start clockwise from te (a start exactly at te counts as reached).
            nxt = min(starts, key=lambda s: ((s[0] - te) % 4.0, s[1]))
            ring.extend(box.corners_between(te, nxt[0]))
            if nxt[1] == first:
                ring.append(starts[first][2])
                break
            if nxt[1] in used:
                raise SystemExit("error: coastline chains do not close consistently along the box")
            ring.append(nxt[2])
            cur = nxt[1]
        ring = dedupe(ring)
        if len(ring) >= 4 and abs(ring_area2(ring)) > 0:
            polygons.append([ring])

    islands = []
    for r in rings:
        if ring_area2(r) > 0:  # counter-clockwise: land inside
            islands.append(r)
        else:
            polygons.append([r])
    if islands and not open_chains:
        polygons.append([[(box.w, box.n), (box.e, box.n), (box.e, box.s), (box.w, box.s), (box.w, box.n)]])
    for isl in islands:
        for poly in polygons:
            if point_in_ring(isl[0], poly[0]):
                poly.append(isl)
                break
    return polygons


def dedupe(ring: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in ring:
        p = (round(p[0], 7), round(p[1], 7))
        if not out or out[-1] != p:
            out.append(p)
    if out[0] != out[-1]:
        out.append(out[0])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    box, ways, loc = read_coastline(argv[1])
    chains = chains_from_ways(ways, loc)
    polygons = build_sea(box, chains, loc)
    features = []
    for poly in polygons:
        # RFC 7946: exterior counter-clockwise, holes clockwise.
        rings = []
        for k, r in enumerate(poly):
            ccw = ring_area2(r) > 0
            if (k == 0) != ccw:
                r = list(reversed(r))
            rings.append([[x, y] for x, y in r])
        features.append({"type": "Feature", "properties": {"class": "ocean"},
                         "geometry": {"type": "Polygon", "coordinates": rings}})
    features.sort(key=lambda f: json.dumps(f["geometry"], sort_keys=True))
    with open(argv[2], "w", encoding="utf-8") as fh:
        json.dump({"type": "FeatureCollection", "features": features}, fh, sort_keys=True, separators=(",", ":"))
        fh.write("\n")
    area = sum(abs(ring_area2(p[0])) / 2 - sum(abs(ring_area2(h)) / 2 for h in p[1:]) for p in polygons)
    print(f"sea_polygons: {len(ways)} coastline ways -> {len(chains)} chains -> {len(polygons)} sea polygons "
          f"({area * 111320 ** 2 * box.kx:.0f} m² approx.)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
