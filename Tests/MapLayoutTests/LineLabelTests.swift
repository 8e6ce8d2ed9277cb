import MapDrawing
import MapGeometry
import MapTestSupport
import Testing

@testable import MapLayout

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LineLabelTests {
    let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())

    func lineLabel(
        _ text: String, through screenPoints: [(Double, Double)], camera: CameraState = testCamera(),
        placement: SymbolPlacementMode = .line, spacing: Double = 250, keepUpright: Bool = true
    ) -> SymbolFeature {
        SymbolFeature(
            identity: SymbolIdentity(layer: "road", text: text),
            geometry: .line(screenPoints.map { world($0.0, $0.1, camera) }), text: text, textStyle: tenPoint,
            placement: placement, spacing: spacing, keepUpright: keepUpright)
    }

    @Test func anchorDistancesFollowSpacing() {
        // spacing/2 + k·spacing inside [label/2, length − label/2].
        #expect(
            lineAnchorDistances(length: 724, labelLength: 60, spacing: 100, center: false)
                == [50, 150, 250, 350, 450, 550, 650])
        // The first candidate (50) would put the label's start before the line's start: skipped.
        #expect(lineAnchorDistances(length: 400, labelLength: 120, spacing: 100, center: false) == [150, 250])
        // No spaced anchor fits, but the line holds the label: one at the middle.
        #expect(lineAnchorDistances(length: 80, labelLength: 60, spacing: 250, center: false) == [40])
        #expect(lineAnchorDistances(length: 50, labelLength: 60, spacing: 250, center: false) == [])
        #expect(lineAnchorDistances(length: 724, labelLength: 60, spacing: 100, center: true) == [362])
    }

    @Test func zigzagRejectsAnchorsWhereTheLineBendsTooMuch() {
        // Straight from x = 0 to 300 at y = 150, then 15 zigzag legs of (20, ∓20): each inner corner turns 90°.
        var points: [(Double, Double)] = [(0, 150), (300, 150)]
        for i in 1...15 { points.append((300 + 20 * Double(i), i % 2 == 1 ? 130 : 150)) }
        // "ABCDEFGHIJ" is 60 points long. Length = 300 + 15·√800 ≈ 724.3, so anchors at 50, 150, …, 650; those from
        // 350 on cover zigzag corners (90° > 45°) and are rejected; 50, 150 and 250 lie on the straight part.
        let label = lineLabel("ABCDEFGHIJ", through: points, spacing: 100)
        let result = placer.place([label], camera: testCamera())
        #expect(result.symbols.count == 3)
        #expect(result.statistics.tooCurved == 4)
        for (symbol, x) in zip(result.symbols, [50.0, 150, 250]) {
            #expect(near(symbol.screenAnchor.x, x, 1e-6) && near(symbol.screenAnchor.y, 150, 1e-6))
        }
        // A larger max-angle accepts every anchor; the last two (x ≈ 477 and 548) lie outside the 400-point view:
        // the first within the 100-point band around it (placed, as MapLibre does), the second beyond it.
        var lenient = label
        lenient.maxAngle = 200
        let all = placer.place([lenient], camera: testCamera())
        #expect(all.symbols.count == 6)
        #expect(all.statistics.tooCurved == 0 && all.statistics.culled == 1)
    }

    @Test func bendTestSumsTurnsWithinTheWindow() {
        // Two 30° turns 10 points apart: 60° within a 12-point window (> 45°), but 30° within a 6-point window.
        let a = 30.0 * .pi / 180
        let p0 = (x: 0.0, y: 0.0)
        let p1 = (x: 100.0, y: 0.0)
        let p2 = (x: p1.x + 10 * cos(a), y: 10 * sin(a))
        let p3 = (x: p2.x + 100 * cos(2 * a), y: p2.y + 100 * sin(2 * a))
        let line = ScreenPolyline([p0, p1, p2, p3])
        #expect(bendsTooMuch(line, from: 50, to: 150, window: 12, maxAngle: .pi / 4))
        #expect(!bendsTooMuch(line, from: 50, to: 150, window: 6, maxAngle: .pi / 4))
        // The corners are outside the span: nothing to reject.
        #expect(!bendsTooMuch(line, from: 0, to: 90, window: 12, maxAngle: .pi / 4))
    }

    @Test func keepUprightFlipsARightToLeftLine() throws {
        // The line runs from (300, 100) to (100, 100); line-center puts the anchor at (200, 100). "ABCDE" is
        // 30 × 12 points; the baseline is 8 − 6 = 2 points below the line in the glyphs' frame.
        let flipped = placer.place(
            [lineLabel("ABCDE", through: [(300, 100), (100, 100)], placement: .lineCenter)], camera: testCamera())
        let upright = try #require(flipped.symbols.first)
        #expect(upright.flipped)
        guard case .lineText(let text)? = upright.text else {
            Issue.record("expected line text")
            return
        }
        #expect(text.glyphs.map(\.text) == ["A", "B", "C", "D", "E"])
        for (glyph, x) in zip(text.glyphs, [188.0, 194, 200, 206, 212]) {
            #expect(near(glyph.position.x, x) && near(glyph.position.y, 102) && near(glyph.rotation, 0))
        }
        // Without keep-upright the text follows the line's direction: upside down, reading leftwards.
        let raw = placer.place(
            [lineLabel("ABCDE", through: [(300, 100), (100, 100)], placement: .lineCenter, keepUpright: false)],
            camera: testCamera())
        guard case .lineText(let down)? = raw.symbols.first?.text else {
            Issue.record("expected line text")
            return
        }
        #expect(raw.symbols.first?.flipped == false)
        for (glyph, x) in zip(down.glyphs, [212.0, 206, 200, 194, 188]) {
            #expect(near(glyph.position.x, x) && near(glyph.position.y, 98) && near(abs(glyph.rotation), 180))
        }
    }

    @Test func leftToRightLineIsNotFlipped() throws {
        let result = placer.place(
            [lineLabel("ABCDE", through: [(100, 100), (300, 100)], placement: .lineCenter)], camera: testCamera())
        guard case .lineText(let text)? = result.symbols.first?.text else {
            Issue.record("expected line text")
            return
        }
        #expect(result.symbols.first?.flipped == false)
        #expect(near(text.glyphs[0].position.x, 188) && near(text.glyphs[0].position.y, 102))
    }

    @Test func bearingTurnsLineLabelsWithTheRoad() {
        // With bearing 90 east points up the screen: a west→east road is drawn bottom to top, so its glyphs turn
        // −90° (reading upwards; vertical lines are never flipped).
        let camera = testCamera(bearing: 90)
        let centre = camera.centerWorldPoint
        let d = 100 / camera.transform.worldSize  // 100 points
        let road = SymbolFeature(
            identity: SymbolIdentity(layer: "road", text: "ABCDE"),
            geometry: .line([WorldPoint(x: centre.x - d, y: centre.y), WorldPoint(x: centre.x + d, y: centre.y)]),
            text: "ABCDE", textStyle: tenPoint, placement: .lineCenter)
        let result = placer.place([road], camera: camera)
        guard case .lineText(let text)? = result.symbols.first?.text else {
            Issue.record("expected line text")
            return
        }
        // The glyphs climb from y = 150 + 12 to 150 − 12; the baseline is 2 points right of the line (x = 202).
        for (glyph, y) in zip(text.glyphs, [162.0, 156, 150, 144, 138]) {
            #expect(near(glyph.position.x, 202, 1e-6) && near(glyph.position.y, y, 1e-6))
            #expect(near(glyph.rotation, -90, 1e-9))
        }
    }

    @Test func lineLabelsCollideAsChainsOfCircles() {
        // Two parallel roads 30 points apart do not collide (circle radius 6 + 2 padding); 14 points apart they do.
        let a = lineLabel("MAIN", through: [(100, 100), (300, 100)], placement: .lineCenter)
        let far = lineLabel("SIDE", through: [(100, 130), (300, 130)], placement: .lineCenter)
        let close = lineLabel("SIDE", through: [(100, 114), (300, 114)], placement: .lineCenter)
        #expect(placer.place([a, far], camera: testCamera()).symbols.count == 2)
        #expect(placer.place([a, close], camera: testCamera()).symbols.count == 1)
        // A crossing road at its label's middle collides; 40 points right of the middle it does not.
        let crossing = lineLabel("CROSS", through: [(200, 50), (200, 150)], placement: .lineCenter)
        let crossingAside = lineLabel("CROSS", through: [(240, 50), (240, 150)], placement: .lineCenter)
        #expect(placer.place([a, crossing], camera: testCamera()).symbols.count == 1)
        #expect(placer.place([a, crossingAside], camera: testCamera()).symbols.count == 2)
    }

    @Test func lineShorterThanItsLabelGetsNoLabel() {
        let result = placer.place(
            [lineLabel("LONG NAME HERE", through: [(100, 100), (150, 100)])], camera: testCamera())
        #expect(result.symbols.isEmpty)
    }

    @Test func rightToLeftScriptIsPlacedAsOneStraightRun() {
        // Hebrew cannot be drawn letter by letter (it reads right to left): one placement of the whole word,
        // 4 × 6 = 24 points wide, centred on the anchor with its baseline 2 points below the line.
        let result = placer.place(
            [lineLabel("שלום", through: [(100, 100), (300, 100)], placement: .lineCenter)], camera: testCamera())
        guard case .lineText(let text)? = result.symbols.first?.text else {
            Issue.record("expected line text")
            return
        }
        #expect(text.glyphs.count == 1)
        #expect(text.glyphs.first?.text == "שלום")
        #expect(near(text.glyphs[0].position.x, 200) && near(text.glyphs[0].position.y, 102))
        #expect(text.glyphs[0].rotation == 0)
    }

    @Test func roadInTwoTilesBuffersIsLabelledByItsOwnerOnly() {
        // A short road just east of the boundary between z4 tiles x = 7 and x = 8 (screen x = 200) is in tile 8 and
        // in tile 7's buffer. Different feature ids (as separate tiles may give) defeat identity dedup; ownership
        // still keeps one label.
        let points = [(205.0, 100.0), (245.0, 100.0)]
        var west = lineLabel("ABCDE", through: points, placement: .lineCenter)
        west.ownerTile = TileID(z: 4, x: 7, y: 7)
        west.identity = SymbolIdentity(layer: "road", featureID: 1, text: "ABCDE")
        west.textAllowOverlap = true
        var east = west
        east.ownerTile = TileID(z: 4, x: 8, y: 7)
        east.identity = SymbolIdentity(layer: "road", featureID: 2, text: "ABCDE")
        let result = placer.place([west, east], camera: testCamera())
        #expect(result.symbols.map(\.featureIndex) == [1])
        #expect(result.statistics.culled == 1)
    }

    @Test func roadRunningToTheHorizonIsLabelledOnlyWithinTheDepthLimit() throws {
        // Pitch 65, optical centre at y = 250, horizon at y ≈ 40.2 (see PlacementTests). The road runs straight up
        // the screen from the bottom to just under the horizon; labels must stay within 3 camera distances.
        let camera = testCamera(pitch: 65, padding: EdgeInsets(top: 200, left: 0, bottom: 0, right: 0))
        let road = lineLabel(
            "ABCDE", through: [(200, 299), (200, 200), (200, 100), (200, 60), (200, 45)], camera: camera, spacing: 60)
        let result = placer.place([road], camera: camera)
        #expect(!result.symbols.isEmpty)
        let transform = camera.transform
        for symbol in result.symbols {
            #expect(transform.depth(of: symbol.anchor) <= 3 * transform.distance + 1e-6)
            guard case .lineText(let text)? = symbol.text else {
                Issue.record("expected line text")
                continue
            }
            // On the ground (the default for line text) the road's screen direction at each glyph, which leans a
            // little as parallel lines converge towards the horizon.
            for glyph in text.glyphs { #expect(near(glyph.rotation, -90, 1)) }
        }
        // The depth limit (y ≈ 150 − … where depth = 3 D) cuts the line: nothing is placed above it.
        let topmost = try #require(result.symbols.map(\.screenAnchor.y).min())
        let limitY = 250 - 450 * (2.0 / 3) / tan(65 * Double.pi / 180)  // v = −D · (depth − D) / depth · cot p
        #expect(topmost >= limitY)
    }

    @Test func sameTextAsPointAndLineLabelKeepsEachBox() throws {
        // A wrapped point label and a line label share (text, style): the point box stays two lines tall.
        var style = tenPoint
        style.maxWidth = 30
        var road = lineLabel("AAAA BBBB", through: [(100, 250), (300, 250)], placement: .lineCenter)
        road.textStyle = style
        var point = pointLabel("AAAA BBBB", at: 100, 100)
        point.textStyle = style
        let result = placer.place([road, point], camera: testCamera())
        #expect(result.symbols.count == 2)
        let bounds = try #require(result.symbols.first { $0.featureIndex == 1 }?.textBounds)
        #expect(bounds.height == 24)
    }
    // MARK: - Pitch and rotation alignment

    @Test func autoAlignmentIsMapForLinesAndViewportForPoints() {
        #expect(SymbolAlignment.rotation("auto", placement: .line) == .map)
        #expect(SymbolAlignment.rotation("auto", placement: .lineCenter) == .map)
        #expect(SymbolAlignment.rotation("auto", placement: .point) == .viewport)
        #expect(SymbolAlignment.rotation("viewport-glyph", placement: .line) == .viewport)
        #expect(SymbolAlignment.pitch("auto", rotation: .map) == .map)
        #expect(SymbolAlignment.pitch("auto", rotation: .viewport) == .viewport)
        #expect(SymbolAlignment.pitch("viewport", rotation: .map) == .viewport)
        let road = lineLabel("MAIN", through: [(100, 100), (300, 100)])
        #expect(road.textPitchAlignment == .map)
        #expect(pointLabel("POI", at: 10, 10).textPitchAlignment == .viewport)
    }

    /// The glyph frames of the one placed line label of `road` seen by `camera`.
    func placedGlyphs(_ road: SymbolFeature, _ camera: CameraState) throws -> [GlyphPlacement] {
        let result = placer.place([road], camera: camera)
        let symbol = try #require(result.symbols.first)
        guard case .lineText(let text)? = symbol.text else {
            Issue.record("expected line text, got \(String(describing: symbol.text))")
            return []
        }
        return text.glyphs
    }

    @Test func pitchedStreetNamesLieOnTheGround() throws {
        // Pitch 60: an east-west road across the screen below the centre. On the ground (map alignment, the
        // default for line text), each glyph's height runs north-south, which the pitch foreshortens by about
        // cos 60° = 0.5 against its width; upright on the screen (viewport alignment) it is not foreshortened.
        let camera = testCamera(pitch: 60)
        var road = lineLabel("MAIN", through: [(60, 200), (340, 200)], camera: camera, placement: .lineCenter)
        let ground = try placedGlyphs(road, camera)
        #expect(ground.count == 4)
        for g in ground {
            let m = try #require(g.transform)
            let width = (m.a * m.a + m.b * m.b).squareRoot()
            let height = (m.c * m.c + m.d * m.d).squareRoot()
            #expect(height / width > 0.4 && height / width < 0.6, "height \(height), width \(width)")
            #expect(abs(m.b) < 1e-6, "an east-west road at bearing 0 stays horizontal")
            #expect(m.d > 0, "the glyph's height points down the screen")
        }
        road.textPitchAlignment = .viewport
        let upright = try placedGlyphs(road, camera)
        #expect(upright.count == 4)
        #expect(upright.allSatisfy { $0.transform == nil })
        // Flat, map alignment changes nothing: the glyphs are upright on the screen as before.
        let flat = try placedGlyphs(
            lineLabel("MAIN", through: [(60, 200), (340, 200)], placement: .lineCenter), testCamera())
        #expect(flat.allSatisfy { $0.transform == nil })
    }

    @Test func groundLabelsShrinkWithDepthAndStayUpright() throws {
        // Pitch 60: a road running up the screen away from the camera, drawn from north to south, leaning a little
        // left (it would read top to bottom): keep-upright flips it, so it reads bottom to top on the screen (about
        // −85°). The farther glyphs are smaller on the screen.
        let camera = testCamera(pitch: 60)
        let road = lineLabel("ABCDEFGH", through: [(210, 40), (190, 290)], camera: camera, placement: .lineCenter)
        let glyphs = try placedGlyphs(road, camera)
        #expect(glyphs.map(\.text).joined() == "ABCDEFGH")
        for g in glyphs { #expect(g.rotation > -90 && g.rotation < -75, "rotation \(g.rotation)") }
        // Reading bottom to top: each glyph is above the one before.
        for (a, b) in zip(glyphs, glyphs.dropFirst()) { #expect(b.position.y < a.position.y) }
        let sizes = try glyphs.map { g -> Double in
            let m = try #require(g.transform)
            return (m.a * m.a + m.b * m.b).squareRoot()
        }
        #expect(try #require(sizes.last) < sizes[0], "sizes \(sizes)")
    }

    @Test func lineTextAlignedToTheViewportIsUprightAtEveryAnchor() {
        // A 400-point diagonal road, spacing 100: upright point labels (`.text`, no line text) at several anchors.
        var road = lineLabel("AB", through: [(0, 0), (300, 260)], spacing: 100)
        road.textRotationAlignment = .viewport
        road.textAllowOverlap = true
        let result = placer.place([road], camera: testCamera())
        #expect(result.symbols.count >= 3)
        for symbol in result.symbols {
            guard case .text(let t)? = symbol.text else {
                Issue.record("expected upright text, got \(String(describing: symbol.text))")
                continue
            }
            #expect(t.rotation == 0)
        }
    }
}
