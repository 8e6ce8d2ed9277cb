import MapGeometry

/// `within`: whether the feature's points or lines lie strictly inside a GeoJSON polygon or multipolygon.
///
/// Computed in Web Mercator world units (0…1 per world); points on a polygon edge are outside. Points left of the
/// polygon's box by about a world width are shifted by ±1 world so polygons crossing the antimeridian work.
final class WithinNode: ExpressionNode, @unchecked Sendable {
    /// Each polygon is a list of rings; each ring a list of Mercator points.
    typealias Ring = [(x: Double, y: Double)]
    let polygons: [[Ring]]
    let minX: Double
    let maxX: Double

    init(polygons: [[Ring]]) {
        self.polygons = polygons
        let xs = polygons.flatMap { $0.flatMap { $0.map(\.x) } }
        minX = xs.min() ?? 0
        maxX = xs.max() ?? 0
        super.init(type: .boolean)
    }

    static func mercator(_ pair: JSONValue) -> (x: Double, y: Double)? {
        guard let a = pair.arrayValue, a.count >= 2, let lon = a[0].numberValue, let lat = a[1].numberValue else {
            return nil
        }
        return mercator(lon, lat)
    }

    static func mercator(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        let limit = WebMercator.maximumLatitude
        let w = WebMercator.worldPoint(LatLng(latitude: max(min(lat, limit), -limit), longitude: lon))
        return (w.x, w.y)
    }

    /// Polygons from a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection; `nil` when there is none.
    static func polygons(fromGeoJSON json: JSONValue) -> [[Ring]]? {
        var result: [[Ring]] = []
        func polygon(_ coordinates: JSONValue) -> [Ring]? {
            guard let rings = coordinates.arrayValue else { return nil }
            var out: [Ring] = []
            for ring in rings {
                guard let points = ring.arrayValue else { return nil }
                let converted = points.compactMap(mercator)
                guard converted.count == points.count else { return nil }
                out.append(converted)
            }
            return out
        }
        func collect(_ g: JSONValue) {
            switch g["type"]?.stringValue {
            case "Polygon": if let c = g["coordinates"], let p = polygon(c) { result.append(p) }
            case "MultiPolygon":
                for c in g["coordinates"]?.arrayValue ?? [] { if let p = polygon(c) { result.append(p) } }
            case "Feature": if let geometry = g["geometry"] { collect(geometry) }
            case "FeatureCollection": for f in g["features"]?.arrayValue ?? [] { collect(f) }
            default: break
            }
        }
        collect(json)
        return result.isEmpty ? nil : result
    }

    static func onSegment(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool
    {
        let cross = (p.x - a.x) * (b.y - a.y) - (p.y - a.y) * (b.x - a.x)
        return abs(cross) < 1e-15 && (p.x - a.x) * (p.x - b.x) <= 0 && (p.y - a.y) * (p.y - b.y) <= 0
    }

    static func inRing(_ p: (x: Double, y: Double), _ ring: Ring) -> Bool? {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[j]
            if onSegment(p, a, b) { return nil }
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Strictly inside the outer ring and outside every hole.
    static func inPolygon(_ p: (x: Double, y: Double), _ rings: [Ring]) -> Bool {
        guard let outer = rings.first, inRing(p, outer) == true else { return false }
        for hole in rings.dropFirst() where inRing(p, hole) != false { return false }
        return true
    }

    static func segmentsCross(
        _ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double),
        _ d: (x: Double, y: Double)
    ) -> Bool {
        func orient(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), _ r: (x: Double, y: Double)) -> Double {
            (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)
        }
        let d1 = orient(c, d, a)
        let d2 = orient(c, d, b)
        let d3 = orient(a, b, c)
        let d4 = orient(a, b, d)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    func shifted(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        var q = p
        if q.x < minX && q.x + 1 <= maxX + 1e-12 { q.x += 1 } else if q.x > maxX && q.x - 1 >= minX - 1e-12 { q.x -= 1 }
        return q
    }

    func pointWithin(_ p: (x: Double, y: Double)) -> Bool {
        let candidates = [p, shifted(p)]
        return candidates.contains { c in polygons.contains { WithinNode.inPolygon(c, $0) } }
    }

    func lineWithin(_ line: [(x: Double, y: Double)]) -> Bool {
        for polygon in polygons {
            var shiftedLine = line
            if !line.allSatisfy({ WithinNode.inPolygon($0, polygon) }) { shiftedLine = line.map(shifted) }
            guard shiftedLine.allSatisfy({ WithinNode.inPolygon($0, polygon) }) else { continue }
            var crosses = false
            for ring in polygon where !crosses {
                for i in 0..<max(0, ring.count - 1) where !crosses {
                    for k in 0..<max(0, shiftedLine.count - 1)
                    where WithinNode.segmentsCross(shiftedLine[k], shiftedLine[k + 1], ring[i], ring[i + 1]) {
                        crosses = true
                        break
                    }
                }
            }
            if !crosses { return true }
        }
        return false
    }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        guard let parts = ctx.geometryCoordinates ?? ctx.feature?.styleGeometryCoordinates,
            let type = ctx.resolvedGeometryType
        else { return .boolean(false) }
        let converted = parts.map { part in part.compactMap { $0.count >= 2 ? WithinNode.mercator($0[0], $0[1]) : nil }
        }
        switch type {
        case .point, .multiPoint:
            return .boolean(!converted.isEmpty && converted.allSatisfy { $0.allSatisfy(pointWithin) })
        case .lineString, .multiLineString:
            return .boolean(!converted.isEmpty && converted.allSatisfy(lineWithin))
        default:
            return .boolean(false)
        }
    }
}
