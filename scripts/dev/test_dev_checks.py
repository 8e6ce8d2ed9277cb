#!/usr/bin/env python3
"""Unit tests of the repository checks in scripts/dev (run by `make checks`): python3 scripts/dev/test_dev_checks.py"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_data  # noqa: E402
import check_docs  # noqa: E402
import check_graph  # noqa: E402


def target(name, deps=(), kind="regular", path=None):
    t = {"name": name, "type": kind, "dependencies": [{"byName": [d, None]} for d in deps]}
    if path:
        t["path"] = path
    return t


PACKAGE = {
    "targets": [
        target("CLib", kind="system"),
        target("Core"),
        target("Adapter", ["Core", "CLib"]),
        target("UI", ["Core", "_Testing_UI"]),
        target("_Testing_UI"),
        target("tool", ["Adapter", "UI"], kind="executable"),
        target("one-example", ["UI"], kind="executable", path="Examples/One"),
        target("two-example", ["UI", "Core"], kind="executable", path="Examples/Two"),
        target("Support", ["Core"], path="Tests/Support"),
        target("CoreTests", ["Core", "Support"], kind="test"),
    ],
    "_exports": {"UI": {"Core"}},
}

GOOD = """
engine
  Core ──► none
  Adapter ──► Core, CLib          (a comment, ignored)
  UI ──► Core*
tools
  tool ──► Adapter,
           UI
  Examples/* ──► UI, Core
"""


class DiagramTests(unittest.TestCase):
    def problems(self, text):
        return check_graph.diagram_problems(PACKAGE, text)

    def test_matching_diagram_passes(self):
        self.assertEqual(self.problems(GOOD), [])

    def test_missing_edge_fails(self):
        found = self.problems(GOOD.replace("Core, CLib", "Core"))
        self.assertEqual(found, ["ARCHITECTURE.md diagram: Adapter lacks ──► CLib (declared in Package.swift)"])

    def test_undeclared_edge_fails(self):
        found = self.problems(GOOD.replace("  Core ──► none", "  Core ──► CLib"))
        self.assertEqual(found, ["ARCHITECTURE.md diagram: Core ──► CLib, which Package.swift does not declare"])

    def test_missing_target_fails(self):
        found = self.problems(GOOD.replace("  UI ──► Core*\n", ""))
        self.assertEqual(found, ["ARCHITECTURE.md diagram lacks UI (Package.swift declares it)"])

    def test_continuation_line_counts(self):
        found = self.problems(GOOD.replace("Adapter,\n           UI", "Adapter"))
        self.assertEqual(found, ["ARCHITECTURE.md diagram: tool lacks ──► UI (declared in Package.swift)"])

    def test_reexport_star_is_checked_both_ways(self):
        self.assertEqual(
            self.problems(GOOD.replace("UI ──► Core*", "UI ──► Core")),
            ["ARCHITECTURE.md diagram: UI re-exports Core: draw it as Core*"],
        )
        self.assertEqual(
            self.problems(GOOD.replace("Adapter ──► Core, CLib", "Adapter ──► Core*, CLib")),
            ["ARCHITECTURE.md diagram: Adapter ──► Core* but Adapter does not re-export it"],
        )

    def test_examples_are_one_line_of_their_union(self):
        found = self.problems(GOOD.replace("Examples/* ──► UI, Core", "Examples/* ──► UI"))
        self.assertEqual(found, ["ARCHITECTURE.md diagram: Examples/* lacks ──► Core (declared in Package.swift)"])

    def test_unknown_and_duplicate_names_fail(self):
        found = self.problems(GOOD + "  Ghost ──► Core\n  Core ──► none\n")
        self.assertIn("ARCHITECTURE.md diagram draws Ghost, which is not a drawn target of Package.swift", found)
        self.assertTrue(any("Core is on the left twice" in p for p in found))

    def test_diagram_is_found_under_its_heading(self):
        doc = "# A\n\n## The target graph\n\nText.\n\n```\n" + GOOD + "```\n\n## Next\n```\nother\n```\n"
        self.assertEqual(check_graph.diagram_text(doc), GOOD)
        self.assertIsNone(check_graph.diagram_text("# A\n```\nx\n```\n"))


SWIFT = """
public struct CameraTransform {
    public func coveringTiles(tileZoom: Int, minimumTileZoom: Int = 0) -> [Int] { [] }
    public static let shared = CameraTransform()
    init(_ value: Int, label other: String) {}
}
public enum TileLocation {
    case mbtiles(String), pmtiles(String)
}
@MainActor public func UIApplicationMain() {}
"""


class SwiftNameTests(unittest.TestCase):
    def problems(self, markdown):
        with tempfile.TemporaryDirectory() as repo:
            os.makedirs(os.path.join(repo, "Sources/MapGeometry"))
            files = {"Sources/MapGeometry/Camera.swift": SWIFT, "ARCHITECTURE.md": markdown}
            for path, text in files.items():
                with open(os.path.join(repo, path), "w", encoding="utf-8") as handle:
                    handle.write(text)
            return check_docs.swift_names(repo, list(files))

    def test_declared_names_pass(self):
        text = (
            "`CameraTransform.coveringTiles(tileZoom:minimumTileZoom:)`, `CameraTransform.shared`, "
            "`CameraTransform(_:label:)`, `TileLocation.pmtiles`, `UIApplicationMain`, `MapGeometry`, `Data`, "
            "`D7`, `GET`, `TileCover.swift`, `SDL_Delay`, `coveringTiles`\n"
        )
        self.assertEqual(self.problems(text), [])

    def test_unknown_type_fails(self):
        found = self.problems("`TileCover`\n")
        self.assertEqual(found, ["ARCHITECTURE.md:1: `TileCover`: no type TileCover is declared"])

    def test_unknown_member_and_wrong_labels_fail(self):
        found = self.problems("`CameraTransform.nearestCopy` and `CameraTransform.coveringTiles(tileZoom:)`\n")
        self.assertEqual(
            found,
            [
                "ARCHITECTURE.md:1: `CameraTransform.nearestCopy`: CameraTransform declares no nearestCopy",
                "ARCHITECTURE.md:1: `CameraTransform.coveringTiles(tileZoom:)`: CameraTransform declares no "
                "coveringTiles(tileZoom:)",
            ],
        )

    def test_fenced_blocks_are_not_checked(self):
        self.assertEqual(self.problems("```\n`Nowhere`\n```\n"), [])


class DataBudgetTests(unittest.TestCase):
    def make_data(self, folder, world_zoom, extra_bytes):
        import sqlite3

        os.makedirs(folder)
        with sqlite3.connect(os.path.join(folder, "world.mbtiles")) as db:
            db.execute("CREATE TABLE tiles (zoom_level, tile_column, tile_row, tile_data)")
            db.execute("INSERT INTO tiles VALUES (?, 0, 0, x'00')", (world_zoom,))
        with open(os.path.join(folder, "pad.bin"), "wb") as f:
            f.write(b"\0" * extra_bytes)

    def test_within_budget_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "Data")
            self.make_data(data, 9, 100)
            self.assertEqual(check_data.problems(data, budget=1_000_000), [])

    def test_over_budget_names_the_excess(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "Data")
            self.make_data(data, 9, 5000)
            size = check_data.data_bytes(data)
            found = check_data.problems(data, budget=size - 7)
            self.assertEqual(len(found), 1)
            self.assertIn("over the budget", found[0])
            self.assertIn("by 7", found[0])

    def test_world_above_zoom_9_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "Data")
            self.make_data(data, 10, 0)
            self.assertEqual(
                check_data.problems(data, budget=1_000_000),
                ["Data/world.mbtiles has tiles at zoom 10; the bundled world stops at zoom 9"],
            )


if __name__ == "__main__":
    unittest.main()
