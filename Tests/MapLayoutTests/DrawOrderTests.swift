import MapDrawing
import MapGeometry
import MapLayout
import MapTestSupport
import Testing

@Suite struct DrawOrderTests {
    let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())

    func texts(_ commands: [DrawCommand]) -> [String] {
        commands.compactMap { if case .text(let t) = $0 { return t.text } else { return nil } }
    }

    @Test func viewportYOrderDrawsHigherAnchorsFirstAndPlacementOrderOtherwise() {
        var low = pointLabel("LOW", at: 100, 110)
        var high = pointLabel("HIGH", at: 104, 90, layer: "other")
        low.textAllowOverlap = true
        high.textAllowOverlap = true
        // Placement order: `low` first (input order).
        let plain = placer.place([low, high], camera: testCamera())
        #expect(placedTexts(plain) == ["LOW", "HIGH"])
        #expect(texts(plain.drawCommands()) == ["LOW", "HIGH"])
        // By viewport y: the higher anchor is drawn first, the lower one over it.
        low.drawsByViewportY = true
        high.drawsByViewportY = true
        let sorted = placer.place([low, high], camera: testCamera())
        #expect(sorted.drawOrder() == [1, 0])
        #expect(texts(sorted.drawCommands()) == ["HIGH", "LOW"])
        var fades = LabelFades()
        let faded = fades.advance(sorted, camera: testCamera().transform, now: 0, duration: 0, stabilityTolerance: 16)
        #expect(texts(faded.commandsByLayer(sorted)[0] ?? []) == ["HIGH", "LOW"])
        // Equal heights: the later feature first.
        var left = pointLabel("LEFT", at: 60, 100)
        var right = pointLabel("RGHT", at: 140, 100, layer: "other")
        left.drawsByViewportY = true
        right.drawsByViewportY = true
        #expect(texts(placer.place([left, right], camera: testCamera()).drawCommands()) == ["RGHT", "LEFT"])
    }
}
