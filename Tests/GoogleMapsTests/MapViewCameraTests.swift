import Foundation
import MapGeometry
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

@MainActor @Suite struct MapViewCameraTests {
    @Test func constructorsAndDefaults() {
        _ = installMapClock()
        let plain = GMSMapView()
        #expect(plain.frame == .zero)
        // D2: target (0, 0), zoom = minZoom, bearing 0, tilt 0.
        #expect(plain.camera.target.latitude == 0 && plain.camera.target.longitude == 0)
        #expect(plain.camera.zoom == kGMSMinZoomLevel && plain.camera.bearing == 0 && plain.camera.viewingAngle == 0)
        #expect(plain.delegate == nil && plain.selectedMarker == nil && plain.padding == .zero)
        #expect(plain.minZoom == 2 && plain.maxZoom == 21 && plain.mapType == .normal)

        let camera = GMSCameraPosition(latitude: -33.8683, longitude: 151.2086, zoom: 6)
        let a = GMSMapView.map(withFrame: CGRect(x: 0, y: 0, width: 320, height: 480), camera: camera)
        let b = GMSMapView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), camera: camera)
        let options = GMSMapViewOptions()
        options.camera = camera
        options.frame = CGRect(x: 0, y: 0, width: 320, height: 480)
        let c = GMSMapView(options: options)
        for map in [a, b, c] {
            #expect(map.camera.isEqual(camera))
            #expect(map.bounds.size == CGSize(width: 320, height: 480))
        }
        // The options object is copied: later changes do not reach the map.
        options.camera = GMSCameraPosition(latitude: 1, longitude: 1, zoom: 3)
        #expect(c.camera.isEqual(camera))
    }

    @Test func delegateIsWeak() {
        _ = installMapClock()
        let map = makeMap()
        var delegate: RecordingDelegate? = RecordingDelegate()
        map.delegate = delegate
        #expect(map.delegate != nil)
        delegate = nil
        #expect(map.delegate == nil)
    }

    @Test func explicitSetEventsComeOnTicks() {
        let clock = installMapClock()
        let map = makeMap()
        let delegate = RecordingDelegate()
        map.delegate = delegate
        let target = GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12)
        map.camera = target
        // D5: the new value reads back at once, no callback inside the setter.
        #expect(map.camera.isEqual(target))
        #expect(delegate.log.isEmpty)
        run(map, clock, frames: 3)
        #expect(delegate.log == ["willMove(false)", "didChange", "idle"])
        // Several sets before a tick coalesce.
        delegate.log = []
        map.camera = GMSCameraPosition(latitude: 10, longitude: 10, zoom: 5)
        map.moveCamera(GMSCameraUpdate.zoomIn())
        #expect(map.camera.zoom == 6)
        run(map, clock, frames: 3)
        #expect(delegate.log == ["willMove(false)", "didChange", "idle"])
    }

    @Test func animateReportsChangesAndOneIdle() {
        let clock = installMapClock()
        let map = makeMap()
        let delegate = RecordingDelegate()
        map.delegate = delegate
        map.animate(toZoom: 16)
        run(map, clock, frames: 120)
        #expect(delegate.log.first == "willMove(false)")
        #expect(delegate.log.last == "idle")
        #expect(delegate.log.filter { $0 == "idle" }.count == 1)
        #expect(delegate.log.filter { $0 == "didChange" }.count > 2)
        #expect(map.camera.zoom == 16)
        #expect(abs(map.camera.target.latitude - 51.5) < 1e-9)
    }

    @Test func animateHelpersChangeOnlyTheirField() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 17))
        map.animate(toBearing: 370)
        run(map, clock, frames: 200)
        #expect(abs(map.camera.bearing - 10) < 1e-6)
        map.animate(toViewingAngle: 80)  // clamped to 65 at zoom 17 (D4)
        run(map, clock, frames: 200)
        #expect(abs(map.camera.viewingAngle - 65) < 1e-6)
        map.animate(toLocation: CLLocationCoordinate2D(latitude: 51.51, longitude: -0.12))
        run(map, clock, frames: 200)
        #expect(abs(map.camera.target.latitude - 51.51) < 1e-7)
        #expect(abs(map.camera.target.longitude - -0.12) < 1e-7)
        #expect(map.camera.zoom == 17)
        map.animate(to: GMSCameraPosition(latitude: 0, longitude: 0, zoom: 3))
        run(map, clock, frames: 200)
        #expect(map.camera.zoom == 3)
        map.animate(with: GMSCameraUpdate.zoom(by: 2))
        run(map, clock, frames: 200)
        #expect(map.camera.zoom == 5)
    }

    @Test func transactionDurationOverridesTheDefault() {
        let clock = installMapClock()
        let map = makeMap()
        var completed = false
        CATransaction.begin()
        CATransaction.setAnimationDuration(3)
        CATransaction.setCompletionBlock { completed = true }
        map.animate(toZoom: 15)
        CATransaction.commit()
        run(map, clock, frames: 1, step: 0)
        // Half-way through a 3 s animation the zoom is strictly between the two values.
        clock.advance(by: 1.5)
        map.tick()
        #expect(map.camera.zoom > 14.2 && map.camera.zoom < 14.8)
        #expect(!completed)
        clock.advance(by: 1.6)
        map.tick()
        #expect(map.camera.zoom == 15)
        map.tick()
        #expect(completed)
    }

    @Test func minMaxZoomClampTheCamera() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 4))
        let delegate = RecordingDelegate()
        map.delegate = delegate
        map.setMinZoom(10, maxZoom: 15)
        // Guide example: zoom 4 with range 10–15 becomes 10.
        #expect(map.camera.zoom == 10)
        run(map, clock, frames: 3)
        #expect(delegate.log == ["willMove(false)", "didChange", "idle"])
        map.moveCamera(GMSCameraUpdate.zoom(to: 20))
        #expect(map.camera.zoom == 15)
        // D1: values outside [2, 21] are clamped into it.
        map.setMinZoom(-5, maxZoom: 40)
        #expect(map.minZoom == 2 && map.maxZoom == 21)
    }

    @Test func cameraForBoundsHonoursInsetsAndPadding() throws {
        _ = installMapClock()
        let map = makeMap(size: CGSize(width: 400, height: 400))
        let bounds = GMSCoordinateBounds(
            coordinate: CLLocationCoordinate2D(latitude: -10, longitude: -10),
            coordinate: CLLocationCoordinate2D(latitude: 10, longitude: 10))
        let camera = try #require(map.camera(for: bounds, insets: .zero))
        // Hand computation: 20° of longitude is 20/360 of the world; 400 pt = 256·2^z · 20/360 → z = log2(400·18/256).
        #expect(abs(Double(camera.zoom) - log2(400.0 * 18 / 256)) < 0.01)
        #expect(abs(camera.target.latitude) < 1e-6 && abs(camera.target.longitude) < 1e-6)
        let inset = try #require(
            map.camera(for: bounds, insets: UIEdgeInsets(top: 0, left: 100, bottom: 0, right: 100)))
        #expect(abs(Double(inset.zoom) - log2(200.0 * 18 / 256)) < 0.01)
        #expect(map.camera(for: GMSCoordinateBounds(), insets: .zero) == nil)
    }

    @Test func paddingMovesTheTargetToThePaddedCentre() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 5), size: CGSize(width: 400, height: 300))
        #expect(abs(map.projection.point(for: CLLocationCoordinate2D(latitude: 0, longitude: 0)).x - 200) < 1e-6)
        map.padding = UIEdgeInsets(top: 0, left: 100, bottom: 0, right: 0)
        let p = map.projection.point(for: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        #expect(abs(p.x - 250) < 1e-6 && abs(p.y - 150) < 1e-6)
    }

    @Test func rendersThePlainBasemap() {
        _ = installMapClock()
        let map = makeMap()
        let image = map.renderImage(scale: 1)
        #expect(image.size == CGSize(width: 400, height: 300))
        #expect(countPixels(image, in: (0..<400, 0..<300), where: isLand) > 400 * 300 * 95 / 100)
    }
}
