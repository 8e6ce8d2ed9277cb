import Foundation
import MapTestSupport
import Testing

@testable import MapData

/// Hand-made glyph PBFs (hostile and edge cases), written with MapData's own protobuf writer.
private enum PB {
    static func glyph(id: UInt64, width: UInt64, height: UInt64, bitmap: Int?, left: Int64 = -1, top: Int64 = -5)
        -> [UInt8]
    {
        var g = ProtoWriter()
        g.varintField(1, id)
        if let bitmap { g.bytesField(2, [UInt8](repeating: 192, count: bitmap)) }
        g.varintField(3, width)
        g.varintField(4, height)
        g.varintField(5, zigzagEncode(left))
        g.varintField(6, zigzagEncode(top))
        g.varintField(7, 9)
        return g.bytes
    }
    static func pbf(name: String, range: String, glyphs: [[UInt8]]) -> [UInt8] {
        var stack = ProtoWriter()
        stack.bytesField(1, Array(name.utf8))
        stack.bytesField(2, Array(range.utf8))
        for g in glyphs { stack.bytesField(3, g) }
        var root = ProtoWriter()
        root.bytesField(1, stack.bytes)
        return root.bytes
    }
}

/// The glyph PBF decoder (MapLibre/Mapbox `glyphs.proto`) and the glyph store a renderer queries.
struct GlyphPBFTests {
    static let realRange =
        "maplibre-native-render/metrics/integration/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf"

    @Test(.needsSharedFixtures(realRange))
    func aRealGlyphRangeDecodes() throws {
        let bytes = try [UInt8](Data(contentsOf: #require(Fixtures.shared(Self.realRange))))
        let pbf = try GlyphPBF(bytes: bytes, name: "0-255.pbf")
        #expect(pbf.stacks.count == 1)
        let stack = try #require(pbf.stacks.first)
        #expect(stack.range == "0-255")
        #expect(stack.name.contains("Open Sans Semibold"), "\(stack.name)")
        #expect(GlyphPBF.codepoints(ofRange: stack.range) == 0...255)
        #expect(pbf.skippedGlyphs == 0)
        #expect(stack.glyphs.count > 90, "the printable ASCII range at least: \(stack.glyphs.count)")
        #expect(stack.glyphs.allSatisfy { (0...255).contains($0.id) })
        let a = try #require(stack.glyphs.first { $0.id == 65 })
        // A capital A at 24 px: about 15 px wide and 17 px tall, sitting on the baseline.
        #expect((10...20).contains(a.width) && (14...20).contains(a.height), "\(a.width)×\(a.height)")
        #expect(a.bitmap.count == (a.width + 6) * (a.height + 6))
        #expect(a.advance > a.width / 2 && a.advance < 30)
        #expect(a.bitmap.contains { $0 > 192 } && a.bitmap.contains { $0 < 64 }, "inside and outside the edge")
        let space = try #require(stack.glyphs.first { $0.id == 32 })
        #expect(space.bitmap.isEmpty && space.advance > 0)
        // Every prefix either decodes or throws an error naming the input; never a crash.
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            do {
                _ = try GlyphPBF(bytes: Array(bytes[..<cut]), name: "cut")
            } catch {
                #expect(error.name == "cut")
            }
        }
        // Bytes flipped at pseudo-random places (a fixed LCG): decodes or throws.
        var seed: UInt64 = 0x9E37_79B9
        for _ in 0..<300 {
            var copy = bytes
            for _ in 0..<4 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                copy[Int(seed >> 33) % copy.count] ^= UInt8(truncatingIfNeeded: seed >> 17) | 1
            }
            _ = try? GlyphPBF(bytes: copy)
        }
    }

    @Test func glyphsBreakingTheRulesAreSkippedAndBadInputThrows() throws {
        let good = PB.glyph(id: 65, width: 2, height: 3, bitmap: 8 * 9)
        let space = PB.glyph(id: 32, width: 0, height: 0, bitmap: nil)
        let wrongBitmap = PB.glyph(id: 66, width: 2, height: 3, bitmap: 10)
        let tooWide = PB.glyph(id: 67, width: 256, height: 3, bitmap: 262 * 9)
        let notScalar = PB.glyph(id: 0xD800, width: 0, height: 0, bitmap: nil)
        let beyond = PB.glyph(id: 0x11_0000, width: 0, height: 0, bitmap: nil)
        let bytes = PB.pbf(
            name: "Test Regular", range: "0-255", glyphs: [good, space, wrongBitmap, tooWide, notScalar, beyond])
        let pbf = try GlyphPBF(bytes: bytes)
        #expect(pbf.stacks.first?.glyphs.map(\.id) == [65, 32])
        #expect(pbf.skippedGlyphs == 4)
        let a = try #require(pbf.stacks.first?.glyphs.first)
        #expect(
            a
                == SDFGlyph(
                    id: 65, bitmap: [UInt8](repeating: 192, count: 72), width: 2, height: 3, left: -1, top: -5,
                    advance: 9))

        #expect(throws: GlyphPBFError.self) { try GlyphPBF(bytes: Array(bytes.dropLast(3)), name: "short") }
        #expect(
            throws: GlyphPBFError(
                name: "big",
                message: "\(GlyphPBFLimits.maxBytes + 1) bytes is over the limit of \(GlyphPBFLimits.maxBytes)")
        ) {
            try GlyphPBF(bytes: [UInt8](repeating: 0, count: GlyphPBFLimits.maxBytes + 1), name: "big")
        }
        var wireType = ProtoWriter()
        wireType.varintField(1, 7)  // stacks as a varint
        #expect(throws: GlyphPBFError.self) { try GlyphPBF(bytes: wireType.bytes) }
        var huge = ProtoWriter()
        huge.varint(1 << 3 | 2)
        huge.varint(UInt64.max >> 1)  // a length past the end
        #expect(throws: GlyphPBFError.self) { try GlyphPBF(bytes: huge.bytes) }
        let many = PB.pbf(
            name: "x", range: "0-255", glyphs: Array(repeating: space, count: GlyphPBFLimits.maxGlyphs + 1))
        #expect(throws: GlyphPBFError.self) { try GlyphPBF(bytes: many) }
        #expect(try GlyphPBF(bytes: []).stacks.isEmpty)
        #expect(GlyphPBF.codepoints(ofRange: "256-511") == 256...511)
        #expect(GlyphPBF.codepoints(ofRange: "9-3") == nil && GlyphPBF.codepoints(ofRange: "x") == nil)
    }

    @Test func theStoreLoadsEachRangeOnceRemembersFailuresAndStaysBounded() throws {
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var list: [String] = []
            func add(_ s: String) {
                lock.lock()
                list.append(s)
                lock.unlock()
            }
        }
        let calls = Calls()
        let glyphA = PB.glyph(id: 65, width: 2, height: 3, bitmap: 72)
        let glyph300 = PB.glyph(id: 300, width: 2, height: 3, bitmap: 72)
        let store = GlyphStore(byteLimit: 200) { stack, start in
            calls.add("\(stack)@\(start)")
            switch (stack, start) {
            case ("Sans", 0): return PB.pbf(name: "Sans", range: "0-255", glyphs: [glyphA])
            case ("Sans", 256): return PB.pbf(name: "Sans", range: "256-511", glyphs: [glyph300])
            case ("Broken", _): return [0xFF]
            case ("Offline", _): throw CocoaError(.fileReadNoPermission)
            default: return nil
            }
        }
        #expect(store.cachedRange(fontstack: "Sans", containing: 65) == nil, "never loads")
        #expect(store.glyph(fontstack: "Sans", codepoint: 65)?.width == 2)
        #expect(store.glyph(fontstack: "Sans", codepoint: 66) == nil)
        #expect(store.cachedRange(fontstack: "Sans", containing: 200)?.glyphs.count == 1)
        #expect(calls.list == ["Sans@0"], "one load for the range")
        #expect(store.range(fontstack: "Missing", containing: 10).glyphs.isEmpty)
        let broken = store.range(fontstack: "Broken", containing: 0)
        #expect(broken.problem?.contains("Broken 0-255") == true, "\(broken.problem ?? "nil")")
        #expect(store.range(fontstack: "Offline", containing: 0).problem != nil)
        _ = store.range(fontstack: "Broken", containing: 1)
        #expect(calls.list.filter { $0.hasPrefix("Broken") }.count == 1, "a failure is remembered")
        #expect(store.range(fontstack: "Sans", containing: 300).codepoints == 256...511)
        #expect(store.byteCount <= 200, "\(store.byteCount)")
        #expect(store.cachedRange(fontstack: "Sans", containing: 65) == nil, "the oldest range went out")
        #expect(GlyphStore.rangeStart(of: -5) == 0 && GlyphStore.rangeStart(of: 0x20_0000) == 0x10_FF00)
    }
}
