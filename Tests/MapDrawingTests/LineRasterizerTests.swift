import MapDrawing
import MapGeometry
import Testing

@Suite struct LineRasterizerTests {
    private func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

    private func command(
        _ lines: [[ScreenPoint]], width: Double, color: RGBAColor = .black, opacity: Double = 1,
        cap: LineCap = .butt, gap: Double = 0, offset: Double = 0, clipPolygon: [ScreenPoint] = []
    ) -> LineMeshCommand {
        var t = LineTessellator(cap: cap)
        for line in lines { t.addLine(line) }
        return LineMeshCommand(
            mesh: t.mesh, paint: .solid(color), width: width, gapWidth: gap, offset: offset, opacity: opacity,
            clipPolygon: clipPolygon)
    }

    private func alpha(_ image: RasterImage, _ x: Int, _ y: Int) -> Int {
        Int(image.pixels[(y * image.width + x) * 4 + 3])
    }

    @Test func horizontalLineFadesOnlyAtItsSides() {
        // Width 7 at ratio 1: outset 4 device pixels, the fade 1 pixel; the quad spans x 2…10, y 2…10.
        var image = RasterImage(width: 12, height: 12)
        LineRasterizer.draw(
            command([[p(2, 6), p(10, 6)]], width: 7, opacity: 0.5), into: &image, transform: .identity,
            pixelRatio: 1)
        for y in 0..<12 {
            for x in 0..<12 {
                // alpha = clamp(outset − |y + ½ − 6|, 0, 1) inside the quad (line.fragment.glsl), × opacity ½.
                let inside = x >= 2 && x < 10 && y >= 2 && y < 10
                let fade = inside ? min(1, max(0, 4 - abs(Double(y) + 0.5 - 6))) : 0
                let expected = Int((255 * 0.5 * fade).rounded())
                #expect(abs(alpha(image, x, y) - expected) <= 1, "pixel \(x),\(y)")
            }
        }
        // The butt ends are hard: the first and last columns are as opaque as the middle.
        #expect(alpha(image, 2, 6) == alpha(image, 6, 6))
        #expect(alpha(image, 9, 6) == alpha(image, 6, 6))
    }

    @Test func pixelsOnASharedEdgeAreDrawnOnce() {
        // The quad's two triangles share the diagonal y = x, which passes through pixel centres; a pixel drawn
        // twice by a half-transparent line would be darker than its row.
        var image = RasterImage(width: 12, height: 12)
        LineRasterizer.draw(
            command([[p(2, 6), p(10, 6)]], width: 7, opacity: 0.5), into: &image, transform: .identity,
            pixelRatio: 1)
        for y in 3..<9 {
            let row = alpha(image, 5, y)
            for x in 2..<10 { #expect(alpha(image, x, y) == row, "pixel \(x),\(y)") }
        }
        // Two adjacent quads sharing a vertical edge through pixel centres: every pixel once.
        var two = RasterImage(width: 12, height: 12)
        LineRasterizer.draw(
            command([[p(1.5, 6), p(5.5, 6)], [p(5.5, 6), p(10.5, 6)]], width: 7, opacity: 0.5), into: &two,
            transform: .identity, pixelRatio: 1)
        // Edges through pixel centres: the left edge keeps them (top-left rule), the right edge does not.
        for x in 1..<10 { #expect(alpha(two, x, 6) == 128, "pixel \(x),6") }
        #expect(alpha(two, 0, 6) == 0)
        #expect(alpha(two, 10, 6) == 0)
    }

    @Test func translucentOverlapDarkens() {
        var image = RasterImage(width: 20, height: 20)
        LineRasterizer.draw(
            command([[p(0, 10), p(20, 10)], [p(10, 0), p(10, 20)]], width: 5, opacity: 0.5), into: &image,
            transform: .identity, pixelRatio: 1)
        // One layer: ½ → 128; two layers: 1 − ½² = ¾ → 191.
        #expect(alpha(image, 3, 10) == 128)
        #expect(alpha(image, 10, 3) == 128)
        #expect(abs(alpha(image, 10, 10) - 191) <= 1)
    }

    @Test func transformAndPixelRatioScaleTheLine() {
        var image = RasterImage(width: 40, height: 40)
        // 2 device pixels per point: the line is 2 points = 4 pixels wide, plus ½-pixel outsets.
        LineRasterizer.draw(
            command([[p(2, 10), p(18, 10)]], width: 2), into: &image, transform: .scale(x: 2, y: 2), pixelRatio: 2)
        #expect(alpha(image, 10, 20) == 255)
        #expect(alpha(image, 10, 18) == 255)
        #expect(alpha(image, 10, 21) == 255)
        #expect(alpha(image, 10, 16) == 0)
        #expect(alpha(image, 10, 23) == 0)
        #expect(alpha(image, 2, 20) == 0)
        #expect(alpha(image, 4, 20) == 255)
    }

    @Test func gapWidthDrawsTwoCasingLines() {
        var image = RasterImage(width: 30, height: 30)
        LineRasterizer.draw(
            command([[p(0, 15), p(30, 15)]], width: 2, gap: 6), into: &image, transform: .identity, pixelRatio: 1)
        // Casings of width 2 with centres (6 + 2) / 2 = 4 either side; the gap is empty.
        #expect(alpha(image, 10, 15) == 0)
        #expect(alpha(image, 10, 10) == 255)
        #expect(alpha(image, 10, 19) == 255)
        #expect(alpha(image, 10, 7) == 0)
        #expect(alpha(image, 10, 22) == 0)
    }

    @Test func offsetMovesTheLineToTheRight() {
        var image = RasterImage(width: 30, height: 30)
        LineRasterizer.draw(
            command([[p(0, 10), p(30, 10)]], width: 2, offset: 5), into: &image, transform: .identity,
            pixelRatio: 1)
        // Travelling east, the right is screen-down.
        #expect(alpha(image, 10, 15) == 255)
        #expect(alpha(image, 10, 10) == 0)
    }

    @Test func clipRectangleAndPolygonAreRespected() {
        let line = command([[p(0, 10), p(20, 10)]], width: 6)
        var image = RasterImage(width: 20, height: 20)
        LineRasterizer.draw(
            line, into: &image, transform: .identity, clip: PixelRect(minX: 0, minY: 0, maxX: 8, maxY: 20),
            pixelRatio: 1)
        #expect(alpha(image, 7, 10) == 255)
        #expect(alpha(image, 8, 10) == 0)
        // A clip polygon (any winding): the left half.
        var clipped = RasterImage(width: 20, height: 20)
        var withQuad = line
        withQuad.clipPolygon = [p(0, 0), p(0, 20), p(10, 20), p(10, 0)]
        LineRasterizer.draw(withQuad, into: &clipped, transform: .identity, pixelRatio: 1)
        #expect(alpha(clipped, 9, 10) == 255)
        #expect(alpha(clipped, 10, 10) == 0)
        // Two polygons sharing an edge through pixel centres cover each pixel exactly once.
        var halves = RasterImage(width: 20, height: 20)
        for quad in [[p(0, 0), p(9.5, 0), p(9.5, 20), p(0, 20)], [p(9.5, 0), p(20, 0), p(20, 20), p(9.5, 20)]] {
            var c = command([[p(0, 10), p(20, 10)]], width: 6, opacity: 0.5)
            c.clipPolygon = quad
            LineRasterizer.draw(c, into: &halves, transform: .identity, pixelRatio: 1)
        }
        for x in 0..<20 { #expect(alpha(halves, x, 10) == 128, "pixel \(x),10") }
    }

    @Test func badValuesDrawNothing() {
        let blank = RasterImage(width: 16, height: 16)
        var image = blank
        var nanCenter = command([[p(0, 8), p(16, 8)]], width: 4)
        nanCenter.mesh.vertices[0].center = p(.nan, 8)
        LineRasterizer.draw(nanCenter, into: &image, transform: .identity, pixelRatio: 1)
        // The first triangle uses the bad vertex and is skipped; the second one (upper right) still draws.
        #expect(alpha(image, 15, 7) == 255)
        #expect(alpha(image, 1, 9) == 0)
        for bad in [
            command([[p(0, 8), p(16, 8)]], width: .nan), command([[p(0, 8), p(16, 8)]], width: 4, opacity: .nan),
            command([[p(0, 8), p(16, 8)]], width: 4, offset: .infinity),
            command([[p(-1e300, 8), p(1e300, 8)]], width: 4),
            command([[p(0, 8), p(16, 8)]], width: 4, clipPolygon: [p(0, 0), p(.nan, 0), p(1, 1)]),
        ] {
            var img = blank
            LineRasterizer.draw(bad, into: &img, transform: .identity, pixelRatio: .nan)
            #expect(img == blank)
        }
        var img = blank
        LineRasterizer.draw(
            command([[p(0, 8), p(16, 8)]], width: 4), into: &img,
            transform: RenderTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), pixelRatio: 1)
        #expect(img == blank)
        // An out-of-range index is ignored.
        var broken = command([[p(0, 8), p(16, 8)]], width: 4)
        broken.mesh.indices = [0, 1, 99]
        LineRasterizer.draw(broken, into: &img, transform: .identity, pixelRatio: 1)
        #expect(img == blank)
    }

    @Test func anOpaqueLineLeavesPixelsThatHoldItsColourAsTheyAre() {
        // A one-pixel outline over pixels already of its colour (its own fill) blends the colour over itself, which
        // gives the same bytes; over another colour its fade shows as it does over that colour alone.
        let color = RGBAColor(rgb: 0xaadaff)
        let own: [UInt8] = [0xff, 0xda, 0xaa, 0xff]  // B, G, R, A
        let other: [UInt8] = [0xef, 0xf3, 0xf5, 0xff]
        func filled(_ left: [UInt8], _ right: [UInt8]) -> RasterImage {
            var image = RasterImage(width: 16, height: 16)
            for y in 0..<16 {
                for x in 0..<16 {
                    image.pixels.replaceSubrange((y * 16 + x) * 4..<(y * 16 + x) * 4 + 4, with: x < 8 ? left : right)
                }
            }
            return image
        }
        var path = RenderPath()
        path.move(to: p(1.3, 2.1))
        path.line(to: p(14.6, 12.7))
        path.line(to: p(3.2, 14.4))
        let outline = LineMeshCommand(mesh: LineMesh.segments(of: path), paint: .solid(color), width: 1)
        var image = filled(own, other)
        LineRasterizer.draw(outline, into: &image, transform: .identity, pixelRatio: 1)
        var reference = filled(other, other)
        LineRasterizer.draw(outline, into: &reference, transform: .identity, pixelRatio: 1)
        var partlyCoveredOnTheLeft = 0
        for y in 0..<16 {
            for x in 0..<16 {
                let i = (y * 16 + x) * 4
                let drawn = Array(image.pixels[i..<i + 4])
                let alone = Array(reference.pixels[i..<i + 4])
                if x < 8 {
                    #expect(drawn == own, "pixel \(x),\(y)")
                    if alone != other && alone != own { partlyCoveredOnTheLeft += 1 }
                } else {
                    #expect(drawn == alone, "pixel \(x),\(y)")
                }
            }
        }
        // The line does fade across pixels of the left half (the case above is not empty).
        #expect(partlyCoveredOnTheLeft > 4)
    }

    @Test func deviceBoundsCoverWhatIsDrawn() {
        let c = command([[p(2, 10), p(18, 10)]], width: 4, cap: .round)
        let b = LineRasterizer.deviceBounds(of: c, transform: .scale(x: 2, y: 2), pixelRatio: 2)
        #expect(b != nil)
        if let b {
            #expect(b.minX <= 0 && b.maxX >= 40 && b.minY <= 16 && b.maxY >= 24)
        }
        #expect(LineRasterizer.deviceBounds(of: command([], width: 4), transform: .identity, pixelRatio: 1) == nil)
    }
}
