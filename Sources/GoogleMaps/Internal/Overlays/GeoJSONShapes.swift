import Foundation
import LinuxUIKit
import MapDrawing
import MapGeometry
import MapJSON

/// Waymark's own: shapes from a GeoJSON file for the hosts (`waymark snapshot --overlays`, `map-viewer --overlays`,
/// the demo). LineString and MultiLineString geometries become ``GMSPolyline``s, Polygon and MultiPolygon
/// geometries ``GMSPolygon``s (the first ring the outline, the others holes); other geometries are skipped.
/// Styling follows the simplestyle-spec 1.1.0 properties `stroke` (#rgb or #rrggbb, default #555555),
/// `stroke-width` (points, default 2), `stroke-opacity` (default 1), `fill` (default #555555) and `fill-opacity`
/// (default 0.6).
package enum GeoJSONShapes {
    /// Why a file gave no shapes; the message names the file and the place.
    package struct LoadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The shapes of the GeoJSON file at `path`, in file order.
    /// - Throws: ``LoadError`` when the file cannot be read, is not JSON, is not GeoJSON, or a line or polygon has
    ///   coordinates that are not numbers or lie outside ±360° longitude and ±90° latitude (`1e308`, `Infinity`).
    @MainActor package static func shapes(fromFile path: String) throws -> [GMSOverlay] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read overlays file '\(path)'")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: [UInt8](data)) } catch {
            throw LoadError(description: "overlays file '\(path)' is not JSON: \(error)")
        }
        return try shapes(from: json, source: path)
    }

    /// The shapes of a parsed GeoJSON document; `source` names it in errors.
    @MainActor package static func shapes(from json: JSONValue, source: String) throws -> [GMSOverlay] {
        var out: [GMSOverlay] = []
        func fail(_ what: String) -> LoadError { LoadError(description: "overlays file '\(source)': \(what)") }
        func ring(_ v: JSONValue?, _ place: String) throws -> GMSMutablePath {
            guard let points = v?.arrayValue else { throw fail("\(place): coordinates are not an array") }
            let path = GMSMutablePath()
            for (i, p) in points.enumerated() {
                guard let c = p.arrayValue, c.count >= 2, let lon = c[0].numberValue, let lat = c[1].numberValue
                else { throw fail("\(place): position \(i) is not [longitude, latitude]") }
                guard lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 360 else {
                    throw fail("\(place): position \(i) [\(lon), \(lat)] is outside ±360° longitude, ±90° latitude")
                }
                path.addLatitude(lat, longitude: lon)
            }
            return path
        }
        func polygon(_ v: JSONValue?, _ style: Style, _ place: String) throws -> GMSPolygon {
            guard let rings = v?.arrayValue, let first = rings.first else {
                throw fail("\(place): polygon without rings")
            }
            let polygon = style.polygon(try ring(first, "\(place) ring 0"))
            polygon.holes = try rings.dropFirst().enumerated().map {
                try ring($0.element, "\(place) ring \($0.offset + 1)")
            }
            return polygon
        }
        func geometry(_ g: JSONValue, properties: JSONValue?, place: String) throws {
            let style = Style(properties)
            switch g["type"]?.stringValue {
            case "LineString":
                out.append(style.polyline(try ring(g["coordinates"], place)))
            case "MultiLineString":
                for (i, line) in (g["coordinates"]?.arrayValue ?? []).enumerated() {
                    out.append(style.polyline(try ring(line, "\(place) line \(i)")))
                }
            case "Polygon":
                out.append(try polygon(g["coordinates"], style, place))
            case "MultiPolygon":
                for (i, p) in (g["coordinates"]?.arrayValue ?? []).enumerated() {
                    out.append(try polygon(p, style, "\(place) polygon \(i)"))
                }
            case "GeometryCollection":
                for (i, child) in (g["geometries"]?.arrayValue ?? []).enumerated() {
                    try geometry(child, properties: properties, place: "\(place) geometry \(i)")
                }
            case "Point", "MultiPoint": break
            case let other: throw fail("\(place): unknown geometry type '\(other ?? "none")'")
            }
        }
        switch json["type"]?.stringValue {
        case "FeatureCollection":
            guard let features = json["features"]?.arrayValue else { throw fail("FeatureCollection without features") }
            for (i, f) in features.enumerated() {
                guard let g = f["geometry"] else { continue }
                if case .null = g { continue }
                try geometry(g, properties: f["properties"], place: "feature \(i)")
            }
        case "Feature":
            if let g = json["geometry"] { try geometry(g, properties: json["properties"], place: "feature") }
        case .some:
            try geometry(json, properties: nil, place: "geometry")
        case nil:
            throw fail("not a GeoJSON object (no \"type\")")
        }
        return out
    }

    /// simplestyle-spec properties of one feature.
    private struct Style {
        var stroke = UIColor(red: 0x55 / 255.0, green: 0x55 / 255.0, blue: 0x55 / 255.0, alpha: 1)
        var strokeWidth: CGFloat = 2
        var fill = UIColor(red: 0x55 / 255.0, green: 0x55 / 255.0, blue: 0x55 / 255.0, alpha: 0.6)

        init(_ properties: JSONValue?) {
            let strokeOpacity = properties?["stroke-opacity"]?.numberValue ?? 1
            let fillOpacity = properties?["fill-opacity"]?.numberValue ?? 0.6
            if let c = properties?["stroke"]?.stringValue.flatMap(Self.rgb) { stroke = c }
            stroke = stroke.withAlphaComponent(CGFloat(min(max(strokeOpacity, 0), 1)))
            if let w = properties?["stroke-width"]?.numberValue, w.isFinite, w >= 0 { strokeWidth = CGFloat(w) }
            if let c = properties?["fill"]?.stringValue.flatMap(Self.rgb) { fill = c }
            fill = fill.withAlphaComponent(CGFloat(min(max(fillOpacity, 0), 1)))
        }

        /// `#rgb` or `#rrggbb` (the `#` optional), or nil.
        static func rgb(_ text: String) -> UIColor? {
            var hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
            if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
            return UIColor(
                red: CGFloat((v >> 16) & 0xFF) / 255, green: CGFloat((v >> 8) & 0xFF) / 255,
                blue: CGFloat(v & 0xFF) / 255, alpha: 1)
        }

        @MainActor func polyline(_ path: GMSPath) -> GMSPolyline {
            let line = GMSPolyline(path: path)
            line.strokeColor = stroke
            line.strokeWidth = strokeWidth
            return line
        }

        @MainActor func polygon(_ path: GMSPath) -> GMSPolygon {
            let polygon = GMSPolygon(path: path)
            polygon.fillColor = fill
            polygon.strokeColor = strokeWidth > 0 ? stroke : nil
            polygon.strokeWidth = strokeWidth
            return polygon
        }
    }
}

/// Waymark's own: the draw commands of `overlays` for a camera, as a map's overlay stage would draw them (bottom to
/// top by zIndex, then order). For hosts that draw with their own backend (`waymark snapshot`): shapes only —
/// ground overlay images are registered with a private backend and are left out.
@MainActor package func GMSOverlayDrawCommands(_ overlays: [GMSOverlay], camera: CameraState, scale: Double)
    -> [DrawCommand]
{
    let stage = OverlayStage()
    for overlay in overlays where !(overlay is GMSGroundOverlay) {
        stage.add(overlay, renderable: overlay as? any OverlayRenderable)
    }
    return stage.displayList(camera: camera, scale: scale).commands
}
