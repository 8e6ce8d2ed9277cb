@_exported import CairoGraphics
import MapDrawing

/// The map renderer's bridge between CairoGraphics' surfaces (the one Cairo surface type of the package) and the
/// engine's ``RasterImage`` pixels. `CairoSurface` itself, `CairoCanvas` and PNG coding live in the CairoGraphics
/// adapter, re-exported here so hosts of the backend (the viewer, benchmarks) keep one import.
extension CairoSurface {
    /// A transparent surface for a display list or image of `width × height` pixels.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an empty size, a side over 32767 pixels, or when
    ///   Cairo cannot allocate it.
    static func forRendering(width: Int, height: Int) throws(RenderError) -> CairoSurface {
        guard width > 0, height > 0, let surface = try? CairoSurface(width: width, height: height) else {
            throw .invalidSize(width: width, height: height)
        }
        return surface
    }

    /// A new surface holding a copy of `image`'s pixels.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an empty or oversized image.
    public static func copying(_ image: RasterImage) throws(RenderError) -> CairoSurface {
        guard image.width > 0, image.height > 0,
            let surface = try? CairoSurface(width: image.width, height: image.height, premultipliedBGRA: image.pixels)
        else { throw .invalidSize(width: image.width, height: image.height) }
        return surface
    }

    /// A copy of the pixels as a ``RasterImage`` with the given `scale` (pixels per point).
    public func rasterImage(scale: Double = 1) -> RasterImage {
        RasterImage(width: width, height: height, scale: scale, pixels: premultipliedBGRA())
    }
}
