import FoundationEssentials
import MapStyle
import MapTestSupport
import Testing

/// The location of a MapLibre validation message: the text before the first `": "` when it looks like a JSON path
/// (`layers[3].paint.fill-color`), else empty (a root-level message).
func validationLocation(_ message: String) -> String {
    guard let range = message.range(of: ": ") else { return "" }
    let head = String(message[..<range.lowerBound])
    return head.contains(" ") ? "" : head
}

/// Runs the style-spec validation cases (`test/integration/style-spec/tests/*.input.json`) and compares error
/// locations (not wording): a case passes when every expected error location has an error diagnostic at or below it
/// and every error diagnostic lies at or below an expected location. Asserts the recorded floor (33 of 38, see
/// CONFORMANCE.md) so regressions show.
private let styleSpecValidationCases = "maplibre-style-spec/test/integration/style-spec/tests"

@Test(.needsSharedFixtures(styleSpecValidationCases)) func styleValidationCases() throws {
    let dir = try #require(Fixtures.shared(styleSpecValidationCases))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".input.json") }
        .sorted()
    var passed = 0
    for name in names {
        let base = String(name.dropLast(".input.json".count))
        let input = try Data(contentsOf: dir.appendingPathComponent(name))
        let output = try JSONValue.parse(
            bytes: Array(try Data(contentsOf: dir.appendingPathComponent(base + ".output.json"))))
        let expected = (output.arrayValue ?? []).filter { $0["severity"]?.stringValue != "warning" }.map {
            validationLocation($0["message"]?.stringValue ?? "")
        }
        var got: [String] = []
        do {
            let style = try Style.parse(bytes: Array(input), fileName: name)
            // MapLibre words `light` and `terrain` problems without the object's name (`anchor`, not `light.anchor`).
            got = style.errors.map { d in
                for prefix in ["light.", "terrain."] where d.path.hasPrefix(prefix) {
                    return String(d.path.dropFirst(prefix.count))
                }
                return d.path
            }
        } catch {
            got = [""]
        }
        func covers(_ outer: String, _ inner: String) -> Bool {
            outer.isEmpty || inner == outer || inner.hasPrefix(outer + ".") || inner.hasPrefix(outer + "[")
        }
        let missing = expected.filter { e in !got.contains { covers(e, $0) || covers($0, e) } }
        let extra = got.filter { g in !expected.contains { covers($0, g) || covers(g, $0) } }
        if missing.isEmpty && extra.isEmpty {
            passed += 1
        } else {
            if ProcessInfo.processInfo.environment["WAYMARK_CONFORMANCE_VERBOSE"] == "1" {
                print("not passing style-spec/\(base): missing \(missing), unexpected \(extra)")
            }
        }
    }
    print("style-spec validation: \(passed)/\(names.count) passed")
    #expect(names.count >= 30)
    #expect(passed >= 33)
}
