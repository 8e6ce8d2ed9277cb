import Foundation
import MapTestSupport
import Testing

@Suite struct DemoCLITests {
    /// Width and height from a PNG's IHDR chunk, or nil when `data` is not a PNG.
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func be32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test func demoWritesItsThreeMapsFromAnyWorkingDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try WaymarkProcess.run(["demo"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["demo-helsinki.png", "demo-world.png", "demo-markers.png", "demo-shapes.png"] {
            #expect(r.stdout.contains("out/\(name)"))
            let data = try Data(contentsOf: dir.appendingPathComponent("out/\(name)"))
            let size = try #require(Self.pngSize(data), "\(name) is not a PNG")
            #expect(size == (1280, 720), "\(name) is \(size.0)×\(size.1)")
            // A real map is not a flat colour: a PNG of one colour at this size compresses to a few KB.
            #expect(data.count > 50_000, "\(name) is only \(data.count) bytes")
        }
    }
}
