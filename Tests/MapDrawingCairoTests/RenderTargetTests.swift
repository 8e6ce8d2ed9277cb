import MapDrawing
import MapDrawingCairo
import MapGeometry
import Testing

/// A drawing target no Cairo backend knows (another library's surface, as far as the backend can tell).
private final class ForeignTarget: RenderTarget {
    var pixelWidth: Int { 8 }
    var pixelHeight: Int { 8 }
    var currentTransform: RenderTransform { .identity }
    var clipBounds: RenderRect { RenderRect(x: 0, y: 0, width: 8, height: 8) }
    var userSpace: RenderTargetUserSpace { .devicePixels }
}

/// A 10 × 6 pt list at scale 2: a transparent clear, then an opaque red square from (2, 1) to (6, 5) pt.
private func squareList() -> DisplayList {
    var path = RenderPath()
    path.addRect(RenderRect(x: 2, y: 1, width: 4, height: 4))
    var list = DisplayList(size: ScreenSize(width: 10, height: 6), scale: 2)
    list.append(.fill(FillCommand(path: path, color: RGBAColor(rgb: 0xFF0000), antialias: false)))
    return list
}

/// ``RenderBackend/draw(_:into:)`` on CairoGraphics' canvas, the map view's target (issue 17).
@Suite struct RenderTargetTests {
    /// A target the backend cannot draw into throws ``RenderError/unsupportedTarget(_:)`` naming it, through the
    /// protocol, instead of crashing or drawing somewhere else.
    @Test func drawingIntoAForeignTargetThrows() {
        let backend: any RenderBackend = makeBackend()
        #expect {
            try backend.draw(squareList(), into: ForeignTarget())
        } throws: { error in
            guard case .unsupportedTarget(let message) = error as? RenderError else { return false }
            return message.contains("ForeignTarget")
        }
    }

    /// A canvas over a surface (user space = device pixels) gets the list scaled by its scale: the same pixels as
    /// ``RenderBackend/render(_:)``. A canvas whose host already scaled it to points (as a view's context is) gets
    /// the same pixels without a second scale.
    @Test func canvasInDevicePixelsAndInPointsDrawTheRenderedPixels() throws {
        let backend = makeBackend()
        let list = squareList()
        let rendered = try backend.render(list)
        #expect(rendered.premultipliedRGBA(x: 4, y: 2)! == (255, 0, 0, 255))

        let pixelSurface = try CairoSurface(width: 20, height: 12)
        let pixelCanvas = CairoCanvas(surface: pixelSurface)
        #expect(pixelCanvas.userSpace == .devicePixels)
        try backend.draw(list, into: pixelCanvas)
        #expect(pixelSurface.rasterImage(scale: 2).pixels == rendered.pixels)

        let pointSurface = try CairoSurface(width: 20, height: 12)
        let pointCanvas = CairoCanvas(surface: pointSurface)
        pointCanvas.scale(by: 2, 2)
        pointCanvas.userSpaceIsPoints = true
        #expect(pointCanvas.userSpace == .points)
        try backend.draw(list, into: pointCanvas)
        #expect(pointSurface.rasterImage(scale: 2).pixels == rendered.pixels)
        // The host's transform is the canvas's after the draw, as before it.
        #expect(pointCanvas.currentTransform == RenderTransform.scale(x: 2, y: 2))
    }

    /// The canvas describes itself as a host's context would: its surface's pixel size, the current transform and
    /// the clip's bounds in user space.
    @Test func canvasDescribesItsSurfaceTransformAndClip() throws {
        let canvas = CairoCanvas(surface: try CairoSurface(width: 30, height: 20))
        #expect(canvas.pixelWidth == 30 && canvas.pixelHeight == 20)
        #expect(canvas.currentTransform == .identity)
        #expect(canvas.clipBounds == RenderRect(x: 0, y: 0, width: 30, height: 20))
        canvas.scale(by: 2, 2)
        #expect(canvas.currentTransform == RenderTransform.scale(x: 2, y: 2))
        #expect(canvas.clipBounds == RenderRect(x: 0, y: 0, width: 15, height: 10))
    }
}
