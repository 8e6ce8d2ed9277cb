/// Engine-side insets for the four edges of the map view, in points (the GMS layer's `UIEdgeInsets` converted).
///
/// Used as the camera's padding: the map's optical centre (where the camera target is drawn) is the centre of the
/// view shrunk by these insets (spec §4.5). Positive values shrink the rectangle inwards.
public struct EdgeInsets: Equatable, Hashable, Sendable {
    /// Inset from the top edge in points.
    public var top: Double
    /// Inset from the left edge in points.
    public var left: Double
    /// Inset from the bottom edge in points.
    public var bottom: Double
    /// Inset from the right edge in points.
    public var right: Double

    /// Creates insets; every edge in points, defaulting to 0.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// All four insets zero.
    public static let zero: EdgeInsets = EdgeInsets()

    /// The sum of two insets edge by edge (map padding plus an update's own insets).
    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }

    /// The insets with every non-finite edge replaced by 0.
    public var sanitized: EdgeInsets {
        func f(_ v: Double) -> Double { v.isFinite ? v : 0 }
        return EdgeInsets(top: f(top), left: f(left), bottom: f(bottom), right: f(right))
    }
}
