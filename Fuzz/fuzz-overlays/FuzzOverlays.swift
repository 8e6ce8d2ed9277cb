import MapGeometry
import MapJSON

#if !FUZZ_SINGLE_MODULE
    import MapData
#endif

/// The cameras the read positions are projected with (as `waymark snapshot` places markers and shapes): flat, and
/// tilted and turned so some positions fall behind the camera.
private let cameras = [
    CameraState(center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 11),
    CameraState(center: LatLng(latitude: -33.9, longitude: 151.2), zoom: 3, bearing: 200, pitch: 60),
]

/// libFuzzer entry point: reads `data` as the GeoJSON of `waymark snapshot --overlays` and `--markers`
/// (`OverlayGeoJSON`, in `MapData`) and projects what it gives for two cameras. It must never crash, trap, hang or
/// allocate without bound, and what it accepts must keep the documented rules (docs/BEHAVIOUR.md D22): positions
/// finite within ±90° latitude and ±360° longitude, polygons with a ring, styles within their ranges; a broken rule
/// traps, which libFuzzer reports as a crash. Build and run with `scripts/fuzz/fuzz-overlays.sh [SECONDS]`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOverlays(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let json = try? JSONValue.parse(bytes: Array(UnsafeBufferPointer(start: data, count: size))) else {
        return 0
    }
    var positions: [GeoJSONPosition] = []
    if let shapes = try? OverlayGeoJSON.shapes(from: json) {
        for shape in shapes {
            switch shape {
            case .line(let line, let style):
                check(style)
                positions += line
            case .polygon(let rings, let style):
                precondition(!rings.isEmpty, "a polygon without rings was accepted")
                check(style)
                for ring in rings { positions += ring }
            }
        }
    }
    if let points = try? OverlayGeoJSON.points(from: json) {
        precondition(json["type"]?.stringValue == "FeatureCollection", "markers outside a FeatureCollection")
        positions += points
    }
    for p in positions {
        precondition(
            p.latitude.isFinite && p.longitude.isFinite && abs(p.latitude) <= 90 && abs(p.longitude) <= 360,
            "position \(p) was accepted")
        let latLng = LatLng(latitude: p.latitude, longitude: p.longitude)
        for camera in cameras where camera.transform.depth(of: WebMercator.worldPoint(latLng)) > 0 {
            let s = camera.transform.screenPoint(for: latLng)
            precondition(!s.x.isNaN && !s.y.isNaN, "position \(p) projects to NaN")
        }
    }
    return 0
}

private func check(_ style: OverlayGeoJSON.ShapeStyle) {
    precondition(style.stroke <= 0xFF_FFFF && style.fill <= 0xFF_FFFF, "colour out of range")
    precondition((0...1).contains(style.strokeOpacity) && (0...1).contains(style.fillOpacity), "opacity out of 0…1")
    precondition(style.strokeWidth.isFinite && style.strokeWidth >= 0, "stroke width \(style.strokeWidth)")
}
