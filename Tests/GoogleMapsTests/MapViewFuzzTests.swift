import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Random touches and API calls against a whole `GMSMapView` (issue 7): after every step the camera is valid and within
/// the map's limits, camera events come in well-formed movements (willMove … idle, exactly one idle per movement),
/// the selection is consistent, and no callback arrives after the map is gone.
@MainActor @Suite struct MapViewFuzzTests {
    /// Checks the delegate-side invariants as the callbacks arrive.
    final class InvariantDelegate: GMSMapViewDelegate {
        var moving = false
        var idles = 0
        var willMoves = 0
        var problems: [String] = []
        var callbacks = 0
        var onCallback: (() -> Void)?

        func record() {
            callbacks += 1
            onCallback?()
        }
        func mapView(_ mapView: GMSMapView, willMove gesture: Bool) {
            record()
            willMoves += 1
            moving = true
        }
        func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {
            record()
            if !moving { problems.append("didChange outside a movement") }
        }
        func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
            record()
            if !moving { problems.append("idle without willMove") }
            moving = false
            idles += 1
        }
        func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) { record() }
        func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
            record()
            return false
        }
        func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker) { record() }
        func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D) { record() }
    }

    static func isValid(_ map: GMSMapView) -> String? {
        let c = map.camera
        guard c.target.latitude.isFinite, c.target.longitude.isFinite, c.zoom.isFinite, c.bearing.isFinite,
            c.viewingAngle.isFinite
        else { return "non-finite camera \(c)" }
        if abs(c.target.latitude) > 85 + 1e-9 { return "latitude \(c.target.latitude)" }
        if c.target.longitude < -180 || c.target.longitude >= 180 { return "longitude \(c.target.longitude)" }
        if c.zoom < map.minZoom - 1e-4 || c.zoom > map.maxZoom + 1e-4 { return "zoom \(c.zoom) outside limits" }
        if c.bearing < 0 || c.bearing >= 360 { return "bearing \(c.bearing)" }
        if c.viewingAngle < 0 || c.viewingAngle > 65 + 1e-9 { return "tilt \(c.viewingAngle)" }
        if let selected = map.selectedMarker, selected.map !== map { return "selected marker not on the map" }
        return nil
    }

    @Test func randomTouchesAndAPICallsKeepTheInvariants() {
        let clock = installMapClock()
        var rng = SeededRandom(seed: 0x5EED_7)
        let delegate = InvariantDelegate()
        var steps = 0
        let size = CGSize(width: 400, height: 300)
        for round in 0..<20 {
            weak var weakMap: GMSMapView?
            do {
                let map = makeMap(
                    GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: Float.random(in: 3...18, using: &rng)),
                    size: size)
                weakMap = map
                map.delegate = delegate
                var markers: [GMSMarker] = []
                let input = UITouchInput(rootView: map, clock: clock)
                func point() -> CGPoint {
                    CGPoint(x: Double.random(in: -20...420, using: &rng), y: Double.random(in: -20...320, using: &rng))
                }
                var recent: [Int] = []
                for _ in 0..<5_000 {
                    steps += 1
                    let op = Int.random(in: 0..<100, using: &rng)
                    recent = Array((recent + [op]).suffix(6))
                    switch op {
                    case 0..<30: input.touchDown(Int.random(in: 0..<2, using: &rng), at: point())
                    case 30..<55: input.move(Int.random(in: 0..<2, using: &rng), to: point())
                    case 55..<75: input.touchUp(Int.random(in: 0..<2, using: &rng), at: point())
                    case 75..<78: input.cancelAll()
                    case 78..<81:
                        map.animate(
                            to: GMSCameraPosition(
                                latitude: Double.random(in: -90...90, using: &rng),
                                longitude: Double.random(in: -540...540, using: &rng),
                                zoom: Float.random(in: -5...30, using: &rng),
                                bearing: Double.random(in: -720...720, using: &rng),
                                viewingAngle: Double.random(in: -10...100, using: &rng)))
                    case 81..<83: map.moveCamera(.scrollBy(x: Double.random(in: -500...500, using: &rng), y: 40))
                    case 83..<85: map.moveCamera(.zoom(by: Float.random(in: -3...3, using: &rng)))
                    case 85..<88:
                        let m = GMSMarker(position: map.projection.coordinate(for: point()))
                        m.title = "m\(markers.count)"
                        m.isDraggable = Bool.random(using: &rng)
                        m.map = map
                        markers.append(m)
                    case 88..<90: if let m = markers.randomElement(using: &rng) { map.selectedMarker = m }
                    case 90..<91: if let m = markers.randomElement(using: &rng) { m.map = nil }
                    case 91..<92: map.clear()
                    case 92..<94: map.settings.setAllGesturesEnabled(Bool.random(using: &rng))
                    case 94..<95:
                        let lo = Float.random(in: 2...12, using: &rng)
                        map.setMinZoom(lo, maxZoom: lo + Float.random(in: 0...9, using: &rng))
                    case 95..<96:
                        map.padding = UIEdgeInsets(top: 0, left: 0, bottom: .random(in: 0...100, using: &rng), right: 0)
                    default: map.selectedMarker = nil
                    }
                    clock.advance(by: Double.random(in: 0...0.05, using: &rng))
                    map.tick()
                    if let problem = Self.isValid(map) {
                        Issue.record(
                            "round \(round) step \(steps): \(problem) after operations \(recent) (limits \(map.minZoom)…\(map.maxZoom))"
                        )
                        return
                    }
                }
                // Let everything come to rest: every movement ends with its one idle.
                input.cancelAll()
                map.settings.setAllGesturesEnabled(true)
                for _ in 0..<600 {
                    clock.advance(by: 1.0 / 60)
                    map.tick()
                }
                #expect(!delegate.moving, "round \(round): a movement never reached idle")
            }
            // The map is gone: nothing may call the delegate any more.
            #expect(weakMap == nil, "round \(round): the map outlived its last reference")
            let before = delegate.callbacks
            for _ in 0..<60 {
                clock.advance(by: 1.0 / 60)
                UIAnimator.shared.tick()
            }
            #expect(delegate.callbacks == before, "callbacks after the map was released")
        }
        #expect(delegate.problems.isEmpty, "\(delegate.problems.prefix(5))")
        #expect(delegate.idles > 100, "the fuzz moved the camera only \(delegate.idles) times")
        #expect(steps == 100_000)
    }

    /// Regression found by the fuzz test: zoom limits set while an animation runs bound its remaining frames and its
    /// end (the animation used to keep the limits it started with).
    @Test func zoomLimitsSetDuringAnAnimationBoundItsFrames() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
        map.animate(toZoom: 3)
        run(map, clock, frames: 10)
        #expect(map.camera.zoom > 5, "the animation has not reached zoom 5 yet")
        map.setMinZoom(5, maxZoom: 14)  // the current zoom is inside: no set, the animation goes on
        for _ in 0..<180 {
            clock.advance(by: 1.0 / 60)
            map.tick()
            #expect(map.camera.zoom >= 5 - 1e-4 && map.camera.zoom <= 14 + 1e-4, "zoom \(map.camera.zoom)")
        }
        #expect(abs(map.camera.zoom - 5) < 1e-4, "the animation ends at the new minimum")
    }
}
