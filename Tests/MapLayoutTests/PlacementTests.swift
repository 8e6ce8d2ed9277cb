import MapDrawing
import MapGeometry
import MapLayout
import MapTestSupport
import Testing

@Suite struct PlacementTests {
    let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())

    // "AAAA" at 10 pt is 24 × 12 points: centred at (100, 100) its box is [88, 112] × [94, 106].

    @Test func higherPriorityWinsACollisionInBothInputOrders() {
        let low = pointLabel("LOWW", at: 110, 100, sortKey: 2)
        let high = pointLabel("HIGH", at: 100, 100, sortKey: 1)
        for input in [[low, high], [high, low]] {
            let result = placer.place(input, camera: testCamera())
            #expect(placedTexts(result) == ["HIGH"])
            #expect(result.statistics.collided == 1)
        }
    }

    @Test func layerOrderOutranksSortKeyAndSourceOrderBreaksTies() {
        // The upper layer (index 1) is placed first even with a worse sort key.
        let upper = pointLabel("UPPR", at: 100, 100, sortKey: 9, layerIndex: 1)
        let lower = pointLabel("LOWR", at: 105, 100, sortKey: 0, layerIndex: 0)
        #expect(placedTexts(placer.place([lower, upper], camera: testCamera())) == ["UPPR"])
        // Same layer, no keys: the earlier source order wins.
        let first = pointLabel("FRST", at: 100, 100, sourceOrder: 3)
        let second = pointLabel("SCND", at: 105, 100, sourceOrder: 4)
        #expect(placedTexts(placer.place([second, first], camera: testCamera())) == ["FRST"])
        // A keyed symbol goes before an unkeyed one.
        let keyed = pointLabel("KEYD", at: 105, 100, sortKey: 100, sourceOrder: 9)
        #expect(placedTexts(placer.place([first, keyed], camera: testCamera())) == ["KEYD"])
    }

    @Test func boxesHaveTheHandComputedSize() throws {
        let result = placer.place([pointLabel("AAAA", at: 100, 100, padding: 2)], camera: testCamera())
        let bounds = try #require(result.symbols.first?.textBounds)
        #expect(near(bounds.minX, 86) && near(bounds.maxX, 114) && near(bounds.minY, 92) && near(bounds.maxY, 108))
    }

    @Test(arguments: [(2.0, 2), (2.9, 2), (3.1, 1), (4.0, 1)])
    func paddingDecidesWhetherNeighboursCollide(padding: Double, expectedCount: Int) {
        // Boxes [88, 112] and [118, 142]: a 6-point gap, closed by two paddings of 3.
        let a = pointLabel("AAAA", at: 100, 100, padding: padding, sourceOrder: 0)
        let b = pointLabel("BBBB", at: 130, 100, padding: padding, sourceOrder: 1)
        #expect(placer.place([a, b], camera: testCamera()).symbols.count == expectedCount)
    }

    @Test func allowOverlapDrawsOverEarlierLabels() {
        let a = pointLabel("AAAA", at: 100, 100, sourceOrder: 0)
        var b = pointLabel("BBBB", at: 105, 100, sourceOrder: 1)
        b.textAllowOverlap = true
        #expect(placedTexts(placer.place([a, b], camera: testCamera())) == ["AAAA", "BBBB"])
        // Allow-overlap does not stop a label from blocking later ones.
        var first = pointLabel("FRST", at: 100, 100, sourceOrder: 0)
        first.textAllowOverlap = true
        let later = pointLabel("LATR", at: 105, 100, sourceOrder: 1)
        #expect(placedTexts(placer.place([first, later], camera: testCamera())) == ["FRST"])
    }

    @Test func ignorePlacementDoesNotBlockLaterLabels() {
        var a = pointLabel("AAAA", at: 100, 100, sourceOrder: 0)
        a.textIgnorePlacement = true
        let b = pointLabel("BBBB", at: 105, 100, sourceOrder: 1)
        #expect(placedTexts(placer.place([a, b], camera: testCamera())) == ["AAAA", "BBBB"])
    }

    @Test func optionalTextLetsTheIconStandAlone() throws {
        // A blocker over the text's box but not over the icon 40 points below.
        let blocker = pointLabel("BLOCK", at: 100, 100, sourceOrder: 0)
        var poi = pointLabel("CAFE", at: 100, 100, sourceOrder: 1)
        poi.geometry = .point(world(100, 100))
        poi.icon = SymbolIcon(size: ScreenSize(width: 10, height: 10), offset: ScreenPoint(x: 0, y: 40))
        // Not optional: the icon needs its text, so nothing of the POI is drawn.
        #expect(placer.place([blocker, poi], camera: testCamera()).symbols.count == 1)
        poi.textOptional = true
        let result = placer.place([blocker, poi], camera: testCamera())
        #expect(result.symbols.count == 2)
        let icon = try #require(result.symbols.last)
        #expect(icon.text == nil)
        #expect(icon.iconRect == RenderRect(x: 95, y: 135, width: 10, height: 10))
    }

    @Test func sameFeatureInTwoTilesIsLabelledOnce() {
        // Both copies allow overlap, so only deduplication can remove one.
        var a = pointLabel("Kallio", at: 200, 150, layer: "place", sourceOrder: 0)
        a.textAllowOverlap = true
        var b = a
        b.sourceOrder = 50
        b.geometry = .point(world(201, 150.5))  // a slightly different quantisation in the neighbour tile
        let result = placer.place([b, a], camera: testCamera())
        #expect(result.symbols.count == 1)
        #expect(result.symbols.first?.featureIndex == 1)
        #expect(result.statistics.duplicates == 1)
        // A different feature with the same text far away is not a duplicate.
        var c = a
        c.geometry = .point(world(300, 150))
        #expect(placer.place([a, c], camera: testCamera()).symbols.count == 2)
    }

    @Test func ownerTileDropsCopiesInTheBuffer() {
        // A point just east of the boundary between z4 tiles x = 7 and x = 8 (world x = 0.5).
        let p = WorldPoint(x: 0.5 + 1e-5, y: 0.5 - 1e-5)
        let west = TileID(z: 4, x: 7, y: 7)
        let east = TileID(z: 4, x: 8, y: 7)
        func copy(_ tile: TileID) -> SymbolFeature {
            SymbolFeature(
                identity: SymbolIdentity(layer: "poi", featureID: UInt64(tile.x), text: "X"), geometry: .point(p),
                text: "X", textStyle: tenPoint, textAllowOverlap: true, ownerTile: tile)
        }
        let result = placer.place([copy(west), copy(east)], camera: testCamera())
        #expect(result.symbols.map(\.featureIndex) == [1])
        #expect(result.statistics.culled == 1)
    }

    @Test func labelsNearTheHorizonAreDroppedUnderPitch() {
        // Pitch 65 with 200 points of top padding: the optical centre is at y = 250 and the horizon at
        // y = 250 − 450 · cot 65° ≈ 40.2, inside the view. A label just below it is ~43 camera distances away.
        let camera = testCamera(pitch: 65, padding: EdgeInsets(top: 200, left: 0, bottom: 0, right: 0))
        let far = pointLabel("FAR", at: 200, 45, camera: camera, sourceOrder: 0)
        let centre = pointLabel("MID", at: 200, 250, camera: camera, sourceOrder: 1)
        let result = placer.place([far, centre], camera: camera)
        #expect(placedTexts(result) == ["MID"])
        #expect(result.statistics.culled == 1)
    }

    @Test func perspectiveRatioScalesTextUnderPitch() throws {
        // Pitch 60, D = 450: at screen y = 150 − (450 / 3) · cot 60° ≈ 63.4 the ground is 1.5 D away, so the ratio is
        // 0.5 + 0.5 / 1.5 = 5/6 (MapLibre's ratio, exact): 16 pt text is drawn at 13.33 pt. The centre keeps ratio 1.
        let camera = testCamera(pitch: 60)
        let y = 150 - 150 / 3.0.squareRoot()
        var far = pointLabel("FAR", at: 200, y, camera: camera, sourceOrder: 0)
        far.textStyle = TextStyle(size: 16)
        var mid = pointLabel("MID", at: 200, 150, camera: camera, sourceOrder: 1)
        mid.textStyle = TextStyle(size: 16)
        let result = placer.place([far, mid], camera: camera)
        #expect(result.symbols.count == 2)
        guard case .text(let farText)? = result.symbols[0].text, case .text(let midText)? = result.symbols[1].text
        else {
            Issue.record("expected two point labels")
            return
        }
        #expect(near(farText.style.size, 16 * 5 / 6, 1e-6))
        #expect(midText.style.size == 16)
        let bounds = try #require(result.symbols[0].textBounds)
        #expect(near(bounds.width, 3 * 0.6 * 16 * 5 / 6, 1e-6))
        #expect(near(farText.position.y, y, 1e-6))
    }

    @Test func textPaddingScalesWithThePerspectiveRatio() throws {
        // Where the ratio is 5/6 (see above), "AAAA" at 10 pt is 20 points wide and padding 12 grows each side by
        // 10: two labels 42 points apart fit (2 × 20 < 42); unscaled padding (2 × 22 = 44) would make them collide.
        let camera = testCamera(pitch: 60)
        let y = 150 - 150 / 3.0.squareRoot()
        let left = pointLabel("AAAA", at: 150, y, camera: camera, padding: 12, sourceOrder: 0)
        let right = pointLabel("BBBB", at: 192, y, camera: camera, padding: 12, sourceOrder: 1)
        let result = placer.place([left, right], camera: camera)
        #expect(placedTexts(result) == ["AAAA", "BBBB"])
        let bounds = try #require(result.symbols.first?.textBounds)
        #expect(near(bounds.width, 20 + 2 * 10, 1e-6))
        // 36 points apart they still collide.
        let close = pointLabel("BBBB", at: 186, y, camera: camera, padding: 12, sourceOrder: 1)
        #expect(placedTexts(placer.place([left, close], camera: camera)) == ["AAAA"])
    }

    @Test func pitchAlignedPointTextLiesOnTheGround() throws {
        // Pitch 60, D = 450: a label at the centre is drawn cluster by cluster, each cluster's frame foreshortened
        // as the ground is (its vertical axis cos 60° = 0.5 of its horizontal one), in order left to right.
        let camera = testCamera(pitch: 60)
        var label = pointLabel("AAAA", at: 200, 150, camera: camera)
        label.textPitchAlignment = .map
        let result = placer.place([label], camera: camera)
        guard case .lineText(let text)? = result.symbols.first?.text else {
            Issue.record("expected the label drawn cluster by cluster")
            return
        }
        #expect(text.glyphs.map(\.text) == ["A", "A", "A", "A"])
        let m = try #require(text.glyphs.first?.transform)
        #expect(near(m.d / m.a, 0.5, 0.02))
        #expect(near(m.b, 0, 1e-6) && near(m.c, 0, 0.05))
        let xs = text.glyphs.map(\.position.x)
        #expect(xs == xs.sorted() && xs[0] < 200 && xs[3] > 200)
        // Flat, the same label is one upright text command.
        #expect(
            {
                if case .text? = placer.place([label], camera: testCamera()).symbols.first?.text { true } else { false }
            }()
        )
    }

    @Test func pointLabelsStayUprightUnderBearing() throws {
        let camera = testCamera(bearing: 73, pitch: 30)
        let result = placer.place([pointLabel("AAAA", at: 200, 150, camera: camera)], camera: camera)
        guard case .text(let text)? = result.symbols.first?.text else {
            Issue.record("no label")
            return
        }
        #expect(text.rotation == 0)
        #expect(near(text.position.x, 200) && near(text.position.y, 150))
        let bounds = try #require(result.symbols.first?.textBounds)
        #expect(near(bounds.width, 24) && near(bounds.height, 12))
    }

    @Test func textRotationTurnsTheCollisionBox() throws {
        var label = pointLabel("AAAA", at: 100, 100)
        label.textRotation = 90
        let bounds = try #require(placer.place([label], camera: testCamera()).symbols.first?.textBounds)
        #expect(near(bounds.minX, 94) && near(bounds.maxX, 106) && near(bounds.minY, 88) && near(bounds.maxY, 112))
    }

    @Test func previousPlacementKeepsShownLabels() {
        let a = pointLabel("AAAA", at: 100, 100, sourceOrder: 0)
        let b = pointLabel("BBBB", at: 110, 100, sourceOrder: 1)
        // Without history A wins (earlier source order).
        #expect(placedTexts(placer.place([a, b], camera: testCamera())) == ["AAAA"])
        // Frame 1 sees only B; frame 2 sees both and keeps B.
        let frame1 = placer.place([b], camera: testCamera())
        #expect(placedTexts(frame1) == ["BBBB"])
        let frame2 = placer.place([a, b], camera: testCamera(), previous: frame1)
        #expect(placedTexts(frame2) == ["BBBB"])
        // The preference can be switched off.
        let plain = SymbolPlacer(
            measurer: FixedAdvanceTextMeasurer(), options: PlacementOptions(prefersPreviousPlacement: false))
        #expect(placedTexts(plain.place([a, b], camera: testCamera(), previous: frame1)) == ["AAAA"])
    }

    @Test func previousPlacementOfAnotherPlacerKeepsShownLabels() {
        // The previous frame placed by another placer (its identities numbered there): its labels still win.
        let a = pointLabel("AAAA", at: 100, 100, sourceOrder: 0)
        let b = pointLabel("BBBB", at: 110, 100, sourceOrder: 1)
        let other = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
        let frame1 = other.place([b], camera: testCamera())
        #expect(placedTexts(frame1) == ["BBBB"])
        let fresh = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
        #expect(placedTexts(fresh.place([a, b], camera: testCamera(), previous: frame1)) == ["BBBB"])
        // And the same array placed again by the same placer keeps its own previous labels.
        let symbols = [a, b]
        let frame2 = fresh.place(symbols, camera: testCamera(), previous: frame1)
        #expect(placedTexts(fresh.place(symbols, camera: testCamera(), previous: frame2)) == ["BBBB"])
    }

    @Test func viewBoundsCullLabels() {
        // Wholly outside the view and the 100-point band around it (right of x = 500), partly outside (crossing
        // x = 0), inside.
        let outside = pointLabel("OUTS", at: 520, 100, sourceOrder: 0)
        let edge = pointLabel("EDGE", at: 5, 200, sourceOrder: 1)
        let inside = pointLabel("INSD", at: 200, 150, sourceOrder: 2)
        #expect(placedTexts(placer.place([outside, edge, inside], camera: testCamera())) == ["EDGE", "INSD"])
        let strict = SymbolPlacer(
            measurer: FixedAdvanceTextMeasurer(), options: PlacementOptions(labelsMustFitInView: true))
        #expect(placedTexts(strict.place([outside, edge, inside], camera: testCamera())) == ["INSD"])
    }

    @Test func drawCommandsGoLayerByLayerIconsBeforeTexts() throws {
        var poi = pointLabel("POI", at: 100, 100, layerIndex: 2)
        let handle = ImageHandle(id: 1, pixelWidth: 8, pixelHeight: 8, scale: 1)
        poi.icon = SymbolIcon(size: ScreenSize(width: 8, height: 8), offset: ScreenPoint(x: 0, y: 20), image: handle)
        let road = pointLabel("ROAD", at: 300, 200, layerIndex: 1)
        let result = placer.place([road, poi], camera: testCamera())
        let commands = result.drawCommands()
        #expect(commands.count == 3)
        guard case .text(let first) = commands[0], case .image(let icon) = commands[1],
            case .text(let last) = commands[2]
        else {
            Issue.record("unexpected commands \(commands)")
            return
        }
        #expect(first.text == "ROAD" && last.text == "POI")
        #expect(icon.rect == RenderRect(x: 96, y: 116, width: 8, height: 8))
    }

    /// A feature's `icon-opacity` and SDF paint (data-driven in the style) reach its icon's draw command.
    @Test func iconCommandCarriesTheFeaturesOpacityAndSDFPaint() throws {
        let handle = ImageHandle(id: 1, pixelWidth: 8, pixelHeight: 8, scale: 1)
        var red = pointLabel("", at: 100, 100, sourceOrder: 0)
        red.icon = SymbolIcon(size: ScreenSize(width: 8, height: 8), image: handle)
        red.icon?.opacity = 0.35
        red.icon?.sdfPaint = SDFPaint(color: RGBAColor(red: 1, green: 0, blue: 0), haloWidth: 2)
        red.identity = SymbolIdentity(layer: "poi", text: "icon:red")
        var plain = pointLabel("", at: 300, 200, sourceOrder: 1)
        plain.identity = SymbolIdentity(layer: "poi", text: "icon:plain")
        plain.icon = SymbolIcon(size: ScreenSize(width: 8, height: 8), image: handle)
        let result = placer.place([red, plain], camera: testCamera())
        let icons = result.symbols.sorted { $0.screenAnchor.x < $1.screenAnchor.x }.compactMap(\.iconCommand)
        #expect(icons.count == 2)
        #expect(icons.first?.opacity == 0.35)
        #expect(icons.first?.sdfPaint == SDFPaint(color: RGBAColor(red: 1, green: 0, blue: 0), haloWidth: 2))
        #expect(icons.last?.opacity == 1)
        #expect(icons.last?.sdfPaint == nil)
    }

    @Test func emptyAndNonFiniteInputsPlaceNothing() {
        var nan = pointLabel("NAN", at: 100, 100)
        nan.geometry = .point(WorldPoint(x: .nan, y: 0.5))
        var empty = pointLabel("", at: 100, 100)
        empty.text = ""
        var shortLine = pointLabel("LINE", at: 100, 100)
        shortLine.geometry = .line([world(100, 100)])
        shortLine.placement = .line
        let result = placer.place([nan, empty, shortLine], camera: testCamera())
        #expect(result.symbols.isEmpty)
    }

    @Test func badValuesNeverCrash() {
        var symbols: [SymbolFeature] = []
        for value in [Double.nan, .infinity, -.infinity, 0, -5, 1e300] {
            var point = pointLabel("P", at: 100, 100)
            point.textStyle = TextStyle(size: value, letterSpacing: value)
            point.textOffset = ScreenPoint(x: value, y: value)
            point.textRotation = value
            point.textPadding = value
            point.sortKey = value
            point.icon = SymbolIcon(size: ScreenSize(width: value, height: value), offset: ScreenPoint(x: value, y: 0))
            symbols.append(point)
            var line = pointLabel("LINE", at: 0, 0)
            line.geometry = .line([world(10, 10), WorldPoint(x: value, y: 0.5), world(300, 200), world(350, 250)])
            line.placement = .line
            line.spacing = value
            line.maxAngle = value
            line.textStyle = TextStyle(size: value == 1e300 ? 10 : value)
            symbols.append(line)
        }
        _ = placer.place(symbols, camera: testCamera())
        _ = SymbolPlacer(measurer: FixedAdvanceTextMeasurer(), options: PlacementOptions(cellSize: -1))
            .place(symbols, camera: testCamera())
        for camera in [
            testCamera(bearing: .nan), testCamera(pitch: .nan),
            CameraState(center: LatLng(latitude: .nan, longitude: 0), zoom: .infinity),
            CameraState(center: LatLng(latitude: 0, longitude: 0), zoom: 4, size: ScreenSize(width: 1e9, height: 1e7)),
            CameraState(center: LatLng(latitude: 0, longitude: 0), zoom: 4, size: ScreenSize(width: 1e12, height: 1)),
        ] {
            #expect(placer.place(symbols, camera: camera).symbols.allSatisfy { $0.screenAnchor.x.isFinite })
        }
    }

    @Test func wrappedTextCollidesWithItsWholeBox() throws {
        // "AAAA BBBB" wrapped at 30 points: two lines of 24 points, 2 × 12 = 24 tall; anchored at its bottom edge.
        var label = pointLabel("AAAA BBBB", at: 100, 100)
        label.textStyle = TextStyle(size: 10, maxWidth: 30)
        label.textAnchor = .bottom
        let bounds = try #require(placer.place([label], camera: testCamera()).symbols.first?.textBounds)
        #expect(bounds == RenderRect(x: 88, y: 76, width: 24, height: 24))
        // The offset moves the box: 1 em right and 2 em down = (10, 20) points.
        label.textOffset = ScreenPoint(x: 1, y: 2)
        let moved = try #require(placer.place([label], camera: testCamera()).symbols.first?.textBounds)
        #expect(moved == RenderRect(x: 98, y: 96, width: 24, height: 24))
    }

    @Test func variableAnchorsTryTheNextAnchorWhenBlocked() throws {
        // "BBBB" blocks [88, 112] × [103, 115]. "AAAA" anchored at its top sits 7/24 em (the baseline shift) above
        // [88, 112] × [100, 112] and is blocked; anchored at its bottom it sits in [88, 112] × [88 + 70/24, 100 +
        // 70/24], clear of the blocker.
        let blocker = pointLabel("BBBB", at: 100, 109, sourceOrder: 0)
        var label = pointLabel("AAAA", at: 100, 100, sourceOrder: 1)
        label.textVariableAnchors = [.top, .bottom, .left]
        let result = placer.place([blocker, label], camera: testCamera())
        #expect(placedTexts(result) == ["BBBB", "AAAA"])
        let placed = try #require(result.symbols.last)
        #expect(placed.textAnchor == .bottom)
        let bounds = try #require(placed.textBounds)
        #expect(near(bounds.minX, 88) && near(bounds.minY, 88 + 70 / 24.0))
        #expect(bounds.width == 24 && bounds.height == 12)
        guard case .text(let command)? = placed.text else {
            Issue.record("expected point text")
            return
        }
        // Variable anchors draw the text centred on its moved box.
        #expect(command.anchor == .center)
        #expect(near(command.offset.y, -6 + 70 / 24.0))
    }

    @Test(arguments: [
        // Radial offset 1 em (10 points): left → text starts 10 points right of the point.
        (TextAnchor.left, 1.0, RenderRect(x: 110, y: 94, width: 24, height: 12)),
        // Corner: 10 / √2 on each axis; top and bottom anchors also move 7/24 em (MapLibre's baseline shift) toward
        // the point.
        (
            TextAnchor.topLeft, 1.0,
            RenderRect(
                x: 100 + 10 / 2.0.squareRoot(), y: 100 + 10 / 2.0.squareRoot() - 70 / 24.0,
                width: 24, height: 12)
        ),
        (TextAnchor.bottom, 2.0, RenderRect(x: 88, y: 68 + 70 / 24.0, width: 24, height: 12)),
    ])
    func radialOffsetMovesTextAwayFromThePoint(anchor: TextAnchor, radial: Double, expected: RenderRect) throws {
        var label = pointLabel("AAAA", at: 100, 100)
        label.textVariableAnchors = [anchor]
        label.textRadialOffset = radial
        let bounds = try #require(placer.place([label], camera: testCamera()).symbols.first?.textBounds)
        #expect(near(bounds.minX, expected.minX) && near(bounds.minY, expected.minY))
        #expect(near(bounds.width, expected.width) && near(bounds.height, expected.height))
    }

    @Test func variableAnchorUsesAbsoluteTextOffsetWithoutRadialOffset() throws {
        // text-offset (−1, 2) em with anchor right: |1| em to the left of the point, no vertical shift.
        var label = pointLabel("AAAA", at: 100, 100)
        label.textVariableAnchors = [.right]
        label.textOffset = ScreenPoint(x: -1, y: 2)
        let bounds = try #require(placer.place([label], camera: testCamera()).symbols.first?.textBounds)
        #expect(bounds == RenderRect(x: 66, y: 94, width: 24, height: 12))
    }

    @Test func previousFramesVariableAnchorIsTriedFirst() throws {
        var label = pointLabel("AAAA", at: 100, 100)
        label.textVariableAnchors = [.top, .bottom]
        // Frame 1: a blocker forces .bottom.
        let blocker = pointLabel("BBBB", at: 100, 109, sourceOrder: -1)
        let frame1 = placer.place([blocker, label], camera: testCamera())
        #expect(frame1.symbols.last?.textAnchor == .bottom)
        // Frame 2: the blocker is gone; .top would fit, but the label keeps .bottom.
        let frame2 = placer.place([label], camera: testCamera(), previous: frame1)
        #expect(frame2.symbols.first?.textAnchor == .bottom)
        // Without history it takes the first anchor.
        #expect(placer.place([label], camera: testCamera()).symbols.first?.textAnchor == .top)
    }
}
