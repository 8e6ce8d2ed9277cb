#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The camera of a map view as one `Sendable` value: where it looks, how close, how turned and tilted, and the view
/// it draws into. Every frame takes a copy, so rendering never sees a camera mid-gesture (practice 3).
///
/// ## Camera model
/// The map is a flat plane in world points (``WorldPoint`` × `256 · 2^zoom`). A pinhole camera looks at the point
/// ``center``, which is drawn at the view's *optical centre*: the centre of the view shrunk by ``padding``
/// (spec §4.5). The camera sits at distance `D = 1.5 · height` points from the centre (``cameraDistance``), which
/// gives a vertical field of view of `2 · atan(1/3) = atan(3/4) ≈ 36.87°` (``verticalFieldOfView``, MapLibre's
/// value) and makes one world point exactly one screen point at the centre. ``bearing`` turns the map: the direction
/// `bearing` degrees clockwise from north points up the screen. ``pitch`` tilts the camera from the nadir towards
/// the bottom of the screen, so the upper part of the view sees farther.
///
/// Explicit formulas (r = the ground offset from the centre in world points, turned by −bearing, x right and y down
/// the screen; `p` = pitch; `(u, v)` = screen offset from the optical centre):
/// `depth = D − r.y · sin p`, `u = D · r.x / depth`, `v = D · r.y · cos p / depth`, and the inverse
/// `r.y = v · D / (D · cos p + v · sin p)`, `r.x = u · depth / D`. The horizon lies at `v = −D · cot p`.
///
/// Values are stored as given; ``CameraConstraints`` clamps them. The maths never traps, whatever the values.
/// Source: `maplibre-native:src/mbgl/map/transform_state.cpp` (same FOV and distance), written as closed formulas.
public struct CameraState: Equatable, Hashable, Sendable {
    /// The point drawn at the optical centre, in degrees.
    public var center: LatLng
    /// Zoom level: the world is `256 · 2^zoom` points wide. Usually in [2, 21] after clamping.
    public var zoom: Double
    /// Degrees clockwise from true north of the direction that points up on screen; [0, 360) after clamping.
    public var bearing: Double
    /// Tilt from the nadir in degrees: 0 looks straight down; Google's `viewingAngle`; [0, 65] after clamping.
    public var pitch: Double
    /// The view size in points. Sides below 1 point are treated as 1 by the projection.
    public var size: ScreenSize
    /// Insets in points that move the optical centre and shrink the visible region (spec §4.5).
    public var padding: EdgeInsets

    /// Creates a camera state; nothing is clamped.
    /// - Parameters:
    ///   - center: the target in degrees.
    ///   - zoom: zoom level.
    ///   - bearing: degrees clockwise from north. Defaults to 0.
    ///   - pitch: degrees from the nadir. Defaults to 0.
    ///   - size: the view size in points. Defaults to 256 × 256.
    ///   - padding: insets in points. Defaults to zero.
    public init(
        center: LatLng, zoom: Double, bearing: Double = 0, pitch: Double = 0,
        size: ScreenSize = ScreenSize(width: 256, height: 256), padding: EdgeInsets = .zero
    ) {
        self.center = center
        self.zoom = zoom
        self.bearing = bearing
        self.pitch = pitch
        self.size = size
        self.padding = padding
    }

    /// The vertical field of view in degrees, `atan(3/4)` ≈ 36.8699° (MapLibre's `0.6435011087932844` rad).
    public static let verticalFieldOfView: Double = atan(0.75) * degreesPerRadian

    /// The camera-to-centre distance in points: `0.5 · height / tan(fov / 2)` = `1.5 · height`.
    public var cameraDistance: Double { transform.distance }

    /// The optical centre in screen points: the centre of the view shrunk by ``padding``.
    public var opticalCenter: ScreenPoint { transform.opticalCenter }

    /// The precomputed transform for this state; build it once when projecting many points.
    public var transform: CameraTransform { CameraTransform(self) }

    /// ``center`` as a world point.
    public var centerWorldPoint: WorldPoint { WebMercator.worldPoint(center) }

    /// The screen point of a geographic position, using the copy of the world nearest the camera (so a longitude of
    /// 179 and one of −181 land on the same point). See ``CameraTransform/screenPoint(for:)-(WorldPoint)``.
    public func screenPoint(for latLng: LatLng) -> ScreenPoint { transform.screenPoint(for: latLng) }

    /// The geographic position under a screen point, or `nil` when the point is at or above the horizon.
    /// Longitude is wrapped into [−180, 180).
    public func latLng(for point: ScreenPoint) -> LatLng? { transform.latLng(for: point) }

    /// The world point under a screen point, or `nil` at or above the horizon. x is not wrapped.
    public func worldPoint(for point: ScreenPoint) -> WorldPoint? { transform.worldPoint(for: point) }

    /// Like ``worldPoint(for:)`` but never `nil`: points above the horizon, or whose ground point lies farther than
    /// ``CameraTransform/maximumDepthFactor`` camera distances, are moved to that distance in the same screen
    /// direction.
    public func worldPointClampedToHorizon(for point: ScreenPoint) -> WorldPoint {
        transform.worldPointClampedToHorizon(for: point)
    }
}

/// A ``CameraState`` with its trigonometry and scales precomputed, for projecting many points.
///
/// World ↔ screen conversions are the closed formulas documented on ``CameraState``. Conversions never trap; for
/// non-finite camera fields the results are NaN.
public struct CameraTransform: Sendable {
    /// The state this transform was built from.
    public let state: CameraState
    /// Camera-to-centre distance in points (`1.5 · max(height, 1)`).
    public let distance: Double
    /// The world size in points at the state's zoom, `256 · 2^zoom`.
    public let worldSize: Double
    /// The optical centre in screen points.
    public let opticalCenter: ScreenPoint
    /// The camera centre in world units.
    public let centerWorld: WorldPoint
    let sinBearing: Double
    let cosBearing: Double
    let sinPitch: Double
    let cosPitch: Double

    /// Ground points are never placed farther than this many camera distances (horizon clamping).
    public static let maximumDepthFactor: Double = 100

    /// Builds the transform of `state`.
    public init(_ state: CameraState) {
        self.state = state
        let width = state.size.width.isFinite ? max(state.size.width, 1) : 1
        let height = state.size.height.isFinite ? max(state.size.height, 1) : 1
        distance = 0.5 * height / tan(CameraState.verticalFieldOfView * radiansPerDegree / 2)
        worldSize = WebMercator.worldSize(zoom: state.zoom)
        let pad = state.padding.sanitized
        opticalCenter = ScreenPoint(
            x: pad.left + (width - pad.left - pad.right) / 2, y: pad.top + (height - pad.top - pad.bottom) / 2)
        centerWorld = WebMercator.worldPoint(state.center)
        let b = state.bearing * radiansPerDegree
        let p = state.pitch * radiansPerDegree
        sinBearing = sin(b)
        cosBearing = cos(b)
        sinPitch = sin(p)
        cosPitch = cos(p)
    }

    /// The screen offset from the optical centre of the horizon line, in points (negative: above the centre);
    /// `-infinity` when the camera looks straight down.
    public var horizonOffset: Double {
        sinPitch <= 1e-12 ? -.infinity : -distance * cosPitch / sinPitch
    }

    /// The distance along the viewing axis, in points, from the camera to a world point on the ground. The camera
    /// sees points with positive depth; at pitch 0 every ground point has depth ``distance``.
    public func depth(of w: WorldPoint) -> Double {
        let dx = (w.x - centerWorld.x) * worldSize
        let dy = (w.y - centerWorld.y) * worldSize
        let ry = -dx * sinBearing + dy * cosBearing
        return distance - ry * sinPitch
    }

    /// The copy of `w` (its x moved by whole worlds) nearest the camera's centre, as GL JS's `smartWrap` picks it:
    /// where anything drawn once per world (a marker, a label, the my-location dot) is placed and hit-tested when the
    /// view crosses the antimeridian. A point within half a world of the centre, or with a non-finite x, is returned
    /// as it is.
    /// - Parameter w: a world point, x in world widths (any value).
    /// - Returns: `w` with x moved by a whole number of worlds to within half a world of ``centerWorld``.
    public func nearestWorldCopy(of w: WorldPoint) -> WorldPoint {
        let dx = w.x - centerWorld.x
        guard dx.isFinite, abs(dx) > 0.5 else { return w }
        return WorldPoint(x: w.x - (dx + 0.5).rounded(.down), y: w.y)
    }

    /// The screen point of a world point, taken as given (no choice of world copy). Points behind the camera are
    /// pushed to a tiny positive depth, so they land far off-screen rather than mirrored.
    public func screenPoint(forUnwrapped w: WorldPoint) -> ScreenPoint {
        let dx = (w.x - centerWorld.x) * worldSize
        let dy = (w.y - centerWorld.y) * worldSize
        let rx = dx * cosBearing + dy * sinBearing
        let ry = -dx * sinBearing + dy * cosBearing
        let depth = max(distance - ry * sinPitch, distance * 1e-9)
        let k = distance / depth
        return ScreenPoint(x: opticalCenter.x + rx * k, y: opticalCenter.y + ry * cosPitch * k)
    }

    /// The screen point of a world point, using the copy of the world (x ± whole numbers) nearest the camera centre
    /// (``nearestWorldCopy(of:)``).
    public func screenPoint(for w: WorldPoint) -> ScreenPoint {
        screenPoint(forUnwrapped: nearestWorldCopy(of: w))
    }

    /// The screen point of a geographic position (nearest world copy).
    public func screenPoint(for latLng: LatLng) -> ScreenPoint {
        screenPoint(for: WebMercator.worldPoint(latLng))
    }

    /// The ground offset (turned frame, world points) under a screen point, or `nil` at or above the horizon.
    private func groundOffset(for s: ScreenPoint) -> (rx: Double, ry: Double)? {
        guard s.x.isFinite && s.y.isFinite else { return nil }
        let u = s.x - opticalCenter.x
        let v = s.y - opticalCenter.y
        let den = distance * cosPitch + v * sinPitch
        guard den > distance * 1e-12 else { return nil }
        let ry = v * distance / den
        let depth = distance - ry * sinPitch
        return (u * depth / distance, ry)
    }

    private func world(fromOffset rx: Double, _ ry: Double) -> WorldPoint {
        let dx = rx * cosBearing - ry * sinBearing
        let dy = rx * sinBearing + ry * cosBearing
        return WorldPoint(x: centerWorld.x + dx / worldSize, y: centerWorld.y + dy / worldSize)
    }

    /// The world point under a screen point, or `nil` when the screen point is at or above the horizon or not
    /// finite. x is not
    /// wrapped (the copy of the world around the camera centre).
    public func worldPoint(for s: ScreenPoint) -> WorldPoint? {
        guard let g = groundOffset(for: s) else { return nil }
        return world(fromOffset: g.rx, g.ry)
    }

    /// The world point under a screen point, never `nil`: a point above the horizon, or one whose ground point is
    /// farther than ``maximumDepthFactor`` × ``distance``, is replaced by the ground point at that depth in the same
    /// screen column (same horizontal angle).
    public func worldPointClampedToHorizon(for s: ScreenPoint) -> WorldPoint {
        let maxDepth = distance * Self.maximumDepthFactor
        if let g = groundOffset(for: s), distance - g.ry * sinPitch <= maxDepth {
            return world(fromOffset: g.rx, g.ry)
        }
        // Only reachable with pitch > 0: the ground point at depth maxDepth straight ahead.
        let ry = sinPitch > 0 ? -(maxDepth - distance) / sinPitch : 0
        let u = s.x - opticalCenter.x
        return world(fromOffset: u * maxDepth / distance, ry)
    }

    /// The geographic position under a screen point (longitude wrapped into [−180, 180)), or `nil` at or above the
    /// horizon.
    public func latLng(for s: ScreenPoint) -> LatLng? {
        worldPoint(for: s).map { WebMercator.latLng($0).wrapped }
    }

    /// The screen points per world point at a ground position: `D / depth` (1 at the centre, smaller farther away).
    public func scale(at w: WorldPoint) -> Double {
        distance / max(depth(of: w), distance * 1e-9)
    }
}
