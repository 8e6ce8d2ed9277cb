import MapDrawing
import MapGeometry

/// One collision shape a placement tested, for a collision debug overlay (Waymark's own, after MapLibre Native's
/// `MapDebugOptions::Collision`; not in Google's API). Recorded only with
/// ``PlacementOptions/recordsCollisionShapes``.
public struct CollisionDebugShape: Hashable, Sendable {
    /// The shape's geometry on screen, in points.
    public enum Geometry: Hashable, Sendable {
        /// A point label's text box or an icon's box, padding included.
        case box(RenderRect)
        /// One circle of a line label's text.
        case circle(center: ScreenPoint, radius: Double)
    }

    /// Where the shape is.
    public var geometry: Geometry
    /// Whether its part (text or icon) was placed; `false` when the label or that part collided.
    public var placed: Bool
    /// `false` for a shape that stands for no tested position: the centred box of text with variable anchors that
    /// no anchor placed (MapLibre draws it faded, "not used"). Default `true`.
    public var used: Bool
    /// The symbol's ``SymbolFeature/layerIndex`` (the overlay draws each layer's shapes over its labels).
    public var layerIndex: Int

    /// Creates a shape.
    public init(geometry: Geometry, placed: Bool, used: Bool = true, layerIndex: Int) {
        self.geometry = geometry
        self.placed = placed
        self.used = used
        self.layerIndex = layerIndex
    }
}

extension SymbolPlacer {
    /// Records the collision shapes of one candidate that got as far as the collision test (with
    /// ``PlacementOptions/recordsCollisionShapes``): its text box or circles (placed when `showText`), or instead
    /// of the box `unusedTextBox` when given (not used), and its icon box (placed when `showIcon`). Boxes are
    /// `(minX, minY, maxX, maxY)` in points.
    func recordCollisionShapes(
        textBox: (Double, Double, Double, Double)?, unusedTextBox: (Double, Double, Double, Double)?,
        circles: [(x: Double, y: Double)], radius: Double,
        iconBox: (Double, Double, Double, Double)?, showText: Bool, showIcon: Bool, layerIndex: Int
    ) {
        guard options.recordsCollisionShapes else { return }
        func rect(_ b: (Double, Double, Double, Double)) -> RenderRect {
            RenderRect(x: b.0, y: b.1, width: b.2 - b.0, height: b.3 - b.1)
        }
        if !circles.isEmpty {
            for p in circles {
                collisionShapes.append(
                    CollisionDebugShape(
                        geometry: .circle(center: ScreenPoint(x: p.x, y: p.y), radius: radius), placed: showText,
                        layerIndex: layerIndex))
            }
        } else if let b = unusedTextBox {
            collisionShapes.append(
                CollisionDebugShape(geometry: .box(rect(b)), placed: showText, used: false, layerIndex: layerIndex))
        } else if let b = textBox {
            collisionShapes.append(
                CollisionDebugShape(geometry: .box(rect(b)), placed: showText, layerIndex: layerIndex))
        }
        if let b = iconBox {
            collisionShapes.append(
                CollisionDebugShape(geometry: .box(rect(b)), placed: showIcon, layerIndex: layerIndex))
        }
    }
}

/// The box of text of `size` centred on `point`, turned `degrees` about it, grown by `padding` (points):
/// `(minX, minY, maxX, maxY)`.
func centredTextBox(size: ScreenSize, padding: Double, at point: ScreenPoint, _ degrees: Double) -> (
    Double, Double, Double, Double
) {
    let origin = TextAnchor.center.boxOrigin(for: size, at: point)
    let b = rotatedBounds(origin: origin, size: size, pivot: point, degrees: degrees)
    return (b.0 - padding, b.1 - padding, b.2 + padding, b.3 + padding)
}

/// The axis-aligned bounds of the box at `origin` of `size` grown by `padding` on each side, then turned `degrees`
/// clockwise about `pivot` (MapLibre pads a point label's collision box before turning it by `text-rotate`).
func paddedRotatedBounds(
    _ origin: ScreenPoint, _ size: ScreenSize, _ padding: Double, pivot: ScreenPoint, _ degrees: Double
) -> (Double, Double, Double, Double) {
    rotatedBounds(
        origin: ScreenPoint(x: origin.x - padding, y: origin.y - padding),
        size: ScreenSize(width: size.width + 2 * padding, height: size.height + 2 * padding), pivot: pivot,
        degrees: degrees)
}

extension SymbolIcon {
    /// `icon-padding`'s numbers as `[top, right, bottom, left]` (CSS shorthand: one number for every side, two for
    /// vertical and horizontal, three for top, horizontal and bottom), or `nil` when every side is the same (or
    /// there are no numbers, or more than four): ``padding`` then serves.
    public static func sidePaddings(_ numbers: [Double]) -> [Double]? {
        guard numbers.allSatisfy(\.isFinite) else { return nil }
        let sides: [Double]
        switch numbers.count {
        case 2: sides = [numbers[0], numbers[1], numbers[0], numbers[1]]
        case 3: sides = [numbers[0], numbers[1], numbers[2], numbers[1]]
        case 4: sides = numbers
        default: return nil
        }
        return Set(sides).count == 1 ? nil : sides
    }

    /// The collision box `b` (grown by ``padding`` × `scale` on every side) with `sides` (`[top, right, bottom,
    /// left]`) × `scale` margins instead; `scale` is the label's perspective ratio (1 when flat).
    func withSidePaddings(_ b: (Double, Double, Double, Double), _ sides: [Double], scale: Double = 1) -> (
        Double, Double, Double, Double
    ) {
        guard sides.count == 4 else { return b }
        let p = max(padding, 0) * scale
        let (top, right, bottom, left) = (sides[0] * scale, sides[1] * scale, sides[2] * scale, sides[3] * scale)
        return (b.0 + p - left, b.1 + p - top, b.2 - p + right, b.3 - p + bottom)
    }
}
