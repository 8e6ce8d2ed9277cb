import Foundation
import MapData
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

/// The outcome of one case.
public struct RenderTestResult: Sendable {
    /// How a case ended.
    public enum Status: String, Sendable {
        /// The image matched an expected image within `allowed`.
        case passed
        /// The image differed by more than `allowed`, had the wrong size, or rendering threw.
        case failed
        /// The case needs something Waymark does not support (see ``RenderTestSettings/skipReason``).
        case skipped
    }

    /// The case.
    public var testCase: RenderTestCase
    /// Passed, failed or skipped.
    public var status: Status
    /// The smallest fraction of differing pixels over the expected images, when compared.
    public var difference: Double?
    /// The case's `allowed` fraction.
    public var allowed: Double
    /// Why it failed or was skipped; empty on success.
    public var message: String

    /// The report line: `PASS name (diff 0.000000)`, `FAIL name (diff 0.012345 > 0.000150)`, `SKIP name: reason`.
    public var line: String {
        let d = difference.map { String(format: "%.6f", $0) }
        switch status {
        case .passed: return "PASS \(testCase.name) (diff \(d ?? "-"))"
        case .failed:
            if let d {
                return
                    "FAIL \(testCase.name) (diff \(d) > \(String(format: "%.6f", allowed)))\(message.isEmpty ? "" : ": " + message)"
            }
            return "FAIL \(testCase.name): \(message)"
        case .skipped: return "SKIP \(testCase.name): \(message)"
        }
    }
}

/// Counts of one layer-type group.
public struct RenderTestTally: Sendable, Equatable {
    /// Cases that passed.
    public var passed = 0
    /// Cases that failed.
    public var failed = 0
    /// Cases skipped.
    public var skipped = 0
    /// Failed cases whose difference was at most 1 % of the pixels (near misses: rasterisation, not features).
    public var nearMisses = 0
    /// All cases.
    public var total: Int { passed + failed + skipped }
    /// `passed / total` in percent (skipped cases count as not passing); 0 for no cases.
    public var percent: Double { total == 0 ? 0 : 100 * Double(passed) / Double(total) }
}

/// Runs MapLibre render-test cases through ``MapRenderer`` and the Cairo backend and compares with ``PixelMatch``.
///
/// Per case: parse `style.json`, read ``RenderTestSettings`` (skip when unsupported), resolve sources (`local://X`
/// → `<assetsRoot>/X`: vector `tiles` templates through ``DirectoryTileSource``, GeoJSON inline or by URL through
/// ``GeoJSONTileSource`` with one layer named `_geojson`), render at `width × height` points and `pixelRatio`, with
/// MapLibre's 512-point tiles (camera zoom = style zoom + 1), no attribution, through the frame path and caches
/// `GMSMapView` uses (tile images per layer run for flat frames, ``MapRenderOptions``' defaults), and compare with
/// each `expected*.png` (pass when the smallest difference ratio ≤ `allowed`).
///
/// Thread rules: use from one thread (it owns a Cairo backend).
public final class RenderTestRunner {
    /// Where `actual.png` and `diff.png` go (`<outputDirectory>/<case name>/`), or `nil` to write nothing.
    public var outputDirectory: URL?
    /// The per-pixel YIQ threshold (default ``PixelMatch/defaultThreshold``).
    public var threshold = PixelMatch.defaultThreshold
    let backend = CairoBackend()

    /// Creates a runner.
    public init(outputDirectory: URL? = nil) { self.outputDirectory = outputDirectory }

    /// Runs one case; never throws (errors become failed results).
    public func run(_ testCase: RenderTestCase) -> RenderTestResult {
        var result = RenderTestResult(testCase: testCase, status: .failed, difference: nil, allowed: 0, message: "")
        let styleURL = testCase.directory.appendingPathComponent("style.json")
        guard let data = try? Data(contentsOf: styleURL) else {
            result.message = "cannot read \(styleURL.path)"
            return result
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: Array(data)) } catch {
            result.message = "style.json: \(error)"
            return result
        }
        let settings = RenderTestSettings(style: json)
        result.allowed = settings.allowed
        if let reason = settings.skipReason {
            result.status = .skipped
            result.message = reason
            return result
        }
        do {
            let actual = try render(settings, assetsRoot: testCase.assetsRoot, caseDirectory: testCase.directory)
            var best: (ratio: Double, diff: RasterImage?)?
            var sizeProblem = ""
            for url in testCase.expectedImages {
                let expected = try PNGCodec.read(path: url.path)
                guard
                    let match = PixelMatch.compare(
                        actual, expected, threshold: threshold, makeDiff: outputDirectory != nil)
                else {
                    sizeProblem =
                        "size \(actual.width)x\(actual.height) differs from \(url.lastPathComponent) "
                        + "\(expected.width)x\(expected.height)"
                    continue
                }
                if best == nil || match.ratio < best!.ratio { best = (match.ratio, match.diff) }
            }
            if let out = outputDirectory {
                let dir = out.appendingPathComponent(testCase.name)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try PNGCodec.write(actual, to: dir.appendingPathComponent("actual.png").path)
                if let diff = best?.diff { try PNGCodec.write(diff, to: dir.appendingPathComponent("diff.png").path) }
            }
            guard let best else {
                result.message = sizeProblem
                return result
            }
            result.difference = best.ratio
            result.status = best.ratio <= settings.allowed ? .passed : .failed
        } catch {
            result.message = "\(error)"
        }
        return result
    }

    /// Renders a case's style at its settings.
    func render(_ settings: RenderTestSettings, assetsRoot: URL, caseDirectory: URL) throws -> RasterImage {
        let style = Style(json: settings.style, baseDirectory: caseDirectory.path)
        // The frame path and caches `GMSMapView` uses (tile images for flat frames), with MapLibre's tile size.
        var options = MapRenderOptions(tileSize: 512, drawsAttribution: false, baseAttribution: nil)
        options.rasterDecoder = PixbufRasterDecoder()
        options.placement.crossSourceCollisions = settings.crossSourceCollisions
        options.debugOverlays = settings.debugOverlays
        let renderer = try MapRenderer(style: style, backend: backend, options: options) { id, source in
            try Self.tileSource(id: id, source: source, assetsRoot: assetsRoot)
        }
        if let url = style.sprite, let path = Self.localPath(url, assetsRoot: assetsRoot),
            let sheet = Self.loadSprite(path, pixelRatio: settings.pixelRatio)
        {
            renderer.setSprite(sheet)
        }
        if let template = style.glyphs, template.hasPrefix("local://") {
            renderer.setGlyphs(Self.glyphStore(template: template, assetsRoot: assetsRoot))
        }
        let camera = CameraState(
            center: LatLng(latitude: settings.center.latitude, longitude: settings.center.longitude),
            zoom: settings.zoom + 1, bearing: settings.bearing, pitch: settings.pitch,
            size: ScreenSize(width: Double(settings.width), height: Double(settings.height)))
        return try renderer.render(camera: camera, scale: settings.pixelRatio)
    }

    /// A sprite sheet `<base>.json` + `<base>.png`; at a pixel ratio above 1 the `@2x` files when present (as
    /// MapLibre picks them). `nil` when unreadable.
    static func loadSprite(_ base: String, pixelRatio: Double) -> SpriteSheet? {
        for suffix in pixelRatio > 1 ? ["@2x", ""] : [""] {
            guard let json = FileManager.default.contents(atPath: base + suffix + ".json"),
                let index = try? JSONValue.parse(bytes: [UInt8](json)),
                let image = try? PNGCodec.read(path: base + suffix + ".png")
            else { continue }
            return SpriteSheet(image: image, index: SpriteIndex(json: index))
        }
        return nil
    }

    /// The glyph PBFs of a `local://…/{fontstack}/{range}.pbf` template, read from files under `assetsRoot` (a
    /// fontstack without files has no glyphs: its text is drawn with the backend's fonts).
    static func glyphStore(template: String, assetsRoot: URL) -> GlyphStore {
        GlyphStore { fontstack, start in
            let url = template.replacingOccurrences(of: "{fontstack}", with: fontstack)
                .replacingOccurrences(of: "{range}", with: "\(start)-\(start + 255)")
            guard let path = localPath(url, assetsRoot: assetsRoot),
                let data = FileManager.default.contents(atPath: path)
            else { return nil }
            return [UInt8](data)
        }
    }

    /// `local://X` → `<assetsRoot>/X` (percent escapes decoded); other strings unchanged.
    static func localPath(_ url: String, assetsRoot: URL) -> String? {
        guard url.hasPrefix("local://") else { return nil }
        let rest = String(url.dropFirst("local://".count))
        return assetsRoot.appendingPathComponent(rest.removingPercentEncoding ?? rest).path
    }

    /// The tile source of a style source, or `nil` when it is not a local vector or GeoJSON source.
    static func tileSource(id: String, source: StyleSource, assetsRoot: URL) throws -> (any TileSource)? {
        switch source {
        case .vector(let v):
            let minZoom = Int(max(0, min(30, v.minzoom)))
            let maxZoom = Int(max(0, min(30, v.maxzoom)))
            if let template = v.tiles.first, template.hasPrefix("local://") {
                return try DirectoryTileSource(
                    directory: assetsRoot, template: String(template.dropFirst("local://".count)),
                    zoomRange: minZoom...max(minZoom, maxZoom))
            }
            if let url = v.url, let path = localPath(url, assetsRoot: assetsRoot),
                let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
                let tilejson = try? JSONValue.parse(bytes: Array(data)),
                let template = tilejson["tiles"]?.arrayValue?.first?.stringValue, template.hasPrefix("local://")
            {
                let minZoom = Int(max(0, min(30, tilejson["minzoom"]?.numberValue ?? 0)))
                let maxZoom = Int(max(0, min(30, tilejson["maxzoom"]?.numberValue ?? 14)))
                return try DirectoryTileSource(
                    directory: assetsRoot, template: String(template.dropFirst("local://".count)),
                    zoomRange: minZoom...max(minZoom, maxZoom))
            }
            return nil
        case .geojson(var g):
            // The fixtures name their GeoJSON `local://…`: mapped to the file here, then cut into tiles as any
            // style's GeoJSON source is (`SourceOpener`; no network: the suite reads only its own files).
            if let url = g.url, let path = localPath(url, assetsRoot: assetsRoot) { g.path = path }
            guard g.data != nil || g.path != nil else { return nil }
            return try SourceOpener(handlers: []).open(id: id, source: .geojson(g))
        case .raster(let r):
            guard let template = r.tiles.first, template.hasPrefix("local://") else { return nil }
            let minZoom = Int(max(0, min(30, r.minzoom)))
            return try DirectoryTileSource(
                directory: assetsRoot, template: String(template.dropFirst("local://".count)),
                zoomRange: minZoom...max(minZoom, Int(max(0, min(30, r.maxzoom)))))
        case .unsupported:
            return nil
        }
    }

    /// Runs cases in order, calling `report` after each; returns the results.
    public func run(_ cases: [RenderTestCase], report: (RenderTestResult) -> Void = { _ in }) -> [RenderTestResult] {
        var results: [RenderTestResult] = []
        for c in cases {
            let r = run(c)
            report(r)
            results.append(r)
        }
        return results
    }

    /// Tallies per layer-type group (``RenderTestCase/group``) plus `all`.
    public static func tally(_ results: [RenderTestResult]) -> [String: RenderTestTally] {
        var out: [String: RenderTestTally] = [:]
        for r in results {
            for key in [r.testCase.group, "all"] {
                var t = out[key] ?? RenderTestTally()
                switch r.status {
                case .passed: t.passed += 1
                case .failed:
                    t.failed += 1
                    if let d = r.difference, d <= 0.01 { t.nearMisses += 1 }
                case .skipped: t.skipped += 1
                }
                out[key] = t
            }
        }
        return out
    }

    /// `N passed, M failed` plus `, K skipped` when any were skipped.
    public static func summaryLine(_ results: [RenderTestResult]) -> String {
        let t = tally(results)["all"] ?? RenderTestTally()
        return "\(t.passed) passed, \(t.failed) failed" + (t.skipped > 0 ? ", \(t.skipped) skipped" : "")
    }
}

/// An error carrying a message.
struct RuntimeMessage: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
