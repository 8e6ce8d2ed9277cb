import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// A window with a notch and a home indicator: safe area 40 pt at the top, 30 pt at the bottom.
@MainActor final class NotchedWindow: UIWindow {
    override var safeAreaInsets: UIEdgeInsets { UIEdgeInsets(top: 40, left: 0, bottom: 30, right: 0) }
}

/// Issue 29: members of `GMSMapView` that real iOS code uses.
@MainActor @Suite("GMSMapView members of real screens")
struct MapViewMembersTests {
    @Test("layer is typed GMSMapLayer (a covariant override) and is the view's one layer")
    func layerIsTyped() {
        _ = installMapClock()
        let map = makeMap()
        let layer: GMSMapLayer = map.layer
        #expect(layer === map.mapLayer)
        #expect((map as UIView).layer === layer)
        #expect(layer.cameraZoomLevel == 14)
    }

    @Test("a CABasicAnimation on cameraZoomLevel moves the camera every frame and leaves it at toValue")
    func basicAnimationMovesCamera() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5))
        let animation = CABasicAnimation(keyPath: kGMSLayerCameraZoomLevelKey)
        animation.fromValue = 5
        animation.toValue = 9
        animation.duration = 1
        map.layer.add(animation, forKey: "zoom")
        run(map, clock, frames: 30)
        #expect(map.camera.zoom > 6.5 && map.camera.zoom < 7.5, "zoom halfway: \(map.camera.zoom)")
        run(map, clock, frames: 40)
        #expect(map.camera.zoom == 9)
        #expect(map.layer.animationKeys() == nil)
        #expect(map.camera.target.latitude == 10)
    }

    @Test("a CAKeyframeAnimation on cameraLatitude passes through its values at its key times")
    func keyframeAnimationMovesCamera() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5))
        let animation = CAKeyframeAnimation(keyPath: kGMSLayerCameraLatitudeKey)
        animation.values = [10.0, 30.0, 20.0]
        animation.keyTimes = [0, 0.25, 1]
        animation.duration = 2
        let bearing = CABasicAnimation(keyPath: kGMSLayerCameraBearingKey)
        bearing.toValue = 90.0
        bearing.duration = 2
        map.layer.add(animation, forKey: "latitude")
        map.layer.add(bearing, forKey: "bearing")
        run(map, clock, frames: 30)
        #expect(abs(map.camera.target.latitude - 30) < 0.5, "latitude at 0.5 s: \(map.camera.target.latitude)")
        run(map, clock, frames: 100)
        #expect(abs(map.camera.target.latitude - 20) < 1e-9)
        #expect(abs(map.camera.bearing - 90) < 1e-9)
    }

    @Test(
        "preferredFrameRate limits how often the host draws a moving map",
        arguments: [(GMSFrameRate.maximum, 60), (.conservative, 30), (.powerSave, 20)])
    func frameRateLimitsFrames(rate: GMSFrameRate, expected: Int) {
        _ = installMapClock()
        let map = makeMap()
        map.preferredFrameRate = rate
        #expect(map.preferredFrameRate == rate)
        let host = UIHeadlessHost(view: map)
        host.advance(by: 0.1)
        let animation = CABasicAnimation(keyPath: kGMSLayerCameraBearingKey)
        animation.toValue = 180.0
        animation.duration = 5
        map.layer.add(animation, forKey: "spin")
        let before = host.host.frameCount
        host.advance(by: 1)
        let frames = host.host.frameCount - before
        #expect(abs(frames - expected) <= 1, "frames in 1 s at \(rate): \(frames)")
    }

    @Test("paddingAdjustmentBehavior adds the safe area as Google documents")
    func paddingAdjustment() {
        _ = installMapClock()
        let window = NotchedWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let map = makeMap()
        window.addSubview(map)
        map.padding = UIEdgeInsets(top: 10, left: 5, bottom: 50, right: 0)
        #expect(map.paddingAdjustmentBehavior == .always)
        #expect(map.cameraState.padding.top == 50 && map.cameraState.padding.bottom == 80)
        #expect(map.cameraState.padding.left == 5)
        map.paddingAdjustmentBehavior = .automatic
        #expect(map.cameraState.padding.top == 40 && map.cameraState.padding.bottom == 50)
        map.paddingAdjustmentBehavior = .never
        #expect(map.cameraState.padding.top == 10 && map.cameraState.padding.bottom == 50)
    }

    @Test("mapCapabilities: sprite polylines, nothing that needs a cloud map ID")
    func capabilities() {
        _ = installMapClock()
        let map = makeMap()
        #expect(map.mapCapabilities == [.spritePolylines])
        #expect(GMSMapCapabilityFlags.advancedMarkers.rawValue == 1)
        #expect(GMSMapCapabilityFlags.dataDrivenStyling.rawValue == 2)
        #expect(GMSMapCapabilityFlags.spritePolylines.rawValue == 4)
        #expect(GMSFrameRate.conservative.rawValue == 1)
        #expect(GMSMapViewPaddingAdjustmentBehavior.never.rawValue == 2)
    }
}
