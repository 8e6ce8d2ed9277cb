import MapDrawing
import MapGeometry
import Testing

@testable import MapLayout

/// A placer that places the same symbols again, or the same tiles' parts in another order, reuses what it made of
/// them (PlacementInputMemo.swift); its placements must be those of a placer that starts afresh.
@Suite struct PlacementMemoTests {
    /// Tile (8, 8) at zoom 4 spans screen x 200…456 and y 150…406 of ``testCamera()``; tile (7, 8) x −56…200.
    let east = TileID(z: 4, x: 8, y: 8)
    let west = TileID(z: 4, x: 7, y: 8)

    /// A street laid out in its tile (MapLibre's anchors, 512-pixel tiles) through screen points of ``testCamera()``.
    func street(_ text: String, _ id: UInt64, tile: TileID, layer: Int, _ points: [(Double, Double)]) -> SymbolFeature {
        var symbol = SymbolFeature(
            identity: SymbolIdentity(layer: "road\(layer)", featureID: id, text: text),
            geometry: .line(points.map { world($0.0, $0.1) }), text: text, textStyle: tenPoint, placement: .line,
            layerIndex: layer, spacing: 120, ownerTile: tile)
        symbol.layoutTileSize = 512
        return symbol
    }

    func poi(_ text: String, _ id: UInt64, tile: TileID, at x: Double, _ y: Double) -> SymbolFeature {
        SymbolFeature(
            identity: SymbolIdentity(layer: "poi", featureID: id, text: text), geometry: .point(world(x, y)),
            text: text, textStyle: tenPoint, textPadding: 2, layerIndex: 2, ownerTile: tile)
    }

    /// Three parts (a tile's symbols of one layer each): two carriageways of one street 8 points apart in the east
    /// tile (MapLibre's repeat distance drops the second one's anchors near the first's, so the order within the
    /// part matters), streets in the west tile, and points in the east tile that collide with the streets.
    var parts: [[SymbolFeature]] {
        [
            [
                street("Mannerheimintie", 1, tile: east, layer: 1, [(205, 200), (300, 205), (450, 215)]),
                street("Mannerheimintie", 2, tile: east, layer: 1, [(205, 208), (300, 213), (450, 223)]),
                street("Bulevardi", 3, tile: east, layer: 1, [(210, 390), (330, 300), (450, 280)]),
            ],
            [
                street("Esplanadi", 4, tile: west, layer: 1, [(-50, 250), (60, 240), (195, 260)]),
                street("Esplanadi", 5, tile: west, layer: 1, [(-50, 380), (60, 330), (195, 320)]),
            ],
            [
                poi("Stockmann", 6, tile: east, at: 260, 203), poi("Ateneum", 7, tile: east, at: 330, 260),
                poi("Kiasma", 8, tile: east, at: 335, 262), poi("Tuomiokirkko", 9, tile: east, at: 400, 170),
            ],
        ]
    }

    /// What a placement shows: each label's identity, anchor, flip and drawn text, in placement order.
    func shown(_ result: PlacementResult, _ symbols: [SymbolFeature]) -> [String] {
        result.symbols.map {
            "\(symbols[$0.featureIndex].identity) \($0.screenAnchor) \($0.flipped) \(String(describing: $0.text))"
        }
    }

    @Test func reusedAndReorderedPartsPlaceAsAFreshPlacer() {
        let parts = parts
        let measurer = FixedAdvanceTextMeasurer()
        let kept = SymbolPlacer(measurer: measurer)
        // Frames: an order of the parts and a camera; the second frame keeps the first's array.
        let frames: [([Int], CameraState)] = [
            ([0, 1, 2], testCamera()), ([0, 1, 2], testCamera(bearing: 0.3)), ([2, 0, 1], testCamera(bearing: 20)),
            ([1, 2, 0], testCamera()), ([1, 2, 0], testCamera(bearing: -15)), ([0, 2, 1], testCamera(bearing: 7)),
        ]
        var joined: [SymbolFeature] = []
        var lastOrder: [Int] = []
        var placedLines = 0
        for (order, camera) in frames {
            if order != lastOrder { joined = order.flatMap { parts[$0] } }
            lastOrder = order
            let reused = kept.place(joined, parts: order.map { parts[$0] }, camera: camera)
            let fresh = SymbolPlacer(measurer: measurer).place(joined, camera: camera)
            #expect(shown(reused, joined) == shown(fresh, joined))
            #expect(reused.statistics.placed == fresh.statistics.placed)
            #expect(reused.statistics.candidates == fresh.statistics.candidates)
            placedLines += reused.symbols.filter { if case .lineText? = $0.text { true } else { false } }.count
        }
        // The scene places street labels (the memo's anchors are in use) and collides some candidates.
        #expect(placedLines > 0)
    }

    @Test func thePlacerReusesOnlyPartsThatEachHoldOneLayerOfOneTile() {
        let parts = parts
        let measurer = FixedAdvanceTextMeasurer()
        let kept = SymbolPlacer(measurer: measurer)
        // Two parts of the east tile's street layer: the parts are not used (the repeat distance spans both).
        let split = [Array(parts[0].prefix(1)), Array(parts[0].dropFirst()), parts[1], parts[2]]
        for order in [[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]] {
            let joined = order.flatMap { split[$0] }
            let reused = kept.place(joined, parts: order.map { split[$0] }, camera: testCamera())
            let fresh = SymbolPlacer(measurer: measurer).place(joined, camera: testCamera())
            #expect(shown(reused, joined) == shown(fresh, joined))
        }
    }
}
