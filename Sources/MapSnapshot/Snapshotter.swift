// Snapshotter — the thin host glue over MapPipeline: a CairoBackend, `mbtiles://` sources through MBTilesSource,
// `Data/` lookup, PNG output. MapPipeline itself imports no C; this target is where the C-backed pieces are chosen.
//
//     let snapshotter = try Snapshotter()                       // Data/styles/default.json, found like Data/ files
//     let png = try snapshotter.png(camera: Snapshotter.demoCamera)
//
// Hosts with other sources (GeoJSON as MVT) build a `MapRenderer` themselves and fall back on
// `Snapshotter.mbtilesResolver` for vector sources.
import Foundation
import MapData
import MapGeometry
import MapPipeline
import MapRender
import MapRenderCairo
import MapStorage
import MapStyle

/// Headless map snapshots: a ``MapRenderer`` drawing a style with Cairo and Pango.
///
/// Thread rules: one snapshotter per thread (it owns a Cairo backend and the renderer's caches).
public final class Snapshotter {
    /// The renderer (for display lists, statistics and options).
    public let renderer: MapRenderer
    /// The Cairo backend the renderer draws with.
    public let backend: CairoBackend

    /// The demo view: central Helsinki at street level (60.1699° N, 24.9415° E, zoom 16), 1280×720 points.
    public static let demoCamera = CameraState(
        center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, size: ScreenSize(width: 1280, height: 720))

    /// Opens every `mbtiles://` vector source with ``MBTilesSource``; other sources resolve to `nil` (not drawn).
    /// - Throws: `MBTilesError` naming the file when it cannot be opened.
    /// - Parameters:
    ///   - id: the style source id (unused).
    ///   - source: the style source.
    public static func mbtilesResolver(_ id: String, _ source: StyleSource) throws -> (any TileSource)? {
        guard case .vector(let v) = source, let path = v.mbtilesPath else { return nil }
        return try MBTilesSource(path: path)
    }

    /// Creates a snapshotter for a style file.
    /// - Parameters:
    ///   - styleFile: a style JSON path; `nil` means `Data/styles/default.json` found by ``DataFiles/locate(_:)``.
    ///   - options: renderer options. Defaults to the renderer's defaults.
    ///   - resolveSource: the source resolver. Defaults to ``mbtilesResolver``.
    /// - Throws: `StyleLoadError` for an unreadable or unparseable style, ``MapRendererError`` when a source cannot
    ///   be opened.
    public init(
        styleFile: String? = nil, options: MapRenderOptions = MapRenderOptions(),
        resolveSource: TileSourceResolver = Snapshotter.mbtilesResolver
    ) throws {
        let path = styleFile ?? DataFiles.locate("styles/default.json")
        let style = try Style.load(contentsOfFile: path)
        backend = CairoBackend()
        renderer = try MapRenderer(style: style, backend: backend, options: options, resolveSource: resolveSource)
    }

    /// Creates a snapshotter for a parsed style.
    /// - Parameters:
    ///   - style: the style.
    ///   - options: renderer options.
    ///   - resolveSource: the source resolver. Defaults to ``mbtilesResolver``.
    /// - Throws: ``MapRendererError`` when a source cannot be opened.
    public init(
        style: Style, options: MapRenderOptions = MapRenderOptions(),
        resolveSource: TileSourceResolver = Snapshotter.mbtilesResolver
    ) throws {
        backend = CairoBackend()
        renderer = try MapRenderer(style: style, backend: backend, options: options, resolveSource: resolveSource)
    }

    /// Renders a frame (see ``MapRenderer/render(camera:scale:overlay:)``).
    public func render(camera: CameraState, scale: Double = 1, overlay: [DrawCommand] = []) throws -> RasterImage {
        try renderer.render(camera: camera, scale: scale, overlay: overlay)
    }

    /// Renders a frame of `size` points.
    public func render(camera: CameraState, size: ScreenSize, scale: Double = 1) throws -> RasterImage {
        try renderer.render(camera: camera, size: size, scale: scale)
    }

    /// Renders a frame as PNG bytes.
    public func png(camera: CameraState, scale: Double = 1, overlay: [DrawCommand] = []) throws -> [UInt8] {
        try PNGCodec.encode(render(camera: camera, scale: scale, overlay: overlay))
    }

    /// Circle markers for GeoJSON `Point` features (a red dot with a white ring), in screen points for `camera`.
    /// - Parameter geojson: a FeatureCollection, Feature or geometry; non-point features are ignored.
    public static func markerCommands(geojson: JSONValue, camera: CameraState) -> [DrawCommand] {
        var points: [LatLng] = []
        func visit(_ v: JSONValue) {
            switch v["type"]?.stringValue {
            case "FeatureCollection": v["features"]?.arrayValue?.forEach(visit)
            case "Feature": if let g = v["geometry"] { visit(g) }
            case "Point":
                if let c = v["coordinates"]?.arrayValue, c.count >= 2, let lon = c[0].numberValue,
                    let lat = c[1].numberValue
                {
                    points.append(LatLng(latitude: lat, longitude: lon))
                }
            case "MultiPoint":
                for c in v["coordinates"]?.arrayValue ?? [] {
                    if let c = c.arrayValue, c.count >= 2, let lon = c[0].numberValue, let lat = c[1].numberValue {
                        points.append(LatLng(latitude: lat, longitude: lon))
                    }
                }
            default: break
            }
        }
        visit(geojson)
        let transform = camera.transform
        return points.compactMap { p in
            guard transform.depth(of: WebMercator.worldPoint(p)) > 0 else { return nil }
            let s = transform.screenPoint(for: p)
            return .circle(
                CircleCommand(
                    center: RenderPoint(x: s.x, y: s.y), radius: 6, fillColor: RGBAColor(rgb: 0xea4335),
                    strokeColor: .white, strokeWidth: 2))
        }
    }
}

/// Finds files under the repository's `Data/` folder from wherever the program runs.
public enum DataFiles {
    /// The path of `Data/<relativePath>`: under `$WAYMARK_DATA_DIR` when set; else the first existing one in the
    /// working directory or an ancestor, then beside the executable or an ancestor (so `.build/release/waymark`
    /// finds the checkout's `Data/`); else the working-directory candidate (for the "not found" message). The same
    /// order `GMSGeocoder` uses for `Data/geocoder.sqlite`.
    /// - Parameter relativePath: for example `styles/default.json` or `helsinki-pois.geojson`.
    public static func locate(_ relativePath: String) -> String {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["WAYMARK_DATA_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent(relativePath).path
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent().standardizedFileURL
        var candidates: [String] = []
        for start in [cwd, exe] {
            var dir = start
            while candidates.count < 128 {
                candidates.append(dir.appendingPathComponent("Data").appendingPathComponent(relativePath).path)
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[0]
    }
}
