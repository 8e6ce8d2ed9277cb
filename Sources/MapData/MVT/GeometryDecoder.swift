/// A point in tile coordinates: integer units of the layer extent, origin at the tile's top-left corner, x to the
/// right, y down (MVT spec §4.3.1). Real tiles keep points within `−buffer..<extent+buffer`; decoded values may lie
/// anywhere in `Int32` (the cursor arithmetic wraps, as in mvt-fixtures 049/050).
public struct VectorTilePoint: Sendable, Hashable, CustomStringConvertible {
    /// Horizontal position in tile units, growing to the right.
    public var x: Int32
    /// Vertical position in tile units, growing downwards.
    public var y: Int32

    /// Creates a point from tile units.
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// A feature's decoded geometry in tile coordinates.
///
/// Rings are *closed*: their last point repeats the first, as in GeoJSON. Each polygon is its exterior ring followed
/// by its interior rings (holes), grouped per MVT spec §4.3.4.4.
public enum VectorTileGeometry: Sendable, Equatable {
    /// A geometry of type `UNKNOWN`, which is not interpreted.
    case unknown
    /// One or more points (a point or a multi-point).
    case points([VectorTilePoint])
    /// One or more line strings, each of ≥ 2 points.
    case lineStrings([[VectorTilePoint]])
    /// One or more polygons; each is `[exterior, hole, hole, …]`, each ring closed and of ≥ 4 points.
    case polygons([[[VectorTilePoint]]])

    /// The total number of points (closing points included).
    public var pointCount: Int {
        switch self {
        case .unknown: return 0
        case .points(let p): return p.count
        case .lineStrings(let l): return l.reduce(0) { $0 + $1.count }
        case .polygons(let p): return p.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        }
    }
}

/// Twice the signed area of a ring by the surveyor's (shoelace) formula, in tile units squared:
/// `Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ)` over consecutive points, wrapping at the end (a closing point adds nothing).
///
/// In tile coordinates (y down) a positive value is an **exterior** ring (clockwise on screen) and a negative one an
/// interior ring (spec 2.1 §4.3.4.4). Computed in `Double`, exact for coordinates below 2²⁶.
/// - Parameter ring: the ring's points, closed or open.
/// - Returns: twice the signed area in tile units squared: positive for an exterior ring, negative for an interior
///   one, `0` for fewer than 3 points.
public func signedDoubleArea(_ ring: [VectorTilePoint]) -> Double {
    guard ring.count >= 3 else { return 0 }
    var sum = 0.0
    var previous = ring[ring.count - 1]
    for p in ring {
        sum += Double(previous.x) * Double(p.y) - Double(p.x) * Double(previous.y)
        previous = p
    }
    return sum
}

extension VectorTileFeature {
    /// Decodes the geometry commands (MVT spec §4.3) into points, line strings or grouped polygons.
    ///
    /// Strict about structure, lenient about degenerate parts:
    /// - throws for a command other than MoveTo/LineTo/ClosePath, a count of 0, a count larger than the parameters
    ///   left, MoveTo count ≠ 1 in lines and polygons, LineTo before MoveTo, ClosePath in points (or in v2 lines), a
    ///   ClosePath count ≠ 1, an unclosed polygon ring, a geometry integer over 32 bits;
    /// - drops, with a diagnostic, repeated consecutive points, line strings left with < 2 points, rings with < 3
    ///   distinct points or zero area, and interior rings with no exterior before them.
    ///
    /// Allocation is bounded by the geometry's byte length. The result is not cached: keep it if needed again.
    /// - Parameter diagnostics: receives the non-fatal problems.
    /// - Returns: the geometry in the case matching the feature's type (``VectorTileGeometry/unknown`` for an
    ///   unknown type), in tile units.
    /// - Throws: ``VectorTileError/invalidFeature(_:)`` or ``VectorTileError/malformed(_:)``.
    public func decodeGeometry(diagnostics: inout [VectorTileDiagnostic]) throws(VectorTileError) -> VectorTileGeometry
    {
        var decoder = CommandDecoder(feature: self)
        switch type {
        case .unknown:
            return .unknown
        case .point:
            return .points(try decoder.decodePoints())
        case .lineString:
            let lines = try decoder.decodeLines(allowClosePath: layerVersion == 1)
            diagnostics += decoder.diagnostics
            return .lineStrings(lines)
        case .polygon:
            let rings = try decoder.decodeRings()
            let polygons = decoder.groupRings(rings)
            diagnostics += decoder.diagnostics
            return .polygons(polygons)
        }
    }
}

/// Walks a feature's geometry integers with the cursor of MVT spec §4.3.
private struct CommandDecoder {
    var reader: ByteReader
    var cursor = VectorTilePoint(x: 0, y: 0)
    var diagnostics: [VectorTileDiagnostic] = []
    let layerName: String
    let featureIndex: Int

    init(feature: VectorTileFeature) {
        reader = ByteReader(bytes: feature.bytes, range: feature.geometryRange)
        layerName = feature.layerName
        featureIndex = feature.index
    }

    var context: String { "layer '\(layerName)' feature \(featureIndex)" }

    func warn(_ message: String) -> VectorTileDiagnostic {
        VectorTileDiagnostic(layer: layerName, featureIndex: featureIndex, message: message)
    }

    mutating func nextInteger() throws(VectorTileError) -> UInt32? {
        if reader.isAtEnd { return nil }
        guard let v = reader.readVarint(), v <= UInt64(UInt32.max) else {
            throw .malformed("\(context): truncated or over-long geometry integer")
        }
        return UInt32(v)
    }

    /// The next command: id and count. Checks that `count` parameter pairs can fit in the bytes left (each
    /// parameter takes at least one byte), which also bounds every allocation.
    mutating func nextCommand() throws(VectorTileError) -> (id: UInt32, count: Int)? {
        guard let c = try nextInteger() else { return nil }
        let id = c & 7
        let count = Int(c >> 3)
        switch id {
        case 1, 2:
            guard count >= 1 else { throw .invalidFeature("\(context): \(id == 1 ? "MoveTo" : "LineTo") count 0") }
            guard count <= reader.readableBytes / 2 else {
                throw .invalidFeature(
                    "\(context): command count \(count) exceeds the \(reader.readableBytes) bytes of parameters left")
            }
        case 7:
            guard count == 1 else { throw .invalidFeature("\(context): ClosePath count \(count), must be 1") }
        default:
            throw .invalidFeature("\(context): unknown command id \(id)")
        }
        return (id, count)
    }

    /// Reads one parameter pair and moves the cursor (wrapping at `Int32` bounds).
    mutating func nextPoint() throws(VectorTileError) -> VectorTilePoint {
        guard let dx = try nextInteger(), let dy = try nextInteger() else {
            throw .invalidFeature("\(context): geometry ends inside a parameter pair")
        }
        cursor.x = cursor.x &+ Int32(truncatingIfNeeded: zigzagDecode(UInt64(dx)))
        cursor.y = cursor.y &+ Int32(truncatingIfNeeded: zigzagDecode(UInt64(dy)))
        return cursor
    }

    mutating func decodePoints() throws(VectorTileError) -> [VectorTilePoint] {
        var points: [VectorTilePoint] = []
        while let (id, count) = try nextCommand() {
            guard id == 1 else { throw .invalidFeature("\(context): point geometry may only use MoveTo") }
            points.reserveCapacity(points.count + count)
            for _ in 0..<count { points.append(try nextPoint()) }
        }
        guard !points.isEmpty else { throw .invalidFeature("\(context): empty point geometry") }
        return points
    }

    /// Appends `p` unless it repeats the last point; returns whether it was a repeat.
    static func appendDistinct(_ p: VectorTilePoint, to part: inout [VectorTilePoint]) -> Bool {
        if let last = part.last, last == p { return true }
        part.append(p)
        return false
    }

    mutating func decodeLines(allowClosePath: Bool) throws(VectorTileError) -> [[VectorTilePoint]] {
        var lines: [[VectorTilePoint]] = []
        var current: [VectorTilePoint] = []
        var repeats = 0
        func finish(_ current: inout [VectorTilePoint], into lines: inout [[VectorTilePoint]], warn: (String) -> Void) {
            if current.count >= 2 {
                lines.append(current)
            } else if !current.isEmpty {
                warn("line string with fewer than 2 distinct points dropped")
            }
            current = []
        }
        var started = false
        var warnings: [String] = []
        while let (id, count) = try nextCommand() {
            switch id {
            case 1:
                guard count == 1 else { throw .invalidFeature("\(context): MoveTo count \(count) in a line string") }
                finish(&current, into: &lines) { warnings.append($0) }
                current.append(try nextPoint())
                started = true
            case 2:
                guard started else { throw .invalidFeature("\(context): LineTo before MoveTo") }
                current.reserveCapacity(current.count + count)
                for _ in 0..<count {
                    let p = try nextPoint()
                    if Self.appendDistinct(p, to: &current) { repeats += 1 }
                }
            default:
                guard allowClosePath, started else {
                    throw .invalidFeature("\(context): ClosePath in a version 2 line string")
                }
                if let first = current.first, current.count >= 2 { current.append(first) }
            }
        }
        finish(&current, into: &lines) { warnings.append($0) }
        if repeats > 0 { warnings.append("\(repeats) repeated point(s) removed") }
        diagnostics += warnings.map { warn($0) }
        guard started else { throw .invalidFeature("\(context): empty line geometry") }
        return lines
    }

    /// Decodes the rings (closed, in file order); degenerate rings are dropped with a diagnostic.
    mutating func decodeRings() throws(VectorTileError) -> [[VectorTilePoint]] {
        var rings: [[VectorTilePoint]] = []
        var current: [VectorTilePoint] = []
        var open = false
        var repeats = 0
        var any = false
        while let (id, count) = try nextCommand() {
            switch id {
            case 1:
                guard count == 1 else { throw .invalidFeature("\(context): MoveTo count \(count) in a polygon") }
                guard !open else { throw .invalidFeature("\(context): polygon ring not closed before MoveTo") }
                current = [try nextPoint()]
                open = true
                any = true
            case 2:
                guard open else { throw .invalidFeature("\(context): LineTo outside a polygon ring") }
                current.reserveCapacity(current.count + count)
                for _ in 0..<count {
                    let p = try nextPoint()
                    if Self.appendDistinct(p, to: &current) { repeats += 1 }
                }
            default:
                guard open else { throw .invalidFeature("\(context): ClosePath without an open ring") }
                open = false
                if current.count >= 2 && current.last == current.first { current.removeLast() }
                if current.count < 3 {
                    diagnostics.append(warn("ring with fewer than 3 distinct points dropped"))
                } else {
                    current.append(current[0])
                    rings.append(current)
                }
                current = []
            }
        }
        guard !open else { throw .invalidFeature("\(context): polygon ring without ClosePath") }
        guard any else { throw .invalidFeature("\(context): empty polygon geometry") }
        if repeats > 0 { diagnostics.append(warn("\(repeats) repeated point(s) removed")) }
        return rings
    }

    /// Groups rings into polygons (MVT spec §4.3.4.4): a ring of positive area (surveyor's formula, y down) starts a
    /// polygon; each following ring of negative area is one of its holes. Zero-area rings and holes before any
    /// exterior ring are dropped with a diagnostic.
    mutating func groupRings(_ rings: [[VectorTilePoint]]) -> [[[VectorTilePoint]]] {
        var polygons: [[[VectorTilePoint]]] = []
        for ring in rings {
            let area = signedDoubleArea(ring)
            if area > 0 {
                polygons.append([ring])
            } else if area < 0 {
                if polygons.isEmpty {
                    diagnostics.append(warn("interior ring before any exterior ring dropped (spec 4.3.4.4)"))
                } else {
                    polygons[polygons.count - 1].append(ring)
                }
            } else {
                diagnostics.append(warn("zero-area ring dropped"))
            }
        }
        return polygons
    }
}
