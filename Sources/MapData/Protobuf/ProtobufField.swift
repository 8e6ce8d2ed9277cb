/// One protobuf field read from the wire: its number and its payload.
///
/// Internal to the tile decoder; groups (wire types 3 and 4, deprecated) are rejected as malformed.
struct ProtobufField {
    /// The field's payload by wire type.
    enum Payload {
        /// Wire type 0.
        case varint(UInt64)
        /// Wire type 1 (little-endian 8 bytes).
        case fixed64(UInt64)
        /// Wire type 2: the byte range of the payload inside the reader's buffer.
        case lengthDelimited(Range<Int>)
        /// Wire type 5 (little-endian 4 bytes).
        case fixed32(UInt32)
    }

    var number: UInt64
    var payload: Payload

    /// The wire type name for diagnostics.
    var wireTypeName: String {
        switch payload {
        case .varint: return "varint"
        case .fixed64: return "fixed64"
        case .lengthDelimited: return "length-delimited"
        case .fixed32: return "fixed32"
        }
    }
}

extension ByteReader {
    /// Reads the next field (key and payload) at the cursor.
    /// - Returns: `nil` at the end of the window.
    /// - Throws: ``VectorTileError/malformed(_:)`` when the key or payload is truncated, the field number is 0, or the
    ///   wire type is a group or unknown.
    mutating func readField(context: @autoclosure () -> String) throws(VectorTileError) -> ProtobufField? {
        if isAtEnd { return nil }
        guard let key = readVarint() else { throw .malformed("\(context()): truncated field key") }
        let number = key >> 3
        guard number != 0 else { throw .malformed("\(context()): field number 0") }
        switch key & 7 {
        case 0:
            guard let v = readVarint() else { throw .malformed("\(context()): truncated varint in field \(number)") }
            return ProtobufField(number: number, payload: .varint(v))
        case 1:
            guard let v = readFixed64() else { throw .malformed("\(context()): truncated fixed64 in field \(number)") }
            return ProtobufField(number: number, payload: .fixed64(v))
        case 2:
            guard let length = readVarint(), length <= UInt64(readableBytes),
                let range = readRange(count: Int(length))
            else { throw .malformed("\(context()): length of field \(number) runs past the end of the buffer") }
            return ProtobufField(number: number, payload: .lengthDelimited(range))
        case 5:
            guard let v = readFixed32() else { throw .malformed("\(context()): truncated fixed32 in field \(number)") }
            return ProtobufField(number: number, payload: .fixed32(v))
        default:
            throw .malformed("\(context()): unsupported wire type \(key & 7) in field \(number)")
        }
    }
}
