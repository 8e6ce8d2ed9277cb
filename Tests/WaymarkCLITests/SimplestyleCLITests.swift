import Foundation
import MapDrawing
import MapDrawingCairo
import MapTestSupport
import Testing

/// `waymark snapshot --markers` and `--overlays` with simplestyle properties (found by the session-11 new-user trial:
/// `marker-color` was ignored, and bad overlay properties were replaced, or drew nothing, without a word).
@Suite struct SimplestyleCLITests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-style-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Degrees of longitude per point at Google zoom 16 (256-point tiles): 40 points is 0.000858306884765625°.
    static let fortyPoints = 40 * 360 / (256 * 65536.0)

    /// The `[red, green, blue]` of the pixel at (`x`, `y`) (opaque map pixels: premultiplying changes nothing).
    func rgb(_ image: RasterImage, _ x: Int, _ y: Int) -> [Int] {
        let i = (y * image.width + x) * 4
        return [Int(image.pixels[i + 2]), Int(image.pixels[i + 1]), Int(image.pixels[i])]
    }

    /// Whether two colours are within 8 per channel (anti-aliasing and PNG are exact here, but a map pixel is not
    /// pure blue by chance).
    func near(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 8 } }

    @Test func markersTakeMarkerColorAndMarkerSize() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lon = 24.9443
        let markers = try write(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"marker-color":"#0000ff","marker-size":"large"},
             "geometry":{"type":"Point","coordinates":[\(lon - Self.fortyPoints),60.1699]}},
            {"type":"Feature","properties":{"marker-color":"0f0","marker-symbol":"cafe"},
             "geometry":{"type":"Point","coordinates":[\(lon),60.1699]}},
            {"type":"Feature","properties":{"marker-color":"blue","marker-size":"huge"},
             "geometry":{"type":"Point","coordinates":[\(lon + Self.fortyPoints),60.1699]}}
            ]}
            """, "markers.geojson")
        let out = folder.appendingPathComponent("m.png").path
        let result = try WaymarkProcess.run(
            ["snapshot", "--camera", "60.1699,\(lon),16", "--size", "200x100", "--markers", markers, "-o", out],
            environment: Fixtures.fontEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(image.width == 200 && image.height == 100)
        // Centres at x = 60, 100, 140 (y = 50): blue, green, and the default red for the unusable colour.
        #expect(near(rgb(image, 60, 50), [0, 0, 255]), "\(rgb(image, 60, 50))")
        #expect(near(rgb(image, 100, 50), [0, 255, 0]), "\(rgb(image, 100, 50))")
        #expect(near(rgb(image, 140, 50), [0xEA, 0x43, 0x35]), "\(rgb(image, 140, 50))")
        // Large (radius 9) is still blue 6.5 points from its centre; medium (radius 6) is in its white ring there.
        #expect(near(rgb(image, 66, 50), [0, 0, 255]), "\(rgb(image, 66, 50))")
        #expect(near(rgb(image, 146, 50), [255, 255, 255]), "\(rgb(image, 146, 50))")
        let file = "markers file '\(markers)'"
        #expect(
            result.stderr.components(separatedBy: "\n").filter { $0.contains("warning") } == [
                "waymark snapshot: warning: \(file): feature 2: \"marker-color\" \"blue\" is not a #rgb or #rrggbb "
                    + "colour; drawn in the default #ea4335",
                "waymark snapshot: warning: \(file): feature 2: \"marker-size\" \"huge\" is not small, medium or "
                    + "large; drawn medium (the default)",
                "waymark snapshot: warning: \(file): feature 1: \"marker-symbol\" \"cafe\" is not drawn (markers are "
                    + "plain circles)",
            ], "\(result.stderr)")
    }

    @Test func badOverlayPropertiesAreNamedAndDrawnWithTheirFallbacks() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let overlays = try write(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"stroke":"#ff0000","stroke-width":1e9},
             "geometry":{"type":"LineString","coordinates":[[24.93,60.1699],[24.96,60.1699]]}},
            {"type":"Feature","properties":{"fill":"notacolor","fill-opacity":1,"stroke-width":-3},
             "geometry":{"type":"Polygon","coordinates":[[[24.9433,60.1705],[24.9453,60.1705],[24.9453,60.1709],
             [24.9433,60.1709],[24.9433,60.1705]]]}},
            {"type":"Feature","properties":{"stroke-width":"NaN","stroke-opacity":"half","stroke":null},
             "geometry":{"type":"LineString","coordinates":[[24.93,60.169],[24.96,60.169]]}},
            {"type":"Feature","properties":{"stroke-width":1e999,"fill-opacity":7},
             "geometry":{"type":"LineString","coordinates":[[24.93,60.168],[24.96,60.168]]}}
            ]}
            """, "overlays.geojson")
        let out = folder.appendingPathComponent("o.png").path
        let result = try WaymarkProcess.run(
            [
                "snapshot", "--camera", "60.1699,24.9443,16", "--size", "200x200", "--overlays", overlays, "--strict",
                "-o", out,
            ], environment: Fixtures.fontEnvironment)
        // Every feature is drawn (a value replaced is not a dropped one): --strict does not fail.
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
        // The 1e9-wide red line is drawn 100 points wide across the centre (y = 100): red 45 points above it, not
        // 55 points above it (it drew nothing before).
        #expect(near(rgb(image, 100, 55), [255, 0, 0]), "\(rgb(image, 100, 55))")
        #expect(!near(rgb(image, 100, 45), [255, 0, 0]), "\(rgb(image, 100, 45))")
        // The polygon (y ≈ 16…45) is filled with the default #555555.
        #expect(near(rgb(image, 100, 30), [0x55, 0x55, 0x55]), "\(rgb(image, 100, 30))")
        let file = "overlays file '\(overlays)'"
        let expected = [
            "feature 0: \"stroke-width\" 1000000000 is more than 100; drawn 100 points wide",
            "feature 1: \"stroke-width\" -3 is negative; drawn 2 points wide (the default)",
            "feature 1: \"fill\" \"notacolor\" is not a #rgb or #rrggbb colour; drawn in the default #555555",
            "feature 2: \"stroke-width\" \"NaN\" is not a finite number; drawn 2 points wide (the default)",
            "feature 2: \"stroke-opacity\" \"half\" is not a number; drawn at the default 1",
            "feature 3: \"stroke-width\" inf is not a finite number; drawn 2 points wide (the default)",
            "feature 3: \"fill-opacity\" 7 is outside 0…1; drawn at 1",
        ].map { "waymark snapshot: warning: \(file): \($0)" }
        #expect(
            result.stderr.components(separatedBy: "\n").filter { $0.contains("warning") } == expected,
            "\(result.stderr)")
    }

    /// A file with many unusable properties names the first 20 on stderr, then how many more (not one line each).
    @Test func manyUnusablePropertiesAreNamedTwentyThenCounted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let features = (0..<500).map { k in
            """
            {"type":"Feature","properties":{"marker-color":"nope\(k)"},
             "geometry":{"type":"Point","coordinates":[24.9443,60.1699]}}
            """
        }
        let markers = try write(
            "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}", "many.geojson")
        let out = folder.appendingPathComponent("many.png").path
        let result = try WaymarkProcess.run(
            ["snapshot", "--camera", "60.1699,24.9443,16", "--size", "100x100", "--markers", markers, "-o", out],
            environment: Fixtures.fontEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.components(separatedBy: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 21)
        #expect(warnings.first?.contains("feature 0: \"marker-color\" \"nope0\"") == true, "\(warnings)")
        #expect(warnings.dropLast().last?.contains("feature 19: ") == true, "\(warnings)")
        #expect(warnings.last == "waymark snapshot: warning: … and 480 more from markers file '\(markers)'")
    }

}
