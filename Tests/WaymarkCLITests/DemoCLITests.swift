import Foundation
import MapDrawing
import MapDrawingCairo
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

    /// A minimal server container has no fonts: an empty fontconfig configuration (no `<dir>`) in the child process
    /// (fontconfig reads its configuration once per process). The demo still writes its maps, with markers and the
    /// info window (its bubble, without the text that would be hex boxes), prints one warning naming the package to
    /// install, and exits with 3.
    @Test func demoWithoutFontsWarnsOnceAndStillDrawsMarkersAndTheInfoWindow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-nofonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("fonts.conf")
        try Data(
            """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig><cachedir>\(dir.path)/fontcache</cachedir></fontconfig>
            """.utf8
        ).write(to: config)
        let r = try WaymarkProcess.run(["demo"], in: dir, environment: ["FONTCONFIG_FILE": config.path])
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "warning:").count - 1 == 1, "\(r.stderr)")
        #expect(r.stderr.contains("apt-get install \(FontAvailability.recommendedPackage)"), "\(r.stderr)")
        let image = try PNGCodec.read(path: dir.appendingPathComponent("out/demo-markers.png").path)
        // The restaurant pins' orange body (0.91, 0.45, 0.13): many pins on the demo map, none in the basemap.
        var orange = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let p = image.premultipliedRGBA(x: x, y: y) else { continue }
                if abs(Int(p.r) - 232) < 6 && abs(Int(p.g) - 115) < 6 && abs(Int(p.b) - 33) < 6 { orange += 1 }
            }
        }
        #expect(orange > 2000, "only \(orange) pin-orange pixels: the markers were not drawn")
        // The Ateneum's info window: a white bubble above its pin, near the centre of the map.
        var white = 0
        for y in 252..<286 {
            for x in 592..<660 {
                if let p = image.premultipliedRGBA(x: x, y: y), p.r > 250, p.g > 250, p.b > 250 { white += 1 }
            }
        }
        #expect(white > 34 * 68 / 2, "the info window was not drawn (\(white) white pixels)")
        // Its title is skipped, not drawn as hex boxes (LinuxUIKit's text drawing checks FontAvailability).
        var dark = 0
        for y in 252..<286 {
            for x in 592..<660 {
                if let p = image.premultipliedRGBA(x: x, y: y), p.r < 160, p.g < 160, p.b < 160 { dark += 1 }
            }
        }
        #expect(dark == 0, "\(dark) dark pixels in the info window: its text was drawn as boxes")
    }
}
