import MapDrawing
import MapGeometry
import MapLayout
import Testing

/// A label scene drawn as text (practice 11): every character is a 10 × 10-point cell of the 400 × 300 test view,
/// and a digit 1–9 marks a label anchor at its cell's centre. Label `n` reads "LABELn" (36 × 12 points at 10 pt,
/// no padding) and has sort key `n`, so a lower digit has priority.
struct MarkedScene {
    var markers: [Int: ScreenPoint] = [:]

    init(_ text: String) {
        for (row, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in line.enumerated() {
                guard let digit = character.wholeNumberValue, digit > 0 else { continue }
                markers[digit] = ScreenPoint(x: Double(column) * 10 + 5, y: Double(row) * 10 + 5)
            }
        }
    }

    var symbols: [SymbolFeature] {
        markers.keys.sorted(by: >).map { n in
            pointLabel("LABEL\(n)", at: markers[n]!.x, markers[n]!.y, sortKey: Double(n))
        }
    }
}

@Suite struct MarkedSceneTests {
    @Test(arguments: [
        // 1 and 2 are 20 points apart on a row (boxes 36 wide overlap); 3 is two rows down (boxes 12 tall do not).
        (".1.2......\n..........\n......3...", [1, 3]),
        // A chain: 1 beats 2, which then no longer blocks 3.
        ("1..2..3", [1, 3]),
        // Vertical neighbours one row apart overlap (12 > 10); the lower digit wins wherever it is.
        ("2\n1", [1]),
        ("1\n2", [1]),
        // 40 points apart the 36-point boxes leave a gap; 30 apart they overlap.
        ("9...1", [1, 9]),
        ("9..1", [1]),
        // Diagonal: 30 across and 10 down, overlapping on both axes.
        ("5..\n...4", [4]),
    ])
    func lowerMarkerWins(scene: String, expected: [Int]) {
        let marked = MarkedScene(scene)
        let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
        let result = placer.place(marked.symbols, camera: testCamera())
        let placed = placedTexts(result).compactMap { Int($0.dropFirst(5)) }.sorted()
        #expect(placed == expected, "scene:\n\(scene)")
    }
}
