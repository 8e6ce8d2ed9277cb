import MapDrawing
import MapGeometry
import MapTestSupport
import Testing

@Suite struct GeometryTests {
    @Test func pathBuildsSubpathsInFlatStorage() {
        var path = RenderPath()
        path.line(to: ScreenPoint(x: 1, y: 2))  // no open sub-path: starts one
        path.line(to: ScreenPoint(x: 3, y: 4))
        path.close()
        path.line(to: ScreenPoint(x: 5, y: 6))  // after close: new sub-path
        path.move(to: ScreenPoint(x: 7, y: 8))
        path.addPolyline([9, 10, 11, 12, 13], closed: true)  // odd trailing value dropped
        #expect(path.coordinates == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        #expect(path.subpathStarts == [0, 2, 3, 4])
        #expect(path.subpathClosed == [true, false, false, true])
        #expect(path.subpathRange(0) == 0..<2)
        #expect(path.subpathRange(3) == 4..<6)
        #expect(path.bounds == RenderRect(x: 1, y: 2, width: 10, height: 10))
        #expect(RenderPath().bounds == nil)
    }

    @Test func rotationTurnsClockwiseOnScreen() {
        // y grows downwards, so +90° takes the x axis onto the +y (downward) axis.
        let p = RenderTransform.rotation(radians: .pi / 2).apply(to: ScreenPoint(x: 1, y: 0))
        #expect(isApproximatelyEqual(p.x, 0, tolerance: 1e-12) && isApproximatelyEqual(p.y, 1, tolerance: 1e-12))
    }

    @Test func concatenationAppliesSelfFirst() {
        let t = RenderTransform.translation(x: 10, y: 0).concatenating(.scale(x: 2, y: 3))
        #expect(t.apply(to: ScreenPoint(x: 1, y: 1)) == ScreenPoint(x: 22, y: 3))
        let u = RenderTransform.scale(x: 2, y: 3).concatenating(.translation(x: 10, y: 0))
        #expect(u.apply(to: ScreenPoint(x: 1, y: 1)) == ScreenPoint(x: 12, y: 3))
    }

    @Test(arguments: [
        (TextAnchor.center, -50.0, -10.0), (.left, 0, -10), (.right, -100, -10), (.top, -50, 0), (.bottom, -50, -20),
        (.topLeft, 0, 0), (.topRight, -100, 0), (.bottomLeft, 0, -20), (.bottomRight, -100, -20),
    ])
    func anchorPlacesTheBox(anchor: TextAnchor, x: Double, y: Double) {
        let origin = anchor.boxOrigin(for: ScreenSize(width: 100, height: 20), at: .zero)
        #expect(origin == ScreenPoint(x: x, y: y))
    }

    @Test func colorsClampAndPrintAsHex() {
        let c = RGBAColor(red: 1.5, green: -1, blue: .nan, alpha: 0.5)
        #expect(c == RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(c.hexString == "#ff000080")
        #expect(RGBAColor(rgb: 0x12ABEF).hexString == "#12abefff")
        #expect(RGBAColor.white.withOpacity(0.25).alpha == 0.25)
    }

    @Test func haloWidthIsCappedAtAQuarterOfTheSize() {
        #expect(TextStyle(size: 12, haloColor: .white, haloWidth: 10).effectiveHaloWidth == 3)
        #expect(TextStyle(size: 12, haloColor: .white, haloWidth: 1).effectiveHaloWidth == 1)
        #expect(!TextStyle(size: 12, haloColor: .clear, haloWidth: 1).hasHalo)
    }

    @Test func rasterImageUnpremultipliesItsPixels() {
        // One pixel, BGRA premultiplied: 50 % red → r = 128, a = 128.
        let image = RasterImage(width: 1, height: 1, pixels: [0, 0, 128, 128])
        let c = image.color(x: 0, y: 0)!
        #expect(c.red == 1 && c.green == 0 && isApproximatelyEqual(c.alpha, 128.0 / 255, tolerance: 1e-12))
        #expect(image.color(x: 1, y: 0) == nil)
        #expect(RasterImage(width: 4, height: 2, scale: 2).pointSize == ScreenSize(width: 2, height: 1))
    }

    @Test func fixedAdvanceMeasurerWrapsAtSpaces() {
        let measurer = FixedAdvanceTextMeasurer(advance: 0.5)
        // 10 pt text: 5 pt per character; max width 40 pt = 8 characters.
        let style = TextStyle(size: 10, lineHeight: 1.5, maxWidth: 40)
        let m = measurer.measure("aaa bbb cccc\ndd", style: style)
        let text = Array("aaa bbb cccc\ndd".utf8)
        let lines = m.lines.map { String(decoding: text[$0.utf8Range], as: UTF8.self) }
        #expect(lines == ["aaa bbb", "cccc", "dd"])
        #expect(m.lines.map(\.width) == [35, 20, 10])
        #expect(m.width == 35 && m.height == 45)
        #expect(m.lines.map(\.baseline) == [8, 23, 38])
    }

    @Test func fixedAdvanceMeasurerPutsLetterSpacingBetweenCharacters() {
        let m = FixedAdvanceTextMeasurer(advance: 0.5).measure("abcd", style: TextStyle(size: 10, letterSpacing: 2))
        #expect(m.width == 26)  // 4 × 5 pt + 3 gaps × 2 pt
    }
}
