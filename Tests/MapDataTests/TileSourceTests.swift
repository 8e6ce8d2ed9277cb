import Testing

@testable import MapData

@Suite struct TileSourceTests {
    @Test func withinRangeIsIdentity() {
        let plan = overzoomPlan(for: TileAddress(z: 5, x: 17, y: 9), minZoom: 0, maxZoom: 7)
        #expect(plan == OverzoomTransform(source: TileAddress(z: 5, x: 17, y: 9), scale: 1, offsetX: 0, offsetY: 0))
    }

    @Test func belowMinZoomOrInvalidIsNil() {
        #expect(overzoomPlan(for: TileAddress(z: 3, x: 1, y: 1), minZoom: 4, maxZoom: 14) == nil)
        #expect(overzoomPlan(for: TileAddress(z: 3, x: 8, y: 1), minZoom: 0, maxZoom: 14) == nil)
    }

    /// Helsinki z14 tile 9326/4742 over a z7 world source: 14 − 7 = 7 levels, scale 128;
    /// 9326 = 72·128 + 110 and 4742 = 37·128 + 6 (by hand).
    @Test func aboveMaxZoomUsesTheAncestor() {
        let plan = overzoomPlan(for: TileAddress(z: 14, x: 9326, y: 4742), minZoom: 0, maxZoom: 7)
        #expect(
            plan == OverzoomTransform(source: TileAddress(z: 7, x: 72, y: 37), scale: 128, offsetX: 110, offsetY: 6))
        // The ancestor point at the sub-tile's top-left corner maps to (0, 0) of the requested tile.
        let corner = plan!.apply(x: 110.0 * 4096 / 128, y: 6.0 * 4096 / 128, extent: 4096)
        #expect(corner.x == 0 && corner.y == 0)
        let far = plan!.apply(x: 111.0 * 4096 / 128, y: 7.0 * 4096 / 128, extent: 4096)
        #expect(far.x == 4096 && far.y == 4096)
    }

    @Test func severalSourcesEachUseTheirOwnRange() {
        struct Fake: TileSource {
            var minZoom: Int
            var maxZoom: Int
            var metadata = TileSourceMetadata()
            func tileData(at address: TileAddress) throws -> [UInt8]? { nil }
        }
        let world = Fake(minZoom: 0, maxZoom: 7)
        let city = Fake(minZoom: 10, maxZoom: 14)
        let request = TileAddress(z: 16, x: 37305, y: 18969)
        #expect(world.plan(for: request)?.source == TileAddress(z: 7, x: 72, y: 37))
        #expect(city.plan(for: request)?.source == TileAddress(z: 14, x: 9326, y: 4742))
        #expect(city.plan(for: request)?.scale == 4)
        #expect(city.plan(for: TileAddress(z: 8, x: 145, y: 74)) == nil)
    }
}
