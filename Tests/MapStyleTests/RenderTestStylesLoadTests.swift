import Foundation
import MapStyle
import MapTestSupport
import Testing

private let renderTestFolder = "maplibre-native-render"

/// Every `style.json` of the MapLibre render-test suite loads, and its only error diagnostics are the deliberately
/// unsupported `feature-state` (the render conformance run depends on this loader).
@Test(.needsSharedFixtures(renderTestFolder)) func renderTestStylesLoadWithoutErrors() throws {
    let root = try #require(Fixtures.shared(renderTestFolder))
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
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
