import Foundation
import MapGeometry

/// The sphere and Mercator geometry the shapes are drawn with: great-circle interpolation and offsets, segment
/// lengths, circle outlines, antimeridian unwrapping and the per-zoom subdivision of geodesic segments.
///
/// Earth radius 6,371,009 m (Google's geometry library). Invalid coordinates (NaN, |latitude| > 90, infinite) are
/// skipped by every function that makes drawn geometry.
enum ShapeGeometry {

    /// Whether a coordinate can be drawn.
    static func isValid(_ c: CLLocationCoordinate2D) -> Bool {
        c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90
    }

    /// The point a `fraction` of the way from `a` to `b` along the great circle (the geometry library's
    /// `Spherical.interpolate`, as `GMSGeometryInterpolate`).
    static func interpolate(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D, _ fraction: Double)
        -> CLLocationCoordinate2D
    {
        CLLocationCoordinate2D(Spherical.interpolate(from: LatLng(a), to: LatLng(b), fraction: fraction))
    }

    /// The point `distance` metres from `from` along the great circle starting at `heading` degrees clockwise from
    /// north (`Spherical.offset`, as `GMSGeometryOffset`).
    static func offset(_ from: CLLocationCoordinate2D, distance: Double, heading: Double) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(Spherical.offset(from: LatLng(from), distance: distance, heading: heading))
    }

    /// The lengths of the segments of `coordinates` measured as `kind` says (``GMSPath``'s per-segment length);
    /// invalid coordinates give segments of length 0.
    static func segmentLengths(_ coordinates: [CLLocationCoordinate2D], kind: GMSLengthKind) -> [Double] {
        guard coordinates.count >= 2 else { return [] }
        return (1..<coordinates.count).map { i in
            let a = coordinates[i - 1]
            let b = coordinates[i]
            return isValid(a) && isValid(b) ? GMSPath.segmentLength(a, b, kind: kind) : 0
        }
    }

    /// The outline of a circle of `radius` metres around `center`: `count` points at that great-circle distance,
    /// clockwise from north (an empty array for an invalid centre or a radius that is not positive and finite).
    static func circleOutline(center: CLLocationCoordinate2D, radius: Double, count: Int = 180)
        -> [CLLocationCoordinate2D]
    {
        guard isValid(center), radius.isFinite, radius > 0 else { return [] }
        let r = min(radius, Spherical.earthRadius * .pi * 0.999)
        return (0..<count).map { offset(center, distance: r, heading: Double($0) * 360 / Double(count)) }
    }

    /// World points (unit square, x unwrapped) of the valid coordinates of `coordinates`: each point's longitude is
    /// taken the short way from the previous one (a step of exactly 180° goes west), so a line across the
    /// antimeridian stays continuous. With `geodesic`, each segment is subdivided along its great circle until no
    /// piece strays more than `tolerance` world units from the chord drawn in Mercator (at most 2^12 pieces a segment).
    static func worldPath(_ coordinates: [CLLocationCoordinate2D], closed: Bool, geodesic: Bool, tolerance: Double)
        -> [Double]
    {
        var valid = coordinates.filter(isValid)
        if closed, let first = valid.first, valid.count > 2 { valid.append(first) }
        guard let first = valid.first else { return [] }
        var out: [Double] = []
        out.reserveCapacity(valid.count * 2)
        var previous = first
        var previousWorld = WebMercator.worldPoint(LatLng(first))
        out.append(previousWorld.x)
        out.append(previousWorld.y)
        func unwrapped(_ c: CLLocationCoordinate2D, near x: Double) -> WorldPoint {
            let w = WebMercator.worldPoint(LatLng(c))
            let dx = w.x - x
            let shift = (dx + 0.5).rounded(.down)
            return WorldPoint(x: w.x - shift, y: w.y)
        }
        for c in valid.dropFirst() {
            let end = unwrapped(c, near: previousWorld.x)
            if geodesic {
                subdivide(previous, previousWorld, c, end, tolerance: tolerance, depth: 0, into: &out)
            } else {
                out.append(end.x)
                out.append(end.y)
            }
            previous = c
            previousWorld = end
        }
        if closed, out.count >= 4 {
            // The closing point repeats the first; the ring closes itself when drawn.
            out.removeLast(2)
        }
        return out
    }

    /// Appends the points after `a` up to and including `b` of the great circle from `a` to `b`, subdivided.
    private static func subdivide(
        _ a: CLLocationCoordinate2D, _ wa: WorldPoint, _ b: CLLocationCoordinate2D, _ wb: WorldPoint,
        tolerance: Double, depth: Int, into out: inout [Double]
    ) {
        let angle = depth < 12 ? Spherical.angleBetween(LatLng(a), LatLng(b)) : 0
        if angle > 1e-9 {
            let m = interpolate(a, b, 0.5)
            var wm = WebMercator.worldPoint(LatLng(m))
            let mid = (wa.x + wb.x) / 2
            wm.x -= (wm.x - mid + 0.5).rounded(.down)
            let dx = wm.x - mid
            let dy = wm.y - (wa.y + wb.y) / 2
            if dx * dx + dy * dy > tolerance * tolerance
                || depth < 2 && angle > 0.2
            {
                subdivide(a, wa, m, wm, tolerance: tolerance, depth: depth + 1, into: &out)
                subdivide(m, wm, b, wb, tolerance: tolerance, depth: depth + 1, into: &out)
                return
            }
        }
        out.append(wb.x)
        out.append(wb.y)
    }

    /// Drops points closer than `tolerance` to the last kept point (radial-distance simplification), keeping the
    /// first and last points. Flat `x, y` coordinates.
    static func simplified(_ flat: [Double], tolerance: Double) -> [Double] {
        let n = flat.count / 2
        guard n > 2, tolerance > 0 else { return flat }
        var out: [Double] = []
        out.reserveCapacity(flat.count)
        out.append(flat[0])
        out.append(flat[1])
        var lx = flat[0]
        var ly = flat[1]
        let t2 = tolerance * tolerance
        for i in 1..<(n - 1) {
            let x = flat[2 * i]
            let y = flat[2 * i + 1]
            let dx = x - lx
            let dy = y - ly
            if dx * dx + dy * dy >= t2 {
                out.append(x)
                out.append(y)
                lx = x
                ly = y
            }
        }
        out.append(flat[2 * n - 2])
        out.append(flat[2 * n - 1])
        return out
    }

    /// Twice the signed area of a flat ring (positive: clockwise on a y-down screen).
    static func signedArea2(_ flat: [Double]) -> Double {
        let n = flat.count / 2
        guard n >= 3 else { return 0 }
        var area = 0.0
        var j = n - 1
        for i in 0..<n {
            area += flat[2 * j] * flat[2 * i + 1] - flat[2 * i] * flat[2 * j + 1]
            j = i
        }
        return area
    }

    /// The ring with its points in reverse order.
    static func reversedRing(_ flat: [Double]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(flat.count)
        var i = flat.count / 2 - 1
        while i >= 0 {
            out.append(flat[2 * i])
            out.append(flat[2 * i + 1])
            i -= 1
        }
        return out
    }

    /// The winding number of the rings around `(x, y)` (non-zero: inside).
    static func winding(_ rings: [[Double]], x: Double, y: Double) -> Int {
        var w = 0
        for ring in rings {
            let n = ring.count / 2
            guard n >= 3 else { continue }
            var j = n - 1
            for i in 0..<n {
                let x0 = ring[2 * j]
                let y0 = ring[2 * j + 1]
                let x1 = ring[2 * i]
                let y1 = ring[2 * i + 1]
                if y0 <= y {
                    if y1 > y && (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0) > 0 { w += 1 }
                } else if y1 <= y && (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0) < 0 {
                    w -= 1
                }
                j = i
            }
        }
        return w
    }

    /// Points per hit-test chunk of a line (``chunkBoxes(_:closed:)``).
    static let chunkLength = 32

    /// The bounding boxes `(minX, minY, maxX, maxY)` of the line's segments in runs of ``chunkLength``: box `k`
    /// holds segments `k·32 ..< (k+1)·32` (segment `i` runs from point `i` to point `i + 1`, the closing segment of a
    /// ring from the last point to the first).
    static func chunkBoxes(_ flat: [Double], closed: Bool) -> [(Double, Double, Double, Double)] {
        let n = flat.count / 2
        let segments = segmentCount(n, closed: closed)
        var out: [(Double, Double, Double, Double)] = []
        var start = 0
        while start < segments {
            let end = min(start + chunkLength, segments)
            var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            for i in start...end {
                let k = i % n
                box.0 = min(box.0, flat[2 * k])
                box.1 = min(box.1, flat[2 * k + 1])
                box.2 = max(box.2, flat[2 * k])
                box.3 = max(box.3, flat[2 * k + 1])
            }
            out.append(box)
            start = end
        }
        return out
    }

    /// Segments of a line of `n` points (a single point counts as one zero-length segment).
    static func segmentCount(_ n: Int, closed: Bool) -> Int {
        n == 1 ? 1 : n < 2 ? 0 : (closed && n > 2 ? n : n - 1)
    }

    /// Whether `(px, py)` lies within `limit` of a segment of the flat line (closed: with the closing segment),
    /// visiting only the chunks whose box, grown by `limit`, holds the point.
    static func isNear(
        _ flat: [Double], closed: Bool, chunks: [(Double, Double, Double, Double)], x px: Double, y py: Double,
        limit: Double
    ) -> Bool {
        let n = flat.count / 2
        guard n > 0 else { return false }
        let segments = segmentCount(n, closed: closed)
        let l2 = limit * limit
        for (c, box) in chunks.enumerated() {
            guard px >= box.0 - limit, px <= box.2 + limit, py >= box.1 - limit, py <= box.3 + limit else { continue }
            for i in (c * chunkLength)..<min((c + 1) * chunkLength, segments) {
                let j = (i + 1) % n
                let ax = flat[2 * i]
                let ay = flat[2 * i + 1]
                let dx = flat[2 * j] - ax
                let dy = flat[2 * j + 1] - ay
                let d2 = dx * dx + dy * dy
                let t = d2 > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / d2)) : 0
                let ex = ax + t * dx - px
                let ey = ay + t * dy - py
                if ex * ex + ey * ey <= l2 { return true }
            }
        }
        return false
    }

    /// The bounds of a line in degrees, longitudes unwrapped the short way from the first (cheap: no projection):
    /// `(first longitude, min longitude, max longitude, min latitude, max latitude)`, or nil for no valid point.
    static func degreeBounds(_ coordinates: [CLLocationCoordinate2D])
        -> (first: Double, minLng: Double, maxLng: Double, minLat: Double, maxLat: Double)?
    {
        guard let first = coordinates.first(where: isValid) else { return nil }
        var lng = first.longitude
        var b = (first: lng, minLng: lng, maxLng: lng, minLat: first.latitude, maxLat: first.latitude)
        for c in coordinates where isValid(c) {
            var d = c.longitude - lng
            d -= 360 * (d / 360 + 0.5).rounded(.down)
            lng += d
            b.minLng = min(b.minLng, lng)
            b.maxLng = max(b.maxLng, lng)
            b.minLat = min(b.minLat, c.latitude)
            b.maxLat = max(b.maxLat, c.latitude)
        }
        return b
    }
}
