import Foundation
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// Delegate and overlay code as iOS apps write it that Waymark did not honour (session 19's QA of Google's samples):
/// info-window methods declared with a non-optional view, markers' accessibility properties, a key-value observation
/// invalidated from a `deinit` on another thread.
@MainActor @Suite struct SampleCodeDelegateTests {
    static let london = CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127)

    /// Declares the info window non-optional, as iOS lets a delegate do.
    final class PlainWindowDelegate: GMSMapViewDelegate {
        var asked: [String] = []
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 90, height: 40))
        func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView {
            asked.append(marker.title ?? "?")
            return view
        }
    }

    /// Declares only the contents, non-optional.
    final class PlainContentsDelegate: GMSMapViewDelegate {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 30))
        func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView { view }
    }

    private func map(with delegate: any GMSMapViewDelegate) -> (GMSMapView, GMSMarker) {
        _ = installMapClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 320, height: 240),
            camera: GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14))
        map.delegate = delegate
        let marker = GMSMarker(position: Self.london)
        marker.title = "London"
        marker.map = map
        return (map, marker)
    }

    @Test func nonOptionalInfoWindowIsUsed() throws {
        let delegate = PlainWindowDelegate()
        let (map, marker) = map(with: delegate)
        map.selectedMarker = marker
        #expect(delegate.asked == ["London"])
        guard case .window(let view)? = map.infoWindow?.source else {
            Issue.record("the delegate's window was not used")
            return
        }
        #expect(view === delegate.view)
        let image = try #require(map.infoWindow?.image)
        #expect(image.size == CGSize(width: 90, height: 40))
    }

    @Test func nonOptionalInfoContentsAreUsed() {
        let delegate = PlainContentsDelegate()
        let (map, marker) = map(with: delegate)
        map.selectedMarker = marker
        guard case .contents(let view)? = map.infoWindow?.source else {
            Issue.record("the delegate's contents were not used")
            return
        }
        #expect(view === delegate.view)
    }

    /// A delegate implementing neither gets the default bubble (the defaults say "no view").
    @Test func noInfoWindowMethodsGiveTheDefaultBubble() {
        final class Silent: GMSMapViewDelegate {}
        let delegate = Silent()
        let (map, marker) = map(with: delegate)
        map.selectedMarker = marker
        guard case .standard? = map.infoWindow?.source else {
            Issue.record("expected the standard bubble")
            return
        }
    }

    /// Data-driven styling: one layer per type, unavailable, its style stored and the reason logged once.
    @Test func featureLayersAreUnavailableAndSaySo() {
        _ = installMapClock()
        let map = makeMap()
        let counties = map.featureLayer(of: .administrativeAreaLevel2)
        #expect(counties === map.featureLayer(of: FeatureType("ADMINISTRATIVE_AREA_LEVEL_2")))
        #expect(counties !== map.featureLayer(of: .country))
        #expect(counties.featureType == .administrativeAreaLevel2 && !counties.isAvailable)
        let before = map.renderFrame(scale: 1).pngData()
        let style = FeatureStyle(fill: .red, stroke: .blue, strokeWidth: -3)
        #expect(style.strokeWidth == 0 && style.fillColor == .red)
        counties.style = { $0.placeID == "x" ? style : nil }
        counties.style = nil
        #expect(GMSLog.messages.filter { $0.contains("ADMINISTRATIVE_AREA_LEVEL_2 is not available") }.count == 1)
        #expect(map.renderFrame(scale: 1).pngData() == before, "nothing drawn differently")
        let dataset = map.datasetFeatureLayer(of: "trees")
        #expect(dataset === map.datasetFeatureLayer(of: "trees") && dataset.featureType == .dataset)
        let plain = MutableFeatureStyle()
        plain.fillColor = .purple
        #expect(plain.strokeColor == nil && plain.strokeWidth == 0 && plain.fillColor == .purple)
        #expect(FeatureStyle().fillColor == nil)
        let mutable = style.mutableCopy()
        mutable.pointRadius = 4
        #expect(mutable.pointRadius == 4 && mutable.strokeColor == .blue)
    }

    /// Google's demo map ID draws the default map without a warning; the map view hides its accessibility elements.
    @Test func demoMapIDIsTheDefaultMap() {
        _ = installMapClock()
        let options = GMSMapViewOptions()
        options.mapID = .demoMapID
        options.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let map = GMSMapView(options: options)
        #expect(GMSMapID.demoMapID.identifier == "DEMO_MAP_ID")
        #expect(!GMSLog.messages.contains { $0.contains("DEMO_MAP_ID") })
        #expect(map.accessibilityElementsHidden)
    }

    @Test func markersKeepTheirAccessibilityProperties() {
        let marker = GMSMarker(position: Self.london)
        #expect(marker.accessibilityLabel == nil && !marker.isAccessibilityElement)
        #expect(marker.accessibilityActivationPoint == .zero && marker.accessibilityFrame == .zero)
        marker.accessibilityLabel = "Big Ben"
        marker.accessibilityHint = "Opens details"
        marker.accessibilityValue = "open"
        marker.isAccessibilityElement = true
        marker.accessibilityActivationPoint = CGPoint(x: 3, y: 4)
        marker.accessibilityFrame = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(marker.accessibilityLabel == "Big Ben" && marker.accessibilityHint == "Opens details")
        #expect(marker.accessibilityValue == "open" && marker.isAccessibilityElement)
        #expect(marker.accessibilityActivationPoint == CGPoint(x: 3, y: 4))
        #expect(marker.accessibilityFrame == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    /// An observation invalidated on another thread (a view controller's `deinit`): the handler is not called
    /// again, and the map's bookkeeping is removed on the main queue.
    @Test func observationInvalidatedOffTheMainThread() async {
        let clock = installMapClock()
        let map = makeMap()
        var zooms: [Float] = []
        let observation = map.observe(\.camera, options: [.new]) { _, change in
            zooms.append(change.newValue?.zoom ?? -1)
        }
        map.camera = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 12)
        #expect(zooms == [12])
        await Task.detached { observation.invalidate() }.value
        map.camera = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 10)
        run(map, clock, frames: 2)
        #expect(zooms == [12], "no call after invalidate() returned on another thread")
        // The removal reaches the main queue.
        for _ in 0..<50 where !map.keyValueObservers.isEmpty {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(map.keyValueObservers.isEmpty)
    }
}
