import MapDrawing
import MapDrawingCairo
import MapGeometry
import Testing

/// ``RenderBackend/writeImage(_:width:height:scale:_:)``: an image the engine rewrites in place every frame (the
/// 3D-buildings layer's), in Cairo and in the default every other backend gets.
@Suite struct WritableImageTests {
    /// The BGRA bytes of pixel `(x, y)` of the image `write` is given.
    private func bytes(_ base: UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int, _ x: Int, _ y: Int) -> [UInt8] {
        (0..<4).map { base[y * bytesPerRow + x * 4 + $0] }
    }

    private func set(_ base: UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int, _ x: Int, _ y: Int, _ bgra: [UInt8]) {
        for (k, v) in bgra.enumerated() { base[y * bytesPerRow + x * 4 + k] = v }
    }

    /// `handle` drawn at its own size on a frame of that size.
    private func drawn(_ handle: ImageHandle, on backend: CairoBackend) throws -> RasterImage {
        var list = DisplayList(size: handle.pointSize, scale: handle.scale)
        list.append(
            .image(
                ImageCommand(
                    image: handle,
                    rect: RenderRect(x: 0, y: 0, width: handle.pointSize.width, height: handle.pointSize.height))))
        return try backend.render(list)
    }

    private let red: [UInt8] = [0, 0, 255, 255]
    private let blue: [UInt8] = [255, 0, 0, 255]

    @Test func cairoRewritesTheSameImageInPlaceWhileItsSizeStays() throws {
        let backend = CairoBackend()
        let first = try backend.writeImage(nil, width: 4, height: 2, scale: 2) { base, step in
            #expect(step >= 16)
            #expect(bytes(base, step, 1, 0) == [0, 0, 0, 0])
            set(base, step, 1, 0, red)
        }
        #expect(first.pixelWidth == 4 && first.pixelHeight == 2 && first.scale == 2)
        #expect(Array(try drawn(first, on: backend).pixels[4..<8]) == red)
        // Written again: the same image, holding what the last write left.
        var seen: [UInt8] = []
        let second = try backend.writeImage(first, width: 4, height: 2, scale: 2) { base, step in
            seen = bytes(base, step, 1, 0)
            set(base, step, 2, 1, blue)
        }
        #expect(second == first)
        #expect(seen == red)
        #expect(backend.registeredImageCount == 1)
        let frame = try drawn(second, on: backend)
        #expect(Array(frame.pixels[4..<8]) == red)
        #expect(Array(frame.pixels[(4 + 2) * 4..<(4 + 3) * 4]) == blue)
        // Another size: a new transparent image, the old one unregistered.
        let third = try backend.writeImage(second, width: 3, height: 2, scale: 2) { base, step in
            seen = bytes(base, step, 1, 0)
        }
        #expect(third.id != second.id && third.pixelWidth == 3)
        #expect(seen == [0, 0, 0, 0])
        #expect(backend.registeredImageCount == 1)
    }

    @Test func anEmptyImageIsRejectedAndTheOldOneKept() throws {
        let backend = CairoBackend()
        let image = try backend.writeImage(nil, width: 2, height: 2, scale: 1) { _, _ in }
        var called = false
        #expect(throws: RenderError.invalidSize(width: 0, height: 2)) {
            _ = try backend.writeImage(image, width: 0, height: 2, scale: 1) { _, _ in called = true }
        }
        #expect(!called)
        #expect(backend.registeredImageCount == 1)
        let again = try backend.writeImage(image, width: 2, height: 2, scale: 1) { _, _ in }
        #expect(again == image)
    }

    @Test func theDefaultRegistersANewTransparentImageEachTime() throws {
        let backend = RecordingBackend()
        var rows: [Int] = []
        let first = try backend.writeImage(nil, width: 5, height: 3, scale: 1) { base, step in
            rows.append(step)
            set(base, step, 4, 2, red)
        }
        let second = try backend.writeImage(first, width: 5, height: 3, scale: 1) { base, step in
            rows.append(step)
            #expect(bytes(base, step, 4, 2) == [0, 0, 0, 0])
        }
        #expect(rows == [20, 20])
        #expect(second.id != first.id)
        #expect(Array(backend.registered.keys) == [second.id])
        #expect(throws: RenderError.invalidSize(width: 5, height: 0)) {
            _ = try backend.writeImage(second, width: 5, height: 0, scale: 1) { _, _ in }
        }
        #expect(Array(backend.registered.keys) == [second.id])
    }
}
