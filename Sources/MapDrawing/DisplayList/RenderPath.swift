import MapGeometry

/// A path in screen space (points) stored as one flat coordinate buffer: `coordinates` holds `x0, y0, x1, y1, …`, and
/// each sub-path is a run of consecutive points that starts with a move-to and continues with line-tos.
///
/// There are no per-point objects (practice 10: flat contiguous storage). Build with ``move(to:)``,
/// ``line(to:)`` and ``close()``, or append whole flat rings with ``addPolyline(_:closed:)``. A sub-path with a single
/// point draws nothing for fills; for strokes with round caps it draws a dot, as in Cairo and the 2-D canvas.
public struct RenderPath: Hashable, Sendable {
    /// Interleaved coordinates `x, y` in points; `coordinates.count` is always even.
    public private(set) var coordinates: [Double] = []
    /// For each sub-path, the index (in points, not coordinates) of its first point in ``coordinates``; ascending.
    public private(set) var subpathStarts: [Int] = []
    /// For each sub-path, whether it is closed (a closing segment back to its first point).
    public private(set) var subpathClosed: [Bool] = []

    /// Creates an empty path; `reservingPoints` pre-allocates storage for that many points.
    public init(reservingPoints: Int = 0) {
        coordinates.reserveCapacity(reservingPoints * 2)
    }

    /// Number of points over all sub-paths.
    public var pointCount: Int { coordinates.count / 2 }
    /// Number of sub-paths.
    public var subpathCount: Int { subpathStarts.count }
    /// True when the path has no points.
    public var isEmpty: Bool { coordinates.isEmpty }

    /// The point at `index` (`0..<pointCount`).
    public func point(at index: Int) -> ScreenPoint {
        ScreenPoint(x: coordinates[2 * index], y: coordinates[2 * index + 1])
    }

    /// The point range `start..<end` of sub-path `index` (`0..<subpathCount`).
    public func subpathRange(_ index: Int) -> Range<Int> {
        let end = index + 1 < subpathStarts.count ? subpathStarts[index + 1] : pointCount
        return subpathStarts[index]..<end
    }

    /// Starts a new sub-path at `point`.
    public mutating func move(to point: ScreenPoint) {
        subpathStarts.append(pointCount)
        subpathClosed.append(false)
        coordinates.append(point.x)
        coordinates.append(point.y)
    }

    /// Adds a straight segment to `point`; starts a sub-path there if none is open.
    public mutating func line(to point: ScreenPoint) {
        if subpathStarts.isEmpty || subpathClosed[subpathClosed.count - 1] {
            move(to: point)
            return
        }
        coordinates.append(point.x)
        coordinates.append(point.y)
    }

    /// Closes the current sub-path with a segment back to its first point; a later ``line(to:)`` starts a new one.
    /// Does nothing when there is no open sub-path.
    public mutating func close() {
        guard !subpathClosed.isEmpty else { return }
        subpathClosed[subpathClosed.count - 1] = true
    }

    /// Appends a sub-path from interleaved `x, y` coordinates (an odd trailing value is ignored), closed or open.
    public mutating func addPolyline(_ flat: some Collection<Double>, closed: Bool) {
        let pairs = flat.count / 2
        guard pairs > 0 else { return }
        subpathStarts.append(pointCount)
        subpathClosed.append(closed)
        coordinates.append(contentsOf: flat.prefix(pairs * 2))
    }

    /// Appends a closed axis-aligned rectangle (clockwise on screen).
    public mutating func addRect(_ rect: RenderRect) {
        addPolyline(
            [rect.minX, rect.minY, rect.maxX, rect.minY, rect.maxX, rect.maxY, rect.minX, rect.maxY], closed: true)
    }

    /// The smallest rectangle containing every point, or `nil` for an empty path.
    public var bounds: RenderRect? {
        guard !coordinates.isEmpty else { return nil }
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        var i = 0
        while i < coordinates.count {
            minX = min(minX, coordinates[i])
            maxX = max(maxX, coordinates[i])
            minY = min(minY, coordinates[i + 1])
            maxY = max(maxY, coordinates[i + 1])
            i += 2
        }
        return RenderRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
