import Foundation
import MapGeometry
import StaticMaps
import Testing

/// A bounded fuzz of the query parser and scene: random mutations of Google's parameters never crash or hang; every
/// refusal names a parameter and a 4xx status. (The 10-minute run: `scripts/fuzz/fuzz-static-query.sh`.)
@Suite struct StaticMapQueryFuzzTests {
    /// xorshift64: the same cases on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    static let pieces = [
        "center=", "zoom=", "size=", "scale=", "format=", "maptype=", "markers=", "path=", "visible=", "style=",
        "map_id=", "key=", "signature=", "&", "|", ",", ":", "x", "0x", "enc:", "%", "%7C", "+", "-", ".", "1", "9",
        "90", "180", "-181", "640", "2048", "99999999999999999999", "nan", "inf", "color:", "label:", "size:",
        "icon:", "anchor:", "weight:", "fillcolor:", "geodesic:", "feature:", "element:", "red", "tiny", "A", "é",
        "\u{0}", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "true", "png", "jpg", "http://h/i.png", "topleft", "3,4",
    ]

    static let base =
        "size=64x48&markers=color:blue|label:S|60.17,24.94|60.18,24.95&path=weight:3|color:0xff000080|60.16,24.93"
        + "|60.17,24.96&visible=60.2,25.0"

    @Test func randomQueriesNeverCrash() {
        var g = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var refused = 0
        var drawn = 0
        // WAYMARK_FUZZ_SECONDS=600 runs for that long instead of 4,000 cases (scripts/fuzz/fuzz-static-query.sh).
        let seconds = Double(ProcessInfo.processInfo.environment["WAYMARK_FUZZ_SECONDS"] ?? "") ?? 0
        let end = Date(timeIntervalSinceNow: seconds)
        var cases = 0
        while seconds > 0 ? Date() < end : cases < 4_000 {
            cases += 1
            var query = ""
            if g.next() % 2 == 0 {
                for _ in 0..<(1 + Int(g.next() % 24)) { query += g.pick(Self.pieces) }
            } else {
                // A valid request with a few pieces inserted at random places.
                var chars = Array(Self.base)
                for _ in 0..<(1 + Int(g.next() % 3)) {
                    chars.insert(contentsOf: g.pick(Self.pieces), at: Int(g.next() % UInt64(chars.count + 1)))
                }
                query = String(chars)
            }
            do {
                let request = try StaticMapRequest.parse(StaticMapQuery(query))
                let scene = try StaticMapScene(request: request) { _ in LatLng(latitude: 1, longitude: 2) }
                #expect(scene.camera.zoom.isFinite && scene.camera.zoom >= 0 && scene.camera.zoom <= 22)
                _ = scene.overlay()
                drawn += 1
            } catch {
                #expect((400..<500).contains(error.status), "\(query): \(error)")
                #expect(error.parameter != nil || error.status != 400, "\(query): \(error)")
                refused += 1
            }
        }
        #expect(refused > 0 && drawn > 0, "refused \(refused), drawn \(drawn)")
    }
}
