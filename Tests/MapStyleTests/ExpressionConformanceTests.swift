import Foundation
import MapStyle
import MapTestSupport
import Testing

/// Runs MapLibre's expression conformance suite (`../shared/fixtures/maplibre-style-spec`) and requires ≥ 85 %.
@Test(.needsSharedFixtures(expressionSuitePath)) func expressionConformancePassRate() throws {
    let dir = try #require(Fixtures.shared(expressionSuitePath))
    let results = try ExpressionConformance.run(directory: dir.path)
    #expect(results.count > 500, "expected the full suite, found \(results.count) cases")
    // Known gaps are listed in CONFORMANCE.md; print each non-passing case only when asked, so a green run stays quiet.
    if ProcessInfo.processInfo.environment["WAYMARK_CONFORMANCE_VERBOSE"] == "1" {
        for r in results where !r.passed { print("not passing \(r.name): \(r.reason)") }
    }
    let passed = results.filter(\.passed).count
    let rate = Double(passed) / Double(max(1, results.count))
    print(
        "expression conformance: \(passed)/\(results.count) passed (\(Int((rate * 1000).rounded()) / 10)%);"
            + " WAYMARK_CONFORMANCE_VERBOSE=1 lists the others")
    var families: [String: (Int, Int)] = [:]
    for r in results { families[r.family, default: (0, 0)].1 += 1 }
    for r in results where r.passed { families[r.family, default: (0, 0)].0 += 1 }
    for (family, counts) in families.sorted(by: { $0.key < $1.key }) {
        print("family \(family): \(counts.0)/\(counts.1)")
    }
    #expect(rate >= 0.85)
}
