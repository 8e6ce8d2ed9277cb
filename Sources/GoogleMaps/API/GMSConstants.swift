import Foundation

/// The farthest-out zoom any camera allows (D1): 2. `mapView.minZoom` defaults to this.
public let kGMSMinZoomLevel: Float = 2

/// The closest-in zoom any camera allows (D1): 21. `mapView.maxZoom` defaults to this.
public let kGMSMaxZoomLevel: Float = 21

/// The default `groundAnchor` of a marker: centre-bottom, `(0.5, 1.0)` in the icon's unit square (spec §1.17).
public let kGMSMarkerDefaultGroundAnchor: CGPoint = CGPoint(x: 0.5, y: 1.0)

/// The default `infoWindowAnchor` of a marker: centre-top, `(0.5, 0.0)` in the icon's unit square (spec §1.17).
public let kGMSMarkerDefaultInfoWindowAnchor: CGPoint = CGPoint(x: 0.5, y: 0.0)

/// Animation key of `GMSMapLayer.cameraLatitude` (degrees, clamped to [−85, 85]) (spec §1.12).
public let kGMSLayerCameraLatitudeKey: String = "cameraLatitude"
/// Animation key of `GMSMapLayer.cameraLongitude` (degrees, wrapped into [−180, 180)) (spec §1.12).
public let kGMSLayerCameraLongitudeKey: String = "cameraLongitude"
/// Animation key of `GMSMapLayer.cameraBearing` (degrees clockwise from north, wrapped into [0, 360)) (spec §1.12).
public let kGMSLayerCameraBearingKey: String = "cameraBearing"
/// Animation key of `GMSMapLayer.cameraZoomLevel` (clamped to [kGMSMinZoomLevel, kGMSMaxZoomLevel]) (spec §1.12).
public let kGMSLayerCameraZoomLevelKey: String = "cameraZoomLevel"
/// Animation key of `GMSMapLayer.cameraViewingAngle` (degrees from the nadir, 0…zoom-dependent maximum, D4).
public let kGMSLayerCameraViewingAngleKey: String = "cameraViewingAngle"

/// Animation key of `GMSMarkerLayer.latitude` (degrees) (spec §1.4.1).
public let kGMSMarkerLayerLatitude: String = "latitude"
/// Animation key of `GMSMarkerLayer.longitude` (degrees) (spec §1.4.1).
public let kGMSMarkerLayerLongitude: String = "longitude"
/// Animation key of `GMSMarkerLayer.rotation` (degrees clockwise) (spec §1.4.1).
public let kGMSMarkerLayerRotation: String = "rotation"
/// Animation key of `GMSMarkerLayer.opacity` (0…1) (spec §1.4.1).
public let kGMSMarkerLayerOpacity: String = "opacity"

/// Accessibility identifier of the compass button (D18).
public let kGMSAccessibilityCompass: String = "GMSCompassButton"
/// Accessibility identifier of the my-location button (D18).
public let kGMSAccessibilityMyLocation: String = "GMSMyLocationButton"
/// Accessibility identifier of the out-of-quota error label (spec §1.17). Waymark has no quota; never shown.
public let kGMSAccessibilityOutOfQuota: String = "GMSOutOfQuota"
