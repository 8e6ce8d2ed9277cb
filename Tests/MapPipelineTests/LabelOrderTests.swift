import MapDrawing
import MapGeometry
import MapLayout
import Testing

@testable import MapPipeline

private func symbol(_ name: String, id: UInt64) -> SymbolFeature {
    SymbolFeature(
        identity: SymbolIdentity(layer: "l", featureID: id, text: name), geometry: .point(WorldPoint(x: 0.5, y: 0.5)),
        text: name, textStyle: TextStyle(size: 12))
}

@Test func tilesAreOfferedFinerFirstThenTopToBottomAndLeftToRight() {
    let tiles = [
        TileID(z: 1, x: 1, y: 1), TileID(z: 1, x: 0, y: 0), TileID(z: 2, x: 3, y: 3), TileID(z: 1, x: 1, y: 0),
        TileID(z: 1, x: 1, y: 0, wrap: -1), TileID(z: 1, x: 0, y: 1),
    ]
    let order = LabelOrder.tileOrder(tiles, bearing: 0).map { tiles[$0] }
    #expect(
        order == [
            TileID(z: 2, x: 3, y: 3), TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 0, wrap: -1),
            TileID(z: 1, x: 1, y: 0), TileID(z: 1, x: 0, y: 1), TileID(z: 1, x: 1, y: 1),
        ])
}

@Test func underABearingTheTopOfTheTurnedMapComesFirst() {
    // Bearing 90: east is up, so the eastern column comes first, and along it the north (now the left) first.
    let tiles = [
        TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 1), TileID(z: 1, x: 0, y: 1), TileID(z: 1, x: 1, y: 0),
    ]
    let order = LabelOrder.tileOrder(tiles, bearing: 90).map { tiles[$0] }
    #expect(
        order == [
            TileID(z: 1, x: 1, y: 0), TileID(z: 1, x: 1, y: 1), TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 0, y: 1),
        ])
}

@Test func aSortKeyLayerOffersLaterFeaturesFirstAndKeepsEachFeaturesPieces() {
    var keyed = [symbol("A", id: 1), symbol("B", id: 2), symbol("B", id: 2), symbol("C", id: 3)]
    var next = 10
    LabelOrder.number(&keyed, sortsByKey: true, from: &next)
    #expect(keyed.map(\.sourceOrder) == [13, 11, 12, 10])
    #expect(next == 14)
    var plain = [symbol("A", id: 1), symbol("B", id: 2)]
    LabelOrder.number(&plain, sortsByKey: false, from: &next)
    #expect(plain.map(\.sourceOrder) == [14, 15])
}
