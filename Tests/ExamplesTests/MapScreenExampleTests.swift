import Foundation
import GoogleMaps
import Testing

@testable import map_screen_example

/// The map screen written as an iOS app (Examples/MapScreen), run headless: both maps draw, the overlays and the
/// off-main tile layer show, a tap drops a marker, and the tour's camera animation sequence visits every stop.
@MainActor @Suite(.serialized) struct MapScreenExampleTests {
    /// Distinct colours in a region of `image` (every other pixel).
    static func colourCount(_ image: UIImage, x: Range<Int>, y: Range<Int>) -> Int {
        var seen = Set<Int>()
        for yy in stride(from: y.lowerBound, to: y.upperBound, by: 2) {
            for xx in stride(from: x.lowerBound, to: x.upperBound, by: 2) {
                var r: CGFloat = 0
                var g: CGFloat = 0
                var b: CGFloat = 0
                var a: CGFloat = 0
                image.pixelColor(x: xx, y: yy)?.getRed(&r, green: &g, blue: &b, alpha: &a)
                seen.insert(Int(r * 255) << 16 | Int(g * 255) << 8 | Int(b * 255))
            }
        }
        return seen.count
    }

    @Test func bothMapsDrawTheirMapAndTheOverviewFollows() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let navigation = try #require(app.window?.rootViewController as? UINavigationController)
        let tour = try #require(navigation.topViewController as? TourViewController)
        #expect(host.runUntilIdle())
        let image = host.snapshot()
        let overview = tour.overviewMap.convert(tour.overviewMap.bounds, to: nil)
        #expect(overview.width == 200 && overview.height == 150, "overview frame \(overview)")
        let main = Self.colourCount(image, x: 20..<400, y: 120..<400)
        let inset = Self.colourCount(
            image, x: Int(overview.minX) + 4..<Int(overview.maxX) - 4,
            y: Int(overview.minY) + 4..<Int(overview.maxY) - 4)
        #expect(main > 20, "main map colours \(main)")
        // A map that does not draw shows one colour (its background); the overview at zoom 11 shows about 15.
        #expect(inset > 8, "overview map colours \(inset)")
        #expect(abs(tour.overviewMap.camera.target.latitude - tour.mapView.camera.target.latitude) < 1e-6)
        #expect(abs(tour.overviewMap.camera.zoom - (tour.mapView.camera.zoom - 3.5)) < 1e-4)
        // The tile layer draws on the main map: the picture changes when it goes.
        tour.stopTiles.map = nil
        #expect(host.runUntilIdle())
        let withoutTiles = host.snapshot()
        #expect(withoutTiles.pngData() != image.pngData(), "the stop tiles were drawn")
        host.terminate()
    }

    @Test func aTapDropsAMarkerAndTheTourVisitsEveryStop() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let navigation = try #require(app.window?.rootViewController as? UINavigationController)
        let tour = try #require(navigation.topViewController as? TourViewController)
        #expect(host.runUntilIdle())
        let point = CGPoint(x: 150, y: 300)
        let expected = tour.mapView.projection.coordinate(for: tour.mapView.convert(point, from: nil))
        host.tap(at: point)
        #expect(host.runUntilIdle())
        let dropped = try #require(tour.tappedMarkers.first)
        #expect(abs(dropped.position.latitude - expected.latitude) < 1e-6)
        #expect(abs(dropped.position.longitude - expected.longitude) < 1e-6)

        tour.startTour()
        host.advance(by: 1)
        // Half way through the first two-second leg.
        let first = TourViewController.stops[0].position
        #expect(abs(tour.mapView.camera.target.latitude - first.latitude) > 1e-5)
        #expect(host.runUntilIdle(timeout: 30))
        let last = try #require(TourViewController.stops.last).position
        #expect(abs(tour.mapView.camera.target.latitude - last.latitude) < 1e-6)
        #expect(abs(tour.mapView.camera.target.longitude - last.longitude) < 1e-6)
        #expect(tour.mapView.camera.zoom == 16)
        #expect(abs(tour.mapView.camera.bearing - 30) < 1e-6)
        #expect(abs(tour.mapView.camera.viewingAngle - 35) < 1e-6)
        host.terminate()
    }
}
