import Foundation
import MapStyle
import MapTestSupport
import Testing

/// Every `style.json` of the MapLibre render-test suite loads, and its only error diagnostics are the deliberately
/// unsupported `feature-state` (the render conformance run depends on this loader).
@Test func renderTestStylesLoadWithoutErrors() throws {
    guard let root = Fixtures.shared("maplibre-native-render") else {
        print(Fixtures.missingSharedFixturesMessage)
        return
    }
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return }
    var files = 0
    while let relative = enumerator.nextObject() as? String {
        guard relative.hasSuffix("style.json") else { continue }
        files += 1
        let style = try Style.load(contentsOfFile: root.appendingPathComponent(relative).path)
        for error in style.errors where !error.message.contains("feature-state") {
            Issue.record("\(relative): \(error)")
        }
    }
    #expect(files > 100)
}
