#!/usr/bin/env python3
"""Unit tests for the data-build helpers, on small hand-made inputs with hand-computed answers.

usage: .sources/venv/bin/python scripts/data/test_data_scripts.py      (needs pyosmium: sea_polygons imports it)
"""

import collections
import gzip
import os
import struct
import tempfile
import sys
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ inside scripts/
sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_places  # noqa: E402
import mbtiles_merge  # noqa: E402
import build_pois  # noqa: E402
import mvt_canonical as mc  # noqa: E402
import sea_polygons as sp  # noqa: E402
import gshhg_extract  # noqa: E402

import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("build_glyphs", Path(__file__).resolve().parent / "build-glyphs.py")
build_glyphs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_glyphs)

try:  # needs Debian's python3-gdal, like the world build itself
    import simplify_zooms  # noqa: E402
except ImportError:
    simplify_zooms = None


def polygon_area(poly):
    return abs(sp.ring_area2(poly[0])) / 2 - sum(abs(sp.ring_area2(h)) / 2 for h in poly[1:])


class SeaPolygonTests(unittest.TestCase):
    def setUp(self):
        self.box = sp.Box(0.0, 0.0, 10.0, 10.0)

    def test_perimeter_parameter_runs_clockwise_from_north_west(self):
        self.assertAlmostEqual(self.box.param((0, 10), "n"), 0.0)
        self.assertAlmostEqual(self.box.param((10, 10), "e"), 1.0)
        self.assertAlmostEqual(self.box.param((10, 0), "s"), 2.0)
        self.assertAlmostEqual(self.box.param((0, 0), "w"), 3.0)
        self.assertAlmostEqual(self.box.param((10, 5), "e"), 1.5)

    def test_corners_between_wraps_around(self):
        self.assertEqual(self.box.corners_between(1.5, 3.5), [(10.0, 0.0), (0.0, 0.0)])
        self.assertEqual(self.box.corners_between(3.5, 0.5), [(0.0, 10.0)])
        self.assertEqual(self.box.corners_between(1.2, 1.8), [])

    def test_project_moves_to_nearest_edge(self):
        t, q = self.box.project((9.9, 5.0))
        self.assertEqual(q, (10.0, 5.0))
        self.assertAlmostEqual(t, 1.5)

    def test_westward_coastline_puts_sea_north(self):
        # Land on the left of the direction of travel: going west, land is south, water north.
        loc = {1: (10.0, 5.0), 2: (5.0, 5.0), 3: (0.0, 5.0)}
        polys = sp.build_sea(self.box, [[1, 2, 3]], loc)
        self.assertEqual(len(polys), 1)
        self.assertAlmostEqual(polygon_area(polys[0]), 50.0)
        self.assertTrue(sp.point_in_ring((5.0, 8.0), polys[0][0]))
        self.assertFalse(sp.point_in_ring((5.0, 2.0), polys[0][0]))

    def test_eastward_coastline_puts_sea_south(self):
        loc = {1: (0.0, 5.0), 2: (10.0, 5.0)}
        polys = sp.build_sea(self.box, [[1, 2]], loc)
        self.assertAlmostEqual(polygon_area(polys[0]), 50.0)
        self.assertTrue(sp.point_in_ring((5.0, 2.0), polys[0][0]))

    def test_bay_entering_and_leaving_the_east_edge(self):
        # Travel (10,4) -> (8,4) -> (8,6) -> (10,6): going west at y=4 the water (right) is north, so the sea is
        # the 2 x 2 notch x 8..10, y 4..6 that opens on the east edge.
        loc = {1: (10.0, 4.0), 2: (8.0, 4.0), 3: (8.0, 6.0), 4: (10.0, 6.0)}
        polys = sp.build_sea(self.box, [[1, 2, 3, 4]], loc)
        self.assertEqual(len(polys), 1)
        self.assertAlmostEqual(polygon_area(polys[0]), 4.0)
        self.assertTrue(sp.point_in_ring((9.0, 5.0), polys[0][0]))

    def test_gap_in_a_way_splits_it_and_both_pieces_close_on_the_edge(self):
        # Way 1-2-[99 missing]-3-4: the coastline leaves the box on the north edge and comes back.
        loc = {1: (10.0, 2.0), 2: (3.0, 2.0), 3: (3.5, 9.9), 4: (10.0, 8.0)}
        chains = sp.chains_from_ways([[1, 2, 99, 3, 4]], loc)
        self.assertEqual(chains, [[1, 2], [3, 4]])
        polys = sp.build_sea(self.box, chains, loc)
        # Piece 1 runs west along y=2 (sea north of it); its end (3,2) is nearest to the south edge (2 vs
        # 2.99 to the west edge, lon scaled by cos 5 deg). The ring walks clockwise from (3,0) round the west
        # and north edges to piece 2, then down the east edge to piece 1. Land: x 3..10, y 0..2.
        self.assertTrue(any(sp.point_in_ring((7.0, 5.0), p[0]) for p in polys))
        self.assertFalse(any(sp.point_in_ring((7.0, 1.0), p[0]) for p in polys))

    def test_island_alone_is_a_hole_in_a_full_box_sea(self):
        # Counter-clockwise closed ring = land inside.
        loc = {1: (4.0, 4.0), 2: (6.0, 4.0), 3: (6.0, 6.0), 4: (4.0, 6.0)}
        polys = sp.build_sea(self.box, [[1, 2, 3, 4, 1]], loc)
        self.assertEqual(len(polys), 1)
        self.assertAlmostEqual(polygon_area(polys[0]), 100.0 - 4.0)

    def test_runs_join_end_to_start(self):
        loc = {i: (float(i), 1.0) for i in range(1, 6)}
        self.assertEqual(sp.chains_from_ways([[3, 4, 5], [1, 2, 3]], loc), [[1, 2, 3, 4, 5]])


class ClipChainTests(unittest.TestCase):
    BOX = sp.Box(0, 0, 10, 10)

    def test_chain_inside_is_unchanged(self):
        pts = [(1, 1), (2, 2), (3, 1)]
        self.assertEqual(sp.clip_chain(pts, self.BOX), [pts])

    def test_chain_leaving_and_reentering_is_split_at_the_edge(self):
        pts = [(5, 5), (15, 5), (15, 8), (5, 8)]
        self.assertEqual(sp.clip_chain(pts, self.BOX), [[(5, 5), (10.0, 5.0)], [(10.0, 8.0), (5, 8)]])


class InteriorPointTests(unittest.TestCase):
    def test_square_gives_its_centre(self):
        ring = [(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)]
        self.assertEqual(build_pois.interior_point([ring]), (1.0, 1.0))

    def test_u_shape_point_is_inside_not_at_the_centroid(self):
        # A U open to the north: the bbox centre (3, 2) is in the gap, outside the polygon.
        ring = [(0, 0), (6, 0), (6, 4), (4, 4), (4, 1), (2, 1), (2, 4), (0, 4), (0, 0)]
        p = build_pois.interior_point([ring])
        self.assertTrue(sp.point_in_ring(p, ring))

    def test_hole_is_avoided(self):
        outer = [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
        hole = [(2, 2), (2, 8), (8, 8), (8, 2), (2, 2)]
        x, y = build_pois.interior_point([outer, hole])
        self.assertTrue(sp.point_in_ring((x, y), outer) and not sp.point_in_ring((x, y), hole))


def encode_value_string(s: str) -> bytes:
    return mc.field_bytes(1, s.encode())


def encode_value_float(f: float) -> bytes:
    return mc.varint((2 << 3) | 5) + struct.pack("<f", f)


def make_layer(features, name=b"roads", ftype=2):
    """features: list of (dict key -> encoded value, geometry bytes)."""
    keys, values, out = [], [], []
    for tags, geom in features:
        t = []
        for k, v in tags.items():
            if k not in keys:
                keys.append(k)
            if v not in values:
                values.append(v)
            t += [keys.index(k), values.index(v)]
        body = mc.field_bytes(2, b"".join(mc.varint(x) for x in t)) + mc.field_varint(3, ftype) + mc.field_bytes(4, geom)
        out.append(body)
    layer = mc.field_bytes(1, name) + b"".join(mc.field_bytes(2, f) for f in out)
    layer += b"".join(mc.field_bytes(3, k.encode()) for k in keys)
    layer += b"".join(mc.field_bytes(4, v) for v in values) + mc.field_varint(5, 4096) + mc.field_varint(15, 2)
    return mc.field_bytes(3, layer)


def decode(tile: bytes):
    data = gzip.decompress(tile)
    out = []
    for _, _, layer in mc.fields(data):
        keys, values, feats = [], [], []
        for num, _, v in mc.fields(layer):
            if num == 3:
                keys.append(v.decode())
            elif num == 4:
                values.append(v)
            elif num == 2:
                feats.append(v)
        for f in feats:
            d = {num: v for num, _, v in mc.fields(f)}
            tags = mc.packed_varints(d.get(2, b""))
            out.append(({keys[k]: values[v] for k, v in zip(tags[0::2], tags[1::2])}, d[4]))
    return out


class CanonicalMVTTests(unittest.TestCase):
    A = ({"class": encode_value_string("primary"), "name": encode_value_string("A")}, b"\x09\x02\x02\x0a\x04\x04")
    B = ({"class": encode_value_string("minor")}, b"\x09\x06\x06\x0a\x02\x02")

    def test_order_of_input_features_does_not_matter(self):
        t1 = mc.canonical_tile(make_layer([self.A, self.B]), None)
        t2 = mc.canonical_tile(make_layer([self.B, self.A]), None)
        self.assertEqual(t1, t2)
        self.assertEqual(sorted(decode(t1), key=repr), sorted([self.A, self.B], key=repr))

    def test_gzip_has_no_timestamp(self):
        t = mc.canonical_tile(make_layer([self.A]), None)
        self.assertEqual(t[:2], b"\x1f\x8b")
        self.assertEqual(t[4:8], b"\x00\x00\x00\x00")

    def test_z_runs_keep_their_order_and_the_attribute_is_removed(self):
        z = "_waymark_z"
        hi = ({"class": encode_value_string("b"), z: encode_value_float(13.0)}, b"\x09\x02\x02\x0a\x02\x02")
        lo = ({"class": encode_value_string("a"), z: encode_value_float(3.0)}, b"\x09\x04\x04\x0a\x02\x02")
        # tilemaker wrote the z=13 feature first; content order would put "a" first. The run order must win.
        out = decode(mc.canonical_tile(make_layer([hi, lo]), z))
        self.assertEqual([f[0]["class"] for f in out], [encode_value_string("b"), encode_value_string("a")])
        self.assertTrue(all(z not in f[0] for f in out))

    def test_priority_field_sorts_largest_first(self):
        small = ({"population": mc.field_varint(5, 10)}, b"\x09\x02\x02")
        big = ({"population": mc.field_varint(5, 1000)}, b"\x09\x04\x04")
        out = decode(mc.canonical_tile(make_layer([small, big]), None, "population"))
        self.assertEqual([f[1] for f in out], [big[1], small[1]])

    def test_a_waymark_priority_field_orders_and_is_removed(self):
        small = ({"_waymark_pop": mc.field_varint(5, 10)}, b"\x09\x02\x02")
        big = ({"_waymark_pop": mc.field_varint(5, 1000)}, b"\x09\x04\x04")
        out = decode(mc.canonical_tile(make_layer([small, big]), None, "_waymark_pop"))
        self.assertEqual([f[1] for f in out], [big[1], small[1]])
        self.assertEqual([f[0] for f in out], [{}, {}])

    def test_requantize_a_polygon_to_a_quarter_grid(self):
        # A 400-unit square (clockwise in tile coordinates) with a 40-unit hole and a 1-unit hole; to extent 1024.
        ring = [(100, 100), (500, 100), (500, 500), (100, 500)]
        hole = [(200, 200), (200, 240), (240, 240), (240, 200)]
        speck = [(300, 300), (300, 301), (301, 301), (301, 300)]
        geom = mc.encode_geometry(3, [ring, hole, speck])
        self.assertEqual(mc.decode_geometry(3, geom), [ring, hole, speck])
        parts = mc.decode_geometry(3, mc.requantize(3, geom, 4096, 1024))
        self.assertEqual(parts, [[(25, 25), (125, 25), (125, 125), (25, 125)], [(50, 50), (50, 60), (60, 60), (60, 50)]])

    def test_requantize_drops_vanished_rings_with_their_holes_and_repeated_points(self):
        tiny = [(0, 0), (1, 0), (1, 1), (0, 1)]
        tiny_hole = [(0, 0), (0, 1), (1, 1), (1, 0)]
        big = [(0, 0), (400, 0), (400, 400), (0, 400)]
        parts = mc.decode_geometry(3, mc.requantize(3, mc.encode_geometry(3, [tiny, tiny_hole, big]), 4096, 1024))
        self.assertEqual(parts, [[(0, 0), (100, 0), (100, 100), (0, 100)]])
        self.assertIsNone(mc.requantize(3, mc.encode_geometry(3, [tiny]), 4096, 1024))
        line = [(0, 0), (1, 1), (2, 0), (400, 0)]
        self.assertEqual(mc.decode_geometry(2, mc.requantize(2, mc.encode_geometry(2, [line]), 4096, 1024)),
                         [[(0, 0), (1, 0), (100, 0)]])
        self.assertIsNone(mc.requantize(2, mc.encode_geometry(2, [[(0, 0), (1, 1)]]), 4096, 1024))

    def test_extent_changes_the_layer_and_keeps_points(self):
        tags = {"name": encode_value_string("P")}
        layer = make_layer([(tags, mc.encode_geometry(1, [[(4095, 10)]]))], b"place", 1)
        data = gzip.decompress(mc.canonical_tile(layer, None, None, 1024))
        _, _, raw = next(mc.fields(data))
        name, extent, _, feats, _, _ = mc.parse_layer(raw)
        self.assertEqual(extent, 1024)
        geom = {num: v for num, _, v in mc.fields(feats[0])}[4]
        self.assertEqual(mc.decode_geometry(1, geom), [[(1024, 3)]])

    def test_truncated_tile_is_an_error(self):
        with self.assertRaises(mc.MVTError):
            mc.canonical_tile(make_layer([self.A])[:-3], None)


class PlacesRuleTests(unittest.TestCase):
    def test_rank_thresholds(self):
        self.assertEqual(build_places.rank_of(5_000_000), 1)
        self.assertEqual(build_places.rank_of(4_999_999), 2)
        self.assertEqual(build_places.rank_of(1_000_000), 2)
        self.assertEqual(build_places.rank_of(300_000), 3)
        self.assertEqual(build_places.rank_of(100_000), 4)
        self.assertEqual(build_places.rank_of(30_000), 5)
        self.assertEqual(build_places.rank_of(10_000), 6)
        self.assertEqual(build_places.rank_of(3_000), 7)
        self.assertEqual(build_places.rank_of(1_000), 8)
        self.assertEqual(build_places.rank_of(999), 9)
        self.assertEqual(build_places.rank_of(0), 9)

    def test_classes(self):
        self.assertEqual(build_places.class_of(100_000, False), "city")
        self.assertEqual(build_places.class_of(99_999, False), "town")
        self.assertEqual(build_places.class_of(500, True), "city")
        self.assertEqual(build_places.class_of(10_000, False), "town")
        self.assertEqual(build_places.class_of(9_999, False), "village")
        self.assertEqual(build_places.class_of(1_000, False), "village")
        self.assertEqual(build_places.class_of(999, False), "hamlet")

    def test_classes_from_feature_codes(self):
        # A section of a city is a suburb whatever its population; a national capital is a city even when GeoNames
        # lists it as a section; a first-order seat is at least a town; other codes keep the population rule.
        self.assertEqual(build_places.class_of(2_600_000, False, "PPLX"), "suburb")
        self.assertEqual(build_places.class_of(400_000, True, "PPLX"), "city")
        self.assertEqual(build_places.class_of(5_000, False, "PPLA"), "town")
        self.assertEqual(build_places.class_of(500, False, "PPLA"), "town")
        self.assertEqual(build_places.class_of(150_000, False, "PPLA"), "city")
        self.assertEqual(build_places.class_of(5_000, False, "PPLA2"), "village")
        self.assertEqual(build_places.class_of(5_000, False, "PPL"), "village")

    def test_feature_code_table(self):
        row = ["7"] + ["x"] * 18
        row[7] = "PPLA"
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
            f.write("\t".join(row) + "\n")
            f.write("not\ta\trow\n")
            f.write("\t".join(["x"] + row[1:]) + "\n")
        skipped = collections.Counter()
        try:
            self.assertEqual(build_places.feature_codes(f.name, skipped), {7: "PPLA"})
        finally:
            os.unlink(f.name)
        self.assertEqual(sum(skipped.values()), 2)

    def test_latin_script(self):
        self.assertTrue(build_places.is_latin("Zürich"))
        self.assertTrue(build_places.is_latin("São Paulo-2"))
        self.assertFalse(build_places.is_latin("Москва"))
        self.assertFalse(build_places.is_latin("東京"))

    def test_minzooms_in_maplibre_tile_zooms(self):
        # Ranks 1-6 are stored from the tile zoom the renderer reads at Google's zoom rank + 1 (issue 33's zoom
        # convention: camera zoom - 1), ranks 7-9 one zoom later (the budget), national capitals by 2, suburbs
        # only in the top zoom's tiles; countries 0-3 by Natural Earth's label rank.
        self.assertEqual([build_places.place_minzoom(r, False, "city") for r in range(1, 10)],
                         [1, 2, 3, 4, 5, 6, 8, 9, 10])
        self.assertEqual(build_places.place_minzoom(4, True, "city"), 2)
        self.assertEqual(build_places.place_minzoom(1, True, "city"), 1)
        self.assertEqual(build_places.place_minzoom(2, False, "suburb"), 10)
        self.assertEqual([build_places.country_minzoom(lr) for lr in (1, 2, 3, 4, 5, 9)], [0, 0, 1, 2, 3, 3])

    def test_country_names_in_other_languages(self):
        names = build_places.country_names(
            {"NAME": "Finland", "NAME_EN": "Finland", "NAME_DE": "Finnland", "NAME_ZHT": "芬蘭", "NAME_SV": " ",
             "NAME_FR": None, "NAME_XX": "?"})
        self.assertEqual(names, {"name_de": "Finnland", "name_zht": "芬蘭"})
        columns = build_places.name_columns()
        self.assertIn("name_zht", columns)
        self.assertNotIn("name_en", columns)
        self.assertTrue(all(len(c) <= 10 for c in columns))  # shapefile field names

    def test_bad_numbers(self):
        self.assertIsNone(build_places.number("x"))
        self.assertIsNone(build_places.number(float("nan")))
        self.assertIsNone(build_places.number(None))
        self.assertEqual(build_places.number("1.5"), 1.5)


class MergeTests(unittest.TestCase):
    def test_same_layer_of_two_tiles_is_joined_with_one_key_table(self):
        a = make_layer([({"class": encode_value_string("a")}, b"\x09\x02\x02")], name=b"place")
        b = make_layer([({"name": encode_value_string("B"), "class": encode_value_string("a")}, b"\x09\x04\x04")],
                       name=b"place")
        c = make_layer([({"class": encode_value_string("w")}, b"\x09\x06\x06")], name=b"water")
        merged = mbtiles_merge.merge_tiles([gzip.compress(a), gzip.compress(b + c)])
        layers = [mc.fields(layer) for _, _, layer in mc.fields(gzip.decompress(merged))]
        names = [next(v for num, _, v in fs if num == 1) for fs in layers]
        self.assertEqual(names, [b"place", b"water"])
        feats = decode(merged)
        self.assertEqual(feats[0], ({"class": encode_value_string("a")}, b"\x09\x02\x02"))
        self.assertEqual(feats[1][0], {"name": encode_value_string("B"), "class": encode_value_string("a")})
        self.assertEqual(feats[2][0], {"class": encode_value_string("w")})
        self.assertEqual(merged[4:8], b"\x00\x00\x00\x00")  # gzip without timestamp


@unittest.skipIf(simplify_zooms is None, "python3-gdal (osgeo) not importable")
class SimplifyZoomTests(unittest.TestCase):
    def test_pixel_in_degrees_shrinks_towards_the_poles(self):
        self.assertAlmostEqual(simplify_zooms.pixel_degrees(0, 0), 360 / 256)
        self.assertAlmostEqual(simplify_zooms.pixel_degrees(10, 60), 360 / 256 / 1024 / 2)


class JoinPiecesTests(unittest.TestCase):
    def test_pieces_meeting_end_to_end_become_one_line(self):
        out = gshhg_extract.join_pieces([[(1, 0), (2, 0)], [(0, 0), (1, 0)], [(3, 0), (2, 0)]])
        self.assertEqual(len(out), 1)
        self.assertEqual(sorted([out[0][0], out[0][-1]]), [(0, 0), (3, 0)])
        self.assertEqual(len(out[0]), 4)

    def test_a_junction_of_three_stops_the_join(self):
        out = gshhg_extract.join_pieces([[(0, 0), (1, 0)], [(1, 0), (2, 0)], [(1, 0), (1, 1)]])
        self.assertEqual(len(out), 3)


class GlyphTests(unittest.TestCase):
    def test_text_fields_evaluate_as_the_styles_write_them(self):
        field = ["coalesce", ["get", "name:latin"], ["get", "name"]]
        self.assertEqual(build_glyphs.evaluate(field, {"name": "Москва", "name:latin": "Moskva"}, "t"), "Moskva")
        self.assertEqual(build_glyphs.evaluate(field, {"name": "Helsinki"}, "t"), "Helsinki")
        self.assertIsNone(build_glyphs.evaluate(field, {}, "t"))
        self.assertEqual(build_glyphs.evaluate(["to-string", ["get", "housenumber"]], {"housenumber": "12a"}, "t"), "12a")
        with self.assertRaises(SystemExit):
            build_glyphs.evaluate(["case", True, "a", "b"], {}, "t")

    def test_a_number_value_reads_as_to_string_writes_it(self):
        self.assertEqual(build_glyphs.value_string(b"\x19" + struct.pack("<d", 12.0)), "12")
        self.assertEqual(build_glyphs.value_string(b"\x0a\x02\xc3\xa4"), "\u00e4")

    def test_a_range_pbf_is_one_fontstack_with_its_glyphs_in_order(self):
        glyph = (bytes(range(7 * 8)), 1, 2, -1, -20, 5)
        data = build_glyphs.range_pbf("Noto Sans Regular", 256, [(257, glyph), (300, (b"", 0, 0, 0, 0, 4))])
        (num, _, stack), = list(mc.fields(data))
        self.assertEqual(num, 1)
        parts = list(mc.fields(stack))
        self.assertEqual(parts[0][2], b"Noto Sans Regular")
        self.assertEqual(parts[1][2], b"256-511")
        first = {n: v for n, _, v in mc.fields(parts[2][2])}
        self.assertEqual((first[1], first[3], first[4], first[7]), (257, 1, 2, 5))
        self.assertEqual(first[2], glyph[0])
        self.assertEqual((first[5] >> 1) ^ -(first[5] & 1), -1)  # zigzag
        self.assertEqual((first[6] >> 1) ^ -(first[6] & 1), -20)
        second = {n: v for n, _, v in mc.fields(parts[3][2])}
        self.assertEqual((second[1], second[7]), (300, 4))
        self.assertNotIn(2, second)  # no bitmap for an empty glyph


if __name__ == "__main__":
    unittest.main()
