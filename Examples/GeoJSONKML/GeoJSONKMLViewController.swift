import GoogleMaps
import GoogleMapsUtils
import UIKit

/// Renders a KML document (shared styles, a StyleMap, a polygon with fill and outline, a styled line, a ground
/// overlay) and a GeoJSON document (polygons with holes) over Zürich, as the guides do: parse, then
/// `GMUGeometryRenderer(map:geometries:styles:styleMaps:)` and `render()`. A file of the user's (`--kml` /
/// `--geojson`) may be anywhere: the camera is fitted to what it drew (`GMSCameraUpdate.fit(_:withPadding:)`).
final class GeoJSONKMLViewController: UIViewController {
    var mapView: GMSMapView!
    private(set) var kmlRenderer: GMUGeometryRenderer?
    private(set) var geoJSONRenderer: GMUGeometryRenderer?
    /// Problems met while reading the documents, printed as an app would log them.
    private(set) var problems: [String] = []
    private let kmlPath: String?
    private let geoJSONPath: String?

    init(kmlPath: String? = nil, geoJSONPath: String? = nil) {
        self.kmlPath = kmlPath
        self.geoJSONPath = geoJSONPath
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        kmlPath = nil
        geoJSONPath = nil
        super.init(coder: coder)
    }

    override func loadView() {
        let camera = GMSCameraPosition.camera(withLatitude: 47.372, longitude: 8.535, zoom: 13)
        mapView = GMSMapView(frame: .zero, camera: camera)
        view = mapView

        let kmlParser =
            kmlPath.map { GMUKMLParser(url: URL(fileURLWithPath: $0)) }
            ?? GMUKMLParser(data: Data(Self.kml(overlayImage: Self.writeOverlayImage()).utf8))
        kmlParser.parse()
        if let error = kmlParser.error { report("\(error)") }
        let kml = GMUGeometryRenderer(
            map: mapView, geometries: kmlParser.placemarks, styles: kmlParser.styles, styleMaps: kmlParser.styleMaps)
        kml.render()
        kmlRenderer = kml

        let geoJSONParser =
            geoJSONPath.map { GMUGeoJSONParser(url: URL(fileURLWithPath: $0)) }
            ?? GMUGeoJSONParser(data: Data(Self.geoJSON.utf8))
        geoJSONParser.parse()
        if let error = geoJSONParser.error { report("\(error)") }
        let geo = GMUGeometryRenderer(map: mapView, geometries: geoJSONParser.features)
        geo.render()
        geoJSONRenderer = geo

        // A file of the user's may be anywhere: show what it drew (the built-in documents keep the Zürich view).
        var fileOverlays: [GMSOverlay] = []
        if kmlPath != nil { fileOverlays += kml.mapOverlays() }
        if geoJSONPath != nil { fileOverlays += geo.mapOverlays() }
        let bounds = Self.bounds(of: fileOverlays)
        fileBounds = bounds.isValid ? bounds : nil
    }

    /// The bounds of the overlays drawn from the user's files, or nil (none given, or nothing drawn): the camera is
    /// fitted to them once the map has its size.
    private(set) var fileBounds: GMSCoordinateBounds?
    private var fittedToFile = false

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        guard !fittedToFile, let bounds = fileBounds, mapView.bounds.width > 0, mapView.bounds.height > 0 else {
            return
        }
        fittedToFile = true
        mapView.moveCamera(GMSCameraUpdate.fit(bounds, withPadding: 40))
    }

    /// The bounds covering markers, polylines, polygons and ground overlays, as an app computes them.
    static func bounds(of overlays: [GMSOverlay]) -> GMSCoordinateBounds {
        var bounds = GMSCoordinateBounds()
        for overlay in overlays {
            switch overlay {
            case let marker as GMSMarker: bounds = bounds.includingCoordinate(marker.position)
            case let line as GMSPolyline: if let path = line.path { bounds = bounds.includingPath(path) }
            case let polygon as GMSPolygon: if let path = polygon.path { bounds = bounds.includingPath(path) }
            case let ground as GMSGroundOverlay: if let b = ground.bounds { bounds = bounds.includingBounds(b) }
            default: break
            }
        }
        return bounds
    }

    private func report(_ message: String) {
        problems.append(message)
        print("Could not read: \(message)")
    }

    /// A small striped image for the ground overlay, written to the temporary folder (apps ship theirs).
    static func writeOverlayImage() -> String {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 64, height: 64)).image { context in
            let cg = context.cgContext
            for i in 0..<8 {
                cg.setFillColor((i % 2 == 0 ? UIColor.orange : UIColor.purple).cgColor)
                cg.fill(CGRect(x: 0, y: CGFloat(i) * 8, width: 64, height: 8))
            }
        }
        let path = NSTemporaryDirectory() + "waymark-geojson-kml-overlay.png"
        try? image.pngData()?.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The KML document: colours are aabbggrr.
    static func kml(overlayImage: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
          <Style id="lake"><LineStyle><color>ffb06000</color><width>3</width></LineStyle>
            <PolyStyle><color>80f0b040</color><fill>1</fill><outline>1</outline></PolyStyle></Style>
          <Style id="route-normal"><LineStyle><color>ff0000e0</color><width>6</width></LineStyle></Style>
          <Style id="route-highlight"><LineStyle><color>ff00e0e0</color><width>9</width></LineStyle></Style>
          <StyleMap id="route"><Pair><key>normal</key><styleUrl>#route-normal</styleUrl></Pair>
            <Pair><key>highlight</key><styleUrl>#route-highlight</styleUrl></Pair></StyleMap>
          <Style id="outline-only"><LineStyle><color>ff008000</color><width>4</width></LineStyle>
            <PolyStyle><color>ff00ff00</color><fill>0</fill></PolyStyle></Style>
          <Placemark><name>Lake basin</name><styleUrl>#lake</styleUrl>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>
              8.540,47.362 8.560,47.350 8.575,47.356 8.555,47.368 8.540,47.362
            </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
          <Placemark><name>Tram route</name><styleUrl>#route</styleUrl>
            <LineString><coordinates>8.515,47.378 8.530,47.374 8.540,47.377 8.548,47.370 8.560,47.372</coordinates>
            </LineString></Placemark>
          <Placemark><name>Park</name><styleUrl>#outline-only</styleUrl>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>
              8.505,47.362 8.520,47.362 8.520,47.370 8.505,47.370 8.505,47.362
            </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
          <Placemark><name>Hauptbahnhof</name><Point><coordinates>8.5402,47.3779,0</coordinates></Point></Placemark>
          <GroundOverlay><name>Old town plan</name><drawOrder>2</drawOrder>
            <Icon><href>\(overlayImage)</href></Icon>
            <LatLonBox><north>47.3760</north><south>47.3680</south><east>8.5480</east><west>8.5380</west>
              <rotation>0</rotation></LatLonBox></GroundOverlay>
        </Document></kml>
        """
    }

    /// The GeoJSON document: two polygons with holes (one a MultiPolygon) and a point.
    static let geoJSON = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "block", "properties": {"name": "Block with courtyard"},
           "geometry": {"type": "Polygon", "coordinates": [
             [[8.555, 47.380], [8.575, 47.380], [8.575, 47.392], [8.555, 47.392], [8.555, 47.380]],
             [[8.560, 47.384], [8.570, 47.384], [8.570, 47.389], [8.560, 47.389], [8.560, 47.384]]]}},
          {"type": "Feature", "id": "islands", "properties": {"name": "Two rings"},
           "geometry": {"type": "MultiPolygon", "coordinates": [
             [[[8.500, 47.380], [8.520, 47.380], [8.520, 47.392], [8.500, 47.392], [8.500, 47.380]],
              [[8.505, 47.383], [8.515, 47.383], [8.515, 47.389], [8.505, 47.389], [8.505, 47.383]]],
             [[[8.525, 47.385], [8.535, 47.385], [8.530, 47.392], [8.525, 47.385]]]]}},
          {"type": "Feature", "properties": {"name": "Lindenhof"},
           "geometry": {"type": "Point", "coordinates": [8.5412, 47.3727]}}
        ]}
        """
}
