import MapDrawing
import MapGeometry
import MapLayout
import MapTestSupport
import Testing

/// Which labels collide and in which order a layer's labels draw: `symbol-z-order`, `symbol-sort-key` draw groups
/// and MapLibre's `crossSourceCollisions`.
@Suite struct SymbolOrderTests {
    let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())

    /// The names of a layer's commands: text as its string, icons as `icon<id>`.
    func names(_ commands: [DrawCommand]) -> [String] {
        commands.compactMap { command in
            switch command {
            case .text(let t): return t.text
            case .image(let i): return "icon\(i.image.id)"
            default: return nil
            }
        }
    }

    @Test func viewportYPlacesLowerSymbolsFirst() {
        // Overlapping labels: in source order "HIGH" would win; by viewport y the lower "LOWW" does.
        var high = pointLabel("HIGH", at: 100, 100, sourceOrder: 0)
        var low = pointLabel("LOWW", at: 100, 105, sourceOrder: 1)
        #expect(placedTexts(placer.place([high, low], camera: testCamera())) == ["HIGH"])
        high.placesByViewportY = true
        low.placesByViewportY = true
        #expect(placedTexts(placer.place([high, low], camera: testCamera())) == ["LOWW"])
    }

    @Test func viewportYDrawsTopToBottom() {
        let labels = [(120.0, "CCCC"), (100, "AAAA"), (110, "BBBB")].enumerated().map { i, entry -> SymbolFeature in
            var s = pointLabel(entry.1, at: 100, entry.0, sourceOrder: i)
            s.textAllowOverlap = true
            s.drawsByViewportY = true
            return s
        }
        #expect(names(placer.place(labels, camera: testCamera()).drawCommands()) == ["AAAA", "BBBB", "CCCC"])
    }

    @Test func sortKeysDrawKeyByKeyIconsThenTexts() {
        // Keys 1 and 0 at the same point, overlap allowed: key 0's icon and text, then key 1's.
        let labels = [(1.0, "ONE", 1), (0, "ZERO", 2)].map { key, text, id -> SymbolFeature in
            var s = pointLabel(text, at: 200, 150, sortKey: key)
            s.textAllowOverlap = true
            s.icon = SymbolIcon(
                size: ScreenSize(width: 8, height: 8), allowOverlap: true,
                image: ImageHandle(id: id, pixelWidth: 8, pixelHeight: 8, scale: 1))
            return s
        }
        let result = placer.place(labels, camera: testCamera())
        var fades = LabelFades()
        let faded = fades.advance(result, camera: testCamera().transform, now: 0, duration: 0, stabilityTolerance: 16)
        #expect(names(faded.commandsByLayer(result)[0] ?? []) == ["icon2", "ZERO", "icon1", "ONE"])
        // Without keys: every icon, then every text.
        let plain = labels.map { s -> SymbolFeature in
            var s = s
            s.sortKey = nil
            return s
        }
        let unkeyed = placer.place(plain, camera: testCamera())
        #expect(names(faded.commandsByLayer(unkeyed)[0] ?? []) == ["icon1", "icon2", "ONE", "ZERO"])
    }

    @Test func collisionGroupsCollideOnlyWithinWithoutCrossSourceCollisions() {
        let labels = ["a", "b", "a"].enumerated().map { i, group -> SymbolFeature in
            var s = pointLabel("L\(i)", at: 200, 150, sourceOrder: i)
            s.collisionGroup = group
            return s
        }
        // One index for every source: only the first label fits.
        #expect(placedTexts(placer.place(labels, camera: testCamera())) == ["L0"])
        // An index per source: the first label of each source fits.
        let separate = SymbolPlacer(
            measurer: FixedAdvanceTextMeasurer(), options: PlacementOptions(crossSourceCollisions: false))
        #expect(placedTexts(separate.place(labels, camera: testCamera())) == ["L0", "L1"])
    }
}
