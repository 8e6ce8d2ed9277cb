/// A cursor over a contiguous byte buffer, in the style of SwiftNIO's `ByteBuffer`.
///
/// `get…(at:)` methods read at an absolute index and leave the cursor alone; `read…()` methods read at the cursor and
/// advance it. Every method returns `nil` on a short read (the buffer ends before the value does) and then leaves the
/// cursor where it was, so truncated input never traps. The reader is a value type; copies are independent cursors
/// over shared, immutable storage.
public struct ByteReader: Sendable {
    /// The whole buffer. Indices in this type are offsets into it.
    public let bytes: [UInt8]
    /// The offset of the next byte `read…()` returns, in `startIndex...endIndex`.
    public private(set) var readerIndex: Int
    /// The end of the readable window (exclusive). A reader made with ``init(bytes:range:)`` stops here.
    public let endIndex: Int

    /// Creates a reader over the whole of `bytes`, positioned at its start.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        self.readerIndex = 0
        self.endIndex = bytes.count
    }

    /// Creates a reader over `range` of `bytes`, positioned at `range.lowerBound`.
    /// - Precondition: `range` lies within `bytes` (a programmer error otherwise).
    public init(bytes: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "ByteReader range outside the buffer")
        self.bytes = bytes
        self.readerIndex = range.lowerBound
        self.endIndex = range.upperBound
    }

    /// The number of bytes between the cursor and ``endIndex``.
    public var readableBytes: Int { endIndex - readerIndex }

    /// Whether the cursor has reached ``endIndex``.
    public var isAtEnd: Bool { readerIndex >= endIndex }

    /// The byte at absolute offset `index`, or `nil` when `index` is outside the readable window.
    public func getByte(at index: Int) -> UInt8? {
        guard index >= 0 && index < endIndex else { return nil }
        return bytes[index]
    }

    /// Reads one byte and advances by one; `nil` at the end.
    public mutating func readByte() -> UInt8? {
        guard readerIndex < endIndex else { return nil }
        defer { readerIndex += 1 }
        return bytes[readerIndex]
    }

    /// Decodes a base-128 varint (protobuf encoding, at most 10 bytes) starting at `index`.
    /// - Returns: the value and the number of bytes it used, or `nil` when the buffer ends inside the varint or the
    ///   varint is longer than 10 bytes.
    public func getVarint(at index: Int) -> (value: UInt64, length: Int)? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var i = index
        while i < endIndex && i >= 0 {
            let byte = bytes[i]
            // The 10th byte may only contribute the top bit of a 64-bit value; extra bits are dropped like protobuf.
            result |= UInt64(byte & 0x7F) << shift
            i += 1
            if byte & 0x80 == 0 { return (result, i - index) }
            shift += 7
            if shift >= 70 { return nil }
        }
        return nil
    }

    /// Reads a varint at the cursor and advances past it; `nil` (cursor unchanged) when truncated or over-long.
    public mutating func readVarint() -> UInt64? {
        guard let (value, length) = getVarint(at: readerIndex) else { return nil }
        readerIndex += length
        return value
    }

    /// Reads a little-endian 32-bit value (protobuf `fixed32`/`float` wire type 5); `nil` when fewer than 4 bytes remain.
    public mutating func readFixed32() -> UInt32? {
        guard readableBytes >= 4 else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(bytes[readerIndex + k]) << (8 * UInt32(k)) }
        readerIndex += 4
        return value
    }

    /// Reads a little-endian 64-bit value (protobuf `fixed64`/`double` wire type 1); `nil` when fewer than 8 remain.
    public mutating func readFixed64() -> UInt64? {
        guard readableBytes >= 8 else { return nil }
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(bytes[readerIndex + k]) << (8 * UInt64(k)) }
        readerIndex += 8
        return value
    }

    /// Reads the range of the next `count` bytes and advances past them; `nil` when fewer than `count` remain or
    /// `count` is negative.
    public mutating func readRange(count: Int) -> Range<Int>? {
        guard count >= 0 && count <= readableBytes else { return nil }
        let range = readerIndex..<(readerIndex + count)
        readerIndex += count
        return range
    }

    /// Moves the cursor forward by `count` bytes; returns `false` (cursor unchanged) when fewer than `count` remain.
    public mutating func skip(count: Int) -> Bool {
        readRange(count: count) != nil
    }
}

/// Protobuf zigzag decoding (`sint32`/`sint64`, and MVT geometry parameters): 0→0, 1→−1, 2→1, 3→−2, …
/// - Parameter value: the raw unsigned varint.
/// - Returns: the signed value; every `UInt64` maps to exactly one `Int64`.
@inlinable public func zigzagDecode(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
}

/// Protobuf zigzag encoding, the inverse of ``zigzagDecode(_:)``: 0→0, −1→1, 1→2, −2→3, …
@inlinable public func zigzagEncode(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
}
