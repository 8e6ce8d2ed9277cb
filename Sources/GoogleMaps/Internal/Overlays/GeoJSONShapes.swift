import Foundation
import LinuxUIKit
import MapData
import MapDrawing
import MapGeometry
import MapJSON

/// Waymark's own: shapes from a GeoJSON file for the hosts (`waymark snapshot --overlays`, `map-viewer --overlays`,
/// the demo), read by `MapData`'s ``OverlayGeoJSON``. LineString and MultiLineString geometries become
/// ``GMSPolyline``s, Polygon and MultiPolygon geometries ``GMSPolygon``s (the first ring the outline, the others
/// holes); other geometries are skipped.
/// Styling follows the simplestyle-spec 1.1.0 properties `stroke` (#rgb or #rrggbb, default #555555),
/// `stroke-width` (points, 0…100, default 2), `stroke-opacity` (default 1), `fill` (default #555555) and
/// `fill-opacity` (default 0.6); a value that cannot be used is replaced (the default, or clamped) and named in a
/// warning (``OverlayGeoJSON/ShapeStyle``).
package enum GeoJSONShapes {
    /// Why a file gave no shapes; the message names the file and the place.
    package struct LoadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The shapes of the GeoJSON file at `path`, in file order; style values replaced are not reported (see
    /// ``shapes(fromFile:warnings:)``).
    /// - Throws: ``LoadError`` when the file cannot be read, is not JSON, is not GeoJSON, or a line or polygon has
    ///   coordinates that are not numbers or lie outside ±360° longitude and ±90° latitude (`1e308`, `Infinity`).
    @MainActor package static func shapes(fromFile path: String) throws -> [GMSOverlay] {
        var ignored: [String] = []
        return try shapes(fromFile: path, warnings: &ignored)
    }

    /// The shapes of the GeoJSON file at `path`, in file order, appending to `warnings` one line for each style
    /// property replaced or clamped, naming the file, the feature and the property (`overlays file 'x.geojson':
    /// feature 2: "fill" "notacolor" is not a #rgb or #rrggbb colour; drawn in the default #555555`).
    /// - Throws: ``LoadError``, as ``shapes(fromFile:)``.
    @MainActor package static func shapes(fromFile path: String, warnings: inout [String]) throws -> [GMSOverlay] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read overlays file '\(path)'")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: [UInt8](data)) } catch {
            throw LoadError(description: "overlays file '\(path)' is not JSON: \(error)")
        }
        return try shapes(from: json, source: path, warnings: &warnings)
    }

    /// The shapes of a parsed GeoJSON document (read by `MapData`'s ``OverlayGeoJSON``), appending style warnings
    /// that name `source` to `warnings`; `source` names it in errors too.
    @MainActor package static func shapes(from json: JSONValue, source: String, warnings: inout [String]) throws
        -> [GMSOverlay]
    {
        let shapes: [OverlayGeoJSON.Shape]
        var read: [String] = []
        do { shapes = try OverlayGeoJSON.shapes(from: json, warnings: &read) } catch {
            throw LoadError(description: "overlays file '\(source)': \(error)")
        }
        warnings += read.map { "overlays file '\(source)': \($0)" }
        return shapes.map { shape -> GMSOverlay in
            switch shape {
            case .line(let positions, let style):
                let line = GMSPolyline(path: path(positions))
                line.strokeColor = color(style.stroke, style.strokeOpacity)
                line.strokeWidth = CGFloat(style.strokeWidth)
                return line
            case .polygon(let rings, let style):
                let polygon = GMSPolygon(path: path(rings[0]))
                polygon.holes = rings.dropFirst().map(path)
                polygon.fillColor = color(style.fill, style.fillOpacity)
                polygon.strokeColor = style.strokeWidth > 0 ? color(style.stroke, style.strokeOpacity) : nil
                polygon.strokeWidth = CGFloat(style.strokeWidth)
                return polygon
            }
        }
    }

    private static func path(_ positions: [GeoJSONPosition]) -> GMSMutablePath {
        let path = GMSMutablePath()
        for p in positions { path.addLatitude(p.latitude, longitude: p.longitude) }
        return path
    }

    private static func color(_ rgb: UInt32, _ alpha: Double) -> UIColor {
        UIColor(
            red: CGFloat((rgb >> 16) & 0xFF) / 255, green: CGFloat((rgb >> 8) & 0xFF) / 255,
            blue: CGFloat(rgb & 0xFF) / 255, alpha: CGFloat(alpha))
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
