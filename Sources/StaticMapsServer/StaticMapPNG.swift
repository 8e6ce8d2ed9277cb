import LibPNGWriter
import MapDrawing

/// The Static Maps server's PNG writer: the pixels Cairo's PNG writer (``PNGCodec``) writes, in a third to a fifth of
/// its time. Waymark's own.
///
/// Like Cairo's writer it stores 8-bit RGB when every pixel is opaque and 8-bit RGBA (un-premultiplied as Cairo does
/// it, `(c · 255 + a / 2) / a`) otherwise, with a white `bKGD`, so a decoder reads the same pixels from both. Both
/// write through libpng; unlike Cairo's, this writer (``PNGWriter``, the adapter over libpng) gives every row PNG's
/// filter 0 (none) and zlib level 1 instead of libpng choosing a filter per row at zlib's default level 6: about 80 %
/// of a static map's render time went to that search and level, and map images (flat fills, repeated colours)
/// compress about as small unfiltered at level 1 (the benchmark's three views: 2–21 % smaller than Cairo's files;
/// BENCHMARKS.md "Static maps server"). Images with smooth gradients (hillshading, photographs) come out larger than
/// Cairo's.
///
/// Thread rules: a pure function; any thread.
public enum StaticMapPNG {
    /// The zlib level used: 1, the fastest that compresses.
    public static let compressionLevel = 1

    /// Encodes `image` (premultiplied BGRA) as PNG bytes; its scale is not stored.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an image with no pixels, or ``PNGWriterError`` with
    ///   libpng's message when libpng fails (out of memory).
    public static func encode(_ image: RasterImage) throws -> [UInt8] {
        try encode(width: image.width, height: image.height, premultipliedBGRA: image.pixels)
    }

    /// Encodes `width × height` pixels given as premultiplied B, G, R, A bytes, row-major from the top-left pixel
    /// (``RasterImage``'s and Cairo's ARGB32 layout), as PNG bytes.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` when the size is empty or `pixels` does not hold
    ///   `width × height × 4` bytes, or ``PNGWriterError`` with libpng's message when libpng fails (out of memory).
    public static func encode(width: Int, height: Int, premultipliedBGRA pixels: [UInt8]) throws -> [UInt8] {
        guard width > 0, height > 0, pixels.count == width * height * 4 else {
            throw RenderError.invalidSize(width: width, height: height)
        }
        let opaque = pixels.withUnsafeBytes { raw in
            let alphas: UInt64 = 0xFF00_0000_FF00_0000  // the alpha bytes of two BGRA pixels, little-endian
            var i = 0
            while i + 8 <= raw.count {
                if UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & alphas != alphas {
                    return false
                }
                i += 8
            }
            return i == raw.count || raw[i + 3] == 255
        }
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        let rows = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, count in
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    var o = y * rowBytes
                    var s = y * width * 4
                    if opaque {
                        let raw = UnsafeRawBufferPointer(src)
                        for _ in 0..<width {
                            let bgra = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: s, as: UInt32.self))
                            out[o] = UInt8(truncatingIfNeeded: bgra >> 16)
                            out[o + 1] = UInt8(truncatingIfNeeded: bgra >> 8)
                            out[o + 2] = UInt8(truncatingIfNeeded: bgra)
                            o += 3
                            s += 4
                        }
                    } else {
                        for _ in 0..<width {
                            let a = UInt32(src[s + 3])
                            if a == 0 {
                                (out[o], out[o + 1], out[o + 2]) = (0, 0, 0)
                            } else if a == 255 {
                                (out[o], out[o + 1], out[o + 2]) = (src[s + 2], src[s + 1], src[s])
                            } else {
                                func straight(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + a / 2) / a)) }
                                (out[o], out[o + 1], out[o + 2]) = (
                                    straight(src[s + 2]), straight(src[s + 1]), straight(src[s])
                                )
                            }
                            out[o + 3] = UInt8(a)
                            o += 4
                            s += 4
                        }
                    }
                }
            }
            count = rowBytes * height
        }
        return try PNGWriter.encode(
            width: width, height: height, layout: opaque ? .rgb : .rgba, pixels: rows,
            compressionLevel: compressionLevel, background: .white)
    }
}
