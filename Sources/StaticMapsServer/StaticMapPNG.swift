import MapDrawing
import MapStorage

/// The Static Maps server's PNG writer: the pixels Cairo's PNG writer (``PNGCodec``) writes, in a third to a fifth of
/// its time. Waymark's own.
///
/// Like Cairo's writer it stores 8-bit RGB when every pixel is opaque and 8-bit RGBA (un-premultiplied as Cairo does
/// it, `(c · 255 + a / 2) / a`) otherwise, with a white `bKGD`, so a decoder reads the same pixels from both. Unlike
/// it, every row uses PNG's filter 0 (none) and zlib compresses at level 1 instead of libpng choosing a filter per row
/// and zlib's default level 6: about 80 % of a static map's render time went to that search and level, and map
/// images (flat fills, repeated colours) compress about as small unfiltered at level 1 (the benchmark's three views:
/// 2–21 % smaller than Cairo's files; BENCHMARKS.md "Static maps server"). Images with smooth gradients (hillshading,
/// photographs) come out larger than Cairo's.
///
/// Thread rules: a pure function; any thread.
public enum StaticMapPNG {
    /// The zlib level used: 1, the fastest that compresses.
    public static let compressionLevel = 1

    /// Encodes `image` (premultiplied BGRA) as PNG bytes; its scale is not stored.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an image with no pixels, or an error naming zlib when
    ///   it fails (out of memory).
    public static func encode(_ image: RasterImage) throws -> [UInt8] {
        try encode(width: image.width, height: image.height, premultipliedBGRA: image.pixels)
    }

    /// Encodes `width × height` pixels given as premultiplied B, G, R, A bytes, row-major from the top-left pixel
    /// (``RasterImage``'s and Cairo's ARGB32 layout), as PNG bytes.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` when the size is empty or `pixels` does not hold
    ///   `width × height × 4` bytes, or an error naming zlib when it fails (out of memory).
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
        let rowBytes = 1 + width * channels
        let rows = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, count in
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    out[y * rowBytes] = 0  // the row's filter: none
                    var o = y * rowBytes + 1
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
        let data = try zlibCompress(rows, level: compressionLevel)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(data.count + 70)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // 8 bits, RGB or RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("bKGD", [0, 255, 0, 255, 0, 255], to: &png)  // white (16-bit R, G, B), as Cairo writes
        appendChunk("IDAT", data, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let start = png.count
        png += Array(type.utf8)
        png += data
        let crc = png.withUnsafeBufferPointer { crc32($0[start...]) }
        appendBigEndian(crc, to: &png)
    }

    /// PNG's CRC-32 (ISO 3309) of a chunk's type and data, eight bytes a step (slicing by 8).
    static func crc32(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        let raw = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes))
        crcTables.withUnsafeBufferPointer { t in
            var i = 0
            while i + 8 <= raw.count {
                let lo = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)) ^ c
                let hi = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int(lo >> 8 & 0xFF)] ^ t[5 * 256 + Int(lo >> 16 & 0xFF)]
                    ^ t[4 * 256 + Int(lo >> 24)] ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int(hi >> 8 & 0xFF)]
                    ^ t[256 + Int(hi >> 16 & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < raw.count {
                c = t[Int((c ^ UInt32(raw[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return c ^ 0xFFFF_FFFF
    }

    /// Eight 256-entry tables: the byte table of the reflected polynomial 0xEDB88320, then each the previous one
    /// advanced by a zero byte.
    private static let crcTables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = (previous >> 8) ^ t[Int(previous & 0xFF)]
            }
        }
        return t
    }()
}
