import Foundation
import LinuxUIKit

/// The Core Animation face of a ``GMSMarker`` (spec §1.4.1): animate its properties with `CABasicAnimation` on the
/// keys ``kGMSMarkerLayerLatitude``, ``kGMSMarkerLayerLongitude``, ``kGMSMarkerLayerRotation``,
/// ``kGMSMarkerLayerOpacity``, `"groundAnchor"` and `"infoWindowAnchor"`.
///
/// The layer is never drawn itself: generic `CALayer` properties (frame, background colour) have no effect. Its
/// model values are the marker's; setting them sets the marker's property. The map draws the presented values (at
/// the shared `UIAnimator` clock); hit testing uses the model values. Main thread only.
@preconcurrency @MainActor open class GMSMarkerLayer: CALayer {
    /// The marker this layer animates; nil for a presentation copy or a layer made on its own.
    weak var marker: GMSMarker?
    private var copiedValues: [String: Any] = [:]

    /// A layer with no marker (for Core Animation copies).
    public required init() {
        super.init()
    }

    /// A presentation copy of `layer`.
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? GMSMarkerLayer, let m = other.marker {
            copiedValues = [
                kGMSMarkerLayerLatitude: m.position.latitude, kGMSMarkerLayerLongitude: m.position.longitude,
                kGMSMarkerLayerRotation: m.rotation, kGMSMarkerLayerOpacity: m.opacity,
                "groundAnchor": m.groundAnchor, "infoWindowAnchor": m.infoWindowAnchor,
            ]
        }
    }

    init(marker: GMSMarker) {
        self.marker = marker
        super.init()
    }

    static let markerKeys: Set<String> = [
        kGMSMarkerLayerLatitude, kGMSMarkerLayerLongitude, kGMSMarkerLayerRotation, kGMSMarkerLayerOpacity,
        "groundAnchor", "infoWindowAnchor",
    ]

    /// Latitude of the marker's position, degrees (``kGMSMarkerLayerLatitude``).
    open var latitude: CLLocationDegrees {
        get { (value(forKey: kGMSMarkerLayerLatitude) as? Double) ?? 0 }
        set { setValue(newValue, forKey: kGMSMarkerLayerLatitude) }
    }

    /// Longitude of the marker's position, degrees (``kGMSMarkerLayerLongitude``).
    open var longitude: CLLocationDegrees {
        get { (value(forKey: kGMSMarkerLayerLongitude) as? Double) ?? 0 }
        set { setValue(newValue, forKey: kGMSMarkerLayerLongitude) }
    }

    /// The marker's rotation, degrees clockwise (``kGMSMarkerLayerRotation``).
    open var rotation: CLLocationDegrees {
        get { (value(forKey: kGMSMarkerLayerRotation) as? Double) ?? 0 }
        set { setValue(newValue, forKey: kGMSMarkerLayerRotation) }
    }

    /// The marker's opacity, 0…1 (``kGMSMarkerLayerOpacity``). Hides `CALayer.opacity`, which has no effect here.
    open var markerOpacity: Float {
        get { (value(forKey: kGMSMarkerLayerOpacity) as? Float) ?? 1 }
        set { setValue(newValue, forKey: kGMSMarkerLayerOpacity) }
    }

    /// The marker's ground anchor (`"groundAnchor"`).
    open var groundAnchor: CGPoint {
        get { (value(forKey: "groundAnchor") as? CGPoint) ?? kGMSMarkerDefaultGroundAnchor }
        set { setValue(newValue, forKey: "groundAnchor") }
    }

    /// The marker's info window anchor (`"infoWindowAnchor"`).
    open var infoWindowAnchor: CGPoint {
        get { (value(forKey: "infoWindowAnchor") as? CGPoint) ?? kGMSMarkerDefaultInfoWindowAnchor }
        set { setValue(newValue, forKey: "infoWindowAnchor") }
    }

    /// The marker keys read the marker's model values; other keys are `CALayer`'s.
    open override func value(forKey key: String) -> Any? {
        guard Self.markerKeys.contains(key) else { return super.value(forKey: key) }
        guard let m = marker else { return copiedValues[key] }
        switch key {
        case kGMSMarkerLayerLatitude: return m.position.latitude
        case kGMSMarkerLayerLongitude: return m.position.longitude
        case kGMSMarkerLayerRotation: return m.rotation
        case kGMSMarkerLayerOpacity: return m.opacity
        case "groundAnchor": return m.groundAnchor
        default: return m.infoWindowAnchor
        }
    }

    /// Setting a marker key sets the marker's property at once (no implicit animation).
    open override func setValue(_ value: Any?, forKey key: String) {
        guard Self.markerKeys.contains(key) else {
            super.setValue(value, forKey: key)
            return
        }
        guard let m = marker else {
            copiedValues[key] = value
            return
        }
        func number() -> Double? {
            switch value {
            case let v as Double: return v
            case let v as Float: return Double(v)
            case let v as CGFloat: return Double(v)
            case let v as Int: return Double(v)
            default: return nil
            }
        }
        m.withoutImplicitAnimation {
            switch key {
            case kGMSMarkerLayerLatitude:
                if let v = number() { m.position.latitude = v }
            case kGMSMarkerLayerLongitude:
                if let v = number() { m.position.longitude = v }
            case kGMSMarkerLayerRotation:
                if let v = number() { m.rotation = v }
            case kGMSMarkerLayerOpacity:
                if let v = number() { m.opacity = Float(v) }
            case "groundAnchor":
                if let v = value as? CGPoint { m.groundAnchor = v }
            default:
                if let v = value as? CGPoint { m.infoWindowAnchor = v }
            }
        }
    }

    /// The presented value of a numeric marker key (`model` when nothing animates it).
    func presentedNumber(_ key: String, model: Double) -> Double {
        switch presentationValue(forKey: key) {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as CGFloat: return Double(v)
        default: return model
        }
    }

    /// The presented value of a point marker key.
    func presentedPoint(_ key: String, model: CGPoint) -> CGPoint {
        (presentationValue(forKey: key) as? CGPoint) ?? model
    }
}
