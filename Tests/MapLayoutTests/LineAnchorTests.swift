import MapDrawing
import MapGeometry
import Testing

@testable import MapLayout

/// MapLibre's anchor layout in a tile's pixels (`getAnchors`, `getCenterAnchor`, `checkMaxAngle`, `clipLines`).
@Suite struct LineAnchorTests {
    /// The anchors' distances along a straight line inside a 512-pixel tile.
    func distances(
        from start: Double, to end: Double, spacing: Double, labelLength: Double, fixedOffset: Double = 32,
        overscaling: Double = 1
    ) -> [Double] {
        tileLineAnchors(
            xs: [start, end], ys: [100, 100], spacing: spacing, maxAngle: .pi / 4, labelLength: labelLength,
            window: 0, tileSize: 512, overscaling: overscaling, fixedOffset: fixedOffset
        ).map(\.distance)
    }

    @Test func aLineStartingInsideTheTileStartsHalfALabelPlusTheFixedOffsetIn() {
        // Label 40, fixed offset 32: first anchor at 20 + 32 = 52, then every 100 while the label fits.
        #expect(distances(from: 10, to: 400, spacing: 100, labelLength: 40) == [52, 152, 252, 352])
    }

    @Test func aLineContinuedFromTheTileEdgeStartsHalfTheSpacingIn() {
        #expect(distances(from: 0, to: 400, spacing: 100, labelLength: 40) == [50, 150, 250, 350])
        // Over-zoomed twice: half the spacing times two, modulo the spacing.
        #expect(distances(from: 0, to: 400, spacing: 100, labelLength: 40, overscaling: 2) == [100, 200, 300])
    }

    @Test func aLongLabelWidensTheSpacing() {
        // Spacing 100 − label 90 < 100 / 4: the spacing becomes 90 + 25 = 115; offset (45 + 32) mod 115.
        #expect(distances(from: 10, to: 500, spacing: 100, labelLength: 90) == [77, 192, 307, 422])
    }

    @Test func anchorsOutsideTheTileAreDropped() {
        // From x = −200: the anchors at x < 0 are laid out (they count for the spacing) but dropped.
        let xs = tileLineAnchors(
            xs: [-200, 300], ys: [100, 100], spacing: 100, maxAngle: .pi, labelLength: 20, window: 0, tileSize: 512,
            fixedOffset: 0
        ).map(\.x)
        #expect(xs == [10, 110, 210])
    }

    @Test func aShortLineFallsBackToItsMiddle() {
        // 60 long, label 40: the first spaced anchor (52) leaves no room; one anchor at the middle.
        #expect(distances(from: 100, to: 160, spacing: 250, labelLength: 40) == [30])
        // Shorter than the label: none.
        #expect(distances(from: 100, to: 130, spacing: 250, labelLength: 40) == [])
        // Continued lines get no middle anchor.
        #expect(distances(from: 0, to: 60, spacing: 250, labelLength: 40) == [])
    }

    @Test func maxAngleRejectsASharpCornerUnderTheLabel() {
        // A right angle at (200, 100).
        let xs = [10.0, 200, 200]
        let ys = [100.0, 100, 400]
        let corner = TileLineAnchor(x: 195, y: 100, segment: 0, distance: 185)
        #expect(!passesMaxAngle(xs, ys, anchor: corner, labelLength: 40, window: 12, maxAngle: .pi / 4))
        #expect(passesMaxAngle(xs, ys, anchor: corner, labelLength: 40, window: 12, maxAngle: .pi * 0.6))
        // Far from the corner, the label never reaches it.
        let straight = TileLineAnchor(x: 100, y: 100, segment: 0, distance: 90)
        #expect(passesMaxAngle(xs, ys, anchor: straight, labelLength: 40, window: 12, maxAngle: .pi / 4))
        // No room before the line's start.
        let early = TileLineAnchor(x: 20, y: 100, segment: 0, distance: 10)
        #expect(!passesMaxAngle(xs, ys, anchor: early, labelLength: 40, window: 12, maxAngle: .pi))
    }

    @Test func centerAnchorIsTheMiddleOfTheWholeLine() {
        let a = tileCenterAnchor(xs: [0, 100, 100], ys: [0, 0, 300], maxAngle: .pi, labelLength: 50, window: 10)
        #expect(a?.segment == 1)
        #expect(a?.distance == 200)
        #expect(abs((a?.x ?? 0) - 100) < 1e-9 && abs((a?.y ?? 0) - 100) < 1e-9)
        #expect(tileCenterAnchor(xs: [0, 100], ys: [0, 0], maxAngle: .pi, labelLength: 150, window: 10) == nil)
    }

    @Test func clippingStartsANewPieceWhereTheLineReenters() {
        // In, out across the right edge, and back in.
        let pieces = clipLineToSquare(xs: [100, 600, 600, 100], ys: [100, 100, 200, 200], side: 512)
        #expect(pieces.count == 2)
        #expect(pieces.first?.xs.map { $0.rounded() } == [100, 512])
        #expect(pieces.last?.xs.map { $0.rounded() } == [512, 100])
        #expect(pieces.last?.ys == [200, 200])
    }

    @Test func anchoredRunsMapTilePixelsToWorldUnits() {
        // Tile 1/0/0 (world x and y in 0 ..< 0.5), 512 pixels a side: a horizontal line from the tile's west edge.
        let tile = TileID(z: 1, x: 0, y: 0)
        let y = 0.25
        let runs = anchoredRuns(
            [WorldPoint(x: 0, y: y), WorldPoint(x: 0.5, y: y)], tile: tile, tileSize: 512, overscaling: 1,
            spacing: 256, maxAngle: .pi, labelLength: 20, window: 0, fixedOffset: 32, center: false)
        #expect(runs.count == 1)
        // Continued from the edge: 128 and 384 pixels in, of 1024 pixels a world unit.
        #expect(runs.first?.anchors.map { $0.x * 1024 } == [128, 384])
        #expect(runs.first?.anchors.allSatisfy { $0.y == y } == true)
    }
}
