extension RenderBackend {
    /// Default of ``RenderBackend/writeImage(_:width:height:scale:_:)`` for a backend that keeps no pixels it lets
    /// the engine write: `write` fills a new transparent buffer of `4 · width` bytes a row, ``register(_:)`` copies
    /// it into a new image, and `handle` (when given) is unregistered.
    public func writeImage(
        _ handle: ImageHandle?, width: Int, height: Int, scale: Double,
        _ write: (UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) throws -> Void
    ) throws -> ImageHandle {
        guard (1...32767).contains(width), (1...32767).contains(height) else {
            throw RenderError.invalidSize(width: width, height: height)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        try pixels.withUnsafeMutableBufferPointer { try write($0.baseAddress!, width * 4) }
        let image = try register(RasterImage(width: width, height: height, scale: scale, pixels: pixels))
        if let handle { unregister(handle) }
        return image
    }
}
