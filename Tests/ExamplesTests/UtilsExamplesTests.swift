import Foundation
import GoogleMaps
import GoogleMapsUtils
import Testing

@testable import clustering_example
@testable import geojson_kml_example
@testable import heatmap_example

/// The GoogleMapsUtils guides' apps, driven headless.
@MainActor @Suite(.serialized) struct UtilsExamplesTests {
    /// The clusters at start; a scripted tap on a cluster zooms in on it and, once idle, the manager re-clusters
    /// into more, smaller markers.
    @Test func clusteringTapOnAClusterZoomsIn() throws {
        let app = clustering_example.AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? ClusteringViewController)
        #expect(host.runUntilIdle())
        let map = controller.mapView!
        let markers = controller.renderer.currentMarkers
        let clusterMarkers = markers.filter { $0.userData is any GMUCluster }
        #expect(!clusterMarkers.isEmpty && markers.count < controller.items.count, "1,000 items in a few markers")
        let biggest = try #require(
            clusterMarkers.max { ($0.userData as! any GMUCluster).count < ($1.userData as! any GMUCluster).count })
        let zoom = map.camera.zoom
        let output = capturingStandardOutput {
            host.tap(at: map.projection.point(for: biggest.position))
            host.runUntilIdle()
        }
        #expect(output.contains("Did tap cluster of \((biggest.userData as! any GMUCluster).count) items"), "\(output)")
        #expect(map.camera.zoom == zoom + 1)
        let after = controller.renderer.currentMarkers
        #expect(after.allSatisfy { $0.map === map })
        #expect(!after.contains { $0 === biggest } || (biggest.userData as! any GMUCluster).count < 4)
        host.terminate()
    }

    @Test func clusteringTapOnAnItemPrintsIt() throws {
        let app = clustering_example.AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? ClusteringViewController)
        let map = controller.mapView!
        map.moveCamera(GMSCameraUpdate.zoom(to: 17))
        #expect(host.runUntilIdle())
        let item = try #require(controller.renderer.currentMarkers.first { $0.userData is POIItem })
        let output = capturingStandardOutput {
            host.tap(at: pinPoint(item, on: map))
            host.runUntilIdle()
        }
        #expect(output.contains("Did tap marker for cluster item \((item.userData as! POIItem).name)"), "\(output)")
        #expect(map.selectedMarker === item, "the delegate returned false: the default selection follows")
        host.terminate()
    }

    /// The heatmap's tiles arrive from the worker threads and colour the map over the hot spot.
    @Test func heatmapDrawsOverTheHotSpot() throws {
        let app = heatmap_example.AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? HeatmapViewController)
        #expect(controller.heatmapLayer.map === controller.mapView)
        #expect(controller.heatmapLayer.radius == 40 && controller.heatmapLayer.gradient.mapSize == 256)
        let centre = controller.mapView.projection.point(
            for: CLLocationCoordinate2D(latitude: -37.8136, longitude: 144.9631))
        var red: CGFloat = 0
        for _ in 0..<100 {  // tiles are made off the main thread: bounded wait
            host.runUntilIdle()
            var (r, g, b, a): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
            host.snapshot().pixelColor(x: Int(centre.x), y: Int(centre.y))?.getRed(&r, green: &g, blue: &b, alpha: &a)
            red = r - g
            if red > 0.3 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(red > 0.3, "the hot spot's centre is drawn red-ish (r − g = \(red))")
        host.terminate()
    }

    @Test func geoJSONAndKMLAreRenderedWithTheirStyles() throws {
        let app = geojson_kml_example.AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? GeoJSONKMLViewController)
        #expect(host.runUntilIdle())
        #expect(controller.problems.isEmpty, "\(controller.problems)")
        let kml = try #require(controller.kmlRenderer).mapOverlays()
        #expect(kml.count == 5)
        let route = try #require(kml.first { $0.title == "Tram route" } as? GMSPolyline)
        #expect(route.strokeWidth == 6, "the StyleMap's normal style")
        let park = try #require(kml.first { $0.title == "Park" } as? GMSPolygon)
        #expect(park.fillColor == .clear && park.strokeWidth == 4, "fill 0: outline only")
        let overlay = try #require(kml.first { $0 is GMSGroundOverlay } as? GMSGroundOverlay)
        #expect(overlay.icon != nil && overlay.zIndex == 2)
        let geo = try #require(controller.geoJSONRenderer).mapOverlays()
        let holes = geo.compactMap { $0 as? GMSPolygon }.map { $0.holes?.count ?? 0 }
        #expect(holes.sorted() == [0, 1, 1])
        let camera = controller.mapView.camera
        #expect(camera.target.latitude == 47.372 && camera.target.longitude == 8.535 && camera.zoom == 13)
        #expect(controller.fileBounds == nil, "the built-in documents keep the Zürich view")
        host.terminate()
    }

    /// `--kml FILE` with a file far from Zürich (Sydney): once laid out, the camera is fitted to what the file drew,
    /// and its ground overlay's relative href is read from the file's folder.
    @Test func aFileElsewhereIsFramedByTheCamera() throws {
        let folder = NSTemporaryDirectory() + "waymark-far-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: GeoJSONKMLViewController.writeOverlayImage(), toPath: folder + "overlay.png")
        let kml = """
            <kml><Document><Placemark><name>Quay</name><LineString><coordinates>
              151.200,-33.870 151.215,-33.858</coordinates></LineString></Placemark>
            <GroundOverlay><Icon><href>overlay.png</href></Icon><LatLonBox><north>-33.855</north>
              <south>-33.862</south><east>151.220</east><west>151.212</west></LatLonBox></GroundOverlay>
            </Document></kml>
            """
        try Data(kml.utf8).write(to: URL(fileURLWithPath: folder + "far.kml"))
        UIApplication.shared.resetForNextRun()
        let controller = GeoJSONKMLViewController(kmlPath: folder + "far.kml")
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 800, height: 600))
        window.rootViewController = controller
        let host = UIHeadlessHost(window: window, scale: 1)
        #expect(host.runUntilIdle())
        #expect(controller.problems.isEmpty, "\(controller.problems)")
        let map = try #require(controller.mapView)
        let visible = GMSCoordinateBounds(region: map.projection.visibleRegion())
        for corner in [(-33.870, 151.200), (-33.855, 151.220)] {
            let c = CLLocationCoordinate2D(latitude: corner.0, longitude: corner.1)
            #expect(visible.contains(c), "\(corner) is on screen")
        }
        #expect(map.camera.zoom > 12, "fitted to the file, zoom \(map.camera.zoom)")
        let overlay = try #require(controller.kmlRenderer?.mapOverlays().first { $0 is GMSGroundOverlay })
        #expect((overlay as? GMSGroundOverlay)?.icon != nil, "overlay.png read beside far.kml")
        host.terminate()
    }

    @Test func aBrokenFileIsReportedWithItsPosition() throws {
        let path = NSTemporaryDirectory() + "waymark-broken-\(UUID().uuidString).geojson"
        try Data("{\"type\": \"Point\", \"coordinates\": [8.5, \"north\"]}".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let controller = GeoJSONKMLViewController(geoJSONPath: path)
        controller.loadView()
        #expect(controller.problems == ["\(path): $.coordinates[1]: expected a number, found the string \"north\""])
        #expect(controller.kmlRenderer?.mapOverlays().count == 5, "the KML still draws")
    }
}
