import CCairo
import MapDrawing

extension CairoBackend {
    /// See ``RenderBackend/writeImage(_:width:height:scale:_:)``: the image's own Cairo surface is
    /// written in place (flushed before `write`, marked dirty after it, its box-filtered levels dropped); a new one is
    /// a transparent surface. No copy and, while the size and scale stay, no new surface.
    public func writeImage(
        _ handle: ImageHandle?, width: Int, height: Int, scale: Double,
        _ write: (UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) throws -> Void
    ) throws -> ImageHandle {
        if let handle, handle.scale == scale, let surface = images[handle.id], surface.width == width,
            surface.height == height
        {
            mipLevels[handle.id] = nil
            try writePixels(of: surface, write)
            return handle
        }
        let surface = try CairoSurface.forRendering(width: width, height: height)
        if let handle { unregister(handle) }
        let made = add(surface, scale: scale)
        try writePixels(of: surface, write)
        return made
    }

    /// Calls `body` with `surface`'s pixels and row stride, between a flush and a mark-dirty.
    private func writePixels(
        of surface: CairoSurface, _ body: (UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) throws -> Void
    ) throws {
        cairo_surface_flush(surface.pointer)
        defer { cairo_surface_mark_dirty(surface.pointer) }
        guard let data = cairo_image_surface_get_data(surface.pointer) else {
            throw RenderError.backendFailure("the image surface has no pixels")
        }
        try body(data, Int(cairo_image_surface_get_stride(surface.pointer)))
    }
}
