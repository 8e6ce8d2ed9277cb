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
    /// The symbol's ``SymbolFeature/layerIndex`` (the overlay draws each layer's shapes over its labels).
    public var layerIndex: Int

    /// Creates a shape.
    public init(geometry: Geometry, placed: Bool, layerIndex: Int) {
        self.geometry = geometry
        self.placed = placed
        self.layerIndex = layerIndex
    }
}

extension SymbolPlacer {
    /// Records the collision shapes of one candidate that got as far as the collision test (with
    /// ``PlacementOptions/recordsCollisionShapes``): its text box or circles (placed when `showText`) and its icon
    /// box (placed when `showIcon`). Boxes are `(minX, minY, maxX, maxY)` in points.
    func recordCollisionShapes(
        textBox: (Double, Double, Double, Double)?, circles: [(x: Double, y: Double)], radius: Double,
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
