// How a line fragment is coloured. Owned by the line-paint work (dashes, gradients, patterns); the rasteriser only
// calls `LinePaint.color(at:)`.

/// Where a fragment lies on the line, handed to ``LinePaint/color(at:)``.
public struct LineFragment: Sendable {
    /// Distance along the line in points (interpolated `LineMeshVertex.distance`).
    public var distance: Double
    /// Signed position across the line, −1 (right edge) … +1 (left edge) of the line's outset (`v_normal.y`).
    public var across: Double
    /// `line-progress`, `0…1`.
    public var progress: Double

    /// Creates a fragment position.
    public init(distance: Double, across: Double, progress: Double) {
        self.distance = distance
        self.across = across
        self.progress = progress
    }
}

/// The paint of a line: what colour each fragment gets before the edge fade and opacity multiply it.
public enum LinePaint: Hashable, Sendable {
    /// One colour (`line-color`).
    case solid(RGBAColor)

    /// The straight-alpha colour of the fragment, before fade and opacity.
    @inline(__always)
    public func color(at fragment: LineFragment) -> RGBAColor {
        switch self {
        case .solid(let c): return c
        }
    }

    /// Whether every fragment has the same colour (lets the rasteriser skip per-fragment calls).
    public var uniformColor: RGBAColor? {
        switch self {
        case .solid(let c): return c
        }
    }
}
