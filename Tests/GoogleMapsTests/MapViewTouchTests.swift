import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Touches fed through `UITouchInput` into a real `GMSMapView`, as a window host does: the gesture layer, the camera
/// animator, tap routing and the delegate together (spec §2.1–2.3, §3; D7, D8).
@MainActor @Suite(.serialized) struct MapViewTouchTests {
    /// Drags one finger from `start` by `delta` over `frames` frames, holds still for a few frames (so no fling), lifts.
    func drag(
        _ input: UITouchInput, _ map: GMSMapView, _ clock: ManualClock, from start: CGPoint, by delta: CGPoint,
        frames: Int = 10
    ) {
        input.touchDown(at: start)
        run(map, clock, frames: 1)
        for i in 1...frames {
            let f = CGFloat(i) / CGFloat(frames)
            input.move(to: CGPoint(x: start.x + delta.x * f, y: start.y + delta.y * f))
            run(map, clock, frames: 1)
        }
        run(map, clock, frames: 12)  // hold still for 0.2 s: the release velocity decays to zero
        input.touchUp(at: CGPoint(x: start.x + delta.x, y: start.y + delta.y))
    }

    @Test func panningKeepsTheGrabbedCoordinateUnderTheFingerWithOneIdle() {
        let clock = installMapClock()
        let map = makeMap(
            GMSCameraPosition(latitude: 60.1699, longitude: 24.9384, zoom: 16, bearing: 30, viewingAngle: 20))
        let delegate = RecordingDelegate()
        map.delegate = delegate
        let input = UITouchInput(rootView: map, clock: clock)
        let start = CGPoint(x: 200, y: 150)
        let grabbed = map.projection.coordinate(for: start)
        drag(input, map, clock, from: start, by: CGPoint(x: -80, y: 50))
        run(map, clock, frames: 60)
        let end = map.projection.point(for: grabbed)
        #expect(abs(end.x - 120) < 0.5 && abs(end.y - 200) < 0.5, "grabbed point ended at \(end)")
        #expect(delegate.log.first == "willMove(true)")
        #expect(delegate.log.filter { $0 == "idle" }.count == 1)
        #expect(delegate.log.last == "idle")
        #expect(!delegate.log.contains { $0.hasPrefix("didTapAt") }, "a drag is not a tap")
    }

    @Test func tappingAMarkerSelectsItAtTouchUpAndTappingTheMapWaitsForADoubleTap() {
        let clock = installMapClock()
        let map = makeMap()
        let delegate = RecordingDelegate()
        map.delegate = delegate
        let marker = GMSMarker(position: map.camera.target)
        marker.title = "Centre"
        marker.map = map
        run(map, clock, frames: 30)  // let the appear animation finish
        let input = UITouchInput(rootView: map, clock: clock)
        // The default pin stands on its tip at the centre: its body is about 20 pt above the anchor.
        let pin = CGPoint(x: 200, y: 130)
        input.touchDown(at: pin)
        input.touchUp(at: pin)
        #expect(delegate.log.contains("didTap(Centre)"), "marker taps fire at touch-up (D8): \(delegate.log)")
        #expect(map.selectedMarker === marker)

        delegate.log.removeAll()
        let bare = CGPoint(x: 40, y: 260)
        input.touchDown(at: bare)
        input.touchUp(at: bare)
        run(map, clock, frames: 1)
        #expect(!delegate.log.contains { $0.hasPrefix("didTapAt") }, "a map tap waits for a possible double tap")
        run(map, clock, frames: 20)  // past 0.25 s
        #expect(delegate.log.contains("didTapAt(selected: Centre)"), "\(delegate.log)")
        #expect(delegate.log.contains("didClose(Centre)"))
        #expect(map.selectedMarker == nil)
    }

    @Test func doubleTapZoomsInByOneAboutTheFinger() {
        let clock = installMapClock()
        let map = makeMap()
        let input = UITouchInput(rootView: map, clock: clock)
        let p = CGPoint(x: 300, y: 100)
        let under = map.projection.coordinate(for: p)
        let zoom = map.camera.zoom
        for _ in 0..<2 {
            input.touchDown(at: p)
            input.touchUp(at: p)
            run(map, clock, frames: 3)
        }
        run(map, clock, frames: 90)
        #expect(abs(map.camera.zoom - (zoom + 1)) < 1e-4)
        let after = map.projection.point(for: under)
        #expect(abs(after.x - p.x) < 0.5 && abs(after.y - p.y) < 0.5)
    }

    @Test func gesturesOffLeaveTheCameraAndARunningAnimationAlone() {
        let clock = installMapClock()
        let map = makeMap()
        let delegate = RecordingDelegate()
        map.delegate = delegate
        map.settings.setAllGesturesEnabled(false)
        let target = CLLocationCoordinate2D(latitude: 51.51, longitude: -0.1)
        map.animate(toLocation: target)
        let input = UITouchInput(rootView: map, clock: clock)
        drag(input, map, clock, from: CGPoint(x: 200, y: 150), by: CGPoint(x: 100, y: 0))
        run(map, clock, frames: 180)
        #expect(abs(map.camera.target.latitude - target.latitude) < 1e-9)
        #expect(abs(map.camera.target.longitude - target.longitude) < 1e-9)
        #expect(!delegate.log.contains("willMove(true)"))
        #expect(delegate.log.filter { $0 == "idle" }.count == 1)
    }

    /// The Events guide's pattern, end to end under a manual clock (issue 9): clear the map when the camera starts
    /// moving, reverse-geocode the target when it comes to rest, and drop a marker titled with the first two address
    /// lines.
    @Test func eventsGuideClearOnMoveAndGeocodeOnIdle() async throws {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 60.1699, longitude: 24.9420, zoom: 17))
        final class GuideDelegate: GMSMapViewDelegate {
            let geocoder = GMSGeocoder()
            var cleared = 0
            var idles = 0
            var added: [GMSMarker] = []
            func mapView(_ mapView: GMSMapView, willMove gesture: Bool) {
                cleared += 1
                mapView.clear()
            }
            func mapView(_ mapView: GMSMapView, idleAt cameraPosition: GMSCameraPosition) {
                idles += 1
                geocoder.reverseGeocodeCoordinate(cameraPosition.target) { response, error in
                    guard error == nil, let result = response?.firstResult() else { return }
                    let marker = GMSMarker()
                    marker.position = cameraPosition.target
                    marker.title = result.lines?[0]
                    marker.snippet = result.lines?[1]
                    marker.map = mapView
                    self.added.append(marker)
                }
            }
        }
        let delegate = GuideDelegate()
        map.delegate = delegate
        let old = GMSMarker(position: map.camera.target)
        old.map = map

        let input = UITouchInput(rootView: map, clock: clock)
        drag(input, map, clock, from: CGPoint(x: 200, y: 150), by: CGPoint(x: 60, y: -40))
        #expect(old.map == nil, "willMove cleared the map")
        run(map, clock, frames: 30)
        // The geocoder answers on the main queue; wait for it (bounded), ticking nothing else meanwhile.
        for _ in 0..<500 where delegate.added.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let marker = try #require(delegate.added.first, "no marker was added after idle")
        #expect(delegate.cleared >= 1)
        #expect(delegate.idles == 1)
        #expect(marker.map === map)
        let target = map.camera.target
        #expect(marker.position == target)
        // The same answer, asked independently of the map.
        let expected = try await GMSGeocoder().reverseGeocodeCoordinate(target).firstResult()
        #expect(marker.title == expected?.lines?[0])
        #expect(marker.snippet == expected?.lines?[1])
        #expect(marker.snippet?.contains("Helsinki") == true, "second line: \(marker.snippet ?? "nil")")
        #expect(marker.title?.isEmpty == false)
    }
}
