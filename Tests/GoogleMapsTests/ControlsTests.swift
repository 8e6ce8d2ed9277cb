import Foundation
import MapGeometry
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Records the camera and control callbacks of the controls tests.
@MainActor final class ControlsDelegate: GMSMapViewDelegate {
    var log: [String] = []
    var consumeMyLocationButton = false
    var tappedLocation: CLLocationCoordinate2D?

    func mapView(_ mapView: GMSMapView, willMove gesture: Bool) { log.append("willMove(\(gesture))") }
    func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {
        if log.last != "didChange" { log.append("didChange") }
    }
    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) { log.append("idle") }
    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) { log.append("didTapAt") }
    func didTapMyLocationButton(for mapView: GMSMapView) -> Bool {
        log.append("didTapMyLocationButton")
        return consumeMyLocationButton
    }
    func mapView(_ mapView: GMSMapView, didTapMyLocation location: CLLocationCoordinate2D) {
        log.append("didTapMyLocation")
        tappedLocation = location
    }
}

/// The plain basemap with D16's base attribution line (which the map's controls draw inside the padding), standing
/// in for the vector basemap whose pipeline supplies that line.
@MainActor final class AttributedPlainBasemap: BasemapRenderer {
    let plain = PlainBasemapRenderer()
    var needsFrames: Bool { false }
    var attribution: String? { MapControls.baseAttribution }
    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        plain.draw(camera: camera, in: context, scale: scale)
    }
}

/// Ticks until the camera is idle and nothing animates (at most 10 s of frames).
@MainActor func settle(_ map: GMSMapView, _ clock: ManualClock) {
    var n = 0
    repeat {
        clock.advance(by: 1.0 / 60)
        map.tick()
        n += 1
    } while map.needsTick && n < 600
}

@MainActor @Suite(.serialized) struct ControlsTests {
    /// In a 400 × 300 map without padding the control area is x 12…388, y 12…288 (D16's 12 pt margins): the compass
    /// (40 pt) spans x 348…388, y 12…52; the my-location button (46 pt) x 342…388, y 242…288.
    static let compassCentre = CGPoint(x: 368, y: 32)
    static let buttonCentre = CGPoint(x: 365, y: 265)
    static let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)
    static let forumAlko = CLLocationCoordinate2D(latitude: 60.1693328, longitude: 24.9382903)

    static func fixed(_ c: CLLocationCoordinate2D, accuracy: Double = 30) -> FixedLocationProvider {
        FixedLocationProvider(coordinate: c, horizontalAccuracy: accuracy)
    }

    static func indoorData() throws -> IndoorDataset {
        try IndoorDataset.load(contentsOf: Fixtures.data.appendingPathComponent("indoor.geojson"))
    }

    // MARK: Compass

    @Test(arguments: [(0.0, true, false), (60.0, true, true), (60.0, false, false), (359.5, true, true)])
    func compassShowsOnlyWhileTurnedAndEnabled(bearing: Double, enabled: Bool, shown: Bool) {
        let clock = installMapClock()
        let map = makeMap(
            GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: bearing, viewingAngle: 0))
        map.settings.compassButton = enabled
        run(map, clock, frames: 2)
        #expect((map.tapTarget(Self.compassCentre) == .compassButton) == shown)
        // The compass is drawn: the disc is white where the bare map would be land.
        let image = map.renderImage(scale: 1)
        let p = pixelAt(image, 368 + 10, 32 + 8)
        #expect(isColor(p, 255, 255, 255, tolerance: 14) == shown)
    }

    @Test func compassTapAnimatesBearingToZeroKeepingTiltThenFades() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 60, viewingAngle: 30))
        map.settings.compassButton = true
        let delegate = ControlsDelegate()
        map.delegate = delegate
        settle(map, clock)
        delegate.log.removeAll()
        #expect(map.handleTap(at: Self.compassCentre) == .compassButton)
        var fadeSeen = false
        var n = 0
        while n < 600 {
            clock.advance(by: 1.0 / 60)
            map.tick()
            n += 1
            if map.controls.compassOpacity > 0 && map.controls.compassOpacity < 1 { fadeSeen = true }
            if !map.needsTick { break }
        }
        #expect(delegate.log.first == "willMove(false)")
        #expect(delegate.log.last == "idle")
        #expect(delegate.log.filter { $0 == "idle" }.count == 1)
        #expect(!delegate.log.contains("didTapAt"))
        #expect(map.camera.bearing == 0)
        #expect(abs(map.camera.viewingAngle - 30) < 1e-9)
        #expect(fadeSeen)
        #expect(map.controls.compassOpacity == 0)
        #expect(map.tapTarget(Self.compassCentre) != .compassButton)
        #expect(isLand(pixelAt(map.renderImage(scale: 1), 378, 40)))
    }

    /// Issue 7's guide behaviour through real touches: a two-finger rotate shows the compass; a tap on it (delivered
    /// at touch-up, without the bare map's double-tap wait) turns the map back north with `willMove(false)` … one
    /// `idle`, and the compass fades away.
    @Test func compassAppearsAfterARotateGestureAndGoesAfterItsTap() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 15))
        map.settings.compassButton = true
        let delegate = ControlsDelegate()
        map.delegate = delegate
        let input = UITouchInput(rootView: map, clock: clock)
        run(map, clock, frames: 2)
        #expect(map.tapTarget(Self.compassCentre) != .compassButton)
        // Two fingers 100 pt apart about the centre turn by 40° in 10 steps, hold, lift.
        func fingers(_ degrees: Double) -> (CGPoint, CGPoint) {
            let a = degrees * .pi / 180
            let dx = 50 * cos(a)
            let dy = 50 * sin(a)
            return (CGPoint(x: 200 - dx, y: 150 - dy), CGPoint(x: 200 + dx, y: 150 + dy))
        }
        var (a, b) = fingers(0)
        input.send([.init(0, .began, at: a), .init(1, .began, at: b)])
        run(map, clock, frames: 1)
        for i in 1...10 {
            (a, b) = fingers(Double(i) * 4)
            input.send([.init(0, .moved, at: a), .init(1, .moved, at: b)])
            run(map, clock, frames: 1)
        }
        run(map, clock, frames: 12)
        input.send([.init(0, .ended, at: a), .init(1, .ended, at: b)])
        settle(map, clock)
        #expect(MapControls.bearingIsTurned(map.camera.bearing), "bearing \(map.camera.bearing)")
        #expect(map.tapTarget(Self.compassCentre) == .compassButton)
        #expect(delegate.log.first == "willMove(true)")
        delegate.log.removeAll()
        input.touchDown(at: Self.compassCentre)
        input.touchUp(at: Self.compassCentre)
        run(map, clock, frames: 1)
        #expect(delegate.log.first == "willMove(false)", "the tap fires at touch-up: \(delegate.log)")
        settle(map, clock)
        #expect(delegate.log.last == "idle")
        #expect(delegate.log.filter { $0 == "idle" }.count == 1)
        #expect(!delegate.log.contains("didTapAt"))
        #expect(map.camera.bearing == 0)
        #expect(map.controls.compassOpacity == 0)
        #expect(map.tapTarget(Self.compassCentre) != .compassButton)
    }

    /// §2.8: the buttons work with every gesture disabled.
    @Test func buttonsWorkWithAllGesturesOff() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 60, viewingAngle: 0))
        map.settings.setAllGesturesEnabled(false)
        map.settings.compassButton = true
        map._locationProvider = Self.fixed(Self.helsinki)
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        let input = UITouchInput(rootView: map, clock: clock)
        settle(map, clock)
        input.touchDown(at: Self.compassCentre)
        input.touchUp(at: Self.compassCentre)
        settle(map, clock)
        #expect(map.camera.bearing == 0)
        input.touchDown(at: Self.buttonCentre)
        input.touchUp(at: Self.buttonCentre)
        settle(map, clock)
        #expect(abs(map.camera.target.latitude - Self.helsinki.latitude) < 1e-6)
    }

    @Test func compassFadeLastsThreeTenthsOfASecond() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 60, viewingAngle: 0))
        map.settings.compassButton = true
        run(map, clock, frames: 2)
        #expect(map.controls.compassOpacity == 1)
        map.camera = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14)
        clock.advance(by: 0.01)
        map.tick()  // fade starts at this tick: opacity 1 − 0/0.3
        #expect(map.controls.compassOpacity == 1)
        clock.advance(by: 0.15)
        map.tick()
        #expect(abs(map.controls.compassOpacity - 0.5) < 1e-6)
        clock.advance(by: 0.15)
        map.tick()
        #expect(map.controls.compassOpacity == 0)
        #expect(!map.controls.needsTick)
    }

    // MARK: My location

    @Test func myLocationFollowsTheProviderOnlyWhileEnabled() {
        let clock = installMapClock()
        let map = makeMap()
        map._locationProvider = Self.fixed(Self.helsinki)
        run(map, clock, frames: 1)
        #expect(map.myLocation == nil)
        map.isMyLocationEnabled = true
        #expect(map.myLocation == nil)  // fixes arrive on the tick
        run(map, clock, frames: 1)
        #expect(map.myLocation?.coordinate.latitude == Self.helsinki.latitude)
        map.isMyLocationEnabled = false
        #expect(map.myLocation == nil)
    }

    @Test(arguments: [(true, true, true), (true, false, false), (false, true, false), (false, false, false)])
    func myLocationButtonNeedsBothFlags(button: Bool, enabled: Bool, shown: Bool) {
        let clock = installMapClock()
        let map = makeMap()
        map._locationProvider = NoLocationProvider()
        map.settings.myLocationButton = button
        map.isMyLocationEnabled = enabled
        run(map, clock, frames: 1)
        #expect((map.tapTarget(Self.buttonCentre) == .myLocationButton) == shown)
        let p = pixelAt(map.renderImage(scale: 1), 352, 250)
        #expect(isColor(p, 255, 255, 255, tolerance: 14) == shown)
    }

    @Test(arguments: [false, true])
    func myLocationButtonAnimatesToTheFixUnlessConsumed(consume: Bool) {
        let clock = installMapClock()
        let map = makeMap()
        map._locationProvider = Self.fixed(Self.helsinki)
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        let delegate = ControlsDelegate()
        delegate.consumeMyLocationButton = consume
        map.delegate = delegate
        settle(map, clock)
        delegate.log.removeAll()
        #expect(map.handleTap(at: Self.buttonCentre) == .myLocationButton)
        settle(map, clock)
        if consume {
            #expect(delegate.log == ["didTapMyLocationButton"])
            #expect(abs(map.camera.target.latitude - 51.5) < 1e-9)
        } else {
            #expect(delegate.log == ["didTapMyLocationButton", "willMove(false)", "didChange", "idle"])
            #expect(abs(map.camera.target.latitude - Self.helsinki.latitude) < 1e-6)
            #expect(abs(map.camera.target.longitude - Self.helsinki.longitude) < 1e-6)
            #expect(map.camera.zoom == 14)
        }
    }

    @Test func myLocationButtonWithoutAFixOnlyCallsTheDelegate() {
        let clock = installMapClock()
        let map = makeMap()
        map._locationProvider = NoLocationProvider()
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        let delegate = ControlsDelegate()
        map.delegate = delegate
        settle(map, clock)
        delegate.log.removeAll()
        map.handleTap(at: Self.buttonCentre)
        settle(map, clock)
        #expect(delegate.log == ["didTapMyLocationButton"])
        #expect(map.camera.target.latitude == 51.5)
    }

    @Test func tapOnTheDotReportsTheLocationNotTheMap() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 16))
        map._locationProvider = Self.fixed(Self.helsinki)
        map.isMyLocationEnabled = true
        let delegate = ControlsDelegate()
        map.delegate = delegate
        settle(map, clock)
        delegate.log.removeAll()
        // The dot is at the optical centre (200, 150); 8 pt radius plus a 4 pt touch allowance.
        #expect(map.handleTap(at: CGPoint(x: 205, y: 153)) == .myLocationDot(Self.helsinki))
        #expect(delegate.log == ["didTapMyLocation"])
        #expect(delegate.tappedLocation?.latitude == Self.helsinki.latitude)
        delegate.log.removeAll()
        map.handleTap(at: CGPoint(x: 230, y: 150))
        #expect(delegate.log == ["didTapAt"])
        // Drawn: blue at the centre, white ring at 9 pt.
        let image = map.renderImage(scale: 1)
        #expect(isColor(pixelAt(image, 200, 150), 66, 133, 244, tolerance: 10))
        #expect(isColor(pixelAt(image, 209, 150), 255, 255, 255, tolerance: 14))
    }

    @Test func accuracyCircleRadiusFollowsTheProjection() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 16))
        map._locationProvider = Self.fixed(Self.helsinki, accuracy: 50)
        map.isMyLocationEnabled = true
        run(map, clock, frames: 1)
        // Metres per point at zoom 16: 156 543.034 · cos(lat) / 2^16 (256-pt tiles); 50 m ≈ 41.9 pt at 60.17°.
        let metresPerPoint = 156_543.034 * cos(Self.helsinki.latitude * .pi / 180) / 65536
        let radius = map.controls.dot(map: map)?.accuracyRadius ?? 0
        #expect(abs(Double(radius) - 50 / metresPerPoint) < 0.5)
    }

    // MARK: Floor picker

    @MainActor static func forumMap(zoom: Float, picker: Bool = true) throws -> (GMSMapView, ManualClock) {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: forumAlko, zoom: zoom), size: CGSize(width: 400, height: 500))
        map._setIndoorDataset(try indoorData())
        map.settings.indoorPicker = picker
        run(map, clock, frames: 1)
        return (map, clock)
    }

    /// Forum has 5 levels (3, 2, 1, 0, −1): rows of 36 pt end 12 pt above the button slot (y 442) at y 430.
    static func forumRowCentre(_ index: Int) -> CGPoint {
        CGPoint(x: 368, y: 430 - 5 * 36 + 36 * Double(index) + 18)
    }

    @Test func floorPickerAppearsAtForumAndTapsChangeTheLevel() throws {
        let (map, _) = try Self.forumMap(zoom: 17)
        #expect(map.indoorDisplay.activeBuilding?.levels.count == 5)
        #expect(map.indoorDisplay.activeLevel?.shortName == "1")  // Forum's default (street) level
        let before = map.renderImage(scale: 1)
        guard case .floorLevel(let level) = map.tapTarget(Self.forumRowCentre(3)) else {
            Issue.record("no floor row at \(Self.forumRowCentre(3))")
            return
        }
        #expect(level.shortName == "0")
        map.handleTap(at: Self.forumRowCentre(3))
        #expect(map.indoorDisplay.activeLevel?.shortName == "0")
        // A different level draws different features.
        let after = map.renderImage(scale: 1)
        var differing = 0
        for y in 0..<500 { for x in 0..<330 where pixelAt(before, x, y) != pixelAt(after, x, y) { differing += 1 } }
        #expect(differing > 500)
    }

    /// Without `_setIndoorDataset` the map reads `Data/indoor.geojson` (found from the working directory).
    @Test func defaultIndoorDataFocusesForum() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.forumAlko, zoom: 17))
        run(map, clock, frames: 1)
        #expect(map.indoorDisplay.activeBuilding?.levels.map(\.shortName) == ["3", "2", "1", "0", "-1"])
    }

    @Test func floorPickerHiddenBelowZoom17AndWhenSwitchedOff() throws {
        let (low, _) = try Self.forumMap(zoom: 16)
        #expect(low.indoorDisplay.activeBuilding == nil)
        if case .floorLevel = low.tapTarget(Self.forumRowCentre(3)) { Issue.record("picker shown at zoom 16") }
        let (off, clock) = try Self.forumMap(zoom: 17, picker: false)
        #expect(off.indoorDisplay.activeBuilding != nil)
        if case .floorLevel = off.tapTarget(Self.forumRowCentre(3)) {
            Issue.record("picker shown with indoorPicker off")
        }
        off.settings.indoorPicker = true
        #expect(off.tapTarget(Self.forumRowCentre(0)) == .floorLevel(off.indoorDisplay.activeBuilding!.levels[0]))
        off.isIndoorEnabled = false
        run(off, clock, frames: 1)
        #expect(off.indoorDisplay.activeBuilding == nil)
        if case .floorLevel = off.tapTarget(Self.forumRowCentre(0)) { Issue.record("picker shown with indoor off") }
    }

    @Test func thePlainStandInHasNoAttributionLine() {
        let clock = installMapClock()
        let map = makeMap()
        run(map, clock, frames: 1)
        let image = map.renderImage(scale: 1)
        #expect(countPixels(image, in: (x: 0..<200, y: 270..<300)) { !isLand($0) } == 0)
    }

    /// Stockmann's 10 levels do not fit at 36 pt in a 300 pt map: rows shrink to fit between the compass slot
    /// (ends at y 52 + 12 = 64) and the button slot (starts at y 242 − 12 = 230): 166 / 10 = 16.6 → 20 pt minimum.
    @Test func tallBuildingsShrinkThePickerRows() throws {
        let clock = installMapClock()
        let fazer = CLLocationCoordinate2D(latitude: 60.1684514, longitude: 24.9422713)
        let map = makeMap(GMSCameraPosition(target: fazer, zoom: 18))
        map._setIndoorDataset(try Self.indoorData())
        run(map, clock, frames: 1)
        let rows = map.controls.floorPickerRows(map: map)
        #expect(rows.count == 10)
        #expect(rows.allSatisfy { $0.1.height == 20 })
        #expect(rows.last?.1.maxY == 230)
        let tall = makeMap(GMSCameraPosition(target: fazer, zoom: 18), size: CGSize(width: 400, height: 700))
        tall._setIndoorDataset(try Self.indoorData())
        run(tall, clock, frames: 1)
        #expect(tall.controls.floorPickerRows(map: tall).allSatisfy { $0.1.height == 36 })
    }

    @Test func accessibilityIdentifiersOfTheShownButtons() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 10, viewingAngle: 0))
        map._locationProvider = NoLocationProvider()
        #expect(map.controlAccessibilityElements.isEmpty)
        map.settings.compassButton = true
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        run(map, clock, frames: 1)
        let elements = map.controlAccessibilityElements
        #expect(elements.map(\.identifier) == ["GMSCompassButton", "GMSMyLocationButton"])
        #expect(elements.first?.frame == CGRect(x: 348, y: 12, width: 40, height: 40))
        #expect(elements.last?.frame == CGRect(x: 342, y: 242, width: 46, height: 46))
    }

    // MARK: Padding

    @Test func paddingMovesControlsAndAttribution() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 60, viewingAngle: 0))
        map._locationProvider = NoLocationProvider()
        map.settings.compassButton = true
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        map.basemap = AttributedPlainBasemap()
        run(map, clock, frames: 1)
        func darkTextPixels(_ image: UIImage, rows: Range<Int>) -> Int {
            countPixels(image, in: (x: 6..<150, y: rows)) { $0.r < 140 && $0.g < 140 && $0.b < 140 }
        }
        let plain = map.renderImage(scale: 1)
        #expect(darkTextPixels(plain, rows: 280..<300) > 20)
        #expect(darkTextPixels(plain, rows: 200..<220) == 0)
        map.padding = UIEdgeInsets(top: 20, left: 30, bottom: 80, right: 40)
        run(map, clock, frames: 1)
        #expect(map.tapTarget(CGPoint(x: 365 - 40, y: 265 - 80)) == .myLocationButton)
        #expect(map.tapTarget(Self.buttonCentre) != .myLocationButton)
        #expect(map.tapTarget(CGPoint(x: 368 - 40, y: 32 + 20)) == .compassButton)
        #expect(map.tapTarget(Self.compassCentre) != .compassButton)
        let padded = map.renderImage(scale: 1)
        #expect(darkTextPixels(padded, rows: 280..<300) == 0)
        #expect(darkTextPixels(padded, rows: 200..<220) > 20)
    }

    /// With the real basemap the pipeline returns its line with the frame (`DisplayList.attribution`) instead of
    /// drawing it at the view's bottom-left, and the controls draw it inside the padding, above the markers.
    @Test func vectorBasemapHandsItsAttributionToTheControls() throws {
        let clock = installMapClock()
        let vector = try VectorBasemapRenderer()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 14))
        map.basemap = vector
        map.padding = UIEdgeInsets(top: 0, left: 0, bottom: 80, right: 0)
        run(map, clock, frames: 1)
        let image = map.renderImage(scale: 1)
        #expect(vector.attribution?.hasPrefix(MapControls.baseAttribution) == true)
        let frame = vector.snapshotter.renderer.displayList(camera: map.cameraState, scale: 1)
        #expect(frame.attribution == vector.attribution)
        // The pipeline draws no line of its own.
        let drawnLine = frame.commands.contains { command in
            if case .text(let text) = command { return text.text == frame.attribution }
            return false
        }
        #expect(!drawnLine)
        if let path = ProcessInfo.processInfo.environment["CONTROLS_DUMP"] {
            try image.pngData()?.write(to: URL(fileURLWithPath: path))
        }
        // The controls' backing box (70 % white) sits under the text, 5 pt above the padded bottom (y 220).
        let box = countPixels(image, in: (x: 4..<60, y: 206..<219)) { $0.r > 235 && $0.g > 235 && $0.b > 235 }
        #expect(box > 100)
    }

    /// In dark mode the attribution's box is dark too (Google's `#202124` at 70 %), with light grey text, not the
    /// light box over the dark map.
    @Test func attributionBoxTakesTheDarkVariantOnADarkMap() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 14))
        map.darkAppearanceOverride = true
        map.basemap = AttributedPlainBasemap()
        run(map, clock, frames: 1)
        #expect(map.controls.isDark)
        let image = map.renderImage(scale: 1)
        // The box spans the bottom-left line (rows 281 to 295 of the 300 pt map); over this light stand-in
        // basemap its 70 % dark grey comes out about 95.
        let light = countPixels(image, in: (x: 4..<60, y: 283..<294)) { $0.r > 200 && $0.g > 200 && $0.b > 200 }
        let dark = countPixels(image, in: (x: 4..<60, y: 283..<294)) { $0.r < 120 && $0.g < 120 && $0.b < 120 }
        #expect(light < 60)
        #expect(dark > 200)
        // Light grey text on it.
        let text = countPixels(image, in: (x: 6..<150, y: 283..<294)) { $0.r > 150 && $0.g > 150 && $0.b > 150 }
        #expect(text > 20)
        map.darkAppearanceOverride = false
        map.basemap = AttributedPlainBasemap()
        run(map, clock, frames: 1)
        let lightImage = map.renderImage(scale: 1)
        #expect(countPixels(lightImage, in: (x: 4..<60, y: 283..<294)) { $0.r > 200 && $0.g > 200 && $0.b > 200 } > 200)
    }

    /// The attribution is laid out once while its text is unchanged: later frames draw that layout (the same pixels),
    /// and another text is laid out anew.
    @Test func attributionIsLaidOutOnceWhileItsTextIsUnchanged() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 14))
        map.basemap = AttributedPlainBasemap()
        run(map, clock, frames: 1)
        let first = map.renderImage(scale: 2)
        let line = map.controls.attributionLine(MapControls.baseAttribution)
        let second = map.renderImage(scale: 2)
        #expect(map.controls.attributionLine(MapControls.baseAttribution) === line)
        #expect(first.pngData() == second.pngData())
        #expect(map.controls.attributionLine("GeoNames") !== line)
    }

    // MARK: Goldens

    @Test func goldenCompassAtBearing60() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14, bearing: 60, viewingAngle: 0))
        map.settings.compassButton = true
        run(map, clock, frames: 1)
        map.basemap = AttributedPlainBasemap()
        expectGolden(map.renderImage(scale: 2), "compass-bearing60")
    }

    @Test func goldenMyLocationDotAndButton() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 16))
        map._locationProvider = Self.fixed(Self.helsinki, accuracy: 60)
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        run(map, clock, frames: 1)
        map.basemap = AttributedPlainBasemap()
        expectGolden(map.renderImage(scale: 2), "my-location")
    }

    @Test func goldenFloorPickerAtForum() throws {
        let (map, _) = try Self.forumMap(zoom: 18)
        map.basemap = AttributedPlainBasemap()
        expectGolden(map.renderImage(scale: 2), "floor-picker-forum")
    }

    @Test func goldenPadding80AtTheBottom() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.helsinki, zoom: 16, bearing: 30, viewingAngle: 0))
        map._locationProvider = Self.fixed(Self.helsinki, accuracy: 40)
        map.settings.compassButton = true
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        map.padding = UIEdgeInsets(top: 0, left: 0, bottom: 80, right: 0)
        run(map, clock, frames: 1)
        map.basemap = AttributedPlainBasemap()
        expectGolden(map.renderImage(scale: 2), "padding-bottom80")
    }
}
