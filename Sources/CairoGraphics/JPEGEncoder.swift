import CGdkPixbuf
import Foundation

extension CairoSurface {
    /// Encodes the surface as a baseline JPEG through gdk-pixbuf's JPEG writer (libjpeg), composited over white
    /// (JPEG has no alpha).
    /// - Parameter quality: libjpeg quality, clamped to `1…100`. Default 85.
    /// - Returns: the JFIF file's bytes, one JPEG pixel per surface pixel (device pixels).
    /// - Throws: ``CairoGraphicsError/unwritablePNG(_:_:)`` with `"<jpeg>"` and gdk-pixbuf's message (the adapter's
    ///   one write error), or ``CairoGraphicsError/invalidSize(width:height:)`` for an empty surface.
    public func jpegData(quality: Int = 85) throws(CairoGraphicsError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
            throw .invalidSize(width: width, height: height)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let out = gdk_pixbuf_get_pixels(pixbuf)!
        let source = premultipliedBGRA()
        for y in 0..<height {
            for x in 0..<width {
                let s = (y * width + x) * 4
                let d = y * stride + x * 3
                // Premultiplied over white: c + (255 − a).
                let white = 255 - Int(source[s + 3])
                out[d] = UInt8(min(255, Int(source[s + 2]) + white))
                out[d + 1] = UInt8(min(255, Int(source[s + 1]) + white))
                out[d + 2] = UInt8(min(255, Int(source[s]) + white))
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let q = strdup(String(max(1, min(100, quality))))
        let key = strdup("quality")
        defer {
            free(q)
            free(key)
        }
        var keys: [UnsafeMutablePointer<CChar>?] = [key, nil]
        var values: [UnsafeMutablePointer<CChar>?] = [q, nil]
        let ok = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "jpeg", &keys, &values, &error)
        guard ok != 0, let buffer else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "gdk-pixbuf could not write JPEG"
            if let error { g_error_free(error) }
            throw .unwritablePNG("<jpeg>", message)
        }
        defer { g_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(size)))
        }
    }
}
