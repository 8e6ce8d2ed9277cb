import CZlib

/// The compression a tile payload starts with, recognised by its first bytes.
enum TileCompression: Equatable {
    /// `1f 8b`: gzip (RFC 1952).
    case gzip
    /// A valid zlib header (RFC 1950: CMF 0x78 … and `(CMF·256 + FLG) % 31 == 0`).
    case zlib
    /// Anything else: the payload is used as is.
    case none

    init(sniffing bytes: [UInt8]) {
        if bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B {
            self = .gzip
        } else if bytes.count >= 2 && bytes[0] & 0x0F == 8 && bytes[0] >> 4 <= 7
            && (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0
        {
            self = .zlib
        } else {
            self = .none
        }
    }
}

/// Why inflating failed.
struct InflateError: Error, CustomStringConvertible {
    var description: String
}

/// Inflates gzip or zlib data (auto-detected by zlib: window bits 15 + 32).
///
/// `inflateInit2` is a C macro Swift cannot import, so this calls `inflateInit2_` with the version and stream size
/// the macro would pass (toolchain notes §1).
/// - Parameters:
///   - input: the compressed bytes.
///   - limit: the largest output accepted, in bytes (guards against decompression bombs). Defaults to 64 MiB.
/// - Returns: the decompressed bytes of the first stream (anything after it is ignored), at most `limit` of them.
/// - Throws: ``InflateError`` for corrupt or truncated input, or output beyond `limit`.
func inflate(_ input: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
    var stream = z_stream()
    let initStatus = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard initStatus == Z_OK else { throw InflateError(description: "zlib init failed (\(initStatus))") }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: max(16_384, min(input.count * 4, 1 << 20)))
    var status: Int32 = Z_OK
    try input.withUnsafeBufferPointer { inBuffer in
        stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
        stream.avail_in = uInt(inBuffer.count)
        repeat {
            let produced = chunk.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return outBuffer.count - Int(stream.avail_out)
            }
            guard status == Z_OK || status == Z_STREAM_END else {
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw InflateError(description: "corrupt compressed data (\(message))")
            }
            // Checked before appending, so a bomb never holds more than `limit` bytes.
            guard produced <= limit - output.count else {
                throw InflateError(description: "inflated size exceeds \(limit) bytes")
            }
            output.append(contentsOf: chunk[0..<produced])
            if status == Z_OK && produced == 0 && stream.avail_in == 0 {
                throw InflateError(description: "truncated compressed data")
            }
        } while status != Z_STREAM_END
    }
    return output
}

/// Inflates `bytes` when they start with a gzip or zlib header; returns them unchanged otherwise.
func inflateIfCompressed(_ bytes: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
    switch TileCompression(sniffing: bytes) {
    case .gzip, .zlib: return try inflate(bytes, limit: limit)
    case .none: return bytes
    }
}

/// Compresses `input` as one gzip member (RFC 1952, zlib's default level, no file name, mtime 0), so the same input
/// always gives the same bytes. Used for archives' tiles and for the Static Maps server's text answers
/// (`Content-Encoding: gzip`). Any thread.
/// - Throws: ``InflateError`` when zlib fails (out of memory).
public func gzipCompress(_ input: [UInt8]) throws -> [UInt8] {
    try deflateAll(input, level: Z_DEFAULT_COMPRESSION, windowBits: 15 + 16)
}

private func deflateAll(_ input: [UInt8], level: Int32, windowBits: Int32) throws -> [UInt8] {
    var stream = z_stream()
    let status = deflateInit2_(
        &stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw InflateError(description: "zlib deflate init failed (\(status))") }
    defer { deflateEnd(&stream) }
    let capacity = Int(deflateBound(&stream, uLong(input.count))) + 32
    var failure: Int32?
    let output = input.withUnsafeBufferPointer { inBuffer in
        [UInt8](unsafeUninitializedCapacity: capacity) { outBuffer, produced in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = uInt(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            let result = deflate(&stream, Z_FINISH)
            if result != Z_STREAM_END { failure = result }
            produced = failure == nil ? outBuffer.count - Int(stream.avail_out) : 0
        }
    }
    if let failure { throw InflateError(description: "zlib deflate failed (\(failure))") }
    return output
}
