import MapGeometry

/// Serves a GeoJSON document as Mapbox Vector Tiles, cut on demand for any tile (like MapLibre's GeoJSON source).
///
/// Each feature is projected once to normalised Web Mercator world coordinates (x east, y south, the world is the unit
/// square; latitude clamped to ±``WebMercator/maximumLatitude``). A tile request transforms to tile units, clips to
/// the tile plus ``buffer`` on each side (Sutherland–Hodgman for polygon rings, Liang–Barsky for line segments, a box test for
/// points), rounds to integers at ``extent`` and encodes one layer named ``layerName`` with ``MVTEncoder``.
/// A `GeometryCollection` becomes one MVT feature per member type. Numeric non-negative integral ids become MVT ids;
/// other ids are dropped. Property values: strings, booleans, integral numbers (uint or sint), other numbers
/// (double); arrays and objects as compact JSON text; `null` is left out. No simplification is applied.
///
/// With ``lineMetrics`` (the style source's `lineMetrics: true`), every clipped piece of a line becomes a feature of
/// its own carrying `mapbox_clip_start` and `mapbox_clip_end` (doubles `0…1`): where the piece starts and ends as a
/// fraction of its whole line's length measured in Web Mercator (geojson-vt's line metrics, read by MapLibre's
/// `LineBucket` for `line-progress`), so a gradient runs on across tile boundaries.
///
/// Thread rules: an immutable value, safe from any thread.
public struct GeoJSONTileSource: TileSource {
    /// Always 0.
    public let minZoom: Int = 0
    /// The zoom above which callers over-zoom (the style source's `maxzoom`, default 18), clamped to `0...24`.
    public let maxZoom: Int
    /// Name and format (`pbf`) of the source.
    public let metadata: TileSourceMetadata
    /// The MVT layer name written into every tile.
    public let layerName: String
    /// Tile extent in tile units (4096 by default).
    public let extent: Int
    /// Extra tile units kept on each side of the tile when clipping (default `extent / 4`: the style spec's default
    /// `buffer` of 128 on a 512-unit tile).
    public let buffer: Int
    /// Whether clipped line pieces carry `mapbox_clip_start`/`mapbox_clip_end` (see the type's description).
    public let lineMetrics: Bool

    let features: [ProjectedFeature]

    /// Builds the source.
    /// - Parameters:
    ///   - document: the GeoJSON features.
    ///   - layerName: the MVT layer name (`_geojson` by default; MapLibre ignores `source-layer` for GeoJSON sources).
    ///   - maxZoom: the style source's `maxzoom`, clamped to `0...24`; default 18.
    ///   - extent: tile extent, clamped to `256...16384`; default 4096.
    ///   - buffer: clip buffer in tile units, `nil` for `extent / 4`.
    ///   - lineMetrics: split lines into one feature per clipped piece with its line metrics; default `false`.
    public init(
        document: GeoJSONDocument, layerName: String = "_geojson", maxZoom: Int = 18, extent: Int = 4096,
        buffer: Int? = nil, lineMetrics: Bool = false
    ) {
        self.layerName = layerName
        self.lineMetrics = lineMetrics
        self.maxZoom = min(24, max(0, maxZoom))
        self.extent = min(16384, max(256, extent))
        self.buffer = max(0, buffer ?? self.extent / 4)
        var metadata = TileSourceMetadata()
        metadata.name = layerName
        metadata.format = "pbf"
        metadata.minZoom = 0
        metadata.maxZoom = self.maxZoom
        self.metadata = metadata
        var projected: [ProjectedFeature] = []
        for feature in document.features {
            guard let geometry = feature.geometry else { continue }
            projected.append(contentsOf: ProjectedFeature.make(geometry, feature: feature))
        }
        self.features = projected
    }

    /// The encoded tile; `nil` above zoom 24. A tile with no feature in it is a valid tile with an empty
    /// layer-less body (zero bytes).
    public func tileData(at address: TileID) throws -> [UInt8]? {
        guard address.z <= 24 else { return nil }
        let n = Double(1 << address.z)
        let e = Double(extent)
        let b = Double(buffer)
        let ox = Double(address.x)
        let oy = Double(address.y)
        // The clip box in world units, for the cheap bounding-box rejection.
        let minW = (ox - b / e) / n
        let maxW = (ox + 1 + b / e) / n
        let minH = (oy - b / e) / n
        let maxH = (oy + 1 + b / e) / n
        let box = GeoJSONClipBox(minX: -b, minY: -b, maxX: e + b, maxY: e + b)
        func toTile(_ p: WorldXY) -> WorldXY { WorldXY(x: (p.x * n - ox) * e, y: (p.y * n - oy) * e) }
        func quantise(_ p: WorldXY) -> VectorTilePoint {
            VectorTilePoint(x: Int32(p.x.rounded()), y: Int32(p.y.rounded()))
        }
        var out: [MVTEncoderFeature] = []
        for feature in features {
            guard feature.maxX >= minW, feature.minX <= maxW, feature.maxY >= minH, feature.minY <= maxH else {
                continue
            }
            let geometry: VectorTileGeometry
            switch feature.geometry {
            case .points(let points):
                let kept = points.map(toTile).filter { box.contains($0) }.map(quantise)
                guard !kept.isEmpty else { continue }
                geometry = .points(kept)
            case .lines(let lines) where lineMetrics:
                for line in lines {
                    let tileLine = line.map(toTile)
                    let total = GeoJSONClipBox.length(tileLine)
                    guard total > 0, total.isFinite else { continue }
                    for (piece, start, end) in box.clipLineMeasured(tileLine) where piece.count >= 2 {
                        var properties = feature.properties.filter {
                            $0.key != "mapbox_clip_start" && $0.key != "mapbox_clip_end"
                        }
                        properties.append((key: "mapbox_clip_start", value: .double(min(1, max(0, start / total)))))
                        properties.append((key: "mapbox_clip_end", value: .double(min(1, max(0, end / total)))))
                        out.append(
                            MVTEncoderFeature(
                                id: feature.id, geometry: .lineStrings([piece.map(quantise)]), properties: properties))
                    }
                }
                continue
            case .lines(let lines):
                var pieces: [[VectorTilePoint]] = []
                for line in lines {
                    for piece in box.clipLine(line.map(toTile)) where piece.count >= 2 {
                        pieces.append(piece.map(quantise))
                    }
                }
                guard !pieces.isEmpty else { continue }
                geometry = .lineStrings(pieces)
            case .polygons(let polygons):
                var result: [[[VectorTilePoint]]] = []
                for polygon in polygons {
                    var rings: [[VectorTilePoint]] = []
                    for (i, ring) in polygon.enumerated() {
                        let clipped = box.clipRing(ring.map(toTile))
                        guard clipped.count >= 3 else {
                            if i == 0 { break } else { continue }
                        }
                        rings.append(clipped.map(quantise))
                    }
                    if !rings.isEmpty { result.append(rings) }
                }
                guard !result.isEmpty else { continue }
                geometry = .polygons(result)
            }
            out.append(MVTEncoderFeature(id: feature.id, geometry: geometry, properties: feature.properties))
        }
        guard !out.isEmpty else { return [] }
        return MVTEncoder.encode(layers: [(name: layerName, extent: extent, features: out)])
    }
}

/// A point in normalised Web Mercator world units or in tile units (Double).
struct WorldXY: Sendable, Equatable {
    var x: Double
    var y: Double

    /// Projects longitude/latitude (degrees) to world units (``WebMercator/worldPoint(_:)``), latitude clamped to
    /// ±``WebMercator/maximumLatitude`` first.
    init(_ p: GeoJSONPosition) {
        let limit = WebMercator.maximumLatitude
        let w = WebMercator.worldPoint(LatLng(latitude: min(limit, max(-limit, p.latitude)), longitude: p.longitude))
        x = w.x
        y = w.y
    }

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A feature projected to world units, split by geometry kind, with its bounding box.
struct ProjectedFeature: Sendable {
    enum Geometry: Sendable {
        case points([WorldXY])
        case lines([[WorldXY]])
        case polygons([[[WorldXY]]])
    }

    var geometry: Geometry
    var id: UInt64?
    var properties: [(key: String, value: VectorTileValue)]
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    static func make(_ geometry: GeoJSONGeometry, feature: GeoJSONFeature) -> [ProjectedFeature] {
        var id: UInt64?
        if case .number(let n)? = feature.id, n >= 0, n < 18_446_744_073_709_551_616, n.rounded() == n {
            id = UInt64(n)
        }
        let properties = feature.properties.keys.sorted().compactMap { key -> (key: String, value: VectorTileValue)? in
            guard let v = mvtValue(feature.properties[key]!) else { return nil }
            return (key, v)
        }
        var points: [WorldXY] = []
        var lines: [[WorldXY]] = []
        var polygons: [[[WorldXY]]] = []
        func collect(_ g: GeoJSONGeometry) {
            switch g {
            case .point(let p): points.append(WorldXY(p))
            case .multiPoint(let ps): points.append(contentsOf: ps.map(WorldXY.init))
            case .lineString(let l): lines.append(l.map(WorldXY.init))
            case .multiLineString(let ls): lines.append(contentsOf: ls.map { $0.map(WorldXY.init) })
            case .polygon(let rings): polygons.append(rings.map { $0.map(WorldXY.init) })
            case .multiPolygon(let ps): polygons.append(contentsOf: ps.map { $0.map { $0.map(WorldXY.init) } })
            case .geometryCollection(let parts): parts.forEach(collect)
            }
        }
        collect(geometry)
        var out: [ProjectedFeature] = []
        func add(_ g: Geometry, _ all: [WorldXY]) {
            guard !all.isEmpty else { return }
            let xs = all.map(\.x)
            let ys = all.map(\.y)
            out.append(
                ProjectedFeature(
                    geometry: g, id: id, properties: properties, minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!,
                    maxY: ys.max()!))
        }
        add(.points(points), points)
        add(.lines(lines), lines.flatMap { $0 })
        add(.polygons(polygons), polygons.flatMap { $0.first ?? [] })
        return out
    }

    static func mvtValue(_ value: GeoJSONValue) -> VectorTileValue? {
        switch value {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let n):
            if n.rounded() == n, abs(n) < 9_007_199_254_740_992 {
                return n >= 0 ? .uint(UInt64(n)) : .sint(Int64(n))
            }
            return .double(n)
        case .array, .object: return .json(compactJSON(value))
        }
    }

    static func compactJSON(_ value: GeoJSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
            return String(n)
        case .string(let s): return quoted(s)
        case .array(let items): return "[" + items.map(compactJSON).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { quoted($0) + ":" + compactJSON(o[$0]!) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

/// An axis-aligned clip rectangle in tile units.
struct GeoJSONClipBox: Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    func contains(_ p: WorldXY) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

    /// Liang–Barsky per segment; consecutive kept segments join into one polyline.
    func clipLine(_ line: [WorldXY]) -> [[WorldXY]] {
        var pieces: [[WorldXY]] = []
        var current: [WorldXY] = []
        for i in 1..<max(1, line.count) {
            let a = line[i - 1]
            let b = line[i]
            guard let (p, q, clippedEnd) = clipSegment(a, b) else {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            if current.isEmpty || current.last! != p {
                if current.count >= 2 { pieces.append(current) }
                current = [p]
            }
            current.append(q)
            if clippedEnd {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// Like ``clipLine(_:)``, with each piece's start and end distance along the whole line (in the line's units).
    func clipLineMeasured(_ line: [WorldXY]) -> [(piece: [WorldXY], start: Double, end: Double)] {
        var pieces: [(piece: [WorldXY], start: Double, end: Double)] = []
        var current: [WorldXY] = []
        var start = 0.0
        var end = 0.0
        var along = 0.0
        func flush() {
            if current.count >= 2 { pieces.append((current, start, end)) }
            current = []
        }
        for i in 1..<max(1, line.count) {
            let a = line[i - 1]
            let b = line[i]
            let segment = Self.distance(a, b)
            defer { along += segment }
            guard let (p, q, clippedEnd) = clipSegment(a, b) else {
                flush()
                continue
            }
            if current.isEmpty || current.last! != p {
                flush()
                current = [p]
                start = along + Self.distance(a, p)
            }
            current.append(q)
            end = along + Self.distance(a, q)
            if clippedEnd { flush() }
        }
        flush()
        return pieces
    }

    /// The length of a polyline.
    static func length(_ line: [WorldXY]) -> Double {
        var total = 0.0
        for i in 1..<max(1, line.count) { total += distance(line[i - 1], line[i]) }
        return total
    }

    static func distance(_ a: WorldXY, _ b: WorldXY) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The part of segment a→b inside the box and whether b itself was cut off.
    func clipSegment(_ a: WorldXY, _ b: WorldXY) -> (WorldXY, WorldXY, Bool)? {
        let dx = b.x - a.x
        let dy = b.y - a.y
        var t0 = 0.0
        var t1 = 1.0
        for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r }
                }
            }
        }
        let p = t0 == 0 ? a : WorldXY(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let q = t1 == 1 ? b : WorldXY(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (p, q, t1 < 1)
    }

    /// Sutherland–Hodgman against the four edges; returns an open ring (no closing point).
    func clipRing(_ ring: [WorldXY]) -> [WorldXY] {
        var points = ring
        if points.count > 1, points.first == points.last { points.removeLast() }
        let edges: [(WorldXY) -> Double] = [
            { $0.x - self.minX }, { self.maxX - $0.x }, { $0.y - self.minY }, { self.maxY - $0.y },
        ]
        for inside in edges {
            guard !points.isEmpty else { break }
            var output: [WorldXY] = []
            var previous = points[points.count - 1]
            var dPrevious = inside(previous)
            for p in points {
                let d = inside(p)
                if d >= 0 {
                    if dPrevious < 0 { output.append(lerp(previous, p, dPrevious / (dPrevious - d))) }
                    output.append(p)
                } else if dPrevious >= 0 {
                    output.append(lerp(previous, p, dPrevious / (dPrevious - d)))
                }
                previous = p
                dPrevious = d
            }
            points = output
        }
        return points
    }

    func lerp(_ a: WorldXY, _ b: WorldXY, _ t: Double) -> WorldXY {
        WorldXY(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}
