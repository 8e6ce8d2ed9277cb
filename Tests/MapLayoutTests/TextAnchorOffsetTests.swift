import MapDrawing
import MapGeometry
import MapLayout
import MapTestSupport
import Testing

/// MapLibre's point-text offsets (`evaluateRadialOffset`, `evaluateVariableOffset`, `text-variable-anchor-offset`,
/// `calculateVariableLayoutOffset`) and the variable-anchor placement built on them.
@Suite struct TextAnchorOffsetTests {
    let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
    /// MapLibre's baseline shift, 7 of 24 em pixels.
    let b = 7.0 / 24.0

    @Test func radialOffsetPointsAwayFromTheAnchorWithTheBaselineShift() {
        let h = 2 / 2.0.squareRoot()
        let expected: [(TextAnchor, Double, Double)] = [
            (.center, 0, 0), (.left, 2, 0), (.right, -2, 0), (.top, 0, 2 - b), (.bottom, 0, -2 + b),
            (.topLeft, h, h - b), (.topRight, -h, h - b), (.bottomLeft, h, -h + b), (.bottomRight, -h, -h + b),
        ]
        for (anchor, x, y) in expected {
            let offset = TextAnchorOffsets.radial(anchor, 2)
            #expect(near(offset.x, x) && near(offset.y, y), "\(anchor): \(offset)")
        }
        // A negative radial offset counts as 0: only the baseline shift is left.
        #expect(TextAnchorOffsets.radial(.top, -3) == ScreenPoint(x: 0, y: -b))
    }

    @Test func textOffsetWithVariableAnchorsUsesAbsoluteValuesAwayFromThePoint() {
        let offset = ScreenPoint(x: -1, y: 2)
        #expect(TextAnchorOffsets.variable(.right, textOffset: offset) == ScreenPoint(x: -1, y: 0))
        #expect(TextAnchorOffsets.variable(.left, textOffset: offset) == ScreenPoint(x: 1, y: 0))
        #expect(TextAnchorOffsets.variable(.bottomLeft, textOffset: offset) == ScreenPoint(x: 1, y: -2 + b))
        #expect(TextAnchorOffsets.variable(.top, textOffset: offset) == ScreenPoint(x: 0, y: 2 - b))
        #expect(TextAnchorOffsets.variable(.center, textOffset: offset) == .zero)
    }

    @Test func anchorOffsetEntriesKeepTheirSignAndGetTheBaselineShift() {
        let entry = TextAnchorOffset(anchor: .top, offset: ScreenPoint(x: -3, y: -3))
        #expect(TextAnchorOffsets.anchorOffset(entry) == ScreenPoint(x: -3, y: -3 - b))
        let left = TextAnchorOffset(anchor: .left, offset: ScreenPoint(x: -4.5, y: 1))
        #expect(TextAnchorOffsets.anchorOffset(left) == ScreenPoint(x: -4.5, y: 1))
    }

    @Test func shiftMovesThePaddedBoxOffThePoint() {
        // A 40 × 20 collision box (padding included) at its left anchor with a 1 em radial offset at 10 points:
        // its centre goes half the width plus 10 points right of the point.
        let left = TextAnchorOffsets.shift(
            .left, width: 40, height: 20, offset: TextAnchorOffsets.radial(.left, 1), em: 10)
        #expect(left == ScreenPoint(x: 30, y: 0))
        let bottomRight = TextAnchorOffsets.shift(.bottomRight, width: 40, height: 20, offset: .zero, em: 10)
        #expect(bottomRight == ScreenPoint(x: -20, y: -10))
    }

    @Test func autoJustificationFollowsTheAnchorsEdge() {
        #expect(TextAnchorOffsets.justification(.topLeft) == .left)
        #expect(TextAnchorOffsets.justification(.right) == .right)
        #expect(TextAnchorOffsets.justification(.bottom) == .center)
    }

    @Test func radialOffsetWithoutVariableAnchorsUsesTextAnchor() throws {
        // "AAAA" is 24 × 12 points at 10 points; text-anchor bottom with a 1 em radial offset: the box's bottom
        // edge sits 10 − 70/24 points above the point.
        var label = pointLabel("AAAA", at: 100, 100)
        label.textAnchor = .bottom
        label.textRadialOffset = 1
        let bounds = try #require(placer.place([label], camera: testCamera()).symbols.first?.textBounds)
        #expect(near(bounds.maxY, 100 - 10 + 70 / 24.0))
        #expect(near(bounds.minX, 88))
    }

    @Test func variableAnchorOffsetEntriesAreTriedInOrder() throws {
        // The first entry (top, 1 em down) is blocked by "BBBB"; the second (left, 2 em right) is free.
        let blocker = pointLabel("BBBB", at: 100, 115, sourceOrder: 0)
        var label = pointLabel("AAAA", at: 100, 100, sourceOrder: 1)
        label.textVariableAnchorOffsets = [
            TextAnchorOffset(anchor: .top, offset: ScreenPoint(x: 0, y: 1)),
            TextAnchorOffset(anchor: .left, offset: ScreenPoint(x: 2, y: 0)),
        ]
        label.textVariableAnchors = [.bottom]  // ignored: the offsets win
        let placed = try #require(placer.place([blocker, label], camera: testCamera()).symbols.last)
        #expect(placed.textAnchor == .left)
        #expect(placed.textBounds == RenderRect(x: 120, y: 94, width: 24, height: 12))
        guard case .text(let command)? = placed.text else {
            Issue.record("expected point text")
            return
        }
        // Drawn centred on the box's centre, 12 + 20 points right of the point.
        #expect(command.anchor == .center)
        #expect(command.offset == ScreenPoint(x: 32, y: 0))
    }

    @Test func textAllowingOverlapStillPrefersAFreeAnchor() throws {
        let blocker = pointLabel("BBBB", at: 112, 100, sourceOrder: 0)
        var label = pointLabel("AAAA", at: 100, 100, sourceOrder: 1)
        label.textVariableAnchors = [.left, .right]
        label.textAllowOverlap = true
        #expect(placer.place([blocker, label], camera: testCamera()).symbols.last?.textAnchor == .right)
        // With every anchor blocked it takes the first.
        let other = pointLabel("CCCC", at: 88, 100, sourceOrder: 0)
        let both = placer.place([blocker, other, label], camera: testCamera())
        #expect(both.symbols.last?.textAnchor == .left)
    }

    @Test func autoJustifyFollowsTheChosenAnchor() throws {
        var label = pointLabel("AAAA", at: 100, 100)
        label.textVariableAnchors = [.right]
        label.textJustifyFollowsAnchor = true
        guard case .text(let command)? = placer.place([label], camera: testCamera()).symbols.first?.text else {
            Issue.record("expected point text")
            return
        }
        #expect(command.style.justify == .right)
    }

    @Test func labelsOfOneTileAtOnePointAreNotDuplicates() {
        // Five features of one tile with equal text at one point (no feature ids), overlap allowed: all drawn.
        let tile = TileID(z: 4, x: 8, y: 8)
        let labels = (0..<5).map { i -> SymbolFeature in
            var s = pointLabel("x", at: 210, 160, sourceOrder: i)
            s.textAllowOverlap = true
            s.ownerTile = tile
            return s
        }
        let result = placer.place(labels, camera: testCamera())
        #expect(result.symbols.count == 5)
        #expect(result.statistics.duplicates == 0)
    }

    @Test func labelsJustOutsideTheViewArePlacedWithinThePadding() {
        // 400 × 300 view: a label 50 points beyond the right edge is placed (and blocks); 150 points beyond is not.
        let near = pointLabel("NEAR", at: 450, 100)
        let far = pointLabel("FARR", at: 550, 100)
        #expect(placedTexts(placer.place([near, far], camera: testCamera())) == ["NEAR"])
        let tight = SymbolPlacer(measurer: FixedAdvanceTextMeasurer(), options: PlacementOptions(viewPadding: 0))
        #expect(placedTexts(tight.place([near, far], camera: testCamera())).isEmpty)
    }
}
