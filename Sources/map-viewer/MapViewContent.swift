import Foundation
import GoogleMaps
import UIKit

/// The viewer's view controller: its view is a real `GMSMapView` (set in `loadView`, as the guides do) showing the
/// embedded basemap (or the style of `--style`), the markers of `--markers` (default: the demo points of interest),
/// the compass and my-location controls, and a my-location dot from `--location` (default: `WAYMARK_LOCATION`, else a
/// fixed position in central Helsinki). Tapping a marker opens its info window; tapping the info window prints
/// `map-viewer: info window <title>`; a long press drops a marker there, titled with the reverse-geocoded address.
/// Window resizes print `map-viewer: resized to WxH pt, scale S`.
@MainActor final class MapViewController: UIViewController, GMSMapViewDelegate {
    private let options: ViewerOptions
    private let geocoder = GMSGeocoder()
    /// Keeps frames coming while a live location provider (GPX replay, gpsd) delivers fixes over time.
    private var locationLink: CADisplayLink?

    /// The map (the root view once loaded).
    var map: GMSMapView { view as! GMSMapView }

    /// The fixed demo position used when neither `--location` nor `WAYMARK_LOCATION` is given: Senate Square, 20 m
    /// accuracy.
    static let demoLocation = "fixed:60.1694,24.9522,20"

    init(options: ViewerOptions) {
        self.options = options
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        options = ViewerOptions()
        super.init(coder: coder)
    }

    override func loadView() {
        let spec: String
        switch options.location {
        case .none:
            // As an app would see it: the device location `WAYMARK_LOCATION` names, else the demo position.
            let environment = ProcessInfo.processInfo.environment["WAYMARK_LOCATION"] ?? ""
            spec = environment.isEmpty ? Self.demoLocation : environment
        case .gpsd: spec = "gpsd"
        case .gpx(let path): spec = "gpx:\(path)"
        case .fixed(let latitude, let longitude): spec = "fixed:\(latitude),\(longitude)"
        }
        // MAP_VIEWER_SYNC_TILES=1 makes tiles inside the frame as tests do (for comparing frame times).
        GMSMapView.synchronousTiles = ProcessInfo.processInfo.environment["MAP_VIEWER_SYNC_TILES"] == "1"
        let c = options.script != nil && options.camera == .helsinki ? ViewerScript.camera : options.camera
        let mapOptions = GMSMapViewOptions()
        mapOptions.frame = UIScreen.main.bounds
        mapOptions.camera = GMSCameraPosition(
            latitude: c.latitude, longitude: c.longitude, zoom: Float(c.zoom), bearing: c.bearing,
            viewingAngle: c.pitch)
        mapOptions.mapLibreStyle =
            options.stylePath.map { path in
                path.hasPrefix("http://") || path.hasPrefix("https://")
                    ? URL(string: path).map { .url($0) } ?? .file(path)
                    : .file(path)
            } ?? .bundled
        let map = GMSMapView(options: mapOptions)
        if let path = options.mapStylePath {
            do {
                map.mapStyle = try GMSMapStyle(contentsOfFileURL: URL(fileURLWithPath: path))
            } catch {
                viewerError("--map-style \(path): \(error)")
            }
        }
        map.delegate = self
        map.settings.compassButton = true
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
        do {
            try map.setLocationProvider(WaymarkLocationProvider(parsing: spec))
        } catch {
            viewerError("\(error)")
        }
        if spec.hasPrefix("gpsd") || spec.hasPrefix("gpx:") {
            let link = CADisplayLink { _ in }
            link.add(to: .main, forMode: .common)
            locationLink = link
        }
        let path = options.markersPath ?? defaultMarkersPath() ?? ""
        var entries = (try? MarkerFile.load(path: path))?.entries ?? []
        var source = "from \(path)"
        if options.script != nil {
            let loaded = entries.count
            entries = ViewerScript.demoMarkers(existing: entries, count: ViewerScript.markerCount)
            source = "(\(loaded) from \(path), \(entries.count - loaded) generated for the script)"
        }
        for e in entries {
            let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: e.latitude, longitude: e.longitude))
            marker.title = e.title
            marker.snippet = e.snippet
            marker.map = map
        }
        viewerLog("map-viewer: \(entries.count) markers \(source); my location \(spec)")
        if let overlays = options.overlaysPath {
            do {
                var warnings: [String] = []
                let shapes = try GeoJSONShapes.shapes(fromFile: overlays, warnings: &warnings)
                for warning in warnings { viewerLog("map-viewer: warning: \(warning)") }
                for shape in shapes { shape.map = map }
                viewerLog("map-viewer: \(shapes.count) shapes from \(overlays)")
            } catch { viewerLog("map-viewer: \(error)") }
        }
        view = map
    }

    override func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {
        logResize(to: size)
    }

    func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
        viewerLog("map-viewer: info window \(marker.title ?? "")")
    }

    func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D) {
        let marker = GMSMarker(position: coordinate)
        marker.title = String(format: "%.5f, %.5f", coordinate.latitude, coordinate.longitude)
        marker.map = mapView
        geocoder.reverseGeocodeCoordinate(coordinate) { response, _ in
            guard let lines = response?.firstResult()?.lines, !lines.isEmpty else { return }
            marker.title = lines[0]
            marker.snippet = lines.count > 1 ? lines[1] : nil
            viewerLog("map-viewer: dropped marker \(lines.joined(separator: ", "))")
        }
    }
}
