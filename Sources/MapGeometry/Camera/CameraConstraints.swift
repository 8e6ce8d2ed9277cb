/// The limits a map puts on its camera and the clamping that enforces them (spec §1.8, decisions D1–D4).
///
/// - Latitude: clamped to [−85, 85] (the GMS target range; Web Mercator itself reaches ±85.0511).
/// - Longitude: wrapped into [−180, 180).
/// - Zoom: clamped to [``minimumZoom``, ``maximumZoom``] (defaults 2 and 21, D1).
/// - Bearing: wrapped into [0, 360).
/// - Pitch: clamped to [0, ``maximumPitch(zoom:)``] (D4: 30° at zoom ≤ 10, 65° at zoom ≥ 16, linear between).
/// - NaN or infinite fields are replaced by the default camera's value (D3): target (0, 0), zoom = minimum zoom,
///   bearing 0, pitch 0.
public struct CameraConstraints: Equatable, Hashable, Sendable {
    /// The smallest zoom allowed (farthest out). Default 2 (`kGMSMinZoomLevel`, D1).
    public var minimumZoom: Double
    /// The largest zoom allowed (closest in). Default 21 (`kGMSMaxZoomLevel`, D1).
    public var maximumZoom: Double

    /// The smallest zoom any map allows, `kGMSMinZoomLevel` (D1).
    public static let absoluteMinimumZoom: Double = 2
    /// The largest zoom any map allows, `kGMSMaxZoomLevel` (D1).
    public static let absoluteMaximumZoom: Double = 21
    /// The largest |latitude| of a camera target in degrees (spec §1.8).
    public static let maximumLatitude: Double = 85

    /// Creates constraints. Both zooms are clamped into [2, 21]; NaN falls back to the default.
    /// - Precondition: `minimumZoom ≤ maximumZoom` after clamping (programmer error, D1).
    public init(minimumZoom: Double = 2, maximumZoom: Double = 21) {
        let lo = minimumZoom.isNaN ? Self.absoluteMinimumZoom : clamp(minimumZoom, 2, 21)
        let hi = maximumZoom.isNaN ? Self.absoluteMaximumZoom : clamp(maximumZoom, 2, 21)
        precondition(lo <= hi, "minimum zoom \(minimumZoom) is greater than maximum zoom \(maximumZoom)")
        self.minimumZoom = lo
        self.maximumZoom = hi
    }

    /// The default constraints, zoom [2, 21].
    public static let standard: CameraConstraints = CameraConstraints()

    /// The largest pitch in degrees at `zoom` (D4): 30 at zoom ≤ 10, 65 at zoom ≥ 16, linear between. NaN zoom → 30.
    public static func maximumPitch(zoom: Double) -> Double {
        guard !zoom.isNaN else { return 30 }
        if zoom <= 10 { return 30 }
        if zoom >= 16 { return 65 }
        return 30 + (zoom - 10) * (35.0 / 6.0)
    }

    /// Latitude clamped to [−85, 85]; NaN or infinite → 0.
    public static func clampLatitude(_ latitude: Double) -> Double {
        latitude.isFinite ? clamp(latitude, -maximumLatitude, maximumLatitude) : 0
    }

    /// Longitude wrapped into [−180, 180) (480, 840, 1200 → 120); NaN or infinite → 0.
    public static func wrapLongitude(_ longitude: Double) -> Double {
        longitude.isFinite ? wrap(longitude, minimum: -180, maximum: 180) : 0
    }

    /// Bearing wrapped into [0, 360); NaN or infinite → 0.
    public static func wrapBearing(_ bearing: Double) -> Double {
        bearing.isFinite ? wrap(bearing, minimum: 0, maximum: 360) : 0
    }

    /// Zoom clamped to [``minimumZoom``, ``maximumZoom``]; NaN → ``minimumZoom``; ±infinity clamp to the ends.
    public func clampZoom(_ zoom: Double) -> Double {
        zoom.isNaN ? minimumZoom : clamp(zoom, minimumZoom, maximumZoom)
    }

    /// Pitch clamped to [0, maximumPitch(zoom)] for an already clamped `zoom`; NaN or infinite → 0.
    public static func clampPitch(_ pitch: Double, zoom: Double) -> Double {
        pitch.isFinite ? clamp(pitch, 0, maximumPitch(zoom: zoom)) : 0
    }

    /// The camera with every field clamped, wrapped or defaulted as described on the type. Size and padding are
    /// sanitised too (non-finite or negative sizes → 0, non-finite insets → 0).
    public func clamped(_ state: CameraState) -> CameraState {
        var s = state
        s.center = LatLng(
            latitude: Self.clampLatitude(state.center.latitude), longitude: Self.wrapLongitude(state.center.longitude))
        s.zoom = clampZoom(state.zoom)
        s.bearing = Self.wrapBearing(state.bearing)
        s.pitch = Self.clampPitch(state.pitch, zoom: s.zoom)
        let w = state.size.width.isFinite ? max(state.size.width, 0) : 0
        let h = state.size.height.isFinite ? max(state.size.height, 0) : 0
        s.size = ScreenSize(width: w, height: h)
        s.padding = state.padding.sanitized
        return s
    }
}
