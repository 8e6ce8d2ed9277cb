import MapGeometry
import Testing

@testable import MapData

@Suite struct TileSourceTests {
    @Test func withinRangeIsIdentity() {
        let plan = overzoomPlan(for: TileID(z: 5, x: 17, y: 9), minZoom: 0, maxZoom: 7)
        #expect(plan == OverzoomTransform(source: TileID(z: 5, x: 17, y: 9), scale: 1, offsetX: 0, offsetY: 0))
    }

    @Test func belowMinZoomIsNil() {
        #expect(overzoomPlan(for: TileID(z: 3, x: 1, y: 1), minZoom: 4, maxZoom: 14) == nil)
        #expect(overzoomPlan(for: TileID(z: 4, x: 1, y: 1), minZoom: 4, maxZoom: 14) != nil)
    }

    /// Helsinki z14 tile 9326/4742 over a z7 world source: 14 − 7 = 7 levels, scale 128;
    /// 9326 = 72·128 + 110 and 4742 = 37·128 + 6 (by hand).
    @Test func aboveMaxZoomUsesTheAncestor() {
        let plan = overzoomPlan(for: TileID(z: 14, x: 9326, y: 4742), minZoom: 0, maxZoom: 7)
        #expect(
            plan == OverzoomTransform(source: TileID(z: 7, x: 72, y: 37), scale: 128, offsetX: 110, offsetY: 6))
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
            func tileData(at address: TileID) throws -> [UInt8]? { nil }
        }
        let world = Fake(minZoom: 0, maxZoom: 7)
        let city = Fake(minZoom: 10, maxZoom: 14)
        let request = TileID(z: 16, x: 37305, y: 18969)
        #expect(world.plan(for: request)?.source == TileID(z: 7, x: 72, y: 37))
        #expect(city.plan(for: request)?.source == TileID(z: 14, x: 9326, y: 4742))
        #expect(city.plan(for: request)?.scale == 4)
        #expect(city.plan(for: TileID(z: 8, x: 145, y: 74)) == nil)
    }
}

@Suite struct OverzoomGeometryTests {
    /// z7 ancestor, z9 request (scale 4) at sub-tile (1, 2): ancestor x ∈ [1024, 2048), y ∈ [2048, 3072) of a 4096
    /// extent maps to 0…4096 (by hand: x·4 − 1·4096, y·4 − 2·4096).
    let transform = OverzoomTransform(source: TileID(z: 7, x: 5, y: 6), scale: 4, offsetX: 1, offsetY: 2)

    @Test func pointsMoveAndOutsideOnesDrop() {
        let g = VectorTileGeometry.points([pt(1024, 2048), pt(1536, 2560), pt(100, 100), pt(2047, 3071)])
        #expect(
            overzoomGeometry(g, transform: transform, extent: 4096, buffer: 0)
                == .points([pt(0, 0), pt(2048, 2048), pt(4092, 4092)]))
    }

    @Test func polygonCoveringTheAncestorFillsTheRequestedTilePlusBuffer() {
        let whole = [pt(0, 0), pt(4096, 0), pt(4096, 4096), pt(0, 4096), pt(0, 0)]
        guard
            case .polygons(let p) = overzoomGeometry(
                .polygons([[whole]]), transform: transform, extent: 4096, buffer: 64)
        else {
            Issue.record("the covering polygon is not a polygon after overzooming")
            return
        }
        #expect(Set(p[0][0]) == [pt(-64, -64), pt(4160, -64), pt(4160, 4160), pt(-64, 4160)])
        #expect(signedDoubleArea(p[0][0]) > 0)
    }

    @Test func linesAndRingsOutsideTheRequestedTileDropWhileOnesCrossingItAreCut() {
        // Ancestor x 1024…2048 maps to 0…4096; with a buffer of 16 the box is −16…4112 (ancestor 1020…2052).
        let away = [pt(100, 2100), pt(900, 2200)]  // wholly left of the box
        let justOutside = [pt(1019, 2100), pt(1019, 2900)]  // x = −20: four units beyond the left edge
        let edge = [pt(1020, 2100), pt(1020, 2900)]  // x = −16: on the left edge
        let across = [pt(900, 2560), pt(2200, 2560)]  // crosses the whole tile
        guard
            case .lineStrings(let lines) = overzoomGeometry(
                .lineStrings([away, justOutside, edge, across]), transform: transform, extent: 4096, buffer: 16)
        else {
            Issue.record("not lines")
            return
        }
        #expect(lines == [[pt(-16, 208), pt(-16, 3408)], [pt(-16, 2048), pt(4112, 2048)]])
        let far = [pt(0, 0), pt(500, 0), pt(500, 500), pt(0, 500), pt(0, 0)]
        let inside = [pt(1100, 2100), pt(1200, 2100), pt(1200, 2200), pt(1100, 2200), pt(1100, 2100)]
        guard
            case .polygons(let polygons) = overzoomGeometry(
                .polygons([[far], [inside, far]]), transform: transform, extent: 4096, buffer: 16)
        else {
            Issue.record("not polygons")
            return
        }
        // The far polygon is gone; the inside one keeps its exterior and loses the far hole.
        #expect(polygons.count == 1)
        #expect(polygons.first?.count == 1)
        #expect(Set(polygons.first?.first ?? []) == [pt(304, 208), pt(704, 208), pt(704, 608), pt(304, 608)])
    }

    @Test func deepOverzoomStaysInRange() {
        // z0 → z20: scale 2^20; a line across the whole ancestor is cut to the requested tile without overflow.
        let deep = OverzoomTransform(
            source: TileID(z: 0, x: 0, y: 0), scale: 1 << 20, offsetX: 524_288, offsetY: 524_288)
        let line = VectorTileGeometry.lineStrings([[pt(0, 2048), pt(4096, 2048)]])
        #expect(
            overzoomGeometry(line, transform: deep, extent: 4096, buffer: 8)
                == .lineStrings([[pt(-8, 0), pt(4104, 0)]]))
    }
}
