import Foundation
import MapDrawing
import MapStyle
import MapTestSupport
import Testing

@testable import RenderConformance

/// A `w × h` opaque image of one colour (BGRA premultiplied).
func solid(_ w: Int, _ h: Int, r: UInt8, g: UInt8, b: UInt8) -> RasterImage {
    var pixels = [UInt8](repeating: 255, count: w * h * 4)
    for i in 0..<(w * h) {
        pixels[i * 4] = b
        pixels[i * 4 + 1] = g
        pixels[i * 4 + 2] = r
    }
    return RasterImage(width: w, height: h, pixels: pixels)
}

func setPixel(_ image: inout RasterImage, _ x: Int, _ y: Int, r: UInt8, g: UInt8, b: UInt8) {
    let i = (y * image.width + x) * 4
    image.pixels[i] = b
    image.pixels[i + 1] = g
    image.pixels[i + 2] = r
}

@Suite struct PixelMatchTests {
    @Test func identicalImagesDoNotDiffer() throws {
        let a = solid(8, 8, r: 10, g: 200, b: 30)
        let result = try #require(PixelMatch.compare(a, a))
        #expect(result.differentPixels == 0)
        #expect(result.ratio == 0)
    }

    @Test func sizeMismatchIsNil() {
        #expect(PixelMatch.compare(solid(2, 2, r: 0, g: 0, b: 0), solid(2, 3, r: 0, g: 0, b: 0)) == nil)
    }

    /// Grey g on white differs only in Y: ΔY = 255 − g, distance 0.5053·ΔY². The limit 35215·0.1285² = 581.47 puts
    /// the boundary at ΔY = √(581.47 / 0.5053) = 33.92: g = 222 (ΔY 33) is the same, g = 221 (ΔY 34) differs.
    /// The pixel is alone in a flat field, so it is not taken for anti-aliasing.
    @Test(arguments: [(UInt8(222), 0), (UInt8(221), 1), (UInt8(0), 1)])
    func yiqThresholdOnGrey(grey: UInt8, expected: Int) throws {
        let white = solid(9, 9, r: 255, g: 255, b: 255)
        var other = white
        setPixel(&other, 4, 4, r: grey, g: grey, b: grey)
        let result = try #require(PixelMatch.compare(other, white))
        #expect(result.differentPixels == expected)
        #expect(abs(result.ratio - Double(expected) / 81) < 1e-12)
    }

    /// Transparent pixels are compared flattened onto white: transparent black equals opaque white.
    @Test func transparentEqualsWhite() throws {
        let clear = RasterImage(width: 4, height: 4)
        let result = try #require(PixelMatch.compare(clear, solid(4, 4, r: 255, g: 255, b: 255)))
        #expect(result.differentPixels == 0)
    }

    /// A one-pixel shift of a hard black/white edge with a grey ramp pixel between: the ramp pixel lies between its
    /// darkest and brightest neighbours, which sit in flat areas, so it is anti-aliasing; with detection off it counts.
    @Test func antiAliasedEdgeIsForgiven() throws {
        func edge(ramp: Int) -> RasterImage {
            var img = solid(10, 10, r: 255, g: 255, b: 255)
            for y in 0..<10 {
                for x in 0..<ramp { setPixel(&img, x, y, r: 0, g: 0, b: 0) }
                setPixel(&img, ramp, y, r: 128, g: 128, b: 128)
            }
            return img
        }
        let a = edge(ramp: 5)
        var b = edge(ramp: 5)
        setPixel(&b, 5, 5, r: 255, g: 255, b: 255)  // the ramp pixel of one row lost its grey
        let strict = try #require(PixelMatch.compare(a, b, detectAntiAliasing: false))
        #expect(strict.differentPixels == 1)
        let lenient = try #require(PixelMatch.compare(a, b))
        #expect(lenient.differentPixels == 0)
    }
}

@Suite struct RenderTestSettingsTests {
    func settings(_ text: String) throws -> RenderTestSettings {
        RenderTestSettings(style: try JSONValue.parse(text))
    }

    @Test func defaults() throws {
        let s = try settings(#"{"version":8,"sources":{},"layers":[]}"#)
        #expect(s.width == 512 && s.height == 512)
        #expect(s.pixelRatio == 1)
        #expect(s.allowed == 0.00015)
        #expect(s.zoom == 0 && s.bearing == 0 && s.pitch == 0)
        #expect(s.skipReason == nil)
    }

    @Test func readsMetadataAndCamera() throws {
        let s = try settings(
            #"{"version":8,"metadata":{"test":{"width":64,"height":32,"pixelRatio":2,"allowed":0.001}},"center":[13.4,52.5],"zoom":14,"bearing":90,"pitch":30,"sources":{},"layers":[]}"#
        )
        #expect(s.width == 64 && s.height == 32 && s.pixelRatio == 2 && s.allowed == 0.001)
        #expect(s.center.longitude == 13.4 && s.center.latitude == 52.5)
        #expect(s.zoom == 14 && s.bearing == 90 && s.pitch == 30)
    }

    @Test func appliesOperationsInOrder() throws {
        let s = try settings(
            #"{"version":8,"metadata":{"test":{"operations":[["wait"],["setZoom",3],["setLayerZoomRange","a",2,5],["setPaintProperty","a","fill-color","red"],["setZoom",4]]}},"sources":{},"layers":[{"id":"a","type":"fill","source":"s"}]}"#
        )
        #expect(s.skipReason == nil)
        #expect(s.zoom == 4)
        let layer = try #require(s.style["layers"]?.arrayValue?.first)
        #expect(layer["minzoom"] == .number(2))
        #expect(layer["maxzoom"] == .number(5))
        #expect(layer["paint"]?["fill-color"] == .string("red"))
    }

    @Test(arguments: [
        #"{"metadata":{"test":{"operations":[["setFeatureState",{},{}]]}},"layers":[]}"#,
        #"{"metadata":{"test":{"showOverdrawInspector":true}},"layers":[]}"#,
        #"{"metadata":{"test":{"mapMode":"tile"}},"layers":[]}"#,
        #"{"layers":[{"id":"r","type":"color-relief","source":"s"}]}"#,
        #"{"metadata":{"test":{"source-replace":[]}},"layers":[]}"#,
        #"{"metadata":{"test":{"operations":[["setPaintProperty","a","background-color","white"],["wait",500]]}},"layers":[{"id":"a","type":"background","paint":{"background-color-transition":{"duration":1000}}}]}"#,
    ])
    func unsupportedCasesAreSkipped(text: String) throws {
        #expect(try settings(text).skipReason != nil)
    }

    /// MapLibre's runner turns `collisionDebug` and `debug` into its Collision and TileBorders debug options.
    @Test func debugKeysSetTheDebugOverlays() throws {
        let collision = try settings(#"{"metadata":{"test":{"collisionDebug":true}},"layers":[]}"#)
        #expect(collision.skipReason == nil)
        #expect(collision.debugOverlays == .collisionShapes)
        let borders = try settings(#"{"metadata":{"test":{"debug":true}},"layers":[]}"#)
        #expect(borders.skipReason == nil)
        #expect(borders.debugOverlays == .tileBorders)
        #expect(try settings(#"{"layers":[]}"#).debugOverlays.isEmpty)
    }

    @Test func geojsonLayersReadTheGeoJSONLayer() throws {
        let s = try settings(
            #"{"sources":{"g":{"type":"geojson","data":{"type":"Point","coordinates":[0,0]}},"v":{"type":"vector","tiles":[]}},"layers":[{"id":"a","type":"circle","source":"g"},{"id":"b","type":"line","source":"v","source-layer":"road"}]}"#
        )
        let layers = try #require(s.style["layers"]?.arrayValue)
        #expect(layers[0]["source-layer"] == .string("_geojson"))
        #expect(layers[1]["source-layer"] == .string("road"))
    }
}

@Suite struct RenderTestCaseTests {
    @Test(arguments: [
        ("background-color/literal", "background"), ("fill-outline-color/x", "fill"), ("line-width/y", "line"),
        ("circle-radius/z", "circle"), ("icon-size/a", "symbol"), ("text-font/b", "symbol"),
        ("symbol-placement/c", "symbol"), ("combinations/fill-opaque--line", "other"), ("filter/in", "other"),
        ("fill-extrusion-base/default", "fill-extrusion"), ("heatmap-radius/pitch30", "heatmap"),
        ("hillshade-accent-color/terrarium", "hillshade"),
    ])
    func groups(name: String, group: String) {
        #expect(RenderTestCase(name: name, directory: URL(fileURLWithPath: "/"), expectedImages: []).group == group)
    }

    @Test(arguments: [
        ("fill-color/literal", "fill", true), ("fill-color/literal", "line", false),
        ("fill-color/literal", "fill-*", true), ("fill-color/literal", "*literal", true),
        ("fill-color/literal", "*/lit", false), ("line-width/literal", "l*-*/lit*", true),
    ])
    func filters(name: String, pattern: String, matches: Bool) {
        #expect(RenderTestCase.matches(name, pattern: pattern) == matches)
    }
}

@Suite struct OutputFolderGuardTests {
    @Test func insideAndOutside() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-guard-\(getpid())")
        let suite = tmp.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        #expect(RenderTestCase.isInside(suite, suite))
        #expect(RenderTestCase.isInside(suite.appendingPathComponent("out/x"), suite))
        #expect(RenderTestCase.isInside(URL(fileURLWithPath: suite.path + "/"), suite))
        #expect(RenderTestCase.isInside(URL(fileURLWithPath: suite.path + "/a/../out"), suite))
        #expect(!RenderTestCase.isInside(tmp.appendingPathComponent("suite-out"), suite))
        #expect(!RenderTestCase.isInside(tmp, suite))
    }
}

/// End to end through `MapRenderer` and Cairo: a fixed subset of MapLibre render tests that Waymark passes
/// (background, fill, line, circle, filter and layer-order cases); a regression in the runner, the GeoJSON source, the directory
/// tile source or the pipeline shows up here.
@Suite struct RenderConformanceEndToEndTests {
    static let passingCases = [
        "background-color/literal", "background-opacity/color", "background-visibility/none",
        "fill-color/literal", "fill-opacity/overlapping", "fill-visibility/none",
        "circle-radius/literal", "circle-color/property-function", "circle-stroke-width/literal",
        "line-join/round", "line-width/zero-width", "filter/in", "zoom-visibility/was-above",
        // Sprite patterns, fill outlines, circles on vertices, layers in style order.
        "background-pattern/literal", "background-pattern/@2x", "background-pattern/rotated",
        "background-pattern/missing", "fill-outline-color/opacity", "fill-outline-color/property-function",
        "fill-pattern/missing", "circle-geometry/polygon", "circle-geometry/linestring",
        "combinations/fill-opaque--background-opaque", "fill-opacity/opaque-fill-over-symbol-layer",
        // Line meshes: road tiles, butt ends, translucent overlap, gap and offset in the shader, the tile stencil
        // under bearing, polygon outlines across tiles, sort keys, pitch.
        "line-color/literal", "line-width/literal", "line-cap/butt", "line-opacity/literal",
        "line-join/miter-transparent", "line-gap-width/literal", "line-offset/literal-negative",
        "line-translate-anchor/viewport", "line-visibility/visible", "line-triangulation/round",
        "line-sort-key/literal", "line-pitch/pitch30",
        // Pattern fills: world-aligned, zoom-scaled, @2x sprites, per-feature images.
        "fill-pattern/literal", "fill-pattern/zoomed", "fill-pattern/@2x", "fill-pattern/case-data-expression",
        "fill-pattern/opacity",
    ]

    /// MapLibre's render tests inside the shared fixtures.
    static let renderTests = "maplibre-native-render/metrics/integration/render-tests"

    @Test(.needsSharedFixtures(renderTests)) func fixedSubsetPasses() throws {
        let all = RenderTestCase.discover(in: try #require(Fixtures.shared(Self.renderTests)))
        #expect(all.count > 400)
        let cases = all.filter { Self.passingCases.contains($0.name) }
        #expect(cases.count == Self.passingCases.count)
        let runner = RenderTestRunner()
        for result in runner.run(cases) {
            #expect(result.status == .passed, "\(result.line)")
        }
    }

    /// A case whose expected image cannot match (a red background against the blue one the fixture expects) fails
    /// with a difference of 1: the comparison is not vacuous.
    @Test(.needsSharedFixtures(renderTests)) func wrongRenderingFails() throws {
        let suite = try #require(Fixtures.shared(Self.renderTests))
        let literal = try #require(RenderTestCase.discover(in: suite, filter: "background-color/literal").first)
        // Expected of another case (blue fill on white) against this case's red background.
        let wrong = suite.appendingPathComponent("fill-color/literal/expected.png")
        let swapped = RenderTestCase(name: literal.name, directory: literal.directory, expectedImages: [wrong])
        let result = RenderTestRunner().run(swapped)
        #expect(result.status == .failed)
        #expect((result.difference ?? 0) > 0.5)
    }
}
