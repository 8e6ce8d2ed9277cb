import MapDrawing
import MapGeometry
import MapLayout
import MapTestSupport
import Testing

@Suite struct CollisionDebugShapeTests {
    // "AAAA" at 10 pt is 24 × 12 points: centred at (100, 100) with padding 2 its box is [86, 114] × [92, 108].

    func recordingPlacer() -> SymbolPlacer {
        var options = PlacementOptions()
        options.recordsCollisionShapes = true
        return SymbolPlacer(measurer: FixedAdvanceTextMeasurer(), options: options)
    }

    @Test func nothingIsRecordedByDefault() {
        let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
        let result = placer.place([pointLabel("AAAA", at: 100, 100, padding: 2)], camera: testCamera())
        #expect(result.symbols.count == 1)
        #expect(result.collisionShapes.isEmpty)
    }

    @Test func placedAndCollidedBoxesAreRecordedWithTheirLayer() {
        let first = pointLabel("AAAA", at: 100, 100, padding: 2, sortKey: 1, layerIndex: 3)
        let second = pointLabel("BBBB", at: 110, 100, padding: 2, sortKey: 2, layerIndex: 3)
        let result = recordingPlacer().place([second, first], camera: testCamera())
        #expect(placedTexts(result) == ["AAAA"])
        #expect(result.collisionShapes.map(\.placed) == [true, false])
        #expect(result.collisionShapes.allSatisfy { $0.layerIndex == 3 && $0.used })
        guard case .box(let placed)? = result.collisionShapes.first?.geometry else {
            Issue.record("no box")
            return
        }
        #expect(near(placed.minX, 86) && near(placed.maxX, 114) && near(placed.minY, 92) && near(placed.maxY, 108))
        guard case .box(let collided)? = result.collisionShapes.last?.geometry else {
            Issue.record("no box")
            return
        }
        #expect(near(collided.minX, 96) && near(collided.maxX, 124))
    }

    /// Variable-anchored text that no anchor placed shows its box centred on the point, "not used".
    @Test func unplacedVariableTextRecordsItsCentredBoxAsNotUsed() {
        let blocker = pointLabel("AAAA", at: 100, 100, padding: 2, sortKey: 1)
        var variable = pointLabel("BBBB", at: 100, 100, padding: 2, sortKey: 2)
        variable.textVariableAnchors = [.left, .right]
        let result = recordingPlacer().place([blocker, variable], camera: testCamera())
        #expect(placedTexts(result) == ["AAAA"])
        let unused = result.collisionShapes.filter { !$0.used }
        #expect(unused.count == 1)
        #expect(unused.first?.placed == false)
        #expect(unused.first?.geometry == .box(RenderRect(x: 86, y: 92, width: 28, height: 16)))
    }

    @Test(
        arguments: [
            ([5.0], nil), ([2.0, 2, 2, 2], nil), ([-20.0, -5], [-20.0, -5, -20, -5]),
            ([2.0, 2, -20], [2.0, 2, -20, 2]),
            ([2.0, 10, -20, 2], [2.0, 10, -20, 2]), ([1.0, 2, 3, 4, 5], nil), ([], nil),
        ] as [([Double], [Double]?)])
    func iconPaddingReadsTheCSSShorthand(numbers: [Double], sides: [Double]?) {
        #expect(SymbolIcon.sidePaddings(numbers) == sides)
    }

    /// An icon with per-side padding collides with its own margins (here 2 on top, 10 right, −5 below, 0 left).
    @Test func iconSidePaddingsShapeTheIconBox() {
        var icon = SymbolIcon(size: ScreenSize(width: 20, height: 20), padding: 2)
        icon.sidePaddings = [2, 10, -5, 0]
        let symbol = SymbolFeature(
            identity: SymbolIdentity(layer: "poi", text: ""), geometry: .point(world(100, 100)), text: "",
            textStyle: tenPoint, icon: icon)
        let result = recordingPlacer().place([symbol], camera: testCamera())
        #expect(result.collisionShapes.count == 1)
        #expect(result.collisionShapes.first?.geometry == .box(RenderRect(x: 90, y: 88, width: 30, height: 17)))
    }

    /// `text-rotate` turns offset text about the anchor, offset included: a quarter turn moves an offset to the
    /// right below the point, and the box (padding included) turns with it.
    @Test func rotatedTextTurnsItsOffsetAboutTheAnchor() throws {
        let symbol = SymbolFeature(
            identity: SymbolIdentity(layer: "poi", text: "AAAA"), geometry: .point(world(100, 100)), text: "AAAA",
            textStyle: tenPoint, textOffset: ScreenPoint(x: 3, y: 0), textRotation: 90, textPadding: 2)
        let result = recordingPlacer().place([symbol], camera: testCamera())
        guard case .text(let text)? = result.symbols.first?.text else {
            Issue.record("no text")
            return
        }
        #expect(near(text.offset.x, 0, 1e-9) && near(text.offset.y, 30, 1e-9))
        #expect(text.rotation == 90)
        // The 28 × 16 padded box centred 30 points below the point, turned a quarter: 16 × 28.
        let bounds = try #require(result.symbols.first?.textBounds)
        #expect(near(bounds.minX, 92) && near(bounds.maxX, 108) && near(bounds.minY, 116) && near(bounds.maxY, 144))
    }
}
