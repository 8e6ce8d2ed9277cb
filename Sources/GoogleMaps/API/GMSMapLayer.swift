import Foundation
import LinuxUIKit

/// The map view's layer (spec §1.12): the camera's fields as layer properties, under the keys
/// ``kGMSLayerCameraLatitudeKey``, ``kGMSLayerCameraLongitudeKey``, ``kGMSLayerCameraBearingKey``,
/// ``kGMSLayerCameraZoomLevelKey`` and ``kGMSLayerCameraViewingAngleKey``.
///
/// Setting a property (or the key through `setValue(_:forKey:)`) is an explicit camera set on the owning map, clamped
/// as `GMSCameraPosition` (D3): `willMove(false)`, `didChange`, `idleAt` follow on the next ticks. It is
/// ``GMSMapView/layer`` (typed as in Google's SDK).
///
/// Core Animation drives the camera: a `CABasicAnimation` or `CAKeyframeAnimation` on one of the keys, added with
/// `mapView.layer.add(_:forKey:)`, moves the camera on every frame of the map (on the host clock, `UIAnimator`'s) to
/// the animated values, each frame an explicit set, and leaves it at the animation's end value (a `fromValue` of nil
/// starts from the current camera). Several keys animate together. A later explicit set or `animate(…)` does not
/// stop a layer animation: remove it with `removeAnimation(forKey:)`.
/// Main thread only.
@preconcurrency @MainActor open class GMSMapLayer: CALayer {
    /// The map this layer belongs to.
    weak var mapView: GMSMapView?

    static let cameraKeys: Set<String> = [
        kGMSLayerCameraLatitudeKey, kGMSLayerCameraLongitudeKey, kGMSLayerCameraBearingKey,
        kGMSLayerCameraZoomLevelKey, kGMSLayerCameraViewingAngleKey,
    ]

    /// Camera target latitude, degrees, clamped to [−85, 85].
    open var cameraLatitude: CLLocationDegrees {
        get { mapView?.camera.target.latitude ?? 0 }
        set { setValue(newValue, forKey: kGMSLayerCameraLatitudeKey) }
    }

    /// Camera target longitude, degrees, wrapped into [−180, 180).
    open var cameraLongitude: CLLocationDegrees {
        get { mapView?.camera.target.longitude ?? 0 }
        set { setValue(newValue, forKey: kGMSLayerCameraLongitudeKey) }
    }

    /// Camera bearing, degrees clockwise from north, wrapped into [0, 360).
    open var cameraBearing: CLLocationDirection {
        get { mapView?.camera.bearing ?? 0 }
        set { setValue(newValue, forKey: kGMSLayerCameraBearingKey) }
    }

    /// Camera zoom, clamped to the map's limits.
    open var cameraZoomLevel: Float {
        get { mapView?.camera.zoom ?? kGMSMinZoomLevel }
        set { setValue(newValue, forKey: kGMSLayerCameraZoomLevelKey) }
    }

    /// Camera viewing angle, degrees, clamped by zoom (D4).
    open var cameraViewingAngle: Double {
        get { mapView?.camera.viewingAngle ?? 0 }
        set { setValue(newValue, forKey: kGMSLayerCameraViewingAngleKey) }
    }

    /// Camera keys read the map's camera; other keys are `CALayer`'s.
    open override func value(forKey key: String) -> Any? {
        guard Self.cameraKeys.contains(key) else { return super.value(forKey: key) }
        guard let camera = mapView?.camera else { return nil }
        switch key {
        case kGMSLayerCameraLatitudeKey: return camera.target.latitude
        case kGMSLayerCameraLongitudeKey: return camera.target.longitude
        case kGMSLayerCameraBearingKey: return camera.bearing
        case kGMSLayerCameraZoomLevelKey: return camera.zoom
        default: return camera.viewingAngle
        }
    }

    /// Camera keys set the map's camera (an explicit set); values that are not numbers are ignored.
    open override func setValue(_ value: Any?, forKey key: String) {
        guard Self.cameraKeys.contains(key) else {
            super.setValue(value, forKey: key)
            return
        }
        guard let v = Self.number(value) else { return }
        setCamera([key: v])
    }

    /// `value` as a number, or nil.
    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as CGFloat: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    /// Sets the camera keys in `values` at once (one explicit set); the other fields keep their values.
    private func setCamera(_ values: [String: Double]) {
        guard let map = mapView, !values.isEmpty else { return }
        let c = map.camera
        var target = c.target
        var zoom = c.zoom
        var bearing = c.bearing
        var tilt = c.viewingAngle
        for (key, v) in values {
            switch key {
            case kGMSLayerCameraLatitudeKey: target.latitude = v
            case kGMSLayerCameraLongitudeKey: target.longitude = v
            case kGMSLayerCameraBearingKey: bearing = v
            case kGMSLayerCameraZoomLevelKey: zoom = Float(v)
            default: tilt = v
            }
        }
        let camera = GMSCameraPosition(target: target, zoom: zoom, bearing: bearing, viewingAngle: tilt)
        guard !camera.isEqual(c) else { return }
        map.camera = camera
    }

    /// Per frame, before the animator removes finished animations: moves the camera to the values the animations on
    /// the camera keys give at `time` (a finished one at its end value).
    func applyCameraAnimations(at time: TimeInterval) {
        guard animationKeys() != nil else { return }
        var values: [String: Double] = [:]
        for key in Self.cameraKeys {
            if let v = Self.number(animatedValue(forKey: key, at: time)) { values[key] = v }
        }
        setCamera(values)
    }
}
