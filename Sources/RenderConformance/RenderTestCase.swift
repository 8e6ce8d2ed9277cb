import Foundation
import MapPipeline
import MapStyle

/// One MapLibre render-test case: a folder with `style.json` and one or more `expected*.png`.
///
/// Settings come from the style's `metadata.test` (MapLibre's render-test format): `width`/`height` in points
/// (default 512), `pixelRatio` (default 1), `allowed` (fraction of differing pixels tolerated, default 0.00015),
/// `operations` (applied to the style before rendering when Waymark supports them). The camera comes from the style
/// root: `center` `[lon, lat]` (default 0, 0), `zoom` (default 0, MapLibre's 512-point tiles), `bearing`, `pitch`.
public struct RenderTestCase: Sendable {
    /// The case name: its path below the `render-tests` folder (or below the scanned folder), e.g.
    /// `background-color/literal`.
    public var name: String
    /// The case folder.
    public var directory: URL
    /// The expected images (`expected.png`, `expected1.png`, …); a case passes when any one matches.
    public var expectedImages: [URL]

    /// Creates a case from its folder and name.
    public init(name: String, directory: URL, expectedImages: [URL]) {
        self.name = name
        self.directory = directory
        self.expectedImages = expectedImages
    }

    /// The layer-type group used in reports: the first path component's prefix `background`, `fill-extrusion`,
    /// `fill`, `line`, `circle`, `symbol` (also for `icon-*` and `text-*`), `heatmap`, `hillshade`, else `other`.
    public var group: String {
        let first = name.split(separator: "/").first.map(String.init) ?? name
        // `fill-extrusion` before `fill`: the longer prefix wins.
        for prefix in ["background", "fill-extrusion", "fill", "line", "circle", "symbol", "heatmap", "hillshade"]
        where first.hasPrefix(prefix + "-") {
            return prefix
        }
        if first.hasPrefix("icon-") || first.hasPrefix("text-") { return "symbol" }
        return "other"
    }

    /// Every ``group`` in report order.
    public static let groups = [
        "background", "fill", "fill-extrusion", "line", "circle", "symbol", "heatmap", "hillshade", "other",
    ]

    /// Finds the cases under `directory` (recursively), sorted by name.
    /// - Parameters:
    ///   - directory: a suite folder (`metrics/integration`, its `render-tests`, a property folder or one case).
    ///   - filter: keep only names containing this substring (`nil` keeps all). A pattern with `*` matches as a glob
    ///     against the whole name.
    /// - Returns: every folder holding a `style.json` and at least one `expected*.png`, sorted by name; empty when
    ///   there are none or `directory` cannot be read (unreadable folders are skipped).
    public static func discover(in directory: URL, filter: String? = nil) -> [RenderTestCase] {
        let fm = FileManager.default
        let root = directory.standardizedFileURL
        var found: [RenderTestCase] = []
        var stack = [root]
        while let dir = stack.popLast() {
            guard let entries = try? fm.contentsOfDirectory(atPath: dir.path) else { continue }
            let expected = entries.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted()
            if entries.contains("style.json") && !expected.isEmpty {
                let name = caseName(dir, root: root)
                found.append(
                    RenderTestCase(
                        name: name, directory: dir, expectedImages: expected.map { dir.appendingPathComponent($0) }))
                continue
            }
            for e in entries {
                var isDirectory: ObjCBool = false
                let url = dir.appendingPathComponent(e)
                if fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    stack.append(url)
                }
            }
        }
        if let filter, !filter.isEmpty {
            found = found.filter { matches($0.name, pattern: filter) }
        }
        return found.sorted { $0.name < $1.name }
    }

    /// The name below the nearest `render-tests` folder, else relative to the scanned root (the folder's own name
    /// when the root is the case itself).
    static func caseName(_ dir: URL, root: URL) -> String {
        let parts = dir.pathComponents
        if let i = parts.lastIndex(of: "render-tests"), i + 1 < parts.count {
            return parts[(i + 1)...].joined(separator: "/")
        }
        let rootParts = root.pathComponents
        if parts.count > rootParts.count, Array(parts.prefix(rootParts.count)) == rootParts {
            return parts[rootParts.count...].joined(separator: "/")
        }
        return dir.lastPathComponent
    }

    /// Substring match, or a glob (`*` any run of characters) against the whole name when the pattern has a `*`.
    static func matches(_ name: String, pattern: String) -> Bool {
        guard pattern.contains("*") else { return name.contains(pattern) }
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var rest = Substring(name)
        for (i, piece) in pieces.enumerated() {
            if i == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if i == pieces.count - 1 {
                return piece.isEmpty || rest.hasSuffix(piece)
            } else if let r = rest.range(of: piece) {
                rest = rest[r.upperBound...]
            } else {
                return false
            }
        }
        return rest.isEmpty
    }

    /// Whether `url` is `folder` or lies below it, compared by path components after resolving symbolic links of
    /// the longest existing ancestor of `url` (so a folder that does not exist yet is still placed correctly).
    public static func isInside(_ url: URL, _ folder: URL) -> Bool {
        var existing = url.standardizedFileURL
        var tail: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
            tail.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        let resolved = existing.resolvingSymlinksInPath().pathComponents.filter { $0 != "/" } + tail
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents.filter { $0 != "/" }
        return resolved.count >= base.count && Array(resolved.prefix(base.count)) == base
    }

    /// The folder `local://` URLs point into: the parent of the nearest `render-tests` folder above the case
    /// (MapLibre's `metrics/integration`), else the case's parent's parent.
    public var assetsRoot: URL {
        var url = directory
        while url.pathComponents.count > 1 {
            if url.lastPathComponent == "render-tests" { return url.deletingLastPathComponent() }
            url = url.deletingLastPathComponent()
        }
        return directory.deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// The settings of a case, read from its style and with supported operations applied.
public struct RenderTestSettings: Sendable {
    /// View width in points (default 512).
    public var width = 512
    /// View height in points (default 512).
    public var height = 512
    /// Device pixels per point (default 1).
    public var pixelRatio = 1.0
    /// Tolerated fraction of differing pixels (default 0.00015).
    public var allowed = 0.00015
    /// Camera centre longitude, latitude in degrees.
    public var center = (longitude: 0.0, latitude: 0.0)
    /// MapLibre zoom (512-point tiles).
    public var zoom = 0.0
    /// Degrees clockwise from north.
    public var bearing = 0.0
    /// Degrees from the nadir.
    public var pitch = 0.0
    /// `metadata.test.crossSourceCollisions`: labels of different sources collide. Default `true`.
    public var crossSourceCollisions = true
    /// `metadata.test.collisionDebug` and `metadata.test.debug`: the debug overlays to draw (collision shapes, tile
    /// borders), as MapLibre's runner sets `MapDebugOptions::Collision` and `TileBorders`. Default none.
    public var debugOverlays: MapDebugOverlays = []
    /// Why the case cannot run, when it cannot (unsupported operation or mode); it is then reported as skipped.
    public var skipReason: String?
    /// The style JSON after operations, with `source-layer` set to `_geojson` on GeoJSON-sourced layers.
    public var style: JSONValue = .null

    /// Reads the settings and applies the operations Waymark supports to the style JSON.
    ///
    /// Supported operations (applied in order, so the final state is rendered): `wait` and `idle` (no effect: Waymark has no
    /// transitions), `setZoom`, `setCenter`, `setBearing`, `setPitch`, `setLayerZoomRange`, `setPaintProperty`,
    /// `setLayoutProperty`, `setFilter`, `removeLayer`. Property changes under a style transition with a positive
    /// duration (the expected image is mid-transition), layers of other types (`color-relief`), any other operation, `mapMode` other than `static`,
    /// `showOverdrawInspector` and `source-replace` make the case skipped (`collisionDebug` and `debug` set
    /// ``debugOverlays``).
    public init(style json: JSONValue) {
        style = json
        guard case .object(var root) = json else {
            skipReason = "style root is not an object"
            return
        }
        let test = root["metadata"]?["test"]?.objectValue ?? [:]
        if let w = test["width"]?.numberValue { width = Int(w) }
        if let h = test["height"]?.numberValue { height = Int(h) }
        if let r = test["pixelRatio"]?.numberValue, r > 0 { pixelRatio = r }
        if let a = test["allowed"]?.numberValue { allowed = a }
        if let c = test["crossSourceCollisions"]?.boolValue { crossSourceCollisions = c }
        // MapLibre's runner turns on its debug options when the keys are present, whatever their values.
        if test["collisionDebug"] != nil { debugOverlays.insert(.collisionShapes) }
        if test["debug"] != nil { debugOverlays.insert(.tileBorders) }
        if test["showOverdrawInspector"]?.boolValue == true {
            skipReason = "metadata.test.showOverdrawInspector is not supported"
        }
        if let mode = test["mapMode"]?.stringValue, mode != "static" {
            skipReason = "mapMode \(mode) is not supported"
        }
        if test["source-replace"] != nil { skipReason = "source-replace (MLT tiles) is not supported" }
        let supportedTypes: Set<String> = [
            "background", "fill", "line", "circle", "symbol", "raster", "heatmap", "hillshade", "fill-extrusion",
        ]
        for layer in root["layers"]?.arrayValue ?? [] {
            if let type = layer["type"]?.stringValue, !supportedTypes.contains(type) {
                skipReason = "layer type \(type) is not supported"
            }
        }
        let operations = test["operations"]?.arrayValue ?? []
        let changesProperties = operations.contains {
            ["setPaintProperty", "setLayoutProperty"].contains($0.arrayValue?.first?.stringValue ?? "")
        }
        if changesProperties && Self.hasTransitions(root) {
            skipReason = "property transitions are not supported (the expected image is mid-transition)"
        }
        for (i, op) in operations.enumerated() {
            guard let args = op.arrayValue, let name = args.first?.stringValue else {
                skipReason = "operations[\(i)] is malformed"
                break
            }
            if let reason = Self.apply(name, Array(args.dropFirst()), to: &root) {
                skipReason = "operation \(name): \(reason)"
                break
            }
        }
        // MapLibre ignores `source-layer` for GeoJSON sources; Waymark's GeoJSON tiles have one layer named
        // `_geojson`, which every layer on a GeoJSON source reads.
        let geojsonSources = Set(
            (root["sources"]?.objectValue ?? [:]).filter { $0.value["type"]?.stringValue == "geojson" }.keys)
        if case .array(var layers)? = root["layers"] {
            for i in layers.indices {
                if case .object(var layer) = layers[i], let source = layer["source"]?.stringValue,
                    geojsonSources.contains(source)
                {
                    layer["source-layer"] = .string("_geojson")
                    layers[i] = .object(layer)
                }
            }
            root["layers"] = .array(layers)
        }
        style = .object(root)
        if let c = root["center"]?.arrayValue, c.count >= 2, let lon = c[0].numberValue, let lat = c[1].numberValue {
            center = (lon, lat)
        }
        zoom = root["zoom"]?.numberValue ?? 0
        bearing = root["bearing"]?.numberValue ?? 0
        pitch = root["pitch"]?.numberValue ?? 0
    }

    /// Whether the style asks for a property transition with a positive duration (root `transition` or a layer's
    /// `*-transition` paint property).
    static func hasTransitions(_ root: [String: JSONValue]) -> Bool {
        if let d = root["transition"]?["duration"]?.numberValue, d > 0 { return true }
        for layer in root["layers"]?.arrayValue ?? [] {
            for (key, value) in layer["paint"]?.objectValue ?? [:] where key.hasSuffix("-transition") {
                if let d = value["duration"]?.numberValue, d > 0 { return true }
            }
        }
        return false
    }

    /// Applies one operation to the style root; returns why it cannot, or `nil` when done.
    static func apply(_ name: String, _ args: [JSONValue], to root: inout [String: JSONValue]) -> String? {
        func withLayer(_ id: String?, _ change: (inout [String: JSONValue]) -> Void) -> String? {
            guard let id, case .array(var layers)? = root["layers"] else { return "missing layer id" }
            guard let i = layers.firstIndex(where: { $0["id"]?.stringValue == id }),
                case .object(var layer) = layers[i]
            else { return "no layer \(id)" }
            change(&layer)
            layers[i] = .object(layer)
            root["layers"] = .array(layers)
            return nil
        }
        switch name {
        case "wait", "idle": return nil
        case "setZoom":
            guard let z = args.first?.numberValue else { return "needs a number" }
            root["zoom"] = .number(z)
        case "setBearing":
            guard let b = args.first?.numberValue else { return "needs a number" }
            root["bearing"] = .number(b)
        case "setPitch":
            guard let p = args.first?.numberValue else { return "needs a number" }
            root["pitch"] = .number(p)
        case "setCenter":
            guard let c = args.first, c.arrayValue != nil else { return "needs [lon, lat]" }
            root["center"] = c
        case "setLayerZoomRange":
            guard args.count >= 3 else { return "needs id, min, max" }
            return withLayer(args[0].stringValue) { layer in
                layer["minzoom"] = args[1] == .null ? nil : args[1]
                layer["maxzoom"] = args[2] == .null ? nil : args[2]
            }
        case "setPaintProperty", "setLayoutProperty":
            guard args.count >= 3, let property = args[1].stringValue else { return "needs id, name, value" }
            let group = name == "setPaintProperty" ? "paint" : "layout"
            return withLayer(args[0].stringValue) { layer in
                var values = layer[group]?.objectValue ?? [:]
                values[property] = args[2] == .null ? nil : args[2]
                layer[group] = .object(values)
            }
        case "setFilter":
            guard args.count >= 2 else { return "needs id, filter" }
            return withLayer(args[0].stringValue) { layer in layer["filter"] = args[1] == .null ? nil : args[1] }
        case "removeLayer":
            guard let id = args.first?.stringValue, case .array(let layers)? = root["layers"] else {
                return "needs a layer id"
            }
            root["layers"] = .array(layers.filter { $0["id"]?.stringValue != id })
        default:
            return "not supported"
        }
        return nil
    }
}
