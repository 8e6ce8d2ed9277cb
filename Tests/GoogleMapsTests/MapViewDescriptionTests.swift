import Foundation
import Testing

@testable import GoogleMaps
@testable import LinuxUIKit

/// A `GMSMapView` describes itself in one line whatever it holds, so an expectation that fails with a map operand is
/// reported at once (swift-testing expands operands through their mirrors; the whole map graph once took 13 minutes
/// and 6.8 GB to record).
@MainActor @Suite struct MapViewDescriptionTests {
    /// A 400 × 300 map over Helsinki with the vector basemap, 1,000 markers and one frame drawn (renderer, tile
    /// caches and marker store filled: before views had a mirror of their own, a failed expectation about this map
    /// took 8 s to record).
    static func busyMap() throws -> GMSMapView {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 60.1699, longitude: 24.9384, zoom: 15))
        map.basemap = try VectorBasemapRenderer()
        for i in 0..<1_000 {
            let marker = GMSMarker(
                position: CLLocationCoordinate2D(
                    latitude: 60.165 + Double(i % 40) * 2.5e-4, longitude: 24.93 + Double(i / 40) * 5e-4))
            marker.map = map
        }
        _ = map.renderFrame(scale: 1)
        return map
    }

    @Test func aMapWithAThousandMarkersHasAOneLineDescriptionAndAFlatMirror() throws {
        let map = try Self.busyMap()
        let text = String(describing: map)
        #expect(text.hasPrefix("<GMSMapView: 0x"))
        #expect(text.contains("; frame = (0 0; 400 300)"), "\(text)")
        #expect(!text.contains("\n") && text.count < 200, "\(text)")
        #expect(String(reflecting: map) == text)
        let mirror = Mirror(reflecting: map)
        #expect(ObjectIdentifier(mirror.subjectType) == ObjectIdentifier(UIView.self))
        #expect(mirror.children.count == 5)
        #expect(mirror.superclassMirror == nil)
        var dumped = ""
        dump(map, to: &dumped)
        #expect(dumped.split(separator: "\n").count < 16, "\(dumped)")
    }

    /// The issue swift-testing records for a failing expectation about the map shows the map's one-line description.
    @Test func aFailingExpectationAboutTheMapIsRecordedWithItsDescription() throws {
        let map = try Self.busyMap()
        let other = UIView()
        withKnownIssue {
            #expect(map === other)
        } matching: { issue in
            issue.description.contains("<GMSMapView: 0x") && issue.description.count < 1_000
        }
    }
}
