import Foundation
import LinuxUIKit
import MapDrawing

/// A filled area bounded by a closed path, with optional holes (Maps SDK for iOS `GMSPolygon`).
///
/// Defaults: no path, no holes, ``fillColor`` blue, no ``strokeColor`` (no outline), ``strokeWidth`` 1 point, not
/// ``geodesic``, zIndex 0, not tappable. The path closes itself (its last point joins its first). Filled with the
/// non-zero rule after orienting the shell one way and every hole the other, so holes are cut out and a
/// self-intersecting shell is filled wherever it winds (Google's behaviour); never a crash. Invalid coordinates
/// are skipped. A tap inside the fill (not in a hole) or within half the stroke width plus 8 points of the outline
/// hits it.
/// - Thread rules: nonisolated, as in Google's SDK (see ``GMSOverlay``): configure on any thread while on no map;
///   on a map, change it on the main thread (changes from another thread reach the map on the main queue).
open class GMSPolygon: GMSOverlay {
    /// The prepared geometry (``ShapeOverlay/drawing``), made on first use on the main actor.
    var drawingStorage: ShapeDrawing?
    /// Whether the prepared drawing is out of date (main actor).
    var specIsStale = true

    /// The outline, copied on assignment. Defaults to nil (nothing drawn).
    open var path: GMSPath? {
        get { storedPath }
        set {
            storedPath = newValue.map { GMSPath(path: $0) }
            shapeDidChange()
        }
    }
    private var storedPath: GMSPath?

    /// Holes cut out of the fill (each copied on assignment). Defaults to nil.
    open var holes: [GMSPath]? {
        get { storedHoles }
        set {
            storedHoles = newValue?.map { GMSPath(path: $0) }
            shapeDidChange()
        }
    }
    private var storedHoles: [GMSPath]?

    /// The outline's width in screen points. Defaults to 1.
    open var strokeWidth: CGFloat = 1 {
        didSet { shapeDidChange() }
    }

    /// The outline's colour; nil (the default) draws no outline.
    open var strokeColor: UIColor? {
        didSet { shapeDidChange() }
    }

    /// The fill colour; nil draws no fill (the interior still takes taps). Defaults to blue.
    open var fillColor: UIColor? = .blue {
        didSet { shapeDidChange() }
    }

    /// Whether edges follow great circles. Defaults to false.
    open var geodesic = false {
        didSet { shapeDidChange() }
    }

    /// A polygon on no map, without a path.
    public override init() {
        super.init()
    }

    /// A polygon bounded by `path` (copied); other properties take their defaults.
    public convenience init(path: GMSPath?) {
        self.init()
        self.path = path
    }

    /// A new polygon with this one's path, holes, stroke, fill, geodesic flag and the common overlay properties, on
    /// no map (Google's `NSCopying`). Editing the copy leaves this polygon as it is.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSPolygon()
        copyOverlayProperties(to: copy)
        copy.storedPath = storedPath
        copy.storedHoles = storedHoles
        copy.strokeWidth = strokeWidth
        copy.strokeColor = strokeColor
        copy.fillColor = fillColor
        copy.geodesic = geodesic
        return copy
    }

    func makeSpec() -> ShapeSpec {
        var spec = ShapeSpec(strokeWidth: strokeWidth, geodesic: geodesic, tappableInterior: true)
        let shell = (storedPath?.coordinates ?? []).filter(ShapeGeometry.isValid)
        guard shell.count >= 2 else { return spec }
        let rings =
            [shell]
            + (storedHoles ?? []).map { $0.coordinates.filter(ShapeGeometry.isValid) }
            .filter { $0.count >= 3 }
        if shell.count >= 3 {
            spec.fillRings = rings
            spec.fillColor = fillColor.map(RGBAColor.init)
        }
        if let strokeColor {
            spec.strokes = rings.map {
                ShapeSpec.Stroke(coordinates: $0, closed: true, paint: .solid(RGBAColor(strokeColor)))
            }
        }
        return spec
    }
}

/// A main-actor isolated conformance: the drawing side is main-actor, the class (and app subclasses) stay
/// nonisolated.
extension GMSPolygon: @MainActor ShapeOverlay {}
