import MapDrawing
import MapDrawingCairo
import MapGeometry
import Testing

/// A 4 × 4 image of four 2 × 2 quadrants of four opaque colours (BGRA bytes).
private func quadrants() -> RasterImage {
    var pixels: [UInt8] = []
    for y in 0..<4 {
        for x in 0..<4 {
            switch (x < 2, y < 2) {
            case (true, true): pixels += [255, 0, 0, 255]
            case (false, true): pixels += [0, 255, 0, 255]
            case (true, false): pixels += [0, 0, 255, 255]
            case (false, false): pixels += [255, 255, 255, 255]
            }
        }
    }
    return RasterImage(width: 4, height: 4, pixels: pixels)
}

private func rgba(_ image: RasterImage, _ x: Int, _ y: Int) -> [Int] {
    let i = (y * image.width + x) * 4
    return image.pixels[i..<i + 4].map(Int.init)
}

@Suite struct ProjectedImageTests {
    /// A homography from the image onto a trapezoid: each quadrant lands where the map sends it, nothing is drawn
    /// outside the area, and an affine map draws exactly the scaled image.
    @Test func theBlitMapsAKnownImageOntoAKnownQuad() throws {
        let backend = makeBackend()
        let image = try backend.register(quadrants())
        // Image points (0…4) → a trapezoid (20, 10) (60, 10) (76, 70) (4, 70).
        let square = try #require(
            RenderHomography(
                unitSquareTo: ScreenPoint(x: 20, y: 10), ScreenPoint(x: 60, y: 10), ScreenPoint(x: 76, y: 70),
                ScreenPoint(x: 4, y: 70)))
        let toSquare = RenderHomography(0.25, 0, 0, 0, 0.25, 0, 0, 0, 1)
        let h = square.concatenating(after: toSquare)
        let command = try #require(ProjectedImageCommand(image: image, homography: h, nearestNeighbor: true))
        var list = DisplayList(size: ScreenSize(width: 80, height: 80), scale: 1)
        list.append(.projectedImage(command))
        let out = try backend.render(list)
        // The centre of each quadrant, mapped.
        for (u, v, colour) in [
            (1.0, 1.0, [255, 0, 0, 255]), (3.0, 1.0, [0, 255, 0, 255]), (1.0, 3.0, [0, 0, 255, 255]),
            (3.0, 3.0, [255, 255, 255, 255]),
        ] {
            let p = try #require(h.apply(to: ScreenPoint(x: u, y: v)))
            #expect(rgba(out, Int(p.x), Int(p.y)) == colour, "quadrant at (\(u), \(v)) → \(p)")
        }
        // Outside the trapezoid: untouched.
        for (x, y) in [(10, 12), (70, 12), (40, 5), (40, 75), (2, 60)] {
            #expect(rgba(out, x, y) == [0, 0, 0, 0], "(\(x), \(y))")
        }
        // The perspective is real: the image's middle row (v = 2) sits above the trapezoid's middle (y = 40).
        let middle = try #require(h.apply(to: ScreenPoint(x: 2, y: 2)))
        #expect(middle.y < 39)
        let corner = try #require(h.apply(to: ScreenPoint(x: 4, y: 4)))
        #expect(abs(corner.x - 76) < 1e-9 && abs(corner.y - 70) < 1e-9)
        #expect(h.inverse.map { $0.apply(to: middle).map { abs($0.x - 2) + abs($0.y - 2) } ?? 1 } ?? 1 < 1e-9)

        // Affine: the image scaled 10× at (10, 10), bilinear: the middle of each quadrant is its colour.
        var flat = DisplayList(size: ScreenSize(width: 60, height: 60), scale: 1)
        let affine = RenderHomography(RenderTransform(a: 10, b: 0, c: 0, d: 10, tx: 10, ty: 10))
        flat.append(.projectedImage(try #require(ProjectedImageCommand(image: image, homography: affine))))
        let scaled = try backend.render(flat)
        #expect(rgba(scaled, 15, 15) == [255, 0, 0, 255])
        #expect(rgba(scaled, 44, 15) == [0, 255, 0, 255])
        #expect(rgba(scaled, 15, 44) == [0, 0, 255, 255])
        #expect(rgba(scaled, 44, 44) == [255, 255, 255, 255])
        #expect(rgba(scaled, 9, 20) == [0, 0, 0, 0] && rgba(scaled, 50, 20) == [0, 0, 0, 0])
        #expect(rgba(scaled, 10, 20)[3] == 255 && rgba(scaled, 49, 20)[3] == 255)
    }

    /// Two half-transparent images on adjoining quads (split along a slanted edge, in perspective): every pixel
    /// centre inside their union is blended exactly once, so no pixel is doubled and none is left out.
    @Test func adjoiningQuadsLeaveNoSeamAndNeverBlendTwice() throws {
        let backend = makeBackend()
        let half = try backend.register(
            RasterImage(width: 2, height: 2, pixels: Array(repeating: [128, 128, 128, 128], count: 4).flatMap { $0 }))
        // One trapezoid cut along the line from (37.3, 3.1) to (51.7, 76.9).
        let a = [
            ScreenPoint(x: 8.2, y: 3.1), ScreenPoint(x: 37.3, y: 3.1), ScreenPoint(x: 51.7, y: 76.9),
            ScreenPoint(x: 1.5, y: 76.9),
        ]
        let b = [
            ScreenPoint(x: 37.3, y: 3.1), ScreenPoint(x: 60.9, y: 3.1), ScreenPoint(x: 78.4, y: 76.9),
            ScreenPoint(x: 51.7, y: 76.9),
        ]
        var list = DisplayList(size: ScreenSize(width: 80, height: 80), scale: 1)
        for q in [a, b] {
            let h = try #require(RenderHomography(unitSquareTo: q[0], q[1], q[2], q[3]))
            let toSquare = RenderHomography(0.5, 0, 0, 0, 0.5, 0, 0, 0, 1)
            list.append(
                .projectedImage(
                    ProjectedImageCommand(image: half, homography: h.concatenating(after: toSquare), area: q)))
        }
        let out = try backend.render(list)
        var covered = 0
        for y in 0..<80 {
            var row: [Int] = []
            for x in 0..<80 {
                let alpha = rgba(out, x, y)[3]
                #expect(alpha == 0 || alpha == 128, "pixel (\(x), \(y)) alpha \(alpha)")
                if alpha == 128 { row.append(x) }
            }
            // Rows with pixel centres inside the union: one unbroken span.
            if let first = row.first, let last = row.last {
                #expect(row.count == last - first + 1, "row \(y) has a gap")
                covered += row.count
            }
        }
        #expect(covered > 3000)
        // The text form names the command, its homography and area.
        #expect(list.description.contains("projected-image #\(half.id) h=["))
    }

    /// A checkerboard of one-pixel squares drawn 8× smaller samples a box-filtered level of it (every pixel the
    /// squares' mean grey) instead of aliasing (the positions fall on texel centres, so the image itself would give
    /// pure black or white); the same image drawn at its own size keeps every square.
    @Test func stronglyMinifiedImagesReadABoxFilteredLevel() throws {
        let backend = makeBackend()
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                pixels += [v, v, v, 255]
            }
        }
        let image = try backend.register(RasterImage(width: 64, height: 64, pixels: pixels))
        var list = DisplayList(size: ScreenSize(width: 80, height: 80), scale: 1)
        // Pixel centre 4.5 → image point 3.5, a texel centre; 64 points → 8 pixels.
        let small = RenderHomography(
            RenderTransform(a: 0.125, b: 0, c: 0, d: 0.125, tx: 4 + 1.0 / 16, ty: 4 + 1.0 / 16))
        list.append(.projectedImage(try #require(ProjectedImageCommand(image: image, homography: small))))
        let full = RenderHomography(RenderTransform(a: 1, b: 0, c: 0, d: 1, tx: 14, ty: 14))
        list.append(.projectedImage(try #require(ProjectedImageCommand(image: image, homography: full))))
        let out = try backend.render(list)
        for y in 5..<12 {
            for x in 5..<12 {
                let c = rgba(out, x, y)
                #expect(abs(c[0] - 128) <= 1 && c[0] == c[1] && c[3] == 255, "(\(x), \(y)): \(c)")
            }
        }
        for y in 14..<78 {
            for x in 14..<78 {
                let v = (x + y) % 2 == 0 ? 255 : 0
                #expect(rgba(out, x, y) == [v, v, v, 255], "(\(x), \(y))")
            }
        }
    }

    /// An image draw with a source rectangle is exact, as a GPU draws a textured quad: the pixels whose centres lie
    /// in the unsnapped rectangle, each sampling its centre's preimage; bilinear samples read past the source
    /// rectangle's edge into the rest of the image.
    @Test func anImageDrawWithASourceRectangleIsExact() throws {
        let backend = makeBackend()
        let image = try backend.register(quadrants())
        // Nearest, 3.2 points a pixel from x = 10.3: columns 10…22 drawn, the colour changing at x = 16.7.
        var list = DisplayList(size: ScreenSize(width: 40, height: 20), scale: 1)
        list.append(
            .image(
                ImageCommand(
                    image: image, rect: RenderRect(x: 10.3, y: 0, width: 12.8, height: 8), nearestNeighbor: true,
                    sourceRect: RenderRect(x: 0, y: 0, width: 4, height: 4))))
        let out = try backend.render(list)
        #expect(rgba(out, 9, 2) == [0, 0, 0, 0])
        #expect(rgba(out, 10, 2) == [255, 0, 0, 255])
        #expect(rgba(out, 16, 2) == [255, 0, 0, 255])
        #expect(rgba(out, 17, 2) == [0, 255, 0, 255])
        #expect(rgba(out, 22, 2) == [0, 255, 0, 255])
        #expect(rgba(out, 23, 2) == [0, 0, 0, 0])

        // Bilinear, the right half's top (image points 2…4 × 0…2) at 10×: its left edge blends with the red
        // pixel beside it, its middle is green.
        var half = DisplayList(size: ScreenSize(width: 40, height: 40), scale: 1)
        half.append(
            .image(
                ImageCommand(
                    image: image, rect: RenderRect(x: 10, y: 10, width: 20, height: 20),
                    sourceRect: RenderRect(x: 2, y: 0, width: 2, height: 2))))
        let blended = try backend.render(half)
        let edge = rgba(blended, 10, 20)
        #expect(edge[0] > 60 && edge[1] > 60 && edge[3] == 255, "\(edge)")
        #expect(rgba(blended, 20, 15) == [0, 255, 0, 255])
        #expect(rgba(blended, 9, 20) == [0, 0, 0, 0] && rgba(blended, 30, 20) == [0, 0, 0, 0])
    }
}
