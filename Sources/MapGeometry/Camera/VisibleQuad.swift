/// The ground area a camera sees: a quadrilateral in world units (a rectangle turned by the bearing when the camera
/// looks straight down, a trapezoid when tilted). Corners in screen order: near (bottom) left, near right, far (top)
/// right, far left. x is not wrapped (the world copy around the camera centre).
public struct VisibleQuad: Equatable, Sendable {
    /// World point under the bottom-left corner of the rectangle.
    public var nearLeft: WorldPoint
    /// World point under the bottom-right corner.
    public var nearRight: WorldPoint
    /// World point under the top-right corner (clamped to the horizon when above it).
    public var farRight: WorldPoint
    /// World point under the top-left corner (clamped to the horizon when above it).
    public var farLeft: WorldPoint

    /// Creates a quadrilateral from its corners.
    public init(nearLeft: WorldPoint, nearRight: WorldPoint, farRight: WorldPoint, farLeft: WorldPoint) {
        self.nearLeft = nearLeft
        self.nearRight = nearRight
        self.farRight = farRight
        self.farLeft = farLeft
    }

    /// The corners in order nearLeft, nearRight, farRight, farLeft (a convex polygon).
    public var corners: [WorldPoint] { [nearLeft, nearRight, farRight, farLeft] }

    /// The smallest world-aligned box holding the four corners: (minimum, maximum).
    public var bounds: (min: WorldPoint, max: WorldPoint) {
        let c = corners
        return (
            WorldPoint(x: c.map(\.x).min()!, y: c.map(\.y).min()!),
            WorldPoint(x: c.map(\.x).max()!, y: c.map(\.y).max()!)
        )
    }

    /// `true` when the box `[minX, maxX] × [minY, maxY]` (world units) and the quadrilateral share a region of
    /// positive area (touching edges do not count). Separating-axis test.
    public func intersects(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        let c = (nearLeft, nearRight, farRight, farLeft)
        // Box axes.
        let qMinX = Swift.min(c.0.x, c.1.x, c.2.x, c.3.x)
        let qMaxX = Swift.max(c.0.x, c.1.x, c.2.x, c.3.x)
        let qMinY = Swift.min(c.0.y, c.1.y, c.2.y, c.3.y)
        let qMaxY = Swift.max(c.0.y, c.1.y, c.2.y, c.3.y)
        if qMaxX <= minX || qMinX >= maxX || qMaxY <= minY || qMinY >= maxY { return false }
        // Quad edge normals: project both shapes on each.
        func separated(_ a: WorldPoint, _ b: WorldPoint) -> Bool {
            let nx = a.y - b.y
            let ny = b.x - a.x
            if nx == 0 && ny == 0 { return false }
            let q0 = c.0.x * nx + c.0.y * ny
            let q1 = c.1.x * nx + c.1.y * ny
            let q2 = c.2.x * nx + c.2.y * ny
            let q3 = c.3.x * nx + c.3.y * ny
            let r0 = minX * nx + minY * ny
            let r1 = maxX * nx + minY * ny
            let r2 = maxX * nx + maxY * ny
            let r3 = minX * nx + maxY * ny
            return Swift.max(q0, q1, q2, q3) <= Swift.min(r0, r1, r2, r3)
                || Swift.max(r0, r1, r2, r3) <= Swift.min(q0, q1, q2, q3)
        }
        return !(separated(c.0, c.1) || separated(c.1, c.2) || separated(c.2, c.3) || separated(c.3, c.0))
    }

    /// `true` when a world point lies inside or on the quadrilateral.
    public func contains(_ p: WorldPoint) -> Bool {
        let c = corners
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i]
            let b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 {
                sign = cross
            } else if (cross > 0) != (sign > 0) {
                return false
            }
        }
        return true
    }
}

extension CameraTransform {
    /// The ground quadrilateral seen through the view rectangle shrunk by `insets` (points). Corners above the
    /// horizon are clamped with ``worldPointClampedToHorizon(for:)``.
    public func visibleQuad(insets: EdgeInsets = .zero) -> VisibleQuad {
        let width = state.size.width.isFinite ? max(state.size.width, 1) : 1
        let height = state.size.height.isFinite ? max(state.size.height, 1) : 1
        let i = insets.sanitized
        let left = i.left
        let right = width - i.right
        let top = i.top
        let bottom = height - i.bottom
        return VisibleQuad(
            nearLeft: worldPointClampedToHorizon(for: ScreenPoint(x: left, y: bottom)),
            nearRight: worldPointClampedToHorizon(for: ScreenPoint(x: right, y: bottom)),
            farRight: worldPointClampedToHorizon(for: ScreenPoint(x: right, y: top)),
            farLeft: worldPointClampedToHorizon(for: ScreenPoint(x: left, y: top)))
    }
}

extension CameraState {
    /// The ground seen through the whole view (padding included: padding still shows map imagery).
    public var visibleQuad: VisibleQuad { transform.visibleQuad() }

    /// The ground seen through the padded rectangle only: what `GMSProjection.visibleRegion()` reports (§1.10).
    public var paddedVisibleQuad: VisibleQuad { transform.visibleQuad(insets: padding) }
}
