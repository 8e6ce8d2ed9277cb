/// A position in a map view, in points, with the origin at the view's top-left corner, x to the right and y down.
///
/// Range: any finite value; the view covers [0, width] × [0, height]. Points outside are off-screen.
public struct ScreenPoint: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Points right of the view's left edge.
    public var x: Double
    /// Points below the view's top edge.
    public var y: Double

    /// Creates a screen point from points.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin `(0, 0)`: the view's top-left corner.
    public static let zero = ScreenPoint(x: 0, y: 0)

    /// `"(x, y)"`.
    public var description: String { "(\(x), \(y))" }
}

/// A view (or drawing) size in points; both sides ≥ 0. Backends treat a negative side as empty.
public struct ScreenSize: Equatable, Hashable, Sendable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// Creates a size in points. Negative or non-finite sides are stored as given; ``CameraState`` sanitises them.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
