import CCairo
import Foundation

/// An owned Cairo image surface (ARGB32, premultiplied, native-endian), destroyed when the last reference goes.
///
/// Pixel contents never change after creation, so a bitmap may be read (drawn from) on any thread.
final class CairoBitmap: @unchecked Sendable {
    /// The `cairo_surface_t *`.
    let surface: OpaquePointer
    /// Width in pixels (≥ 0).
    let width: Int
    /// Height in pixels (≥ 0).
    let height: Int

    /// Takes ownership of `surface` (one reference).
    init(surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    /// A new transparent ARGB32 surface of `width × height` pixels.
    convenience init(width: Int, height: Int) {
        self.init(surface: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
    }

    deinit { cairo_surface_destroy(surface) }

    /// A pixel-for-pixel copy of another surface's current contents.
    static func copy(of source: OpaquePointer) -> CairoBitmap {
        let w = Int(cairo_image_surface_get_width(source))
        let h = Int(cairo_image_surface_get_height(source))
        let bitmap = CairoBitmap(width: w, height: h)
        cairo_surface_flush(source)
        let cr = cairo_create(bitmap.surface)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(bitmap.surface)
        return bitmap
    }

    /// The PNG encoding of the surface (8-bit RGBA, straight alpha), or nil if Cairo reports an error.
    func pngData() -> Data? {
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, bytes, length in
                guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        return status == CAIRO_STATUS_SUCCESS ? sink.data : nil
    }

    /// Reads one pixel as straight (un-premultiplied) RGBA bytes; `(0,0,0,0)` outside the surface.
    func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(surface) else {
            return (0, 0, 0, 0)
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let word = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        let a = UInt32(word >> 24)
        func unpremultiply(_ c: UInt32) -> UInt8 {
            a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
        }
        return (
            unpremultiply((word >> 16) & 0xFF), unpremultiply((word >> 8) & 0xFF), unpremultiply(word & 0xFF), UInt8(a)
        )
    }
}
