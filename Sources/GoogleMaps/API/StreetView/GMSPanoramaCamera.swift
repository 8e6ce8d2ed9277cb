import Foundation
import LinuxUIKit

/// The viewpoint in a Street View panorama (Google's `GMSPanoramaCamera`): an orientation, a zoom and a field of
/// view.
///
/// Normalised as Google's: heading wraps into `[0, 360)`, pitch is clamped to `[-90, 90]`, zoom to `[1, 5]`, fov to
/// `[1, 160]` degrees (default 90); NaN values take the defaults (0 heading and pitch, zoom 1, fov 90).
/// - Thread rules: immutable; any thread.
open class GMSPanoramaCamera: NSObject, @unchecked Sendable {
    /// The field of view, degrees, `[1, 160]`. Defaults to 90.
    open private(set) var fov: Double
    /// The zoom, `[1, 5]`; 1 shows the whole field of view.
    open private(set) var zoom: Float
    /// The direction the camera looks in.
    open private(set) var orientation: GMSOrientation

    /// A camera looking along `orientation` at `zoom` with a field of view of `fov` degrees (normalised, see the type).
    public init(orientation: GMSOrientation, zoom: Float, fov: Double) {
        let heading = orientation.heading.isFinite ? orientation.heading : 0
        var wrapped = heading.truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        let pitch = orientation.pitch.isNaN ? 0 : min(max(orientation.pitch, -90), 90)
        self.orientation = GMSOrientation(heading: wrapped == 360 ? 0 : wrapped, pitch: pitch)
        self.zoom = zoom.isNaN ? 1 : min(max(zoom, 1), 5)
        self.fov = fov.isNaN ? 90 : min(max(fov, 1), 160)
        super.init()
    }

    /// A camera looking along `orientation` at `zoom`, field of view 90°.
    public convenience init(orientation: GMSOrientation, zoom: Float) {
        self.init(orientation: orientation, zoom: zoom, fov: 90)
    }

    /// A camera at `heading` degrees, `pitch` degrees and `zoom`, field of view 90°.
    public convenience init(heading: CLLocationDirection, pitch: Double, zoom: Float) {
        self.init(orientation: GMSOrientation(heading: heading, pitch: pitch), zoom: zoom, fov: 90)
    }

    /// A camera at `heading` degrees, `pitch` degrees, `zoom` and a field of view of `fov` degrees.
    public convenience init(heading: CLLocationDirection, pitch: Double, zoom: Float, fov: Double) {
        self.init(orientation: GMSOrientation(heading: heading, pitch: pitch), zoom: zoom, fov: fov)
    }

    /// Google's convenience constructor: ``init(orientation:zoom:)``.
    open class func camera(with orientation: GMSOrientation, zoom: Float) -> GMSPanoramaCamera {
        GMSPanoramaCamera(orientation: orientation, zoom: zoom)
    }

    /// Google's convenience constructor: ``init(heading:pitch:zoom:)``.
    open class func camera(withHeading heading: CLLocationDirection, pitch: Double, zoom: Float) -> GMSPanoramaCamera {
        GMSPanoramaCamera(heading: heading, pitch: pitch, zoom: zoom)
    }

    /// Google's convenience constructor: ``init(orientation:zoom:fov:)``.
    open class func camera(with orientation: GMSOrientation, zoom: Float, fov: Double) -> GMSPanoramaCamera {
        GMSPanoramaCamera(orientation: orientation, zoom: zoom, fov: fov)
    }

    /// Google's convenience constructor: ``init(heading:pitch:zoom:fov:)``.
    open class func camera(withHeading heading: CLLocationDirection, pitch: Double, zoom: Float, fov: Double)
        -> GMSPanoramaCamera
    {
        GMSPanoramaCamera(heading: heading, pitch: pitch, zoom: zoom, fov: fov)
    }

    /// Same orientation, zoom and field of view.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? GMSPanoramaCamera else { return false }
        return other.orientation == orientation && other.zoom == zoom && other.fov == fov
    }

    /// Consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var h = Hasher()
        h.combine(orientation.heading)
        h.combine(orientation.pitch)
        h.combine(zoom)
        h.combine(fov)
        return h.finalize()
    }
}

/// A change to a panorama camera, for ``GMSPanoramaView/updateCamera(_:animationDuration:)`` (Google's
/// `GMSPanoramaCameraUpdate`).
/// - Thread rules: immutable; any thread.
open class GMSPanoramaCameraUpdate: NSObject, @unchecked Sendable {
    enum Kind {
        case rotate(Double)
        case heading(Double)
        case pitch(Double)
        case zoom(Float)
    }
    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// Turns the heading by `deltaHeading` degrees (clockwise when positive).
    open class func rotate(by deltaHeading: CGFloat) -> GMSPanoramaCameraUpdate {
        GMSPanoramaCameraUpdate(kind: .rotate(Double(deltaHeading)))
    }

    /// Sets the heading, degrees.
    open class func setHeading(_ heading: CGFloat) -> GMSPanoramaCameraUpdate {
        GMSPanoramaCameraUpdate(kind: .heading(Double(heading)))
    }

    /// Sets the pitch, degrees.
    open class func setPitch(_ pitch: CGFloat) -> GMSPanoramaCameraUpdate {
        GMSPanoramaCameraUpdate(kind: .pitch(Double(pitch)))
    }

    /// Sets the zoom.
    open class func setZoom(_ zoom: CGFloat) -> GMSPanoramaCameraUpdate {
        GMSPanoramaCameraUpdate(kind: .zoom(Float(zoom)))
    }

    /// `camera` with this update applied (normalised).
    func applied(to camera: GMSPanoramaCamera) -> GMSPanoramaCamera {
        var o = camera.orientation
        var zoom = camera.zoom
        switch kind {
        case .rotate(let d): o.heading += d
        case .heading(let h): o.heading = h
        case .pitch(let p): o.pitch = p
        case .zoom(let z): zoom = z
        }
        return GMSPanoramaCamera(orientation: o, zoom: zoom, fov: camera.fov)
    }
}
