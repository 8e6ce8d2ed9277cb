import CCairo
import MapRender

/// PNG encoding and decoding through Cairo's PNG functions (libpng inside Cairo).
///
/// Encoding writes 8-bit RGBA (Cairo un-premultiplies); decoding returns premultiplied BGRA whatever the file's colour
/// type (greyscale, palette and RGB files become opaque images). Errors name the input.
public enum PNGCodec {
    /// Errors from PNG encoding or decoding.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The bytes (or the file at the path) are not a PNG Cairo could read; carries the path or `"<bytes>"` and
        /// Cairo's message.
        case unreadable(String, String)
        /// Writing failed; carries the path or `"<bytes>"` and Cairo's message.
        case unwritable(String, String)

        /// A one-line message naming the input.
        public var description: String {
            switch self {
            case .unreadable(let name, let why): return "cannot read PNG \(name): \(why)"
            case .unwritable(let name, let why): return "cannot write PNG \(name): \(why)"
            }
        }
    }

    private final class Buffer {
        var bytes: [UInt8] = []
        var readOffset = 0
    }

    /// Encodes `image` as PNG bytes (the image's scale is not stored).
    public static func encode(_ image: RasterImage) throws -> [UInt8] {
        let surface = try CairoSurface(copying: image)
        return try encode(surface: surface.pointer, name: "<bytes>")
    }

    /// Encodes an image surface as PNG bytes via `cairo_surface_write_to_png_stream`.
    static func encode(surface: OpaquePointer, name: String) throws -> [UInt8] {
        let buffer = Buffer()
        let unmanaged = Unmanaged.passRetained(buffer)
        defer { unmanaged.release() }
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, data, length in
                let buffer = Unmanaged<Buffer>.fromOpaque(closure!).takeUnretainedValue()
                buffer.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, unmanaged.toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Error.unwritable(name, String(cString: cairo_status_to_string(status)))
        }
        return buffer.bytes
    }

    /// Writes `image` as a PNG file at `path`, replacing it.
    public static func write(_ image: RasterImage, to path: String) throws {
        let surface = try CairoSurface(copying: image)
        let status = cairo_surface_write_to_png(surface.pointer, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Error.unwritable(path, String(cString: cairo_status_to_string(status)))
        }
    }

    /// Decodes PNG bytes; the result has `scale` pixels per point (default 1).
    public static func decode(_ bytes: [UInt8], scale: Double = 1) throws -> RasterImage {
        let buffer = Buffer()
        buffer.bytes = bytes
        let unmanaged = Unmanaged.passRetained(buffer)
        defer { unmanaged.release() }
        let surface = cairo_image_surface_create_from_png_stream(
            { closure, data, length in
                let buffer = Unmanaged<Buffer>.fromOpaque(closure!).takeUnretainedValue()
                let n = Int(length)
                guard buffer.readOffset + n <= buffer.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
                buffer.bytes.withUnsafeBufferPointer { src in
                    data.update(from: src.baseAddress! + buffer.readOffset, count: n)
                }
                buffer.readOffset += n
                return CAIRO_STATUS_SUCCESS
            }, unmanaged.toOpaque())!
        return try finishDecoding(surface, name: "<bytes>", scale: scale)
    }

    /// Reads a PNG file; the result has `scale` pixels per point (default 1).
    public static func read(path: String, scale: Double = 1) throws -> RasterImage {
        let surface = cairo_image_surface_create_from_png(path)!
        return try finishDecoding(surface, name: path, scale: scale)
    }

    private static func finishDecoding(_ surface: OpaquePointer, name: String, scale: Double) throws -> RasterImage {
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Error.unreadable(name, String(cString: cairo_status_to_string(status)))
        }
        return surfaceToRaster(surface, scale: scale)
    }
}
