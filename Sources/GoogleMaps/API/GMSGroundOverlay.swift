import Foundation
import LinuxUIKit
import MapDrawing
import MapGeometry

/// An image laid flat on the Earth's surface (Maps SDK for iOS `GMSGroundOverlay`): it turns, tilts and scales with
/// the map, unlike a marker.
///
/// Placed either by ``bounds`` (the image stretched over that latitude/longitude rectangle) or by
/// ``init(position:icon:zoomLevel:)`` (the image at its own size in points at that zoom, around ``position``).
/// Defaults: no icon (nothing drawn), ``anchor`` (0.5, 0.5), ``bearing`` 0 (the image's top to the north),
/// ``opacity`` 1, zIndex 0, not tappable. ``bearing`` turns the image clockwise about its anchor (on the Mercator
/// plane, which keeps angles). Drawn under bearing and pitch: one affine image draw per frame when flat, an 8 × 8
/// grid of affine pieces (each clipped to its cell) under pitch. A tap on the image's quadrilateral hits it.
/// - Thread rules: nonisolated, as in Google's SDK (see ``GMSOverlay``): configure on any thread while on no map;
///   on a map, change it on the main thread (changes from another thread reach the map on the main queue).
open class GMSGroundOverlay: GMSOverlay {
    /// Where the image lies: a fixed world rectangle, or its icon's size at a zoom level around the position.
    private enum Placement {
        case rectangle(minX: Double, minY: Double, maxX: Double, maxY: Double)
        case sized(zoomLevel: Double)
    }
    private var placement: Placement = .sized(zoomLevel: 0)
    private var storedPosition = CLLocationCoordinate2D(latitude: 0, longitude: 0)

    /// Where the anchor lies on the Earth, degrees. Setting it moves the image (its bounds) so the anchor is there.
    open var position: CLLocationCoordinate2D {
        get { storedPosition }
        set {
            guard ShapeGeometry.isValid(newValue) else { return }
            if case .rectangle(let x0, let y0, let x1, let y1) = placement {
                let a = anchorWorld(x0, y0, x1, y1)
                var w = WebMercator.worldPoint(LatLng(newValue))
                w.x -= (w.x - a.x + 0.5).rounded(.down)
                placement = .rectangle(
                    minX: x0 + w.x - a.x, minY: y0 + w.y - a.y, maxX: x1 + w.x - a.x, maxY: y1 + w.y - a.y)
            }
            storedPosition = newValue
            overlayDidChange()
        }
    }

    /// Where the image is pinned to ``position``, as fractions of its size: (0, 0) top-left, (1, 1) bottom-right.
    /// Defaults to (0.5, 0.5). Changing it keeps the bounds and moves ``position`` to the new anchor point.
    open var anchor = CGPoint(x: 0.5, y: 0.5) {
        didSet {
            if case .rectangle(let x0, let y0, let x1, let y1) = placement {
                storedPosition = CLLocationCoordinate2D(WebMercator.latLng(anchorWorld(x0, y0, x1, y1)).wrapped)
            }
            overlayDidChange()
        }
    }

    /// The image; nil (the default) draws nothing.
    open var icon: UIImage? {
        didSet { overlayDidChange() }
    }

    /// Opacity from 0 (invisible) to 1 (the default); values outside are clamped, NaN counts as 1.
    open var opacity: Float = 1 {
        didSet { overlayDidChange() }
    }

    /// Clockwise turn of the image about its anchor, degrees (0: top to the north). Defaults to 0; NaN counts as 0.
    open var bearing: CLLocationDirection = 0 {
        didSet { overlayDidChange() }
    }

    /// The latitude/longitude rectangle the (unturned) image fills; nil when the overlay has no size (placed by
    /// zoom level without an icon). Setting valid bounds places the image there and moves ``position`` to the
    /// anchor point; nil or invalid bounds are ignored.
    open var bounds: GMSCoordinateBounds? {
        get {
            guard let r = worldRectangle else { return nil }
            let sw = WebMercator.latLng(WorldPoint(x: r.minX, y: r.maxY)).wrapped
            let ne = WebMercator.latLng(WorldPoint(x: r.maxX, y: r.minY)).wrapped
            return GMSCoordinateBounds(southWest: CLLocationCoordinate2D(sw), northEast: CLLocationCoordinate2D(ne))
        }
        set {
            guard let box = newValue?.box else { return }
            let (sw, ne) = box.worldBox
            placement = .rectangle(minX: sw.x, minY: ne.y, maxX: ne.x, maxY: sw.y)
            storedPosition = CLLocationCoordinate2D(WebMercator.latLng(anchorWorld(sw.x, ne.y, ne.x, sw.y)).wrapped)
            overlayDidChange()
        }
    }

    /// An overlay on no map, without icon or bounds.
    public override init() {
        super.init()
    }

    /// `icon` stretched over `bounds`; ``position`` is the bounds' centre (the default anchor).
    public convenience init(bounds: GMSCoordinateBounds?, icon: UIImage?) {
        self.init()
        self.icon = icon
        self.bounds = bounds
    }

    /// `icon` at `position` (its anchor), as large as the image's size in points is at `zoomLevel` (so at that camera
    /// zoom one image point covers one screen point at pitch 0).
    public convenience init(position: CLLocationCoordinate2D, icon: UIImage?, zoomLevel: CGFloat) {
        self.init()
        self.icon = icon
        placement = .sized(zoomLevel: zoomLevel.isFinite ? Double(zoomLevel) : 0)
        self.position = position
    }

    private func overlayDidChange() {
        onMainActor(self) { overlay in overlay.mapStorage?.overlayStage.geometryDidChange(overlay) }
    }

    /// A new ground overlay with this one's placement, icon, anchor, bearing, opacity and the common overlay
    /// properties, on no map (Google's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSGroundOverlay()
        copyOverlayProperties(to: copy)
        copy.anchor = anchor
        copy.placement = placement
        copy.storedPosition = storedPosition
        copy.icon = icon
        copy.opacity = opacity
        copy.bearing = bearing
        return copy
    }

    private func anchorWorld(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> WorldPoint {
        let ax = anchor.x.isFinite ? Double(anchor.x) : 0.5
        let ay = anchor.y.isFinite ? Double(anchor.y) : 0.5
        return WorldPoint(x: x0 + (x1 - x0) * ax, y: y0 + (y1 - y0) * ay)
    }

    /// The unturned image rectangle in world units (x may pass 1 across the antimeridian), or nil.
    var worldRectangle: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        switch placement {
        case .rectangle(let x0, let y0, let x1, let y1):
            return (x0, y0, x1, y1)
        case .sized(let zoom):
            guard let icon, icon.size.width > 0, icon.size.height > 0 else { return nil }
            let size = WebMercator.worldSize(zoom: zoom)
            let w = Double(icon.size.width) / size
            let h = Double(icon.size.height) / size
            let p = WebMercator.worldPoint(LatLng(storedPosition))
            let ax = anchor.x.isFinite ? Double(anchor.x) : 0.5
            let ay = anchor.y.isFinite ? Double(anchor.y) : 0.5
            return (p.x - ax * w, p.y - ay * h, p.x + (1 - ax) * w, p.y + (1 - ay) * h)
        }
    }

    /// The world point of the image fraction (u, v) (0…1 each), turned by the bearing about the anchor.
    func worldPoint(u: Double, v: Double) -> WorldPoint? {
        guard let r = worldRectangle else { return nil }
        let a = anchorWorld(r.minX, r.minY, r.maxX, r.maxY)
        let ax = anchor.x.isFinite ? Double(anchor.x) : 0.5
        let ay = anchor.y.isFinite ? Double(anchor.y) : 0.5
        let lx = (u - ax) * (r.maxX - r.minX)
        let ly = (v - ay) * (r.maxY - r.minY)
        let θ = (bearing.isFinite ? bearing : 0) * .pi / 180
        return WorldPoint(x: a.x + lx * cos(θ) - ly * sin(θ), y: a.y + lx * sin(θ) + ly * cos(θ))
    }

    /// The image fraction (u, v) at a world point (the inverse of ``worldPoint(u:v:)``), or nil.
    func imageFraction(at w: WorldPoint) -> (u: Double, v: Double)? {
        guard let r = worldRectangle, r.maxX > r.minX, r.maxY > r.minY else { return nil }
        let a = anchorWorld(r.minX, r.minY, r.maxX, r.maxY)
        let θ = (bearing.isFinite ? bearing : 0) * .pi / 180
        let dx = w.x - a.x
        let dy = w.y - a.y
        let lx = dx * cos(θ) + dy * sin(θ)
        let ly = -dx * sin(θ) + dy * cos(θ)
        let ax = anchor.x.isFinite ? Double(anchor.x) : 0.5
        let ay = anchor.y.isFinite ? Double(anchor.y) : 0.5
        return (lx / (r.maxX - r.minX) + ax, ly / (r.maxY - r.minY) + ay)
    }
}
