import Foundation
import MapDrawing
import MapGeometry

/// The shapes (polyline, polygon, circle): each describes what it draws as a ``ShapeSpec``; the shared
/// ``ShapeDrawing`` prepares and draws it. Property changes mark the spec stale and tell the map's overlay stage,
/// which re-indexes the shape before its next frame or hit test.
protocol ShapeOverlay: GMSOverlay, OverlayRenderable {
    /// The prepared geometry once made (see ``drawing``).
    var drawingStorage: ShapeDrawing? { get set }
    /// Whether ``drawing``'s spec is out of date.
    var specIsStale: Bool { get set }
    /// What the shape draws now.
    func makeSpec() -> ShapeSpec
}

@MainActor extension ShapeOverlay {
    /// The prepared geometry (its spec is current after ``currentDrawing()``), made on first use.
    var drawing: ShapeDrawing {
        if let drawingStorage { return drawingStorage }
        let made = ShapeDrawing()
        drawingStorage = made
        return made
    }

    /// The drawing with an up-to-date spec.
    func currentDrawing() -> ShapeDrawing {
        if specIsStale {
            specIsStale = false
            drawing.spec = makeSpec()
        }
        return drawing
    }

    var overlayZIndex: Int32 { zIndex }
    var overlayIsTappable: Bool { isTappable }
    var overlayBounds: OverlayBounds? { currentDrawing().bounds }
    var overlayIndexBoxes: [OverlayBounds] { currentDrawing().indexBoxes }
    var overlayReach: Double { currentDrawing().spec.strokeWidth / 2 }

    func appendDrawCommands(for frame: OverlayFrame, into commands: inout [DrawCommand]) {
        currentDrawing().appendDrawCommands(for: frame, into: &commands)
    }

    func overlayContains(_ point: ScreenPoint, slop: Double, frame: OverlayFrame) -> Bool {
        currentDrawing().contains(point, slop: slop, frame: frame)
    }
}
