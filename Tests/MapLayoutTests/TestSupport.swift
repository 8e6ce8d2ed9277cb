import MapDrawing
import MapGeometry
import MapLayout

/// A 400 × 300 view at zoom 4 over (0, 0), looking straight down unless changed.
func testCamera(bearing: Double = 0, pitch: Double = 0, padding: EdgeInsets = .zero) -> CameraState {
    CameraState(
        center: LatLng(latitude: 0, longitude: 0), zoom: 4, bearing: bearing, pitch: pitch,
        size: ScreenSize(width: 400, height: 300), padding: padding)
}

/// The world point under a screen point of `camera` (exact inverse of the camera's projection).
func world(_ x: Double, _ y: Double, _ camera: CameraState = testCamera()) -> WorldPoint {
    camera.worldPoint(for: ScreenPoint(x: x, y: y))!
}

/// 10-point text with no halo; `FixedAdvanceTextMeasurer` makes each character 6 × 12 points (baseline at 8).
let tenPoint = TextStyle(size: 10)

/// A point label at screen `(x, y)` of `camera`.
func pointLabel(
    _ text: String, at x: Double, _ y: Double, camera: CameraState = testCamera(), layer: String = "poi",
    padding: Double = 0, sortKey: Double? = nil, layerIndex: Int = 0, sourceOrder: Int = 0
) -> SymbolFeature {
    SymbolFeature(
        identity: SymbolIdentity(layer: layer, text: text), geometry: .point(world(x, y, camera)), text: text,
        textStyle: tenPoint, textPadding: padding, sortKey: sortKey, layerIndex: layerIndex, sourceOrder: sourceOrder)
}

/// The texts of the placed point labels, in placement order.
func placedTexts(_ result: PlacementResult) -> [String] {
    result.symbols.compactMap {
        if case .text(let t)? = $0.text { return t.text }
        if case .lineText(let l)? = $0.text { return l.glyphs.map(\.text).joined() }
        return nil
    }
}

/// `|a − b| ≤ 1e-6`.
func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }
