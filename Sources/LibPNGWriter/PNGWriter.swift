// The adapter over libpng (Debian's libpng-dev, 1.6): the only target that imports CPNG. Writes 8-bit RGB and RGBA
// PNGs into memory for the static maps server.
import CPNG

/// A PNG writer over libpng with the choices that suit map images: every row unfiltered (PNG filter 0) and a
/// caller-chosen zlib level. Waymark's own.
///
/// Thread rules: a pure function; any thread (each call has its own libpng state).
public enum PNGWriter {
    /// The pixel layout of the rows given and of the PNG written (8 bits a channel, no palette).
    public enum Layout: Sendable, Equatable {
        /// Red, green, blue: 3 bytes a pixel (PNG colour type 2).
        case rgb
        /// Red, green, blue and straight (not premultiplied) alpha: 4 bytes a pixel (PNG colour type 6).
        case rgba

        /// Bytes a pixel: 3 or 4.
        public var bytesPerPixel: Int { self == .rgb ? 3 : 4 }
    }

    /// A background colour stored as the PNG's `bKGD` chunk (8-bit red, green, blue).
    public struct Background: Sendable, Equatable {
        /// The channels, `0…255` each.
        public var red: UInt8, green: UInt8, blue: UInt8

        /// A background of `red`, `green`, `blue` (`0…255` each).
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            (self.red, self.green, self.blue) = (red, green, blue)
        }

        /// White (255, 255, 255).
        public static let white = Background(red: 255, green: 255, blue: 255)
    }

    /// Encodes `width × height` pixels in `layout`, packed rows from the top (`width × layout.bytesPerPixel` bytes a
    /// row, no padding), as PNG bytes: IHDR, `bKGD` when `background` is given, the image data with every row
    /// unfiltered and zlib at `compressionLevel` (`0…9`: 0 stores, 1 is the fastest that compresses, 9 the smallest;
    /// other values are clamped), IEND. The same input always gives the same bytes.
    /// - Throws: ``PNGWriterError`` when the size is empty, larger than PNG allows (2³¹ − 1 a side) or `pixels`
    ///   does not hold `width × height × layout.bytesPerPixel` bytes, or when libpng fails (its message; out of
    ///   memory).
    public static func encode(
        width: Int, height: Int, layout: Layout, pixels: [UInt8], compressionLevel: Int,
        background: Background? = nil
    ) throws -> [UInt8] {
        let limit = Int(Int32.max)
        guard width > 0, height > 0, width <= limit, height <= limit else {
            throw PNGWriterError(description: "a PNG of \(width)×\(height) pixels cannot be written")
        }
        let stride = width * layout.bytesPerPixel
        guard pixels.count == stride * height else {
            throw PNGWriterError(
                description: "\(pixels.count) bytes are not \(width)×\(height) pixels of \(layout.bytesPerPixel) bytes")
        }
        // One IDAT chunk for most map images: up to 1 MB of compressed data a chunk (libpng's default is 8 KB).
        let chunkSize = min(max(pixels.count / 2, 8192), 1 << 20)
        var output = waymark_png_output()
        defer { waymark_png_output_free(&output) }
        let status = pixels.withUnsafeBufferPointer { rows in
            waymark_png_encode(
                rows.baseAddress, stride, png_uint_32(width), png_uint_32(height), layout == .rgba ? 1 : 0,
                Int32(min(max(compressionLevel, 0), 9)), chunkSize, background == nil ? 0 : 1,
                png_uint_16(background?.red ?? 0), png_uint_16(background?.green ?? 0),
                png_uint_16(background?.blue ?? 0), &output)
        }
        guard status == 0, let data = output.data else {
            let message = withUnsafeBytes(of: output.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw PNGWriterError(description: "libpng could not write the PNG: \(message)")
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }
}

/// Why ``PNGWriter`` wrote no PNG: a size or byte count that does not fit, or libpng's own error message.
public struct PNGWriterError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the size or libpng's message.
    public let description: String
}
