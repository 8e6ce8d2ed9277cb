import Foundation

/// Insets for the four edges of a rectangle that follow the layout direction, as UIKit's `NSDirectionalEdgeInsets`:
/// `leading` is the left edge and `trailing` the right one in left-to-right layouts (the only direction Waymark
/// lays out). Points; not clamped.
public struct NSDirectionalEdgeInsets: Equatable, Hashable, Sendable {
    /// Inset from the top edge, points.
    public var top: CGFloat
    /// Inset from the leading (left) edge, points.
    public var leading: CGFloat
    /// Inset from the bottom edge, points.
    public var bottom: CGFloat
    /// Inset from the trailing (right) edge, points.
    public var trailing: CGFloat

    /// Creates insets; every edge in points.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// All four insets zero.
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }

    /// All four insets zero.
    public static let zero = NSDirectionalEdgeInsets()
}

/// Edges of a rectangle that follow the layout direction, as UIKit's `NSDirectionalRectEdge`.
public struct NSDirectionalRectEdge: OptionSet, Hashable, Sendable {
    /// The edge bits.
    public let rawValue: UInt
    /// Creates edges from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// No edge.
    public static let none = NSDirectionalRectEdge([])
    /// The top edge.
    public static let top = NSDirectionalRectEdge(rawValue: 1 << 0)
    /// The leading (left) edge.
    public static let leading = NSDirectionalRectEdge(rawValue: 1 << 1)
    /// The bottom edge.
    public static let bottom = NSDirectionalRectEdge(rawValue: 1 << 2)
    /// The trailing (right) edge.
    public static let trailing = NSDirectionalRectEdge(rawValue: 1 << 3)
    /// Every edge.
    public static let all: NSDirectionalRectEdge = [.top, .leading, .bottom, .trailing]
}
