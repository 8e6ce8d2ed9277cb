import Foundation
import GoogleMaps
import LinuxUIKit

/// The window's content: a real `GMSMapView` showing the embedded basemap (or the style of `--style`), the markers of `--markers` (default: the
/// demo points of interest), the compass and my-location controls, and a my-location dot from `--location` (default:
/// a fixed position in central Helsinki). Tapping a marker opens its info window; tapping the info window prints
/// `map-viewer: info window <title>`; a long press drops a marker there, titled with the reverse-geocoded address.
@MainActor final class MapViewContent: NSObject, ViewerContent, GMSMapViewDelegate {
    let map: GMSMapView
    private let geocoder = GMSGeocoder()
    private var pendingGeocodes = 0

    var rootView: UIView { map }

    /// The fixed demo position used when `--location` is not given: Senate Square, 20 m accuracy.
    static let demoLocation = "fixed:60.1694,24.9522,20"

    /// - Parameter wake: thread-safe; wakes the host's event loop. The map makes its tiles on a worker thread and
    ///   calls it after each one (`GMSMapView._tileArrivalHandler`), so the host sleeps until then.
    init(options: ViewerOptions, size: CGSize, wake: @escaping @Sendable () -> Void) {
        // The map reads its location provider from WAYMARK_LOCATION (see LocationProviderSpec).
        let spec: String
        switch options.location {
        case .none: spec = Self.demoLocation
        case .gpsd: spec = "gpsd"
        case .gpx(let path): spec = "gpx:\(path)"
        case .fixed(let latitude, let longitude): spec = "fixed:\(latitude),\(longitude)"
        }
        setenv("WAYMARK_LOCATION", spec, 1)
        switch options.location {
        case .gpsd, .gpx: liveLocation = true
        case .none, .fixed: liveLocation = false
        }
        GMSMapView._basemapStyleFile = options.stylePath
        // MAP_VIEWER_SYNC_TILES=1 makes tiles inside the frame as tests do (for comparing frame times).
        let synchronous = ProcessInfo.processInfo.environment["MAP_VIEWER_SYNC_TILES"] == "1"
        GMSMapView._tileArrivalHandler = synchronous ? nil : wake
        let c = options.script != nil && options.camera == .helsinki ? ViewerScript.camera : options.camera
        map = GMSMapView(
            frame: CGRect(origin: .zero, size: size),
            camera: GMSCameraPosition(
                latitude: c.latitude, longitude: c.longitude, zoom: Float(c.zoom), bearing: c.bearing,
                viewingAngle: c.pitch))
        super.init()
        map.delegate = self
        map.settings.compassButton = true
        map.settings.myLocationButton = true
        map.isMyLocationEnabled = true
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
                let shapes = try GeoJSONShapes.shapes(fromFile: overlays)
                for shape in shapes { shape.map = map }
                viewerLog("map-viewer: \(shapes.count) shapes from \(overlays)")
            } catch { viewerLog("map-viewer: \(error)") }
        }
    }

    func tick() {
        // Geocoder answers arrive on the main queue; the SDL loop is not a run loop, so drain it here.
        if pendingGeocodes > 0 { _ = RunLoop.main.run(mode: .default, before: Date()) }
        map._tick()
    }

    /// Whether the location provider delivers fixes over time (GPX replay, gpsd); a fixed position does not.
    private let liveLocation: Bool

    /// The map's own needs, a pending geocode, or a live location provider (whose fixes are drained on the tick).
    /// At rest with a fixed position this is false and the host sleeps.
    var needsFrames: Bool { map._needsTick || pendingGeocodes > 0 || liveLocation }

    func resetNorth() {
        map.animate(toBearing: 0)
        map.animate(toViewingAngle: 0)
    }

    func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
        viewerLog("map-viewer: info window \(marker.title ?? "")")
    }

    func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D) {
        let marker = GMSMarker(position: coordinate)
        marker.title = String(format: "%.5f, %.5f", coordinate.latitude, coordinate.longitude)
        marker.map = mapView
        pendingGeocodes += 1
        geocoder.reverseGeocodeCoordinate(coordinate) { [weak self] response, _ in
            self?.pendingGeocodes -= 1
            guard let lines = response?.firstResult()?.lines, !lines.isEmpty else { return }
            marker.title = lines[0]
            marker.snippet = lines.count > 1 ? lines[1] : nil
            viewerLog("map-viewer: dropped marker \(lines.joined(separator: ", "))")
        }
    }
}
