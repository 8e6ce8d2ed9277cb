import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport

@testable import GoogleMaps
@testable import GoogleMapsUtils
@testable import LinuxUIKit

/// Pictures of the utilities on a plain basemap, compared with goldens (looked at when recorded).
@MainActor @Suite(.serialized) struct UtilsGoldenTests {
    /// 300 items over Paris, clustered at zoom 11, 13 and 15 (no animation).
    @Test(arguments: [11, 13, 15])
    func clustersOverACity(zoom: Int) {
        let clock = installUtilsClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 400, height: 400),
            camera: GMSCameraPosition(latitude: 48.862, longitude: 2.33, zoom: Float(zoom)))
        let renderer = GMUDefaultClusterRenderer(mapView: map, clusterIconGenerator: GMUDefaultClusterIconGenerator())
        renderer.animatesClusters = false
        let manager = GMUClusterManager(
            map: map, algorithm: GMUNonHierarchicalDistanceBasedAlgorithm(), renderer: renderer)
        manager.add(parisItems())
        manager.cluster()
        tickMap(map, clock, frames: 30)
        expectImage(
            map.renderFrame(scale: 1), matchesGolden: "clusters-paris-z\(zoom)", channelTolerance: 8,
            maxDifferingFraction: 0.003)
    }

    /// A KML with shared styles, a StyleMap, fill/outline switches and a ground overlay.
    @Test func kmlWithStylesAndAGroundOverlay() throws {
        let clock = installUtilsClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 400, height: 300),
            camera: GMSCameraPosition(latitude: 10.02, longitude: 10.02, zoom: 13))
        let overlay = UIGraphicsImageRenderer(size: CGSize(width: 32, height: 32)).image { c in
            for i in 0..<4 {
                c.cgContext.setFillColor((i % 2 == 0 ? UIColor.orange : UIColor.purple).cgColor)
                c.cgContext.fill(CGRect(x: 0, y: CGFloat(i) * 8, width: 32, height: 8))
            }
        }
        let imagePath = NSTemporaryDirectory() + "waymark-utils-golden-overlay.png"
        try #require(overlay.pngData()).write(to: URL(fileURLWithPath: imagePath))
        let kml = """
            <kml><Document>
              <Style id="filled"><LineStyle><color>ffb06000</color><width>3</width></LineStyle>
                <PolyStyle><color>80f0b040</color></PolyStyle></Style>
              <Style id="line-normal"><LineStyle><color>ff0000e0</color><width>6</width></LineStyle></Style>
              <StyleMap id="line"><Pair><key>normal</key><styleUrl>#line-normal</styleUrl></Pair></StyleMap>
              <Style id="outline"><LineStyle><color>ff008000</color><width>4</width></LineStyle>
                <PolyStyle><fill>0</fill></PolyStyle></Style>
              <Placemark><styleUrl>#filled</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>
                10.00,10.00 10.02,10.00 10.02,10.015 10.00,10.015 10.00,10.00</coordinates></LinearRing>
                </outerBoundaryIs></Polygon></Placemark>
              <Placemark><styleUrl>#line</styleUrl><LineString><coordinates>
                9.99,10.03 10.03,10.025 10.05,10.04</coordinates></LineString></Placemark>
              <Placemark><styleUrl>#outline</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>
                10.03,10.00 10.045,10.00 10.045,10.012 10.03,10.012 10.03,10.00</coordinates></LinearRing>
                </outerBoundaryIs></Polygon></Placemark>
              <GroundOverlay><Icon><href>\(imagePath)</href></Icon><LatLonBox><north>10.04</north><south>10.03</south>
                <east>10.01</east><west>9.995</west></LatLonBox></GroundOverlay>
            </Document></kml>
            """
        let parser = GMUKMLParser(data: Data(kml.utf8))
        parser.parse()
        #expect(parser.error == nil)
        let renderer = GMUGeometryRenderer(
            map: map, geometries: parser.placemarks, styles: parser.styles, styleMaps: parser.styleMaps)
        renderer.render()
        #expect(renderer.mapOverlays().count == 4)
        tickMap(map, clock, frames: 30)
        expectImage(
            map.renderFrame(scale: 1), matchesGolden: "kml-styles-ground-overlay", channelTolerance: 8,
            maxDifferingFraction: 0.003)
        renderer.clear()
        #expect(renderer.mapOverlays().isEmpty)
    }

    /// GeoJSON polygons with holes (a Polygon and a MultiPolygon).
    @Test func geoJSONPolygonsWithHoles() {
        let clock = installUtilsClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 400, height: 300),
            camera: GMSCameraPosition(latitude: 0.0, longitude: 0.0, zoom: 9))
        let parser = GMUGeoJSONParser(
            data: Data(
                """
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [
                    [[-0.6, -0.3], [-0.1, -0.3], [-0.1, 0.3], [-0.6, 0.3], [-0.6, -0.3]],
                    [[-0.45, -0.15], [-0.25, -0.15], [-0.25, 0.15], [-0.45, 0.15], [-0.45, -0.15]]]}},
                  {"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [
                    [[[0.1, -0.3], [0.6, -0.3], [0.35, 0.35], [0.1, -0.3]],
                     [[0.3, -0.2], [0.4, -0.2], [0.35, 0.0], [0.3, -0.2]]]]}}
                ]}
                """.utf8))
        parser.parse()
        #expect(parser.error == nil && parser.features.count == 2)
        let renderer = GMUGeometryRenderer(map: map, geometries: parser.features)
        renderer.render()
        tickMap(map, clock, frames: 5)
        expectImage(
            map.renderFrame(scale: 1), matchesGolden: "geojson-polygons-holes", channelTolerance: 8,
            maxDifferingFraction: 0.003)
    }
}
