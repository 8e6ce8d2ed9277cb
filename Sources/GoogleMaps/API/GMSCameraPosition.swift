import Foundation
import MapGeometry

/// Where a map's camera looks: target, zoom, bearing and viewing angle (spec §1.8). Immutable;
/// ``GMSMutableCameraPosition`` is the mutable subclass.
///
/// Every initialiser clamps (D3): latitude to [−85, 85], longitude wrapped into [−180, 180), zoom to
/// [``kGMSMinZoomLevel``, ``kGMSMaxZoomLevel``], bearing wrapped into [0, 360), viewing angle to [0, maximum for the
/// zoom] (D4: 30° at zoom ≤ 10, 65° at zoom ≥ 16, linear between). NaN or infinite inputs take the default camera's
/// value for that field: target (0, 0), zoom 2, bearing 0, viewing angle 0. Nothing traps.
///
/// - Thread rules: immutable and safe to share between threads (the mutable subclass is not).
open class GMSCameraPosition: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    var storedTarget: CLLocationCoordinate2D
    var storedZoom: Float
    var storedBearing: CLLocationDirection
    /// Clamped to [0, 65]; the getter applies the zoom-dependent maximum, so the mutable subclass's result does not
    /// depend on the order of its setters.
    var storedViewingAngle: Double

    /// The point the camera looks at, drawn at the centre of the padded map view. Latitude in [−85, 85], longitude
    /// in [−180, 180).
    open var target: CLLocationCoordinate2D { storedTarget }

    /// The zoom level in [kGMSMinZoomLevel, kGMSMaxZoomLevel]: at zoom `z` the world is `256 · 2^z` points wide.
    open var zoom: Float { storedZoom }

    /// Degrees clockwise from true north of the direction that points up on screen, in [0, 360).
    open var bearing: CLLocationDirection { storedBearing }

    /// Tilt from the nadir in degrees: 0 looks straight down; at most 30° at zoom ≤ 10, 65° at zoom ≥ 16 (D4).
    open var viewingAngle: Double {
        min(storedViewingAngle, CameraConstraints.maximumPitch(zoom: Double(storedZoom)))
    }

    /// The designated initialiser; clamps every value (D3).
    /// - Parameters:
    ///   - target: the point to look at, degrees.
    ///   - zoom: zoom level.
    ///   - bearing: degrees clockwise from north.
    ///   - viewingAngle: degrees from the nadir.
    public required init(
        target: CLLocationCoordinate2D, zoom: Float, bearing: CLLocationDirection, viewingAngle: Double
    ) {
        storedTarget = Self.clampTarget(target)
        storedZoom = Self.clampZoom(zoom)
        storedBearing = CameraConstraints.wrapBearing(bearing)
        storedViewingAngle = viewingAngle.isFinite ? min(max(viewingAngle, 0), 65) : 0
        super.init()
    }

    /// A camera with bearing 0 and viewing angle 0.
    public convenience init(target: CLLocationCoordinate2D, zoom: Float) {
        self.init(target: target, zoom: zoom, bearing: 0, viewingAngle: 0)
    }

    /// A camera at `latitude`, `longitude` (degrees) with bearing 0 and viewing angle 0.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees, zoom: Float) {
        self.init(
            target: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), zoom: zoom, bearing: 0,
            viewingAngle: 0)
    }

    /// A camera from latitude and longitude in degrees, with bearing and viewing angle.
    public convenience init(
        latitude: CLLocationDegrees, longitude: CLLocationDegrees, zoom: Float, bearing: CLLocationDirection,
        viewingAngle: Double
    ) {
        self.init(
            target: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), zoom: zoom, bearing: bearing,
            viewingAngle: viewingAngle)
    }

    /// Class constructor: `init(target:zoom:)`.
    open class func camera(withTarget target: CLLocationCoordinate2D, zoom: Float) -> Self {
        Self(target: target, zoom: zoom, bearing: 0, viewingAngle: 0)
    }

    /// Class constructor: `init(latitude:longitude:zoom:)`.
    open class func camera(
        withLatitude latitude: CLLocationDegrees, longitude: CLLocationDegrees, zoom: Float
    ) -> Self {
        Self(
            target: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), zoom: zoom, bearing: 0,
            viewingAngle: 0)
    }

    /// Class constructor: `init(target:zoom:bearing:viewingAngle:)`.
    open class func camera(
        withTarget target: CLLocationCoordinate2D, zoom: Float, bearing: CLLocationDirection, viewingAngle: Double
    ) -> Self {
        Self(target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle)
    }

    /// Class constructor: `init(latitude:longitude:zoom:bearing:viewingAngle:)`.
    open class func camera(
        withLatitude latitude: CLLocationDegrees, longitude: CLLocationDegrees, zoom: Float,
        bearing: CLLocationDirection, viewingAngle: Double
    ) -> Self {
        Self(
            target: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), zoom: zoom, bearing: bearing,
            viewingAngle: viewingAngle)
    }

    /// The zoom at which `meters` metres on the ground at `coordinate` span `points` screen points, camera not tilted:
    /// `log2(points · 40 075 016.686 m · cos(latitude) / (256 · meters))`. Not clamped: extreme inputs may give a
    /// zoom outside [kGMSMinZoomLevel, kGMSMaxZoomLevel], and non-positive or non-finite inputs give NaN or ±infinity
    /// (spec §1.8).
    open class func zoom(
        at coordinate: CLLocationCoordinate2D, forMeters meters: CLLocationDistance, perPoints points: CGFloat
    ) -> Float {
        let metersPerPointAtZoom0 = WebMercator.metersPerPoint(latitude: coordinate.latitude, zoom: 0)
        return Float(log2(Double(points) * metersPerPointAtZoom0 / meters))
    }

    static func clampTarget(_ c: CLLocationCoordinate2D) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(
            latitude: CameraConstraints.clampLatitude(c.latitude),
            longitude: CameraConstraints.wrapLongitude(c.longitude))
    }

    static func clampZoom(_ z: Float) -> Float {
        z.isNaN ? kGMSMinZoomLevel : min(max(z, kGMSMinZoomLevel), kGMSMaxZoomLevel)
    }

    /// An immutable copy (this object itself when it is immutable).
    open func copy(with zone: NSZone? = nil) -> Any {
        if type(of: self) == GMSCameraPosition.self { return self }
        return GMSCameraPosition(target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle)
    }

    /// A ``GMSMutableCameraPosition`` with the same values. Swift callers write `mutableCopy() as!
    /// GMSMutableCameraPosition`, as with Google's SDK.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        GMSMutableCameraPosition(target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle)
    }

    /// Equal when target, zoom, bearing and viewing angle are all equal (exact comparison), whatever the class.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? GMSCameraPosition else { return false }
        return target == other.target && zoom == other.zoom && bearing == other.bearing
            && viewingAngle == other.viewingAngle
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var h = Hasher()
        h.combine(target)
        h.combine(zoom)
        h.combine(bearing)
        h.combine(viewingAngle)
        return h.finalize()
    }

    /// `"GMSCameraPosition(target: (lat, lon), zoom: z, bearing: b, viewingAngle: a)"`.
    open override var description: String {
        "\(type(of: self))(target: \(target), zoom: \(zoom), bearing: \(bearing), viewingAngle: \(viewingAngle))"
    }
}

/// A ``GMSCameraPosition`` whose fields can be set (spec §1.8). Each setter clamps its value like the initialisers
/// (D3); the viewing angle is limited by the zoom when read, so setters may come in any order.
///
/// - Thread rules: not safe to mutate from several threads at once.
open class GMSMutableCameraPosition: GMSCameraPosition, @unchecked Sendable {
    /// The point the camera looks at; latitude clamped to [−85, 85], longitude wrapped into [−180, 180).
    open override var target: CLLocationCoordinate2D {
        get { storedTarget }
        set { storedTarget = Self.clampTarget(newValue) }
    }

    /// Zoom level, clamped to [kGMSMinZoomLevel, kGMSMaxZoomLevel]; NaN → kGMSMinZoomLevel.
    open override var zoom: Float {
        get { storedZoom }
        set { storedZoom = Self.clampZoom(newValue) }
    }

    /// Degrees clockwise from north, wrapped into [0, 360); NaN or infinite → 0.
    open override var bearing: CLLocationDirection {
        get { storedBearing }
        set { storedBearing = CameraConstraints.wrapBearing(newValue) }
    }

    /// Degrees from the nadir, clamped to [0, maximum for the zoom] when read; NaN or infinite → 0.
    open override var viewingAngle: Double {
        get { min(storedViewingAngle, CameraConstraints.maximumPitch(zoom: Double(storedZoom))) }
        set { storedViewingAngle = newValue.isFinite ? min(max(newValue, 0), 65) : 0 }
    }
}
