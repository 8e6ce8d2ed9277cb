import CCairo

/// Errors of the Cairo adapter; each names its input.
public enum CairoGraphicsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A surface side outside `0…32767` pixels (Cairo's limit), or Cairo could not allocate it; carries the size.
    case invalidSize(width: Int, height: Int)
    /// The bytes (or the file at the path) are not a PNG Cairo could read; carries the path or `"<bytes>"` and
    /// Cairo's message.
    case unreadablePNG(String, String)
    /// PNG writing failed; carries the path or `"<bytes>"` and Cairo's message.
    case unwritablePNG(String, String)

    /// A one-line message naming the input.
    public var description: String {
        switch self {
        case .invalidSize(let w, let h): return "invalid surface size \(w)×\(h) pixels (each side 0…32767)"
        case .unreadablePNG(let name, let why): return "cannot read PNG \(name): \(why)"
        case .unwritablePNG(let name, let why): return "cannot write PNG \(name): \(why)"
        }
    }
}

/// An owned Cairo ARGB32 image surface: premultiplied pixels, B, G, R, A bytes in memory (little-endian machines,
/// the only kind Waymark targets), rows `stride` bytes apart. The one surface type of the package: LinuxUIKit's
/// images and drawing contexts and the map renderer's (MapDrawingCairo) tiles, frames and PNG files all hold one.
///
/// PNG encoding and decoding go through Cairo's PNG functions (libpng inside Cairo): encoding writes 8-bit RGBA
/// (Cairo un-premultiplies), decoding gives an ARGB32 surface whatever the file's colour type.
/// - Thread rules: a surface may be drawn from (read) on any thread once its pixels stop changing; write to it from
///   one thread at a time.
public final class CairoSurface: @unchecked Sendable {
    /// The `cairo_surface_t *` (one reference, released with the object). For the adapter layer only (LinuxUIKit,
    /// MapDrawingCairo, UIKitSDL); never handed further.
    package let pointer: OpaquePointer
    /// Width in device pixels, `0…32767`.
    public let width: Int
    /// Height in device pixels, `0…32767`.
    public let height: Int

    /// Creates a transparent surface of `width × height` pixels (each `0…32767`; 0 gives an empty surface).
    /// - Throws: ``CairoGraphicsError/invalidSize(width:height:)`` outside that range or when Cairo cannot allocate.
    public init(width: Int, height: Int) throws(CairoGraphicsError) {
        guard (0...32767).contains(width), (0...32767).contains(height),
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else { throw .invalidSize(width: width, height: height) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .invalidSize(width: width, height: height)
        }
        pointer = surface
        self.width = width
        self.height = height
    }

    /// Takes ownership of one reference to an ARGB32 image surface (the adapter layer's own Cairo code).
    package init(taking surface: OpaquePointer) {
        pointer = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    /// Calls `body` with a surface drawing straight into `pixels` (premultiplied B, G, R, A bytes, rows top to bottom
    /// without padding, `width × height × 4` of them), so a frame drawn for a byte array needs no second buffer and
    /// no copy. The surface is finished when `body` returns: it must not be kept, and drawing through it afterwards
    /// touches nothing. Same thread rules as any surface.
    /// - Throws: ``CairoGraphicsError/invalidSize(width:height:)`` for a side outside `1…32767` or a byte count
    ///   other than `width × height × 4`; else what `body` throws.
    package static func drawing<R>(
        into pixels: inout [UInt8], width: Int, height: Int, _ body: (CairoSurface) throws -> R
    ) throws -> R {
        guard (1...32767).contains(width), (1...32767).contains(height), pixels.count == width * height * 4,
            Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))) == width * 4
        else { throw CairoGraphicsError.invalidSize(width: width, height: height) }
        return try pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress,
                let created = cairo_image_surface_create_for_data(
                    base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                    Int32(width * 4))
            else { throw CairoGraphicsError.invalidSize(width: width, height: height) }
            let surface = CairoSurface(taking: created)
            defer { cairo_surface_finish(created) }
            guard cairo_surface_status(created) == CAIRO_STATUS_SUCCESS else {
                throw CairoGraphicsError.invalidSize(width: width, height: height)
            }
            return try body(surface)
        }
    }

    /// Creates a surface holding a copy of premultiplied B, G, R, A bytes, rows top to bottom without padding.
    /// - Throws: ``CairoGraphicsError/invalidSize(width:height:)`` for a bad size or a byte count other than
    ///   `width × height × 4`.
    public convenience init(width: Int, height: Int, premultipliedBGRA pixels: [UInt8]) throws(CairoGraphicsError) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else {
            throw .invalidSize(width: width, height: height)
        }
        try self.init(width: width, height: height)
        guard width > 0, height > 0, let data = cairo_image_surface_get_data(pointer) else { return }
        cairo_surface_flush(pointer)
        let stride = Int(cairo_image_surface_get_stride(pointer))
        pixels.withUnsafeBufferPointer { src in
            for row in 0..<height {
                (data + row * stride).update(from: src.baseAddress! + row * width * 4, count: width * 4)
            }
        }
        cairo_surface_mark_dirty(pointer)
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Bytes of pixel memory (`stride × height`).
    public var byteCount: Int { Int(cairo_image_surface_get_stride(pointer)) * height }

    /// Bytes from one row's start to the next: at least `4 × width`, a multiple of 4 (Cairo may pad rows); 0 for
    /// a surface of another format than ARGB32 (a mask the adapter made), which has no pixel access.
    public var stride: Int { isARGB32 ? Int(cairo_image_surface_get_stride(pointer)) : 0 }

    /// Whether the pixels are ARGB32 (every surface this type creates, decodes or copies).
    private var isARGB32: Bool { cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_ARGB32 }

    /// Calls `body` with read access to the pixels, after Cairo's pending drawing is flushed: `height` rows of
    /// `stride / 4` premultiplied ARGB32 words (alpha in the top byte, then red, green, blue; each colour ≤ alpha),
    /// pixel (`x`, `y`) at index `y × (stride / 4) + x` for `x < width`; the words after `width` in a row are
    /// padding. The buffer is empty for an empty surface or one of another format.
    /// - Thread rules: the buffer is valid only inside `body`; do not draw into the surface meanwhile.
    public func withPixels<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        cairo_surface_flush(pointer)
        guard width > 0, height > 0, isARGB32, let data = cairo_image_surface_get_data(pointer) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let words = UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self)
        return try body(UnsafeBufferPointer(start: words, count: stride / 4 * height))
    }

    /// Calls `body` with write access to the pixels (the layout of ``withPixels(_:)``); written values must stay
    /// premultiplied (each colour byte ≤ the alpha byte). Cairo's pending drawing is flushed before and the surface
    /// marked changed after, so Cairo drawing and PNG encoding afterwards see the new pixels.
    /// - Thread rules: the buffer is valid only inside `body`; one writer at a time.
    public func withMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        cairo_surface_flush(pointer)
        guard width > 0, height > 0, isARGB32, let data = cairo_image_surface_get_data(pointer) else {
            return try body(UnsafeMutableBufferPointer(start: nil, count: 0))
        }
        defer { cairo_surface_mark_dirty(pointer) }
        let words = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        return try body(UnsafeMutableBufferPointer(start: words, count: stride / 4 * height))
    }

    /// A copy of the pixels as premultiplied B, G, R, A bytes, rows top to bottom without padding.
    public func premultipliedBGRA() -> [UInt8] { Self.premultipliedBGRA(of: pointer) }

    /// A pixel-for-pixel copy of the surface's current contents.
    public func copy() -> CairoSurface {
        let copy = CairoSurface(converting: pointer)
        return copy
    }

    /// One pixel as straight (un-premultiplied) R, G, B, A bytes; `(0, 0, 0, 0)` outside the surface.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(pointer) else {
            return (0, 0, 0, 0)
        }
        cairo_surface_flush(pointer)
        let stride = Int(cairo_image_surface_get_stride(pointer))
        let p = data + y * stride + x * 4
        let a = UInt32(p[3])
        func unpremultiply(_ c: UInt8) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (UInt32(c) * 255 + a / 2) / a)) }
        return (unpremultiply(p[2]), unpremultiply(p[1]), unpremultiply(p[0]), UInt8(a))
    }

    // MARK: - PNG

    private final class Buffer {
        var bytes: [UInt8] = []
        var readOffset = 0
    }

    /// The surface encoded as PNG bytes (8-bit RGBA, straight alpha).
    /// - Throws: ``CairoGraphicsError/unwritablePNG(_:_:)`` with Cairo's message.
    public func pngData() throws(CairoGraphicsError) -> [UInt8] {
        let buffer = Buffer()
        let unmanaged = Unmanaged.passRetained(buffer)
        defer { unmanaged.release() }
        cairo_surface_flush(pointer)
        let status = cairo_surface_write_to_png_stream(
            pointer,
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let buffer = Unmanaged<Buffer>.fromOpaque(closure).takeUnretainedValue()
                buffer.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, unmanaged.toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .unwritablePNG("<bytes>", String(cString: cairo_status_to_string(status)))
        }
        return buffer.bytes
    }

    /// Writes the surface as a PNG file at `path`, replacing it atomically (``AtomicFile/write(_:to:)``: a full disk
    /// or any other failure leaves an existing file whole).
    /// - Throws: ``CairoGraphicsError/unwritablePNG(_:_:)`` naming the path and the system's reason (errno).
    public func writePNG(toFile path: String) throws(CairoGraphicsError) {
        let bytes = try pngData()
        do { try AtomicFile.write(bytes, to: path) } catch { throw .unwritablePNG(path, error.reason) }
    }

    /// Decodes PNG bytes into a new ARGB32 surface (greyscale, palette and RGB files become opaque pixels).
    /// - Throws: ``CairoGraphicsError/unreadablePNG(_:_:)`` with Cairo's message.
    public static func decodePNG(_ bytes: [UInt8]) throws(CairoGraphicsError) -> CairoSurface {
        let buffer = Buffer()
        buffer.bytes = bytes
        let unmanaged = Unmanaged.passRetained(buffer)
        defer { unmanaged.release() }
        let surface = cairo_image_surface_create_from_png_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                let buffer = Unmanaged<Buffer>.fromOpaque(closure).takeUnretainedValue()
                let n = Int(length)
                guard buffer.readOffset + n <= buffer.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                buffer.bytes.withUnsafeBufferPointer { src in
                    data.update(from: src.baseAddress! + buffer.readOffset, count: n)
                }
                buffer.readOffset += n
                return CAIRO_STATUS_SUCCESS
            }, unmanaged.toOpaque())!
        return try finishDecoding(surface, name: "<bytes>")
    }

    /// Reads a PNG file into a new ARGB32 surface.
    /// - Throws: ``CairoGraphicsError/unreadablePNG(_:_:)`` naming the path.
    public static func readPNG(path: String) throws(CairoGraphicsError) -> CairoSurface {
        try finishDecoding(cairo_image_surface_create_from_png(path)!, name: path)
    }

    private static func finishDecoding(_ surface: OpaquePointer, name: String) throws(CairoGraphicsError)
        -> CairoSurface
    {
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .unreadablePNG(name, String(cString: cairo_status_to_string(status)))
        }
        return CairoSurface(converting: surface)
    }

    // MARK: - Adapter-layer helpers

    /// A new ARGB32 surface painted from any image surface (a copy; the source keeps its reference).
    package convenience init(converting source: OpaquePointer) {
        let w = Int(cairo_image_surface_get_width(source))
        let h = Int(cairo_image_surface_get_height(source))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        cairo_surface_flush(source)
        let cr = cairo_create(surface)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        self.init(taking: surface)
    }

    /// The pixels of any image surface as premultiplied B, G, R, A bytes, rows without padding (RGB24 made opaque,
    /// other formats painted into ARGB32 first).
    package static func premultipliedBGRA(of surface: OpaquePointer) -> [UInt8] {
        let format = cairo_image_surface_get_format(surface)
        if format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24 {
            return CairoSurface(converting: surface).premultipliedBGRA()
        }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        guard width > 0, height > 0, let data = cairo_image_surface_get_data(surface) else { return pixels }
        pixels.withUnsafeMutableBufferPointer { dst in
            let base = dst.baseAddress!
            for row in 0..<height { (base + row * width * 4).update(from: data + row * stride, count: width * 4) }
            if format == CAIRO_FORMAT_RGB24 {
                var i = 3
                while i < width * height * 4 {
                    base[i] = 255
                    i += 4
                }
            }
        }
        return pixels
    }
}
