import Testing

@testable import MapData

@Suite struct VarintTests {
    /// Protobuf encoding examples worked by hand: 300 = 0b1_0010_1100 → AC 02.
    @Test(arguments: [
        ([0x00], UInt64(0), 1),
        ([0x01], UInt64(1), 1),
        ([0x7F], UInt64(127), 1),
        ([0x80, 0x01], UInt64(128), 2),
        ([0xAC, 0x02], UInt64(300), 2),
        ([0xFF, 0xFF, 0xFF, 0xFF, 0x0F], UInt64(UInt32.max), 5),
        ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], UInt64.max, 10),
    ])
    func decodesVarints(bytes: [UInt8], value: UInt64, length: Int) {
        var reader = ByteReader(bytes: bytes + [0x55])
        #expect(reader.getVarint(at: 0)?.value == value)
        #expect(reader.getVarint(at: 0)?.length == length)
        #expect(reader.readVarint() == value)
        #expect(reader.readerIndex == length)
        #expect(reader.readByte() == 0x55)
        #expect(reader.readByte() == nil)
    }

    @Test(arguments: [[0x80], [0xFF, 0xFF], [0x80, 0x80, 0x80], Array(repeating: UInt8(0x80), count: 11)])
    func truncatedOrOverlongVarintIsNilAndLeavesTheCursor(bytes: [UInt8]) {
        var reader = ByteReader(bytes: bytes)
        #expect(reader.readVarint() == nil)
        #expect(reader.readerIndex == 0)
    }

    @Test func windowStopsReads() {
        var reader = ByteReader(bytes: [0x01, 0x80, 0x01, 0x05], range: 1..<2)
        #expect(reader.readVarint() == nil)  // 0x80 0x01 straddles the window end
        #expect(reader.getByte(at: 3) == nil)
        #expect(reader.readRange(count: 2) == nil)
        #expect(reader.readRange(count: 1) == 1..<2)
        #expect(reader.isAtEnd)
    }

    @Test func fixedWidthValuesAreLittleEndian() {
        var reader = ByteReader(bytes: [0x78, 0x56, 0x34, 0x12, 1, 0, 0, 0, 0, 0, 0, 0x80, 9])
        #expect(reader.readFixed32() == 0x1234_5678)
        #expect(reader.readFixed64() == 0x8000_0000_0000_0001)
        #expect(reader.readFixed32() == nil)
        #expect(reader.readerIndex == 12)
    }

    /// The zigzag table from the protobuf encoding guide.
    @Test(arguments: [
        (UInt64(0), Int64(0)), (1, -1), (2, 1), (3, -2), (4_294_967_294, 2_147_483_647),
        (4_294_967_295, -2_147_483_648),
        (UInt64.max, Int64.min), (UInt64.max - 1, Int64.max),
    ])
    func zigzag(encoded: UInt64, decoded: Int64) {
        #expect(zigzagDecode(encoded) == decoded)
        #expect(zigzagEncode(decoded) == encoded)
    }
}
