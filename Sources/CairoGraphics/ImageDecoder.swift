import CCairo
import CGdkPixbuf
import Foundation

/// Why image bytes could not become a ``UIImage``.
package enum ImageDecodingError: Error, Equatable, CustomStringConvertible {
    /// The data has no bytes.
    case empty
    /// The header announces more pixels than ``ImageDecoder/maximumPixelCount`` or a side longer than
    /// ``ImageDecoder/maximumDimension``; nothing was allocated for the pixels.
    case tooLarge(width: Int, height: Int)
    /// gdk-pixbuf could not decode the bytes (unknown format, truncated or corrupt data); carries its message.
    case undecodable(String)
    /// The file could not be read.
    case unreadable(String)

    package var description: String {
        switch self {
        case .empty: return "no image data (0 bytes)"
        case .tooLarge(let w, let h):
            return "image is \(w)×\(h) pixels, over the limit of \(ImageDecoder.maximumDimension) pixels a side and "
                + "\(ImageDecoder.maximumPixelCount) pixels in all; refused before decoding"
        case .undecodable(let message): return "cannot decode image: \(message)"
        case .unreadable(let message): return "cannot read image file: \(message)"
        }
    }
}

/// Decodes PNG, JPEG and GIF (and WebP where Debian's `webp-pixbuf-loader` is installed) through gdk-pixbuf's
/// loaders into ARGB32 surfaces: the one image decoder of the package, in the adapter that owns gdk-pixbuf
/// (LinuxUIKit's `UIImage` decodes through it; map raster tiles reach it through ``decodePremultipliedBGRA(_:)``).
///
/// Image sizes are checked from the header (the loader's `size-prepared` signal, or `gdk_pixbuf_get_file_info` for
/// files) before any pixel buffer is allocated; oversized images are refused with ``ImageDecodingError/tooLarge``.
/// Thread-safe: every call uses its own loader.
package enum ImageDecoder {
    /// The longest accepted side, in pixels.
    package static let maximumDimension = 16_384
    /// The largest accepted `width × height`, in pixels (64 Mi pixels = 256 MiB as ARGB32).
    package static let maximumPixelCount = 64 * 1024 * 1024

    /// The largest image file read, in bytes (128 MiB).
    package static let maximumFileSize = 128 * 1024 * 1024

    /// The decoded frames, their display durations in seconds (`0` for a still image), and warnings for the
    /// caller to log (frames dropped over the pixel limit).
    package struct Decoded {
        package var frames: [CairoSurface]
        package var delays: [Double]
        package var warnings: [String] = []
    }

    package static func isAcceptable(width: Int, height: Int) -> Bool {
        width <= maximumDimension && height <= maximumDimension && width * height <= maximumPixelCount
    }

    /// Checks a file's size and header without decoding it, then decodes the file.
    package static func decode(contentsOfFile path: String) throws(ImageDecodingError) -> Decoded {
        var w: Int32 = 0
        var h: Int32 = 0
        if gdk_pixbuf_get_file_info(path, &w, &h) != nil, !isAcceptable(width: Int(w), height: Int(h)) {
            throw .tooLarge(width: Int(w), height: Int(h))
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
            size.intValue > maximumFileSize
        {
            throw .unreadable("\(path) is \(size.intValue) bytes, over the limit of \(maximumFileSize) bytes")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable("\(path): \(error.localizedDescription)")
        }
        return try decode(data: data)
    }

    /// Decodes PNG, JPEG or GIF bytes; every frame of an animated GIF (frames beyond a total of
    /// ``maximumPixelCount`` pixels are dropped with a logged warning).
    package static func decode(data: Data) throws(ImageDecodingError) -> Decoded {
        if data.isEmpty { throw .empty }
        guard let format = format(of: data) else {
            throw .undecodable(
                "unsupported or unrecognized image file format (PNG, JPEG, GIF and, with webp-pixbuf-loader, WebP)"
            )
        }
        if let problem = truncation(of: data) { throw .undecodable(problem) }
        guard let loader = gdk_pixbuf_loader_new_with_type(format, nil) else {
            throw .undecodable("gdk-pixbuf has no \(format) loader")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }

        final class SizeProbe {
            var width = 0
            var height = 0
            var refused = false
        }
        let probe = SizeProbe()
        let callback: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
            loader, width, height, userData in
            guard let userData else { return }
            let probe = Unmanaged<SizeProbe>.fromOpaque(userData).takeUnretainedValue()
            probe.width = Int(width)
            probe.height = Int(height)
            if !ImageDecoder.isAcceptable(width: Int(width), height: Int(height)) {
                probe.refused = true
                // A zero target size makes every gdk-pixbuf loader stop with an error instead of allocating.
                gdk_pixbuf_loader_set_size(loader?.assumingMemoryBound(to: GdkPixbufLoader.self), 0, 0)
            }
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(loader), "size-prepared", unsafeBitCast(callback, to: GCallback.self),
            Unmanaged.passUnretained(probe).toOpaque(), nil, GConnectFlags(rawValue: 0))

        var error: UnsafeMutablePointer<GError>?
        let wrote = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: guchar.self) else { return false }
            return gdk_pixbuf_loader_write(loader, base, gsize(raw.count), &error) != 0
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError) != 0 && wrote
        withExtendedLifetime(probe) {}
        if probe.refused {
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
            throw .tooLarge(width: probe.width, height: probe.height)
        }
        if let failure = error ?? closeError {
            let message = failure.pointee.message.map { String(cString: $0) } ?? "unknown gdk-pixbuf error"
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
            throw .undecodable(message)
        }
        guard closed, let animation = gdk_pixbuf_loader_get_animation(loader) else {
            throw .undecodable("no image in data")
        }
        if gdk_pixbuf_animation_is_static_image(animation) != 0 {
            guard let pixbuf = gdk_pixbuf_animation_get_static_image(animation) else {
                throw .undecodable("no image in data")
            }
            return Decoded(frames: [bitmap(from: pixbuf)], delays: [0])
        }
        // Animated: step the iterator through each frame by its own delay.
        let count = max(1, gifFrameCount(data) ?? 1)
        // The iterator's clock: seconds and microseconds (the adapter's wrappers hold GLib's deprecated GTimeVal).
        var seconds = 1
        var microseconds = 0
        guard let iterator = waymark_pixbuf_animation_get_iter(animation, seconds, microseconds) else {
            throw .undecodable("no frames in animation")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(iterator)) }
        var decoded = Decoded(frames: [], delays: [])
        var pixels = 0
        for index in 0..<count {
            guard let pixbuf = gdk_pixbuf_animation_iter_get_pixbuf(iterator) else { break }
            pixels += Int(gdk_pixbuf_get_width(pixbuf)) * Int(gdk_pixbuf_get_height(pixbuf))
            if pixels > maximumPixelCount {
                decoded.warnings.append(
                    "animated image: keeping the first \(index) of \(count) frames (all frames together may hold "
                        + "at most \(maximumPixelCount) pixels)")
                break
            }
            decoded.frames.append(bitmap(from: pixbuf))
            let delay = Int(gdk_pixbuf_animation_iter_get_delay_time(iterator))
            decoded.delays.append(delay < 0 ? 0 : Double(delay) / 1000)
            let micro = microseconds + max(delay, 1) * 1000
            seconds += micro / 1_000_000
            microseconds = micro % 1_000_000
            _ = waymark_pixbuf_animation_iter_advance(iterator, seconds, microseconds)
        }
        if decoded.frames.isEmpty { throw .undecodable("no frames in animation") }
        return decoded
    }

    /// Decodes one still image (the first frame of an animation) into premultiplied B, G, R, A bytes, rows top to
    /// bottom without padding: the form the map renderer's `RasterImage` takes. For raster map tiles.
    /// - Throws: ``ImageDecodingError`` (its description names the problem).
    package static func decodePremultipliedBGRA(_ bytes: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let decoded = try decode(data: Data(bytes))
        let first = decoded.frames[0]
        return (first.width, first.height, first.premultipliedBGRA())
    }

    /// Whether gdk-pixbuf has a loader for the format (`"png"`, `"jpeg"`, `"webp"`, …): WebP needs Debian's
    /// `webp-pixbuf-loader`.
    package static func hasLoader(_ format: String) -> Bool {
        guard let loader = gdk_pixbuf_loader_new_with_type(format, nil) else { return false }
        g_object_unref(UnsafeMutableRawPointer(loader))
        return true
    }

    /// Converts a pixbuf (straight RGB or RGBA bytes) into a premultiplied ARGB32 Cairo surface.
    static func bitmap(from pixbuf: OpaquePointer) -> CairoSurface {
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        // Sizes were checked against the limits (16384 a side) before decoding; Cairo's own limit is 32767.
        let bitmap =
            (try? CairoSurface(width: width, height: height))
            ?? CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 0, 0))
        guard bitmap.width > 0, let source = gdk_pixbuf_read_pixels(pixbuf),
            let target = cairo_image_surface_get_data(bitmap.pointer)
        else { return bitmap }
        cairo_surface_flush(bitmap.pointer)
        let targetStride = Int(cairo_image_surface_get_stride(bitmap.pointer))
        for y in 0..<height {
            let row = source.advanced(by: y * sourceStride)
            let out = UnsafeMutableRawPointer(target.advanced(by: y * targetStride)).assumingMemoryBound(
                to: UInt32.self)
            for x in 0..<width {
                let p = row.advanced(by: x * channels)
                let a = hasAlpha ? UInt32(p[3]) : 255
                func premultiply(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                out[x] = a << 24 | premultiply(p[0]) << 16 | premultiply(p[1]) << 8 | premultiply(p[2])
            }
        }
        cairo_surface_mark_dirty(bitmap.pointer)
        return bitmap
    }

    /// The gdk-pixbuf loader name for PNG, JPEG, GIF or WebP data (by signature), or nil for anything else. Only these
    /// formats are accepted (WebP when its loader is installed): their loaders are incremental and report the size
    /// before allocating.
    package static func format(of data: Data) -> String? {
        let head = [UInt8](data.prefix(8))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return "gif" }
        if head.starts(with: Array("RIFF".utf8)), data.count >= 12,
            [UInt8](data.dropFirst(8).prefix(4)) == Array("WEBP".utf8)
        {
            return "webp"
        }
        return nil
    }

    /// A description of how `data` is cut short, for PNG (the chunk sequence must reach `IEND`), GIF (the blocks
    /// must reach the trailer `0x3B`) and JPEG (an end-of-image marker `FF D9` in the last 1 KiB); nil when complete
    /// or another format. gdk-pixbuf accepts truncated files and fills the missing rows, so this is checked first.
    package static func truncation(of data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            var i = 8
            while i + 8 <= bytes.count {
                let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
                i += 12 + length
                if i > bytes.count { break }
                if type == "IEND" { return nil }
            }
            return "truncated PNG: the data ends before the IEND chunk (\(bytes.count) bytes)"
        }
        if bytes.starts(with: Array("GIF8".utf8)) {
            return gifFrameCount(data, requireTrailer: true) == nil
                ? "truncated GIF: the data ends before the trailer (\(bytes.count) bytes)" : nil
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            let tail = bytes.suffix(1024)
            let hasEnd = zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
            return hasEnd ? nil : "truncated JPEG: no end-of-image marker (\(bytes.count) bytes)"
        }
        return nil
    }

    /// The number of image descriptors in GIF data (its frame count), or nil when `data` is not a GIF.
    /// With `requireTrailer`, nil also when the blocks end before the trailer byte.
    package static func gifFrameCount(_ data: Data, requireTrailer: Bool = false) -> Int? {
        let bytes = [UInt8](data)
        guard bytes.count >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 else { return nil }
        var i = 13
        if bytes[10] & 0x80 != 0 { i += 3 << (Int(bytes[10] & 7) + 1) }
        var frames = 0
        func skipSubBlocks() {
            while i < bytes.count {
                let size = Int(bytes[i])
                i += 1 + size
                if size == 0 { return }
            }
            i = bytes.count + 1  // ran off the end
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x21:
                i += 2
                skipSubBlocks()
            case 0x2C:
                guard i + 10 <= bytes.count else { return requireTrailer ? nil : frames }
                let packed = bytes[i + 9]
                i += 10
                if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
                i += 1  // LZW minimum code size
                skipSubBlocks()
                frames += 1
            case 0x3B:
                return frames
            default:
                return requireTrailer ? nil : frames
            }
        }
        return requireTrailer ? nil : frames
    }
}
