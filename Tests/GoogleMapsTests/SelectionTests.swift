import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Tap precedence (D7), marker tap default (D9), long press (D10), selection (D11), blank content (D12), §2.2–2.6.
@MainActor @Suite struct SelectionTests {
    /// A map centred on (0, 0) at zoom 10, 400 × 300: the marker at the target stands at (200, 150).
    func setUp() -> (GMSMapView, RecordingDelegate, ManualClock) {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        let delegate = RecordingDelegate()
        map.delegate = delegate
        return (map, delegate, clock)
    }

    func marker(_ title: String?, at lat: Double = 0, _ lng: Double = 0, on map: GMSMapView) -> GMSMarker {
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: lat, longitude: lng))
        m.title = title
        m.map = map
        return m
    }

    @Test func markerTapSelectsAndAnimatesTheCamera() {
        let (map, delegate, clock) = setUp()
        // 0.05° east of the target.
        let m = marker("A", at: 0, 0.05, on: map)
        let p = map.projection.point(for: m.position)
        // The pin's body is above its tip: tap 20 pt above the position.
        let target = map.handleTap(at: CGPoint(x: p.x, y: p.y - 20))
        #expect(target == .marker(m))
        #expect(delegate.log == ["didTap(A)", "markerInfoWindow(A)", "markerInfoContents(A)"])
        #expect(map.selectedMarker === m)
        run(map, clock, frames: 120)
        // D9: the camera target moved to the marker, zoom unchanged.
        #expect(abs(map.camera.target.longitude - 0.05) < 1e-7 && map.camera.zoom == 10)
        #expect(delegate.log.suffix(1) == ["idle"])
        #expect(delegate.log.contains("willMove(false)"))
    }

    @Test func delegateReturningTrueConsumesTheTap() {
        let (map, delegate, clock) = setUp()
        delegate.consumeMarkerTaps = true
        let m = marker("A", at: 0, 0.05, on: map)
        let p = map.projection.point(for: m.position)
        map.handleTap(at: CGPoint(x: p.x, y: p.y - 20))
        run(map, clock, frames: 30)
        #expect(delegate.log == ["didTap(A)"])
        #expect(map.selectedMarker == nil)
        #expect(map.camera.target.longitude == 0)
    }

    @Test func mapTapReportsBeforeDeselecting() {
        let (map, delegate, _) = setUp()
        let m = marker("A", on: map)
        map.selectedMarker = m
        delegate.log = []
        let target = map.handleTap(at: CGPoint(x: 20, y: 280))
        guard case .map(let coordinate?) = target else {
            Issue.record("expected a map tap, got \(target)")
            return
        }
        #expect(coordinate.latitude < 0 && coordinate.longitude < 0)
        // §2.2: didTapAt sees the old selection, then the window closes.
        #expect(delegate.log == ["didTapAt(selected: A)", "didClose(A)"])
        #expect(map.selectedMarker == nil)
    }

    @Test func onlyOneWindowAndRetapReopens() {
        let (map, delegate, _) = setUp()
        let a = marker("A", at: 0, -0.1, on: map)
        let b = marker("B", at: 0, 0.1, on: map)
        let pa = map.projection.point(for: a.position)
        let pb = map.projection.point(for: b.position)
        map.handleTap(at: CGPoint(x: pa.x, y: pa.y - 10))
        delegate.log = []
        map.handleTap(at: CGPoint(x: pb.x, y: pb.y - 10))
        #expect(delegate.log == ["didTap(B)", "didClose(A)", "markerInfoWindow(B)", "markerInfoContents(B)"])
        #expect(map.selectedMarker === b)
        // Re-tapping the selected marker closes and reopens its window (§2.3.5). The camera moved towards B, so ask
        // the projection again.
        delegate.log = []
        let pb2 = map.projection.point(for: b.position)
        map.handleTap(at: CGPoint(x: pb2.x, y: pb2.y - 10))
        #expect(delegate.log == ["didTap(B)", "didClose(B)", "markerInfoWindow(B)", "markerInfoContents(B)"])
        #expect(map.selectedMarker === b)
    }

    @Test func infoWindowTapComesFirst() {
        let (map, delegate, _) = setUp()
        let below = marker("Below", at: 0, 0, on: map)
        below.snippet = "snippet"
        map.selectedMarker = below
        // A second marker whose icon lies under the open window (above the first pin).
        let p = map.projection.point(for: below.position)
        let above = marker("Above", on: map)
        above.position = map.projection.coordinate(for: CGPoint(x: p.x, y: p.y - 50))
        above.zIndex = 10
        delegate.log = []
        // The window's arrow tip is at the pin's top (37 pt above the position); its body is above that.
        let target = map.handleTap(at: CGPoint(x: p.x, y: p.y - 37 - 20))
        #expect(target == .infoWindow(below))
        #expect(delegate.log == ["didTapInfoWindowOf(Below)"])
        #expect(map.selectedMarker === below)
        delegate.log = []
        map.handleLongPress(at: CGPoint(x: p.x, y: p.y - 37 - 20))
        #expect(delegate.log == ["didLongPressInfoWindowOf(Below)"])
    }

    @Test func longPressOnAMarkerIsAMapLongPress() {
        let (map, delegate, _) = setUp()
        let m = marker("A", on: map)
        map.handleLongPress(at: CGPoint(x: 200, y: 140))
        #expect(delegate.log == ["didLongPressAt"])
        m.isDraggable = true
        delegate.log = []
        #expect(map.handleLongPress(at: CGPoint(x: 200, y: 140)) == .marker(m))
        #expect(delegate.log.isEmpty)
    }

    @Test func programmaticSelection() {
        let (map, delegate, clock) = setUp()
        let a = marker("A", at: 0, 1, on: map)
        map.selectedMarker = a
        #expect(map.selectedMarker === a)
        #expect(delegate.log == ["markerInfoWindow(A)", "markerInfoContents(A)"])
        // No didTap, no camera move.
        run(map, clock, frames: 30)
        #expect(map.camera.target.longitude == 0)
        #expect(!delegate.log.contains("willMove(false)"))
        // Same marker again: no-op (D11).
        delegate.log = []
        map.selectedMarker = a
        #expect(delegate.log.isEmpty)
        // A marker on no map: ignored with a warning.
        let stray = GMSMarker()
        map.selectedMarker = stray
        #expect(map.selectedMarker === a)
        #expect(GMSLog.messages.contains { $0.contains("not belonging to this map") })
        // nil closes once.
        map.selectedMarker = nil
        #expect(delegate.log == ["didClose(A)"])
        #expect(map.selectedMarker == nil)
    }

    @Test func removalAndClearClose() {
        let (map, delegate, _) = setUp()
        let a = marker("A", on: map)
        map.selectedMarker = a
        delegate.log = []
        a.map = nil
        #expect(delegate.log == ["didClose(A)"])
        #expect(map.selectedMarker == nil)
        let b = marker("B", on: map)
        _ = marker("C", on: map)
        map.selectedMarker = b
        delegate.log = []
        map.clear()
        #expect(delegate.log == ["didClose(B)"])
        #expect(map.selectedMarker == nil)
        #expect(b.map == nil)
    }

    @Test(arguments: [(String?.none, String?.none), ("", ""), ("  ", "\n"), (nil, " \t")])
    func blankContentShowsNoDefaultWindow(title: String?, snippet: String?) {
        let (map, _, _) = setUp()
        let m = marker(title, on: map)
        m.snippet = snippet
        map.handleTap(at: CGPoint(x: 200, y: 140))
        // Selected (D9) but without a window.
        #expect(map.selectedMarker === m)
        #expect(map.infoWindow?.image == nil)
    }

    @Test func customWindowShowsForBlankContent() {
        let (map, delegate, _) = setUp()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 80, height: 40))
        view.backgroundColor = .blue
        delegate.infoWindowView = view
        let m = marker(nil, on: map)
        map.selectedMarker = m
        #expect(map.infoWindow?.image?.size == CGSize(width: 80, height: 40))
        #expect(delegate.log == ["markerInfoWindow(?)"])
    }

    @Test func delegateMayMutateInsideCallbacks() {
        let (map, delegate, clock) = setUp()
        _ = marker("A", on: map)
        delegate.onIdle = { map.clear() }
        map.camera = GMSCameraPosition(latitude: 1, longitude: 1, zoom: 10)
        run(map, clock, frames: 3)
        #expect(map.store.count == 0)
    }
}

/// The module's warnings stay bounded whatever an app repeats (``GMSLog``).
@MainActor @Suite struct WarningLogTests {
    @Test func aRepeatedWarningIsWrittenTenTimesTheLastSayingSo() {
        defer { GMSLog.messages.removeAll() }
        let text = "a repeated warning \(UInt64.random(in: 0...UInt64.max))"
        let lines = (0..<25).map { _ in GMSLog.record(text) }
        #expect(lines.prefix(9).allSatisfy { $0 == "[GoogleMaps] warning: \(text)\n" })
        #expect(lines[9]?.hasSuffix("(repeated 10 times; further repeats are not shown)\n") == true)
        #expect(lines.dropFirst(10).allSatisfy { $0 == nil })
        #expect(GMSLog.messages.filter { $0 == text }.count == 25)
    }

    @Test func theNewestThousandMessagesAreKept() {
        _ = installMapClock()
        defer { GMSLog.messages.removeAll() }
        for i in 0..<(GMSLog.keptMessages + 5) { _ = GMSLog.record("message \(i)") }
        #expect(GMSLog.messages.count == 1_000)
        #expect(GMSLog.messages.first == "message 5")
        #expect(GMSLog.messages.last == "message 1004")
        // The selection warning of a stray marker, in a loop, as MapViewFuzzTests makes it: kept, not repeated
        // without end on standard error.
        let map = makeMap()
        for _ in 0..<20 { map.selectedMarker = GMSMarker() }
        #expect(GMSLog.messages.suffix(20).allSatisfy { $0.contains("not belonging to this map") })
    }
}
