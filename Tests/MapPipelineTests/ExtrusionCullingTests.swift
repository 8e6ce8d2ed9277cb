import MapData
import Testing

@testable import MapPipeline

/// Back faces of extruded buildings (Waymark's culling of walls seen from inside their solid).
@Suite struct ExtrusionCullingTests {
    /// The vector tile spec's outer ring: clockwise on the screen (y down), closed.
    private let square = [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)].map {
        VectorTilePoint(x: Int32($0.0), y: Int32($0.1))
    }

    @Test func anOuterRingHasAPositiveAreaAndAHoleANegativeOne() {
        #expect(MapRenderer.signedArea(square) == 200)
        #expect(MapRenderer.signedArea(square.reversed()) == -200)
        #expect(MapRenderer.signedArea(Array(square.prefix(2))) == 0)
    }

    /// The wall of the square's edge from `a` to `b` on a flat frame whose optical centre is at the origin, the
    /// roof scaled by 1.1 about it (as a flat frame projects a raised roof), in the order the layer projects it.
    private func wall(_ a: (Double, Double), _ b: (Double, Double), raster: ExtrusionRaster) {
        raster.vertices = [(a, 0.0), (b, 0.0), (b, 1.0), (a, 1.0)].map { p, t in
            let k = 1 + 0.1 * t
            return ExtrusionRaster.Vertex(x: p.0 * k, y: p.1 * k, depth: 100 - t, t: t)
        }
    }

    @Test func aWallFacingTheCameraIsDrawnAndOneFacingAwayIsNot() {
        let raster = ExtrusionRaster()
        // The square right of and below the centre, at 20…30: its left wall (edge (20, 30) → (20, 20)) faces the
        // centre, its right wall (edge (30, 20) → (30, 30)) faces away.
        wall((20, 30), (20, 20), raster: raster)
        #expect(!raster.facesAway(winding: 200))
        wall((30, 20), (30, 30), raster: raster)
        #expect(raster.facesAway(winding: 200))
        // A solid wound the other way round (every ring reversed) turns the test round.
        #expect(!raster.facesAway(winding: -200))
        // Without a winding, or for a wall seen edge on, nothing is culled.
        #expect(!raster.facesAway(winding: 0))
        raster.vertices = [(0.0, 0.0), (5, 0), (10, 0)].map { ExtrusionRaster.Vertex(x: $0.0, y: $0.1, depth: 1, t: 0) }
        #expect(!raster.facesAway(winding: 200))
    }
}
