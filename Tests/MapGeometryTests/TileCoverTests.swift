import Foundation
import MapGeometry
import MapTestSupport
import Testing

@Suite struct TileCoverTests {
    static func ids(_ list: [String]) -> Set<String> { Set(list) }

    /// Zoom 2, a 1024 × 1024 view at (0, 0): the 1024-point world exactly fills the view → all 16 tiles.
    @Test func wholeWorldAtZoom2() {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 0), zoom: 2, size: ScreenSize(width: 1024, height: 1024))
        let tiles = s.coveringTiles(tileZoom: 2)
        #expect(tiles.count == 16)
        #expect(Set(tiles) == Set((0..<4).flatMap { x in (0..<4).map { y in TileID(z: 2, x: x, y: y) } }))
    }

    /// Zoom 3, 512 × 512 at (0, 0): the view spans world x and y 0.375…0.625 → columns and rows 3 and 4.
    @Test func fourTilesAroundTheOrigin() {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 0), zoom: 3, size: ScreenSize(width: 512, height: 512))
        #expect(Set(s.coveringTiles(tileZoom: 3).map(\.description)) == ["3/3/3", "3/4/3", "3/3/4", "3/4/4"])
    }

    /// Centred on tile 3/4/4 (world 0.5625, 0.5625): the view spans 0.4375…0.6875 → columns and rows 3…5.
    @Test func nineTiles() {
        let lat = atan(sinh(.pi * (1 - 2 * 0.5625))) * 180 / .pi
        let s = CameraState(
            center: LatLng(latitude: lat, longitude: 22.5), zoom: 3, size: ScreenSize(width: 512, height: 512))
        let tiles = s.coveringTiles(tileZoom: 3)
        #expect(tiles.count == 9)
        #expect(tiles.first == TileID(z: 3, x: 4, y: 4))  // nearest the centre first
        #expect(Set(tiles.map(\.x)) == [3, 4, 5] && Set(tiles.map(\.y)) == [3, 4, 5])
    }

    /// Across the antimeridian: x spans 0.875…1.125, so column 7 of world 0 and column 0 of world +1.
    @Test func antimeridian() {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 180), zoom: 3, size: ScreenSize(width: 512, height: 512))
        #expect(
            Set(s.coveringTiles(tileZoom: 3).map(\.description)) == ["3/7/3", "3/7/4", "3/0/3@1", "3/0/4@1"])
        let west = CameraState(
            center: LatLng(latitude: 0, longitude: -180), zoom: 3, size: ScreenSize(width: 512, height: 512))
        #expect(
            Set(west.coveringTiles(tileZoom: 3).map(\.description)) == ["3/7/3@-1", "3/7/4@-1", "3/0/3", "3/0/4"])
    }

    /// Bearing 45: the 512-point square becomes a diamond reaching 256·√2 points (0.1768 world) from the centre, so
    /// the four corner tiles of the 4 × 4 block (columns and rows 2…5) are left out: 12 tiles.
    @Test func rotatedView() {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 0), zoom: 3, bearing: 45, size: ScreenSize(width: 512, height: 512))
        let tiles = Set(s.coveringTiles(tileZoom: 3).map(\.description))
        #expect(tiles.count == 12)
        for corner in ["3/2/2", "3/5/2", "3/2/5", "3/5/5"] { #expect(!tiles.contains(corner)) }
        #expect(tiles.contains("3/2/3") && tiles.contains("3/4/5"))
    }

    /// A fractional zoom uses the requested tile zoom everywhere when flat.
    @Test func flatFractionalZoom() {
        let s = CameraState(
            center: LatLng(latitude: 51.5, longitude: -0.12), zoom: 12.7, size: ScreenSize(width: 800, height: 600))
        let tiles = s.coveringTiles(tileZoom: 12)
        #expect(Set(tiles.map(\.z)) == [12])
        // 800 × 600 points at zoom 12.7 are 800/2^0.7 ≈ 492.5 by 369.4 tile-12 points: 2 or 3 columns, 2 or 3 rows.
        #expect(tiles.count >= 4 && tiles.count <= 9)
    }

    /// Pitch 60, 800 × 600 view (D = 900) at zoom 10: the top edge lies 1419.6 points ahead at depth
    /// 900 + 1419.6 · sin 60° = 2129.4, where the wanted zoom is 10 + log2(900 / 2129.4) = 8.76. So the cover mixes
    /// zoom 10 near the bottom with zoom 8 or 9 at the top, and never goes below 8.
    @Test func pitchedCoverUsesCoarserTilesFarAway() {
        let s = CameraState(
            center: LatLng(latitude: 0, longitude: 0), zoom: 10, pitch: 60, size: ScreenSize(width: 800, height: 600))
        let t = s.transform
        let tiles = t.coveringTiles(tileZoom: 10)
        let zooms = Set(tiles.map(\.z))
        #expect(zooms.isSubset(of: [8, 9, 10]))
        #expect(zooms.contains(10) && (zooms.contains(9) || zooms.contains(8)))
        let nearBottom = t.worldPoint(for: ScreenPoint(x: 400, y: 600))!
        let farTop = t.worldPoint(for: ScreenPoint(x: 400, y: 0))!
        let nearTile = tiles.first { covers($0, nearBottom) }
        let farTile = tiles.first { covers($0, farTop) }
        #expect(nearTile?.z == 10)
        #expect(farTile.map { $0.z <= 9 } == true)
        // More, not fewer, tiles than the flat view needs, and far fewer than a flat cover of the same area at z10.
        let flat = CameraState(
            center: s.center, zoom: 10, size: ScreenSize(width: 800, height: 600)
        ).coveringTiles(tileZoom: 10)
        #expect(tiles.count > flat.count)
        Self.checkPartition(tiles, quad: s.visibleQuad)
    }

    @Test(arguments: [0.0, 30, 45, 65], [0.0, 77, 200])
    func coverIsAPartitionOfTheView(pitch: Double, bearing: Double) {
        let s = CameraState(
            center: LatLng(latitude: 37.77, longitude: -122.42), zoom: 16.4, bearing: bearing, pitch: pitch,
            size: ScreenSize(width: 390, height: 844))
        let tiles = s.coveringTiles(tileZoom: 16)
        #expect(!tiles.isEmpty)
        #expect(tiles.allSatisfy { $0.z <= 16 })
        Self.checkPartition(tiles, quad: s.visibleQuad)
    }

    private func covers(_ t: TileID, _ p: WorldPoint) -> Bool {
        let nw = t.northWest
        return p.x >= nw.x && p.x < nw.x + t.worldSize && p.y >= nw.y && p.y < nw.y + t.worldSize
    }

    /// Every sampled point of the quadrilateral lies in exactly one tile, and no two tiles overlap.
    static func checkPartition(_ tiles: [TileID], quad: VisibleQuad) {
        for i in 0...20 {
            for j in 0...20 {
                let a = Double(i) / 20
                let b = Double(j) / 20
                // Bilinear sample of the quadrilateral, nudged inside.
                let u = 0.001 + a * 0.998
                let v = 0.001 + b * 0.998
                let near = WorldPoint(
                    x: quad.nearLeft.x + (quad.nearRight.x - quad.nearLeft.x) * u,
                    y: quad.nearLeft.y + (quad.nearRight.y - quad.nearLeft.y) * u)
                let far = WorldPoint(
                    x: quad.farLeft.x + (quad.farRight.x - quad.farLeft.x) * u,
                    y: quad.farLeft.y + (quad.farRight.y - quad.farLeft.y) * u)
                let p = WorldPoint(x: near.x + (far.x - near.x) * v, y: near.y + (far.y - near.y) * v)
                guard p.y > 0 && p.y < 1 else { continue }
                let holders = tiles.filter { t in
                    let nw = t.northWest
                    return p.x >= nw.x && p.x < nw.x + t.worldSize && p.y >= nw.y && p.y < nw.y + t.worldSize
                }
                #expect(holders.count == 1, "\(p) is in \(holders)")
            }
        }
    }
}
