import Foundation
import LinuxUIKit
import MapDrawing
import MapGeometry

/// A line through the points of a path on the Earth's surface (Maps SDK for iOS `GMSPolyline`).
///
/// Defaults: no path, ``strokeWidth`` 1 point, ``strokeColor`` blue, not ``geodesic``, no ``spans``, zIndex 0, not
/// tappable. Drawn between the basemap and the markers (all non-marker overlays are below every marker) with round
/// joins and round ends; straight in Mercator, or along great circles when ``geodesic``; a segment always goes the
/// short way round (across the antimeridian when that is shorter). Invalid coordinates (NaN, infinite, |latitude|
/// > 90) are skipped. A tap within half the stroke width plus 8 points of the line hits it (`OverlayStage.tapSlop`).
/// - Thread rules: nonisolated, as in Google's SDK (see ``GMSOverlay``): configure on any thread while on no map;
///   on a map, change it on the main thread (changes from another thread reach the map on the main queue).
open class GMSPolyline: GMSOverlay {
    /// The prepared geometry (``ShapeOverlay/drawing``), made on first use on the main actor.
    var drawingStorage: ShapeDrawing?
    /// Whether the prepared drawing is out of date (main actor).
    var specIsStale = true

    /// The line's points, copied on assignment (Google's `copy`): changing a ``GMSMutablePath`` afterwards changes
    /// nothing until it is assigned again. Defaults to nil (nothing drawn).
    open var path: GMSPath? {
        get { storedPath }
        set {
            storedPath = newValue.map { GMSPath(path: $0) }
            shapeDidChange()
        }
    }
    private var storedPath: GMSPath?

    /// Line width in screen points (not scaled with zoom). Defaults to 1; 0, negative or NaN draw no line.
    open var strokeWidth: CGFloat = 1 {
        didSet { shapeDidChange() }
    }

    /// The colour of the whole line when ``spans`` is empty. Defaults to blue.
    open var strokeColor: UIColor = .blue {
        didSet { shapeDidChange() }
    }

    /// Whether segments follow great circles (curved on the Mercator map) instead of straight Mercator lines.
    /// Defaults to false.
    open var geodesic = false {
        didSet { shapeDidChange() }
    }

    /// Styles along the line, in path segments from its start (see ``GMSStyleSpan``); the last span's style covers
    /// whatever is left. Empty or nil (the default): ``strokeColor`` everywhere.
    open var spans: [GMSStyleSpan]? {
        didSet { shapeDidChange() }
    }

    /// A line on no map, without a path.
    public override init() {
        super.init()
    }

    /// A line through `path` (copied); other properties take their defaults.
    public convenience init(path: GMSPath?) {
        self.init()
        self.path = path
    }

    /// A new line with this one's path, stroke, geodesic flag, spans and the common overlay properties, on no map
    /// (Google's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSPolyline()
        copyOverlayProperties(to: copy)
        copy.storedPath = storedPath
        copy.strokeWidth = strokeWidth
        copy.strokeColor = strokeColor
        copy.geodesic = geodesic
        copy.spans = spans
        return copy
    }

    func makeSpec() -> ShapeSpec {
        var spec = ShapeSpec(strokeWidth: strokeWidth, geodesic: geodesic)
        let coordinates = (storedPath?.coordinates ?? []).filter(ShapeGeometry.isValid)
        spec.strokes = ShapeSpans.strokes(
            coordinates, spans: spans ?? [], color: strokeColor, geodesic: geodesic)
        return spec
    }
}

/// Cuts a line into the pieces its style spans colour.
enum ShapeSpans {
    /// The point `position` segments along `coordinates` (great circle or Mercator interpolation).
    private static func point(_ coordinates: [CLLocationCoordinate2D], at position: Double, geodesic: Bool)
        -> CLLocationCoordinate2D
    {
        let last = coordinates.count - 1
        let i = min(max(Int(position.rounded(.down)), 0), last)
        let f = position - Double(i)
        guard i < last, f > 0 else { return coordinates[i] }
        let a = coordinates[i]
        let b = coordinates[i + 1]
        if geodesic { return ShapeGeometry.interpolate(a, b, f) }
        var dLng = b.longitude - a.longitude
        if abs(dLng) > 180 { dLng -= dLng > 0 ? 360 : -360 }
        // Mercator-straight: interpolate the projected latitude.
        let ya = WebMercator.mercatorY(latitudeRadians: a.latitude * .pi / 180)
        let yb = WebMercator.mercatorY(latitudeRadians: b.latitude * .pi / 180)
        let y = ya + (yb - ya) * f
        let lat =
            y.isFinite
            ? WebMercator.latitudeRadians(mercatorY: y) * 180 / .pi : a.latitude + (b.latitude - a.latitude) * f
        return CLLocationCoordinate2D(latitude: lat, longitude: a.longitude + dLng * f)
    }

    /// The stroked pieces of a line of `coordinates` (all valid) under `spans`; `color` when there are none.
    static func strokes(
        _ coordinates: [CLLocationCoordinate2D], spans: [GMSStyleSpan], color: UIColor, geodesic: Bool
    ) -> [ShapeSpec.Stroke] {
        guard coordinates.count >= 2 else { return [] }
        guard !spans.isEmpty else {
            return [ShapeSpec.Stroke(coordinates: coordinates, closed: false, paint: .solid(RGBAColor(color)))]
        }
        let total = Double(coordinates.count - 1)
        var out: [ShapeSpec.Stroke] = []
        var start = 0.0
        for (k, span) in spans.enumerated() where start < total {
            let end = k == spans.count - 1 ? total : min(total, start + span.segments)
            var piece = [point(coordinates, at: start, geodesic: geodesic)]
            var i = Int(start.rounded(.down)) + 1
            while Double(i) < end {
                piece.append(coordinates[i])
                i += 1
            }
            piece.append(point(coordinates, at: end, geodesic: geodesic))
            let paint: ShapeStrokePaint
            switch span.style.paint {
            case .solid(let c): paint = .solid(RGBAColor(c))
            case .gradient(let a, let b): paint = .gradient(RGBAColor(a), RGBAColor(b))
            }
            out.append(
                ShapeSpec.Stroke(
                    coordinates: piece, closed: false, paint: paint, stamp: span.style.stampStyle?.stampImage))
            start = end
        }
        return out
    }
}

/// A main-actor isolated conformance: the drawing side is main-actor, the class (and app subclasses) stay
/// nonisolated.
extension GMSPolyline: @MainActor ShapeOverlay {}
