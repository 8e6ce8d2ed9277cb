import CCairo
import MapRender

/// An owned Cairo ARGB32 image surface (premultiplied BGRA in memory on little-endian machines).
///
/// Hosts that present frames (the SDL viewer, `UIView` drawing) keep one surface and redraw into it with
/// ``CairoBackend/draw(_:into:)`` instead of allocating a frame per draw. Thread rules: use from one thread.
public final class CairoSurface {
    /// The `cairo_surface_t *`; valid for the lifetime of this object.
    public let pointer: OpaquePointer
    /// Width in device pixels.
    public let width: Int
    /// Height in device pixels.
    public let height: Int

    /// Creates a transparent surface of `width × height` pixels (`1…32768` each); throws
    /// ``RenderError/invalidSize(width:height:)`` outside that range or when Cairo cannot allocate it.
    public init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32768, height <= 32768 else {
            throw RenderError.invalidSize(width: width, height: height)
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError.invalidSize(width: width, height: height)
        }
        pointer = surface
        self.width = width
        self.height = height
    }

    /// Creates a surface holding a copy of `image`'s pixels.
    public convenience init(copying image: RasterImage) throws {
        try self.init(width: image.width, height: image.height)
        cairo_surface_flush(pointer)
        let stride = Int(cairo_image_surface_get_stride(pointer))
        let data = cairo_image_surface_get_data(pointer)!
        image.pixels.withUnsafeBytes { src in
            for row in 0..<image.height {
                (data + row * stride).update(
                    from: src.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * image.bytesPerRow,
                    count: image.bytesPerRow)
            }
        }
        cairo_surface_mark_dirty(pointer)
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Bytes of pixel memory (`stride × height`).
    public var byteCount: Int { Int(cairo_image_surface_get_stride(pointer)) * height }

    /// A copy of the pixels as a ``RasterImage`` with the given `scale` (pixels per point).
    public func rasterImage(scale: Double = 1) -> RasterImage {
        cairo_surface_flush(pointer)
        return surfaceToRaster(pointer, scale: scale)
    }
}

/// Copies an image surface of any format into premultiplied BGRA.
func surfaceToRaster(_ surface: OpaquePointer, scale: Double) -> RasterImage {
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let format = cairo_image_surface_get_format(surface)
    if format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24 {
        // Convert through a painted ARGB32 copy.
        let copy = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cr = cairo_create(copy)!
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(copy)
        defer { cairo_surface_destroy(copy) }
        return surfaceToRaster(copy, scale: scale)
    }
    let stride = Int(cairo_image_surface_get_stride(surface))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    guard width > 0, height > 0, let data = cairo_image_surface_get_data(surface) else {
        return RasterImage(width: width, height: height, scale: scale, pixels: pixels)
    }
    pixels.withUnsafeMutableBytes { dst in
        let base = dst.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for row in 0..<height {
            (base + row * width * 4).update(from: data + row * stride, count: width * 4)
        }
        if format == CAIRO_FORMAT_RGB24 {
            var i = 3
            while i < width * height * 4 {
                base[i] = 255
                i += 4
            }
        }
    }
    return RasterImage(width: width, height: height, scale: scale, pixels: pixels)
}
