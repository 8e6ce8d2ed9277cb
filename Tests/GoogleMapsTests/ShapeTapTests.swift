import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Records overlay, marker, map and info-window callbacks.
@MainActor final class ShapeTapDelegate: GMSMapViewDelegate {
    var log: [String] = []
    var overlays: [GMSOverlay] = []
    func mapView(_ mapView: GMSMapView, didTap overlay: GMSOverlay) {
        overlays.append(overlay)
        log.append("didTapOverlay(\(overlay.title ?? "?"))")
    }
    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        log.append("didTapMarker(\(marker.title ?? "?"))")
        return true
    }
    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) { log.append("didTapAt") }
    func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker) {
        log.append("didClose(\(marker.title ?? "?"))")
    }
}

/// Taps on shapes (D7: info window → marker → tappable overlay → POI → map; exactly one callback).
@MainActor @Suite struct ShapeTapTests {
    static let london = CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127)

    func setUp() -> (GMSMapView, ShapeTapDelegate, ManualClock) {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(target: Self.london, zoom: 15))
        let delegate = ShapeTapDelegate()
        map.delegate = delegate
        _ = map.renderFrame(scale: 1)
        return (map, delegate, clock)
    }

    /// A horizontal line through the view centre, `width` points wide.
    func centreLine(_ map: GMSMapView, width: CGFloat = 4, title: String = "line") -> GMSPolyline {
        let p = map.projection
        let a = p.coordinate(for: CGPoint(x: 50, y: 150))
        let b = p.coordinate(for: CGPoint(x: 350, y: 150))
        let line = GMSPolyline(path: shapePath([(a.latitude, a.longitude), (b.latitude, b.longitude)]))
        line.strokeWidth = width
        line.isTappable = true
        line.title = title
        line.map = map
        return line
    }

    @Test func tapOnTheStrokeAndJustOutsideTheSlop() {
        let (map, delegate, _) = setUp()
        let line = centreLine(map, width: 4)
        // Half width 2 + slop 8 = 10 points.
        #expect(map.handleTap(at: CGPoint(x: 200, y: 150)) == .overlay(line))
        #expect(map.handleTap(at: CGPoint(x: 200, y: 159.5)) == .overlay(line))
        #expect(
            map.handleTap(at: CGPoint(x: 200, y: 161)) == .map(map.projection.coordinate(for: CGPoint(x: 200, y: 161))))
        #expect(map.handleTap(at: CGPoint(x: 361, y: 150)) != .overlay(line), "beyond the end")
        #expect(delegate.log == ["didTapOverlay(line)", "didTapOverlay(line)", "didTapAt", "didTapAt"])
        #expect(delegate.overlays.allSatisfy { $0 === line })
    }

    /// A long line is indexed by runs of points: taps on any run hit, a tap inside its bounds but off the line misses.
    @Test func longLinesHitOnEveryRunAndMissBetween() {
        let (map, delegate, _) = setUp()
        let p = map.projection
        // A 300-point zig-zag from x 20 to 379, between y 60 and y 240 (indexed as three runs).
        var points: [(Double, Double)] = []
        for i in 0..<300 {
            let c = p.coordinate(
                for: CGPoint(
                    x: 20 + Double(i) * 1.2, y: i % 40 < 20 ? 60 + Double(i % 20) * 9 : 240 - Double(i % 20) * 9))
            points.append((c.latitude, c.longitude))
        }
        let line = GMSPolyline(path: shapePath(points))
        line.isTappable = true
        line.title = "zigzag"
        line.map = map
        #expect(map.handleTap(at: CGPoint(x: 20 + 299 * 1.2, y: 60 + 19 * 9)) == .overlay(line), "the last run")
        #expect(map.handleTap(at: CGPoint(x: 20, y: 60)) == .overlay(line), "the first point")
        #expect(
            map.handleTap(at: CGPoint(x: 60, y: 240)) != .overlay(line), "inside the bounds, off the line")
        #expect(delegate.log == ["didTapOverlay(zigzag)", "didTapOverlay(zigzag)", "didTapAt"])
    }

    @Test func tapInsideHolesIsNotAHit() {
        let (map, delegate, _) = setUp()
        let p = map.projection
        func c(_ x: CGFloat, _ y: CGFloat) -> (Double, Double) {
            let q = p.coordinate(for: CGPoint(x: x, y: y))
            return (q.latitude, q.longitude)
        }
        let polygon = GMSPolygon(path: shapePath([c(50, 50), c(350, 50), c(350, 250), c(50, 250)]))
        polygon.holes = [shapePath([c(100, 100), c(180, 100), c(180, 200), c(100, 200)])]
        polygon.isTappable = true
        polygon.title = "zone"
        polygon.map = map
        #expect(map.handleTap(at: CGPoint(x: 260, y: 150)) == .overlay(polygon), "inside the fill")
        #expect(map.handleTap(at: CGPoint(x: 140, y: 150)) != .overlay(polygon), "inside the hole")
        #expect(map.handleTap(at: CGPoint(x: 20, y: 150)) != .overlay(polygon), "outside (beyond the slop)")
        #expect(delegate.log == ["didTapOverlay(zone)", "didTapAt", "didTapAt"])
    }

    @Test func overlappingShapesTopMostWins() {
        let (map, delegate, _) = setUp()
        let low = GMSCircle(position: Self.london, radius: 200)
        low.isTappable = true
        low.title = "low"
        low.zIndex = 1
        low.map = map
        let high = GMSCircle(position: Self.london, radius: 100)
        high.isTappable = true
        high.title = "high"
        high.zIndex = 2
        high.map = map
        let tie = GMSCircle(position: Self.london, radius: 150)
        tie.isTappable = true
        tie.title = "tie"
        tie.zIndex = 1
        tie.map = map
        #expect(map.handleTap(at: CGPoint(x: 200, y: 150)) == .overlay(high))
        high.zIndex = 0
        #expect(map.handleTap(at: CGPoint(x: 200, y: 150)) == .overlay(tie), "z 1 ties: the later added")
        #expect(delegate.log == ["didTapOverlay(high)", "didTapOverlay(tie)"])
    }

    @Test func markerOverShapeWinsAndUntappableShapesPassThrough() {
        let (map, delegate, _) = setUp()
        let line = centreLine(map, width: 20, title: "wide")
        let marker = GMSMarker(position: map.projection.coordinate(for: CGPoint(x: 200, y: 160)))
        marker.title = "pin"
        marker.map = map
        #expect(map.handleTap(at: CGPoint(x: 200, y: 150)) == .marker(marker))
        marker.map = nil
        line.isTappable = false
        let under = GMSCircle(position: Self.london, radius: 100)
        under.isTappable = true
        under.title = "under"
        under.map = map
        under.zIndex = -1
        #expect(map.handleTap(at: CGPoint(x: 200, y: 150)) == .overlay(under), "the untappable line passes through")
        under.isTappable = false
        #expect(
            map.handleTap(at: CGPoint(x: 200, y: 150)) == .map(map.projection.coordinate(for: CGPoint(x: 200, y: 150))))
        #expect(delegate.log == ["didTapMarker(pin)", "didTapOverlay(under)", "didTapAt"])
    }

    @Test func overlayTapClosesTheInfoWindowAfterItsCallback() {
        let (map, delegate, _) = setUp()
        let line = centreLine(map)
        let marker = GMSMarker(position: map.projection.coordinate(for: CGPoint(x: 100, y: 60)))
        marker.title = "pin"
        marker.map = map
        map.selectedMarker = marker
        #expect(map.handleTap(at: CGPoint(x: 250, y: 150)) == .overlay(line))
        #expect(delegate.log == ["didTapOverlay(line)", "didClose(pin)"])
        #expect(map.selectedMarker == nil)
    }

    @Test func touchTapOnAShapeFiresOnceAfterTheDoubleTapWait() {
        let (map, delegate, clock) = setUp()
        _ = centreLine(map)
        let input = UITouchInput(rootView: map, clock: clock)
        input.touchDown(at: CGPoint(x: 200, y: 151))
        clock.advance(by: 0.05)
        input.touchUp(at: CGPoint(x: 200, y: 151))
        run(map, clock, frames: 1)
        #expect(delegate.log.isEmpty, "a shape lies on the map: its tap waits for a possible double tap")
        run(map, clock, frames: 20)
        #expect(delegate.log == ["didTapOverlay(line)"])
        run(map, clock, frames: 20)
        #expect(delegate.log.count == 1)
    }

    @Test func tapsWorkUnderBearingAndPitchAndAcrossTheAntimeridian() {
        let clock = installMapClock()
        _ = clock
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 179.9, zoom: 12))
        let delegate = ShapeTapDelegate()
        map.delegate = delegate
        // A line across the antimeridian, drawn the short way.
        let line = GMSPolyline(path: shapePath([(0, 179.8), (0, -179.8)]))
        line.isTappable = true
        line.strokeWidth = 4
        line.map = map
        let east = map.projection.point(for: CLLocationCoordinate2D(latitude: 0, longitude: -179.95))
        #expect(map.handleTap(at: east) == .overlay(line))
        map.camera = GMSCameraPosition(
            target: CLLocationCoordinate2D(latitude: 0, longitude: 179.95), zoom: 14, bearing: 30, viewingAngle: 45)
        let p = map.projection.point(for: CLLocationCoordinate2D(latitude: 0, longitude: 179.97))
        #expect(map.handleTap(at: p) == .overlay(line))
        let off = map.projection.point(for: CLLocationCoordinate2D(latitude: 0.01, longitude: 179.97))
        #expect(map.handleTap(at: off) != .overlay(line))
    }
}

/// Random shape edits, camera changes and taps (seeded): no crash, every `didTap overlay` names an overlay on this
/// map, and after `clear()` nothing is drawn or tappable.
@MainActor @Suite struct ShapeFuzzTests {
    /// A uniform double in `lo..<hi`.
    func unit(_ rng: inout SeededRandom, _ lo: Double, _ hi: Double) -> Double {
        Double.random(in: lo..<hi, using: &rng)
    }

    @Test func randomEditsCameraMovesAndTaps() {
        _ = installMapClock()
        var rng = SeededRandom(seed: 0x5EED_5A9E)
        let map = makeMap(
            GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 12), size: CGSize(width: 64, height: 48))
        let delegate = ShapeTapDelegate()
        map.delegate = delegate
        var shapes: [GMSOverlay] = []
        func coordinate() -> CLLocationCoordinate2D {
            switch rng.next() % 20 {
            case 0: return CLLocationCoordinate2D(latitude: .nan, longitude: 0)
            case 1: return CLLocationCoordinate2D(latitude: 95, longitude: 200)
            case 2: return CLLocationCoordinate2D(latitude: 0, longitude: rng.next() % 2 == 0 ? 179.99 : -179.99)
            default:
                return CLLocationCoordinate2D(
                    latitude: 51.5 + unit(&rng, -0.2, 0.2), longitude: -0.127 + unit(&rng, -0.3, 0.3))
            }
        }
        func path() -> GMSPath {
            let p = GMSMutablePath()
            for _ in 0..<(rng.next() % 6) { p.add(coordinate()) }
            return p
        }
        let steps = 100_000
        var taps = 0
        var frames = 0
        for step in 0..<steps {
            switch rng.next() % 16 {
            case 0, 1:
                let s: GMSOverlay
                switch rng.next() % 4 {
                case 0:
                    let l = GMSPolyline(path: path())
                    l.geodesic = rng.next() % 2 == 0
                    l.spans = rng.next() % 2 == 0 ? [GMSStyleSpan(color: .red, segments: unit(&rng, -1, 3))] : nil
                    s = l
                case 1:
                    let p = GMSPolygon(path: path())
                    p.holes = [path()]
                    s = p
                case 2: s = GMSCircle(position: coordinate(), radius: unit(&rng, -100, 5000))
                default:
                    let g = GMSGroundOverlay(
                        position: coordinate(), icon: houseImage(scale: 1), zoomLevel: CGFloat(unit(&rng, 0, 20)))
                    g.bearing = unit(&rng, -400, 400)
                    s = g
                }
                s.isTappable = rng.next() % 3 != 0
                s.zIndex = Int32(rng.next() % 5) - 2
                s.map = map
                shapes.append(s)
            case 2:
                if let s = shapes.randomElement(using: &rng) { s.map = s.map == nil ? map : nil }
            case 3:
                if let s = shapes.randomElement(using: &rng) {
                    if let l = s as? GMSPolyline {
                        l.path = path()
                        l.strokeWidth = CGFloat(unit(&rng, -2, 30))
                    }
                    if let p = s as? GMSPolygon {
                        p.path = path()
                        p.fillColor = rng.next() % 4 == 0 ? nil : .green
                    }
                    if let c = s as? GMSCircle {
                        c.position = coordinate()
                        c.radius = unit(&rng, 0, 1e7)
                    }
                    if let g = s as? GMSGroundOverlay { g.anchor = CGPoint(x: unit(&rng, -1, 2), y: unit(&rng, -1, 2)) }
                    s.zIndex = Int32(rng.next() % 5) - 2
                }
            case 4:
                map.camera = GMSCameraPosition(
                    target: coordinate(), zoom: Float(unit(&rng, 2, 21)), bearing: unit(&rng, 0, 360),
                    viewingAngle: unit(&rng, 0, 65))
            case 5:
                if step % 10 == 0 {
                    _ = map.renderFrame(scale: 1)
                    frames += 1
                }
            case 6:
                map.clear()
                #expect(map.overlayStage.count == 0)
                #expect(shapes.allSatisfy { $0.map == nil })
                _ = map.renderFrame(scale: 1)
                #expect(map.overlayStage.lastCommandCount == 0)
                shapes.removeAll()
            default:
                let point = CGPoint(x: unit(&rng, -10, 74), y: unit(&rng, -10, 58))
                let before = delegate.overlays.count
                if case .overlay(let o) = map.handleTap(at: point) {
                    #expect(o.map === map && o.isTappable)
                }
                for o in delegate.overlays[before...] { #expect(o.map === map) }
                taps += 1
            }
            if shapes.count > 60 { shapes.removeFirst(20) }
        }
        map.clear()
        for y in stride(from: 0, to: 48, by: 4) {
            for x in stride(from: 0, to: 64, by: 4) {
                let target = map.handleTap(at: CGPoint(x: x, y: y))
                if case .overlay = target { Issue.record("tappable overlay after clear()") }
            }
        }
        #expect(taps > 50_000 && frames > 100)
    }
}
