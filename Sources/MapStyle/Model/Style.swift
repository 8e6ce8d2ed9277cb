import FoundationEssentials

/// A parsed MapLibre style (specification v8): sources, layers in drawing order, and the diagnostics found while
/// loading.
///
/// Loading never fails on content problems: each is a ``StyleDiagnostic`` with a JSON path and the rest of the style
/// loads. Only an unreadable or unparseable file throws ``StyleLoadError``. Immutable after loading and `Sendable`.
/// Source: MapLibre style specification (https://maplibre.org/maplibre-style-spec/).
public struct Style: Sendable {
    /// The spec version; Waymark supports 8.
    public var version: Int
    /// The style's `name`, or `nil`.
    public var name: String?
    /// The sources by name.
    public var sources: [String: StyleSource]
    /// The `sprite` URL as written (a relative one resolved against ``baseURL`` when that is set), or `nil`.
    public var sprite: String?
    /// The `glyphs` URL template as written (a relative one resolved against ``baseURL`` when that is set), or
    /// `nil`. Waymark draws text with Pango; glyph PBFs are decoded into a `GlyphStore` for renderers that want them.
    public var glyphs: String?
    /// The default camera centre `[longitude, latitude]` in degrees, or `nil`.
    public var center: [Double]?
    /// The default camera zoom, or `nil`.
    public var zoom: Double?
    /// The layers that loaded, bottom to top (skipped layers are absent and have a diagnostic).
    public var layers: [StyleLayer]
    /// Every problem found, in document order.
    public var diagnostics: [StyleDiagnostic]
    /// The folder relative URLs are resolved against (the style file's folder), or `nil` for in-memory styles.
    public var baseDirectory: String?
    /// The URL of a style document loaded over HTTP (or any URL the caller names), or `nil`. When set, relative
    /// references in the style — `sprite`, `glyphs`, source `url` and `tiles` entries, GeoJSON `data` URLs and the
    /// archive URL after `pmtiles://` — resolve against it (RFC 3986, ``StyleURL``), as MapLibre resolves them;
    /// without it they resolve against ``baseDirectory`` as file paths.
    public var baseURL: URL? = nil
    /// The root `light` (lights `fill-extrusion` layers); the spec defaults when the style has none.
    public var light = StyleLight()

    /// The error diagnostics only.
    public var errors: [StyleDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The layer with an id, or `nil`.
    /// - Parameter id: the layer id.
    /// - Returns: the layer.
    public func layer(id: String) -> StyleLayer? { layers.first { $0.id == id } }

    /// Loads a style file.
    /// - Parameter path: the file path; relative `mbtiles://` and GeoJSON URLs resolve against its folder.
    /// - Returns: the style with its diagnostics.
    /// - Throws: ``StyleLoadError`` naming the file when it cannot be read, is not JSON (with line and column), or
    ///   its root is not an object.
    public static func load(contentsOfFile path: String) throws(StyleLoadError) -> Style {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StyleLoadError(
                file: path, line: nil, column: nil,
                message: "cannot read the file (\(readFailureReason(error)))")
        }
        return try parse(bytes: Array(data), fileName: path, baseDirectory: StylePath.directory(of: path))
    }

    /// Parses style JSON text.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON.
    ///   - fileName: the name used in errors. Defaults to `<string>`.
    ///   - baseDirectory: the folder relative URLs resolve against, or `nil`. Defaults to `nil`.
    ///   - baseURL: the URL relative references resolve against (``baseURL``), or `nil`. Defaults to `nil`.
    /// - Returns: the style with its diagnostics.
    /// - Throws: ``StyleLoadError`` on a JSON syntax error or a non-object root.
    public static func parse(
        bytes: [UInt8], fileName: String = "<string>", baseDirectory: String? = nil, baseURL: URL? = nil
    ) throws(StyleLoadError) -> Style {
        let json: JSONValue
        var parser = JSONParser(bytes)
        parser.lines = [:]
        do {
            json = try parser.parseDocument()
        } catch {
            throw StyleLoadError(
                file: fileName, line: error.line, column: error.column, message: "not JSON: \(error.message)")
        }
        guard case .object = json else {
            throw StyleLoadError(
                file: fileName, line: nil, column: nil, message: "the root must be an object, found \(json.typeName)")
        }
        var style = Style(json: json, baseDirectory: baseDirectory, baseURL: baseURL)
        let lines = parser.lines ?? [:]
        for i in style.diagnostics.indices {
            // The nearest enclosing value that exists in the file (expression keys and missing members are trimmed).
            var path = style.diagnostics[i].path
            while !path.isEmpty && lines[path] == nil {
                if let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) {
                    path = String(path[..<cut])
                } else {
                    path = ""
                }
            }
            style.diagnostics[i].line = lines[path]
        }
        return style
    }
}

extension Style {
    /// Builds a style from parsed JSON; every problem becomes a diagnostic.
    /// - Parameters:
    ///   - json: the style document.
    ///   - baseDirectory: the folder relative URLs resolve against, or `nil`. Defaults to `nil`.
    ///   - baseURL: the document's URL, which relative references resolve against first (``baseURL``), or `nil`.
    ///     Defaults to `nil`.
    public init(json: JSONValue, baseDirectory: String? = nil, baseURL: URL? = nil) {
        var loader = StyleLoader(baseDirectory: baseDirectory, baseURL: baseURL)
        self = loader.load(json)
    }

    /// The style's `sprite`, `glyphs` and `sources` only, its `layers` not read: enough to ask where a style reads
    /// from (MapNetwork's `SourceOpener.needsNetwork(_:)`) without compiling its layers. Waymark's own.
    /// - Parameters:
    ///   - json: the style document.
    ///   - baseDirectory: the folder relative URLs resolve against, or `nil`. Defaults to `nil`.
    ///   - baseURL: the document's URL (``baseURL``), or `nil`. Defaults to `nil`.
    public init(resourcesOf json: JSONValue, baseDirectory: String? = nil, baseURL: URL? = nil) {
        var loader = StyleLoader(baseDirectory: baseDirectory, baseURL: baseURL)
        loader.readsLayers = false
        self = loader.load(json)
    }
}

/// The loading logic behind ``Style/init(json:baseDirectory:)``.
struct StyleLoader {
    let baseDirectory: String?
    let baseURL: URL?
    var diagnostics: [StyleDiagnostic] = []
    /// Whether ``load(_:)`` reads `layers` (``Style/init(resourcesOf:baseDirectory:baseURL:)`` does not).
    var readsLayers = true

    init(baseDirectory: String?, baseURL: URL? = nil) {
        self.baseDirectory = baseDirectory
        self.baseURL = baseURL
    }

    /// A URL reference from the document: as written when it has a scheme; else resolved against ``baseURL``
    /// (RFC 3986), else — with `files` — a `file://` URL of the path under ``baseDirectory``; else as written.
    func resolved(_ reference: String, files: Bool = true) -> String {
        if StyleURL.hasScheme(reference) { return reference }
        if let baseURL { return StyleURL.resolve(reference, against: baseURL) }
        guard files, let baseDirectory else { return reference }
        return StyleURL.fileURL(path: StylePath.resolve(reference, against: baseDirectory))
    }

    /// A source `url`: a relative one resolved as ``resolved(_:files:)``, and the archive URL after `pmtiles://`
    /// against ``baseURL`` when that is set (local `pmtiles://` paths keep their own rule, against the folder).
    func resolvedSourceURL(_ url: String) -> String {
        if url.hasPrefix("pmtiles://") {
            let rest = String(url.dropFirst("pmtiles://".count))
            guard baseURL != nil, !StyleURL.hasScheme(rest) else { return url }
            return "pmtiles://" + resolved(rest)
        }
        return resolved(url)
    }

    /// Whether the document came over the network (``baseURL`` is `http(s)`): it may then name only `http(s)`
    /// resources, never local files (`mbtiles://`, local `pmtiles://`, `file://`, paths; docs/BEHAVIOUR.md D23).
    var isRemote: Bool {
        let scheme = baseURL?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    /// Whether a resolved reference names a local file: no `http(s)://` scheme (``StyleURL/isHTTP(_:)``).
    static func isLocal(_ reference: String) -> Bool { !StyleURL.isHTTP(reference) }

    /// The first local file a source would read, or `nil` when it reads only over `http(s)`
    /// (``TileLocation/localFile`` for tile sources).
    static func localReference(of source: StyleSource) -> String? {
        switch source {
        case .vector(let v): return v.location?.localFile
        case .raster(let r): return r.location?.localFile
        case .geojson(let g):
            return g.path ?? g.url.flatMap { isLocal($0) ? $0 : nil }
        case .unsupported: return nil
        }
    }

    /// A reference cut for a message (a 50 MB URL is not echoed whole).
    static func short(_ text: String) -> String {
        text.count <= 200 ? text : "\(text.prefix(120))…(\(text.count - 180) characters)…\(text.suffix(60))"
    }

    mutating func error(_ path: String, _ message: String) { diagnostics.append(.init(.error, path: path, message)) }
    mutating func warning(_ path: String, _ message: String) {
        diagnostics.append(.init(.warning, path: path, message))
    }

    static let knownRootKeys: Set<String> = [
        "version", "name", "metadata", "center", "zoom", "bearing", "pitch", "light", "sky", "terrain", "sources",
        "sprite", "glyphs", "transition", "layers", "projection", "state", "centerAltitude", "roll",
        "font-faces",
    ]

    mutating func load(_ json: JSONValue) -> Style {
        var style = Style(
            version: 8, name: nil, sources: [:], sprite: nil, glyphs: nil, center: nil, zoom: nil, layers: [],
            diagnostics: [], baseDirectory: baseDirectory, baseURL: baseURL)
        let root = json.objectValue ?? [:]
        for key in root.keys.sorted() where !Self.knownRootKeys.contains(key) {
            warning(key, "unknown property \"\(key)\"; ignored")
        }
        switch root["version"] {
        case .number(8)?: break
        case nil: error("version", "missing required property \"version\" (must be 8)")
        case let v?:
            error("version", "expected 8, found \(v.numberValue.map(ExpressionValue.formatNumber) ?? v.typeName)")
        }
        if root["constants"] != nil { error("constants", "constants have been deprecated as of v8; ignored") }
        for key in ["bearing", "pitch", "roll", "centerAltitude"] {
            if let v = root[key], v.numberValue == nil { error(key, "number expected, \(v.typeName) found; ignored") }
        }
        for key in ["light", "sky", "terrain", "projection", "state", "transition", "font-faces"] {
            if let v = root[key], v.objectValue == nil { error(key, "object expected, \(v.typeName) found; ignored") }
        }
        if case .object(let light)? = root["light"] {
            validateLight(light)
            style.light = StyleLight(json: light)
        }
        if case .object(let terrain)? = root["terrain"] { validateTerrain(terrain) }
        if let n = root["name"] {
            if let s = n.stringValue { style.name = s } else { error("name", "expected string, found \(n.typeName)") }
        }
        if let s = root["sprite"] {
            if let str = s.stringValue {
                style.sprite = resolved(str, files: false)
            } else if case .array = s {
                style.sprite = nil
                warning("sprite", "multiple sprites are not supported; ignored")
            } else {
                error("sprite", "expected string, found \(s.typeName)")
            }
        }
        if isRemote, let sprite = style.sprite, Self.isLocal(sprite) {
            error("sprite", "a style loaded over the network may not read local files (\(Self.short(sprite))); ignored")
            style.sprite = nil
        }
        if let g = root["glyphs"] {
            if let str = g.stringValue {
                style.glyphs = resolved(str)
                for token in ["{fontstack}", "{range}"] where !str.contains(token) {
                    error("glyphs", "\"glyphs\" url must include a \"\(token)\" token")
                }
            } else {
                error("glyphs", "expected string, found \(g.typeName)")
            }
        }
        if isRemote, let glyphs = style.glyphs, Self.isLocal(glyphs) {
            error("glyphs", "a style loaded over the network may not read local files (\(Self.short(glyphs))); ignored")
            style.glyphs = nil
        }
        if let c = root["center"] {
            if let a = c.arrayValue, a.count == 2, let lon = a[0].numberValue, let lat = a[1].numberValue {
                style.center = [lon, lat]
            } else {
                error("center", "expected [longitude, latitude]")
            }
        }
        if let z = root["zoom"] {
            if let n = z.numberValue { style.zoom = n } else { error("zoom", "expected number, found \(z.typeName)") }
        }
        switch root["sources"] {
        case .object(let sources)?:
            for name in sources.keys.sorted() {
                guard let s = loadSource(sources[name]!, path: "sources.\(name)") else { continue }
                if isRemote, let local = Self.localReference(of: s) {
                    error(
                        "sources.\(name)",
                        "a style loaded over the network may not read local files (\(Self.short(local))); source skipped"
                    )
                    continue
                }
                style.sources[name] = s
            }
        case nil: error("sources", "missing required property \"sources\"")
        case let v?: error("sources", "expected object, found \(v.typeName)")
        }
        switch readsLayers ? root["layers"] : .array([]) {
        case .array(let layers)?:
            var ids: Set<String> = []
            for (i, layerJSON) in layers.enumerated() {
                if let layer = loadLayer(layerJSON, path: "layers[\(i)]", sources: style.sources) {
                    if ids.contains(layer.id) {
                        error("layers[\(i)].id", "duplicate layer id \"\(layer.id)\"; layer skipped")
                        continue
                    }
                    ids.insert(layer.id)
                    style.layers.append(layer)
                }
            }
        case nil: error("layers", "missing required property \"layers\"")
        case let v?: error("layers", "expected array, found \(v.typeName)")
        }
        style.diagnostics = diagnostics
        return style
    }

    /// Checks the root `light` object (``StyleLight`` reads its constant values for `fill-extrusion` layers).
    mutating func validateLight(_ light: [String: JSONValue]) {
        for key in light.keys.sorted() {
            let value = light[key]!
            let path = "light." + key
            switch key {
            case "anchor":
                if !(value == .string("map") || value == .string("viewport")) {
                    error(path, "expected one of [map, viewport], \(value.typeName) found")
                }
            case "position":
                if let a = value.arrayValue {
                    if a.count != 3 { error(path, "array length 3 expected, length \(a.count) found") }
                } else if !LegacyConversion.isFunction(value) {
                    error(path, "array expected, \(value.typeName) found")
                }
            case "color":
                if let s = value.stringValue {
                    if StyleColor(css: s) == nil { error(path, "color expected, \"\(s)\" found") }
                } else if !LegacyConversion.isFunction(value) {
                    error(path, "color expected, \(value.typeName) found")
                }
            case "intensity":
                if let n = value.numberValue {
                    if n < 0 || n > 1 { error(path, "\(ExpressionValue.formatNumber(n)) is outside 0…1") }
                } else if !LegacyConversion.isFunction(value) {
                    error(path, "number expected, \(value.typeName) found")
                }
            default:
                if !key.hasSuffix("-transition") { error(path, "unknown property \"\(key)\"") }
            }
        }
    }

    /// Checks the root `terrain` object (Waymark draws no terrain, so it is validated and otherwise ignored).
    mutating func validateTerrain(_ terrain: [String: JSONValue]) {
        if let source = terrain["source"] {
            if source.stringValue == nil { error("terrain.source", "string expected, \(source.typeName) found") }
        } else {
            error("terrain.source", "missing required property \"source\"")
        }
        if let e = terrain["exaggeration"], e.numberValue == nil {
            error("terrain.exaggeration", "number expected, \(e.typeName) found")
        }
    }

    mutating func zoomValue(_ json: JSONValue?, _ path: String, default def: Double) -> Double {
        guard let json else { return def }
        guard let n = json.numberValue else {
            error(path, "expected number, found \(json.typeName); using \(ExpressionValue.formatNumber(def))")
            return def
        }
        if n < 0 || n > 24 {
            error(path, "\(ExpressionValue.formatNumber(n)) is outside 0…24; clamped")
            return min(max(n, 0), 24)
        }
        return n
    }

    mutating func loadSource(_ json: JSONValue, path: String) -> StyleSource? {
        guard case .object(let o) = json else {
            error(path, "expected object, found \(json.typeName); source skipped")
            return nil
        }
        guard let type = o["type"]?.stringValue else {
            error(path + ".type", "missing required property \"type\"; source skipped")
            return nil
        }
        let attribution = o["attribution"]?.stringValue
        switch type {
        case "vector":
            var source = VectorSource(
                url: nil, tiles: [], minzoom: zoomValue(o["minzoom"], path + ".minzoom", default: 0),
                maxzoom: zoomValue(o["maxzoom"], path + ".maxzoom", default: 22), attribution: attribution)
            let fields = loadTileFields(o, path: path, raster: false, defaultBounds: TileJSON.worldBounds)
            (source.url, source.tiles, source.location) = (fields.url, fields.tiles, fields.location)
            (source.scheme, source.bounds) = (fields.scheme.rawValue, fields.bounds)
            if source.minzoom > source.maxzoom {
                error(path + ".minzoom", "minzoom is greater than maxzoom")
            }
            return .vector(source)
        case "geojson":
            var source = GeoJSONSource(
                data: nil, url: nil, path: nil, maxzoom: zoomValue(o["maxzoom"], path + ".maxzoom", default: 18),
                attribution: attribution)
            if case .bool(let b)? = o["lineMetrics"] { source.lineMetrics = b }
            if let b = o["buffer"] {
                if let n = b.numberValue, n.isFinite, n >= 0, n <= 512 {
                    source.buffer = n
                } else {
                    error(path + ".buffer", "expected a number from 0 to 512; using 128")
                }
            }
            switch o["data"] {
            case .string(let written)?:
                let url = resolved(written, files: false)
                source.url = url
                if url.hasPrefix("file://") {
                    source.path = StylePath.resolve(String(url.dropFirst("file://".count)), against: baseDirectory)
                } else if !url.contains("://") {
                    source.path = StylePath.resolve(url, against: baseDirectory)
                }
            case .object?: source.data = o["data"]
            case nil: error(path + ".data", "missing required property \"data\"")
            case let v?: error(path + ".data", "expected a GeoJSON object or a URL, found \(v.typeName)")
            }
            return .geojson(source)
        case "raster": return .raster(loadRasterSource(o, path: path))
        case "raster-dem":
            var source = loadRasterSource(o, path: path)
            source.demEncoding = .mapbox
            if let e = o["encoding"] {
                if let name = e.stringValue, let encoding = DEMEncoding(rawValue: name) {
                    source.demEncoding = encoding
                } else {
                    error(path + ".encoding", "expected \"mapbox\" or \"terrarium\"; using \"mapbox\"")
                }
            }
            return .raster(source)
        case "image", "video":
            warning(path + ".type", "source type \"\(type)\" is not supported; its layers are not drawn")
            return .unsupported(type: type)
        default:
            error(path + ".type", "unknown source type \"\(type)\"; source skipped")
            return nil
        }
    }

    static let layerKeys: Set<String> = [
        "id", "type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint", "metadata",
    ]

    mutating func loadLayer(_ json: JSONValue, path: String, sources: [String: StyleSource]) -> StyleLayer? {
        guard case .object(let o) = json else {
            error(path, "expected object, found \(json.typeName); layer skipped")
            return nil
        }
        guard let id = o["id"]?.stringValue else {
            error(path + ".id", "missing required property \"id\"; layer skipped")
            return nil
        }
        if o["ref"] != nil {
            error(path + ".ref", "\"ref\" is not supported; layer skipped")
            return nil
        }
        guard let typeName = o["type"]?.stringValue else {
            error(path + ".type", "missing required property \"type\"; layer skipped")
            return nil
        }
        guard let type = StyleLayerType(rawValue: typeName) else {
            let known = ["sky", "color-relief"]
            if known.contains(typeName) {
                let needs: [String: String] = [
                    "hillshade": "raster-dem", "color-relief": "raster-dem",
                ]
                if let required = needs[typeName], let name = o["source"]?.stringValue, let source = sources[name] {
                    var actual = "geojson"
                    if case .vector = source { actual = "vector" }
                    if case .raster(let r) = source { actual = r.demEncoding == nil ? "raster" : "raster-dem" }
                    if case .unsupported(let t) = source { actual = t }
                    if actual != required {
                        error(path, "layer \"\(id)\" requires a \(required) source; layer skipped")
                        return nil
                    }
                }
                warning(path + ".type", "layer type \"\(typeName)\" is not supported; layer skipped")
            } else {
                error(path + ".type", "unknown layer type \"\(typeName)\"; layer skipped")
            }
            return nil
        }
        for key in o.keys.sorted() where !Self.layerKeys.contains(key) {
            warning(path + "." + key, "unknown property \"\(key)\"; ignored")
        }
        var layer = StyleLayer(
            id: id, type: type, source: nil, sourceLayer: nil,
            minzoom: zoomValue(o["minzoom"], path + ".minzoom", default: 0),
            maxzoom: zoomValue(o["maxzoom"], path + ".maxzoom", default: 24), filter: nil, isVisible: true, paint: [:],
            layout: [:])
        if type != .background {
            guard let sourceName = o["source"]?.stringValue else {
                error(path + ".source", "missing required property \"source\"; layer skipped")
                return nil
            }
            guard let source = sources[sourceName] else {
                error(path + ".source", "source \"\(sourceName)\" not found; layer skipped")
                return nil
            }
            if let problem = rasterSourceMismatch(layerType: type, source: source, name: sourceName) {
                error(path, "layer \"\(id)\" \(problem); layer skipped")
                return nil
            }
            if case .unsupported(let sourceType) = source {
                error(
                    path, "layer \"\(id)\" requires a vector source, \"\(sourceName)\" is \(sourceType); layer skipped")
                return nil
            }
            layer.source = sourceName
            if case .geojson = source {
                // MapLibre ignores `source-layer` on a GeoJSON source: its tiles have one layer.
                layer.sourceLayer = GeoJSONSource.layerName
            } else if let sl = o["source-layer"] {
                if let s = sl.stringValue {
                    layer.sourceLayer = s
                } else {
                    error(path + ".source-layer", "expected string, found \(sl.typeName)")
                }
            } else if case .vector = source {
                error(path + ".source-layer", "layers of a vector source need \"source-layer\"; layer skipped")
                return nil
            }
            if let f = o["filter"] {
                for key in LegacyConversion.mixedLegacyParts(f) {
                    warning(
                        path + ".filter" + key,
                        "mixing deprecated filter syntax with expression syntax is not supported; this part is read "
                            + "as an expression")
                }
                do {
                    layer.filter = try StyleFilter.compile(f)
                } catch {
                    for e in error.errors {
                        self.error(path + ".filter" + e.key, "\(e.message); the layer draws nothing")
                    }
                    layer.filter = try? StyleFilter.compile(.bool(false))
                }
            }
        } else if o["filter"] != nil {
            warning(path + ".filter", "background layers have no filter; ignored")
        }
        if layer.minzoom > layer.maxzoom { error(path + ".minzoom", "minzoom is greater than maxzoom") }
        layer.layout = loadProperties(o["layout"], path: path + ".layout", type: type, isLayout: true)
        layer.paint = loadProperties(o["paint"], path: path + ".paint", type: type, isLayout: false)
        if let v = layer.layout["visibility"]?.constantValue, v == .string("none") { layer.isVisible = false }
        return layer
    }

    /// Spec properties of the supported layer types that Waymark does not implement (warnings, not errors).
    static let unsupportedProperties: Set<String> = [
        "line-trim-offset", "text-overlap", "icon-overlap",
        "symbol-screen-space", "text-emissive-strength", "resampling",
    ]
    static let unsupportedPrefixes = ["raster-", "color-relief-"]

    /// Whether `json` holds an `interpolate` expression (Waymark does not interpolate anchor-offset collections).
    static func interpolates(_ json: JSONValue) -> Bool {
        guard case .array(let items) = json else { return false }
        if case .string(let op)? = items.first, op.hasPrefix("interpolate") { return true }
        return items.contains(where: interpolates)
    }

    mutating func validateTransition(_ json: JSONValue, path: String) {
        guard case .object(let o) = json else {
            error(path, "object expected, \(json.typeName) found")
            return
        }
        for key in o.keys.sorted() {
            guard key == "duration" || key == "delay" else {
                error(path, "unknown property \"\(key)\"")
                continue
            }
            guard let n = o[key]!.numberValue else {
                error(path + "." + key, "number expected, \(o[key]!.typeName) found")
                continue
            }
            if n < 0 { error(path + "." + key, "\(ExpressionValue.formatNumber(n)) is less than the minimum value 0") }
        }
    }

    mutating func loadProperties(_ json: JSONValue?, path: String, type: StyleLayerType, isLayout: Bool)
        -> [String: StyleProperty]
    {
        guard let json else { return [:] }
        guard case .object(let o) = json else {
            error(path, "expected object, found \(json.typeName); ignored")
            return [:]
        }
        var result: [String: StyleProperty] = [:]
        for name in o.keys.sorted() {
            let value = o[name]!
            let propertyPath = path + "." + name
            if !isLayout && name.hasSuffix("-transition") {
                let base = String(name.dropLast("-transition".count))
                if let baseSpec = StylePropertySpec.named(base), baseSpec.isInterpolated, !baseSpec.isLayout {
                    validateTransition(value, path: propertyPath)
                } else if Self.unsupportedProperties.contains(base) {
                    continue
                } else {
                    error(propertyPath, "unknown property \"\(name)\"; ignored")
                }
                continue
            }
            guard let spec = StylePropertySpec.named(name) else {
                if Self.unsupportedProperties.contains(name) || Self.unsupportedPrefixes.contains(where: name.hasPrefix)
                {
                    warning(propertyPath, "property \"\(name)\" is not supported; ignored")
                } else {
                    error(propertyPath, "unknown property \"\(name)\"; ignored")
                }
                continue
            }
            guard spec.layerType == nil || spec.layerType == type, spec.isLayout == isLayout else {
                error(
                    propertyPath,
                    "\"\(name)\" is not a \(isLayout ? "layout" : "paint") property of \(type.rawValue) layers; ignored"
                )
                continue
            }
            if spec.name == "visibility", case .string = value {
            } else if spec.name == "visibility" {
                error(propertyPath, "expected \"visible\" or \"none\"; using \"visible\"")
                continue
            }
            if spec.typeName == "variableAnchorOffsetCollection" && Self.interpolates(value) {
                warning(propertyPath, "interpolating \"\(name)\" is not supported; ignored")
                continue
            }
            if let property = StyleProperty.parse(value, spec: spec, path: propertyPath, diagnostics: &diagnostics) {
                result[name] = property
            }
        }
        return result
    }
}

/// A short reason for a failed file read: "no such file", "permission denied", "is a folder", else the error's text.
func readFailureReason(_ error: any Error) -> String {
    guard let e = error as? CocoaError else { return "\(error)" }
    switch e.code {
    case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
    case .fileReadNoPermission: return "permission denied"
    case .fileReadCorruptFile, .fileReadUnknown: return "unreadable"
    default: return "error \(e.code.rawValue)"
    }
}
