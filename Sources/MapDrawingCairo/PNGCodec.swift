import CairoGraphics
import MapDrawing

/// PNG encoding and decoding of ``RasterImage``s, through CairoGraphics (Cairo's PNG functions, libpng inside Cairo).
///
/// Encoding writes 8-bit RGBA (Cairo un-premultiplies); decoding returns premultiplied BGRA whatever the file's colour
/// type (greyscale, palette and RGB files become opaque images). Errors name the input.
public enum PNGCodec {
    /// Errors from PNG encoding or decoding (``CairoGraphicsError/unreadablePNG(_:_:)`` and
    /// ``CairoGraphicsError/unwritablePNG(_:_:)`` name the path or `"<bytes>"` and Cairo's message).
    public typealias Error = CairoGraphicsError

    /// Encodes `image` as PNG bytes (the image's scale is not stored).
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an empty image, or ``Error``.
    public static func encode(_ image: RasterImage) throws -> [UInt8] {
        try CairoSurface.copying(image).pngData()
    }

    /// Writes `image` as a PNG file at `path`, replacing it whole or not at all (``AtomicFile/write(_:to:)``: a
    /// symbolic link is followed, a FIFO or device written directly, a replaced file keeps its permission bits).
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an empty image, or ``Error`` naming the path.
    public static func write(_ image: RasterImage, to path: String) throws {
        try CairoSurface.copying(image).writePNG(toFile: path)
    }

    /// Writes already encoded image bytes (a PNG or a JPEG) to `path` the way ``write(_:to:)`` writes a PNG.
    /// Waymark's own.
    /// - Throws: ``Error`` (``CairoGraphicsError/unwritablePNG(_:_:)``) naming the path, the step and errno.
    public static func write(bytes: [UInt8], to path: String) throws {
        do { try AtomicFile.write(bytes, to: path) } catch { throw Error.unwritablePNG(path, error.reason) }
    }

    /// Decodes PNG bytes; the result has `scale` pixels per point (default 1).
    public static func decode(_ bytes: [UInt8], scale: Double = 1) throws -> RasterImage {
        try CairoSurface.decodePNG(bytes).rasterImage(scale: scale)
    }

    /// Reads a PNG file; the result has `scale` pixels per point (default 1).
    public static func read(path: String, scale: Double = 1) throws -> RasterImage {
        try CairoSurface.readPNG(path: path).rasterImage(scale: scale)
    }
}

/// JPEG encoding of ``RasterImage``s through CairoGraphics (gdk-pixbuf's JPEG writer): baseline, composited over
/// white.
public enum JPEGCodec {
    /// Encodes `image` as JPEG bytes at libjpeg `quality` (`1…100`, default 85).
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an empty image, or ``PNGCodec/Error``.
    public static func encode(_ image: RasterImage, quality: Int = 85) throws -> [UInt8] {
        try CairoSurface.copying(image).jpegData(quality: quality)
    }
}
