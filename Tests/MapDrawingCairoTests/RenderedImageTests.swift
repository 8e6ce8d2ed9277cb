import MapDrawing
import MapDrawingCairo
import MapGeometry
import Testing

/// A 64 × 64 checkerboard of one-pixel black and white squares, opaque (BGRA bytes).
private func checkerboard() -> RasterImage {
    var pixels: [UInt8] = []
    for y in 0..<64 {
        for x in 0..<64 {
            let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
            pixels += [v, v, v, 255]
        }
    }
    return RasterImage(width: 64, height: 64, pixels: pixels)
}

/// A list that makes the checkerboard again on `backend` (an unrotated image at its own size is copied exactly),
/// marked as drawn minified or not.
private func checkerboardList(on backend: CairoBackend, drawnMinified: Bool) throws -> DisplayList {
    let board = try backend.register(checkerboard())
    var list = DisplayList(size: ScreenSize(width: 64, height: 64), scale: 1)
    list.append(.image(ImageCommand(image: board, rect: RenderRect(x: 0, y: 0, width: 64, height: 64))))
    list.drawnMinified = drawnMinified
    return list
}

/// Draws `image` 8× smaller (a box-filtered level) and at its own size, as `stronglyMinifiedImagesReadABoxFilteredLevel`
/// does, and returns the frame.
private func drawMinifiedAndFull(_ image: ImageHandle, on backend: CairoBackend) throws -> RasterImage {
    let small = RenderHomography(
        RenderTransform(a: 0.125, b: 0, c: 0, d: 0.125, tx: 4 + 1.0 / 16, ty: 4 + 1.0 / 16))
    // Pitched: the image's top edge much shorter than its bottom one (a perspective far edge).
    let trapezoid = try #require(
        RenderHomography(
            unitSquareTo: ScreenPoint(x: 30, y: 2), ScreenPoint(x: 40, y: 2), ScreenPoint(x: 76, y: 12),
            ScreenPoint(x: 14, y: 12)))
    let pitched = trapezoid.concatenating(after: RenderHomography(1.0 / 64, 0, 0, 0, 1.0 / 64, 0, 0, 0, 1))
    let full = RenderHomography(RenderTransform(a: 1, b: 0, c: 0, d: 1, tx: 14, ty: 14))
    var list = DisplayList(size: ScreenSize(width: 80, height: 80), scale: 1)
    for h in [small, pitched, full] {
        let command = try #require(ProjectedImageCommand(image: image, homography: h))
        list.append(.projectedImage(command))
    }
    return try backend.render(list)
}

/// Issue 17: an image a worker thread's backend renders is taken over by the frame's backend
/// (`RenderBackend.renderForTransfer` / `adopt`), with the box-filtered levels of an image drawn minified made on
/// the rendering thread and counted in the handle's bytes.
@Suite struct RenderedImageTests {
    /// Rendered on another thread by another backend and adopted: the frame draws exactly what it draws from a
    /// registered copy of the same pixels, whose levels it makes itself on the first minified draw.
    @Test func anAdoptedImageDrawsExactlyAsARegisteredCopy() async throws {
        let rendered = try await Task.detached { () throws -> RenderedImage in
            let worker = makeBackend()
            return try worker.renderForTransfer(try checkerboardList(on: worker, drawnMinified: true))
        }.value
        #expect(rendered.pixelWidth == 64 && rendered.pixelHeight == 64 && rendered.scale == 1)
        #expect(rendered.rasterImage() == checkerboard())

        let frame = makeBackend()
        let adopted = try frame.adopt(rendered)
        let registered = try frame.register(checkerboard())
        // The levels made with the adopted image: 32² + 16² + 8² + 4² + 2² + 1² texels of 4 bytes.
        #expect(adopted.byteCount == 64 * 64 * 4 + (1024 + 256 + 64 + 16 + 4 + 1) * 4)
        #expect(registered.byteCount == 64 * 64 * 4)
        let fromAdopted = try drawMinifiedAndFull(adopted, on: frame)
        let fromRegistered = try drawMinifiedAndFull(registered, on: frame)
        #expect(fromAdopted == fromRegistered)
        // The minified draw read a level (mean grey), not the squares.
        let i = (8 * 80 + 8) * 4
        #expect(abs(Int(fromAdopted.pixels[i]) - 128) <= 1, "\(fromAdopted.pixels[i..<i + 4])")
    }

    /// An image rendered in place (`renderImage`) makes its levels only when its list says it is drawn minified.
    @Test func renderImageMakesLevelsOnlyForImagesDrawnMinified() throws {
        let backend = makeBackend()
        let plain = try backend.renderImage(try checkerboardList(on: backend, drawnMinified: false))
        let minified = try backend.renderImage(try checkerboardList(on: backend, drawnMinified: true))
        #expect(plain.byteCount == 64 * 64 * 4)
        #expect(minified.byteCount > 64 * 64 * 4)
        #expect(try drawMinifiedAndFull(plain, on: backend) == drawMinifiedAndFull(minified, on: backend))
    }

    /// Plain pixels (what a backend of another kind hands over) are copied in, and a Cairo rendering adopted by a
    /// backend of another kind arrives as its pixels.
    @Test func foreignImagesCrossAsPixels() throws {
        let cairo = makeBackend()
        let fromPixels = try cairo.adopt(RenderedImage(checkerboard()))
        #expect(fromPixels.pixelWidth == 64 && fromPixels.byteCount == 64 * 64 * 4)
        let registered = try cairo.register(checkerboard())
        #expect(try drawMinifiedAndFull(fromPixels, on: cairo) == drawMinifiedAndFull(registered, on: cairo))

        let recording = RecordingBackend()
        let rendered = try cairo.renderForTransfer(try checkerboardList(on: cairo, drawnMinified: true))
        let handle = try recording.adopt(rendered)
        #expect(handle.pixelWidth == 64 && handle.pixelHeight == 64)
        #expect(recording.registered[handle.id] == handle)
        #expect(throws: RenderError.self) { try cairo.adopt(RenderedImage(RasterImage(width: 0, height: 0))) }
    }
}
