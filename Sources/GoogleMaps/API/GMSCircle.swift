import Foundation
import LinuxUIKit
import MapDrawing

/// A circle on the Earth's surface: the points at ``radius`` metres of great-circle distance from ``position`` (a
/// spherical cap; Maps SDK for iOS `GMSCircle`). Far from the equator it is taller than wide on the Mercator map
/// (stretched by 1 / cos(latitude) as any shape there).
///
/// Defaults: position (0, 0), radius 0 (nothing drawn), ``strokeWidth`` 1 point, ``strokeColor`` black, no
/// ``fillColor``, zIndex 0, not tappable. The outline is 256 points on the circle (Earth radius 6,371,009 m). An
/// invalid position or a radius that is not positive and finite draws nothing (the overlay stays on its map); a
/// radius over half the Earth's circumference is clamped just below it. A tap inside the circle or within half the
/// stroke width plus 8 points of its outline hits it.
/// - Thread rules: nonisolated, as in Google's SDK (see ``GMSOverlay``): configure on any thread while on no map;
///   on a map, change it on the main thread (changes from another thread reach the map on the main queue).
open class GMSCircle: GMSOverlay {
    /// The prepared geometry (``ShapeOverlay/drawing``), made on first use on the main actor.
    var drawingStorage: ShapeDrawing?
    /// Whether the prepared drawing is out of date (main actor).
    var specIsStale = true

    /// The centre, degrees. Defaults to (0, 0).
    open var position = CLLocationCoordinate2D(latitude: 0, longitude: 0) {
        didSet { shapeDidChange() }
    }

    /// The radius in metres, `> 0`. Defaults to 0.
    open var radius: CLLocationDistance = 0 {
        didSet { shapeDidChange() }
    }

    /// The outline's width in screen points; 0 draws no outline. Defaults to 1.
    open var strokeWidth: CGFloat = 1 {
        didSet { shapeDidChange() }
    }

    /// The outline's colour; nil draws none. Defaults to black.
    open var strokeColor: UIColor? = .black {
        didSet { shapeDidChange() }
    }

    /// The interior's colour; nil (the default) draws no fill.
    open var fillColor: UIColor? {
        didSet { shapeDidChange() }
    }

    /// A circle on no map, of radius 0 at (0, 0).
    public override init() {
        super.init()
    }

    /// A circle of `radius` metres around `position`; other properties take their defaults.
    public convenience init(position: CLLocationCoordinate2D, radius: CLLocationDistance) {
        self.init()
        self.position = position
        self.radius = radius
    }

    /// A new circle with this one's centre, radius, stroke, fill and the common overlay properties, on no map
    /// (Google's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSCircle()
        copyOverlayProperties(to: copy)
        copy.position = position
        copy.radius = radius
        copy.strokeWidth = strokeWidth
        copy.strokeColor = strokeColor
        copy.fillColor = fillColor
        return copy
    }

    func makeSpec() -> ShapeSpec {
        var spec = ShapeSpec(strokeWidth: strokeWidth, tappableInterior: true)
        let ring = ShapeGeometry.circleOutline(center: position, radius: radius, count: 256)
        guard ring.count >= 3 else { return spec }
        spec.fillRings = [ring]
        spec.fillColor = fillColor.map(RGBAColor.init)
        if let strokeColor {
            spec.strokes = [ShapeSpec.Stroke(coordinates: ring, closed: true, paint: .solid(RGBAColor(strokeColor)))]
        }
        return spec
    }
}

/// A main-actor isolated conformance: the drawing side is main-actor, the class (and app subclasses) stay
/// nonisolated.
extension GMSCircle: @MainActor ShapeOverlay {}
