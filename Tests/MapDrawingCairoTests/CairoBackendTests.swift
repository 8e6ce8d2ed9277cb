import CairoGraphics
import MapDrawing
import MapGeometry
import MapTestSupport
import Testing

@testable import MapDrawingCairo

private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> RenderPath {
    var p = RenderPath()
    p.addRect(RenderRect(x: x, y: y, width: w, height: h))
    return p
}

/// The smallest pixel box holding every pixel with alpha above `threshold`, or nil.
private func inkBox(_ image: RasterImage, threshold: UInt8 = 0) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var box: (Int, Int, Int, Int)?
    for y in 0..<image.height {
        for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > threshold {
            if let b = box {
                box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
            } else {
                box = (x, y, x, y)
            }
        }
    }
    return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
}

@Suite(.serialized) struct CairoBackendTests {
    @Test func aFrameThatStartsWithAClearNeedsNoZeroedPixels() throws {
        // A first command that clears the whole image writes every pixel, so the image's bytes are not zeroed first.
        // The picture is the same as the list drawn after a `save` (zeroed first). At 0.7 the clear's rectangle
        // (24 / 0.7 points) is not 24 device pixels exactly in floating point: that image is zeroed first as well.
        let color = RGBAColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.8)
        for (size, scale, clears) in [
            (ScreenSize(width: 7, height: 5), 1.0, true), (ScreenSize(width: 7.3, height: 5), 1.5, true),
            (ScreenSize(width: 11, height: 13), 3, true), (ScreenSize(width: 33, height: 9), 0.7, false),
        ] {
            var list = DisplayList(size: size, scale: scale)
            list.append(.clear(color))
            list.append(.fill(FillCommand(path: rect(1, 1, 3, 2), color: .black)))
            #expect(
                CairoBackend.clearsEveryPixelFirst(list, width: list.pixelWidth, height: list.pixelHeight) == clears)
            var saved = DisplayList(size: size, scale: scale)
            saved.commands = [.save] + list.commands + [.restore]
            #expect(!CairoBackend.clearsEveryPixelFirst(saved, width: saved.pixelWidth, height: saved.pixelHeight))
            let backend = CairoBackend()
            #expect(try backend.render(list).pixels == backend.render(saved).pixels, "\(size) × \(scale)")
        }
        var list = DisplayList(size: ScreenSize(width: 4, height: 4))
        var notANumber = RGBAColor.black
        notANumber.red = .nan
        list.append(.clear(notANumber))
        #expect(!CairoBackend.clearsEveryPixelFirst(list, width: 4, height: 4))
        #expect(
            !CairoBackend.clearsEveryPixelFirst(DisplayList(size: ScreenSize(width: 4, height: 4)), width: 4, height: 4)
        )
    }

    @Test func clearAndAliasedFillHitExactPixels() throws {
        var list = DisplayList(size: ScreenSize(width: 20, height: 10), scale: 1)
        list.append(.clear(RGBAColor(rgb: 0x0000FF, alpha: 0.5)))
        list.append(.fill(FillCommand(path: rect(2, 3, 4, 5), color: RGBAColor(rgb: 0xFF0000), antialias: false)))
        let image = try makeBackend().render(list)
        #expect(image.width == 20 && image.height == 10)
        // Inside the rectangle (columns 2…5, rows 3…7): opaque red. Outside: half-transparent blue, premultiplied.
        #expect(image.premultipliedRGBA(x: 2, y: 3)! == (255, 0, 0, 255))
        #expect(image.premultipliedRGBA(x: 5, y: 7)! == (255, 0, 0, 255))
        let outside = image.premultipliedRGBA(x: 6, y: 7)!
        #expect(outside.r == 0 && outside.g == 0 && abs(Int(outside.b) - 128) <= 1 && abs(Int(outside.a) - 128) <= 1)
        #expect(image.premultipliedRGBA(x: 2, y: 8)!.r == 0)
    }

    @Test func scaleMultipliesPointsIntoPixels() throws {
        var list = DisplayList(size: ScreenSize(width: 10, height: 5), scale: 2)
        list.append(.fill(FillCommand(path: rect(1, 1, 2, 2), color: .black)))
        let image = try makeBackend().render(list)
        #expect(image.width == 20 && image.height == 10 && image.scale == 2)
        let box = try #require(inkBox(image))
        #expect(box == (minX: 2, minY: 2, maxX: 5, maxY: 5))
    }

    /// `render(_:)` draws straight into the returned image's bytes (issue 17): each image owns its bytes (a later
    /// render leaves an earlier image as it was), and they are exactly what the same list drawn into a surface of
    /// its own and copied out holds.
    @Test func renderedImagesOwnTheirBytesAndMatchASurfaceCopy() throws {
        let backend = makeBackend()
        var red = DisplayList(size: ScreenSize(width: 8, height: 4))
        red.append(.fill(FillCommand(path: rect(1, 0.5, 5, 3), color: RGBAColor(rgb: 0xFF0000))))
        var blue = DisplayList(size: ScreenSize(width: 8, height: 4))
        blue.append(.fill(FillCommand(path: rect(0, 0, 8, 4), color: RGBAColor(rgb: 0x0000FF))))
        let first = try backend.render(red)
        let second = try backend.render(blue)
        let inside = (2 * 8 + 3) * 4
        #expect(Array(first.pixels[inside..<inside + 4]) == [0, 0, 255, 255])  // B, G, R, A: red
        #expect(Array(first.pixels[0..<4]) == [0, 0, 0, 0])
        #expect(Array(second.pixels[inside..<inside + 4]) == [255, 0, 0, 255])
        let surface = try CairoSurface(width: 8, height: 4)
        backend.draw(red, into: surface)
        #expect(surface.rasterImage().pixels == first.pixels)
    }

    /// The adapter's draw-into-bytes surface refuses a byte count that is not `width × height × 4`, naming the size.
    @Test func drawingIntoBytesOfAnotherCountThrowsWithTheSize() {
        var bytes = [UInt8](repeating: 0, count: 10)
        #expect(throws: CairoGraphicsError.invalidSize(width: 2, height: 2)) {
            try CairoSurface.drawing(into: &bytes, width: 2, height: 2) { _ in }
        }
        #expect(bytes == [UInt8](repeating: 0, count: 10))
    }

    @Test func emptyListsAreRejectedWithTheirSize() {
        let list = DisplayList(size: ScreenSize(width: 0, height: 10))
        #expect(throws: RenderError.invalidSize(width: 0, height: 10)) { try makeBackend().render(list) }
    }

    @Test func unrotatedImagesSnapToWholePixelsAndKeepTheirBytes() throws {
        let backend = makeBackend()
        var pixels: [UInt8] = []
        for i in 0..<16 { pixels += [UInt8(i * 10), UInt8(255 - i * 10), 40, 255] }
        let source = RasterImage(width: 4, height: 4, pixels: pixels)
        let handle = try backend.register(source)
        var list = DisplayList(size: ScreenSize(width: 20, height: 20))
        list.append(.image(ImageCommand(image: handle, rect: RenderRect(x: 10.4, y: 7.6, width: 4, height: 4))))
        let image = try backend.render(list)
        for y in 0..<4 {
            for x in 0..<4 {
                let i = (y * 4 + x) * 4
                let j = ((8 + y) * 20 + 10 + x) * 4
                #expect(Array(image.pixels[j..<j + 4]) == Array(pixels[i..<i + 4]))
            }
        }
        #expect(inkBox(image)! == (minX: 10, minY: 8, maxX: 13, maxY: 11))
        backend.unregister(handle)
        #expect(inkBox(try backend.render(list)) == nil)  // unknown handles draw nothing
    }

    @Test func fractionallyScaledTilesLeaveNoSeam() throws {
        let backend = makeBackend()
        var tileList = DisplayList(size: ScreenSize(width: 64, height: 64))
        tileList.append(.clear(RGBAColor(rgb: 0x336699)))
        let tile = try backend.renderImage(tileList)
        #expect(backend.registeredImageCount == 1)
        let s = 1.37
        let placements = (0..<3).flatMap { col in
            (0..<2).map { row in
                TilePlacement(
                    image: tile, origin: ScreenPoint(x: 3.3 + Double(col) * 64 * s, y: 2.7 + Double(row) * 64 * s),
                    scale: s)
            }
        }
        let list = TileCompositor.displayList(for: placements, frame: ScreenSize(width: 240, height: 170), scale: 1)
        let image = try backend.render(list)
        // Snapped edges: tiles cover x 3…266 (clipped to 240) and y 3…178 (clipped to 170).
        for y in 3..<170 {
            for x in 3..<240 { #expect(image.pixels[(y * 240 + x) * 4 + 3] == 255, "hole at \(x),\(y)") }
        }
        #expect(image.pixels[(2 * 240 + 2) * 4 + 3] == 0)
    }

    @Test func topLeftAnchoredLabelStartsAtItsAnchor() throws {
        let backend = makeBackend()
        var list = DisplayList(size: ScreenSize(width: 200, height: 60))
        let style = TextStyle(fontFamilies: ["DejaVu Sans"], size: 20)
        list.append(
            .text(TextCommand(text: "Helsinki", style: style, position: ScreenPoint(x: 30, y: 10), anchor: .topLeft)))
        let image = try backend.render(list)
        let box = try #require(inkBox(image, threshold: 40))
        let metrics = backend.shaper.measure("Helsinki", style: style)
        // The ink lies inside the logical box placed at (30, 10), give or take a pixel of anti-aliasing.
        #expect(box.minX >= 29 && box.minX <= 33)
        #expect(box.minY >= 10 && box.maxY <= 10 + Int(metrics.height.rounded(.up)))
        #expect(abs(Double(box.maxX - box.minX) - metrics.inkBounds.width) <= 2)
        // Bottom-right anchoring puts the same box to the left of and above the anchor.
        var right = DisplayList(size: ScreenSize(width: 200, height: 60))
        right.append(
            .text(
                TextCommand(text: "Helsinki", style: style, position: ScreenPoint(x: 190, y: 50), anchor: .bottomRight))
        )
        let rbox = try #require(inkBox(try backend.render(right), threshold: 40))
        #expect(rbox.maxX <= 190 && rbox.maxX >= 185 && rbox.maxY <= 50)
    }

    @Test func haloWidensTheLabelByItsWidth() throws {
        let backend = makeBackend()
        func box(_ halo: Double) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
            var list = DisplayList(size: ScreenSize(width: 200, height: 80))
            let style = TextStyle(size: 24, color: .black, haloColor: .white, haloWidth: halo)
            list.append(.text(TextCommand(text: "Kallio", style: style, position: ScreenPoint(x: 100, y: 40))))
            return try #require(inkBox(try backend.render(list), threshold: 128))
        }
        let plain = try box(0)
        let haloed = try box(3)
        // A 3 pt halo grows the ink box by about 3 px on every side.
        #expect(abs((plain.minX - haloed.minX) - 3) <= 1)
        #expect(abs((haloed.maxX - plain.maxX) - 3) <= 1)
        #expect(abs((plain.minY - haloed.minY) - 3) <= 1)
        // The halo is white; the glyph centres stay black.
        var list = DisplayList(size: ScreenSize(width: 200, height: 80))
        list.append(.clear(RGBAColor(rgb: 0x808080)))
        let style = TextStyle(size: 24, color: .black, haloColor: .white, haloWidth: 3)
        list.append(.text(TextCommand(text: "l", style: style, position: ScreenPoint(x: 100, y: 40))))
        let image = try backend.render(list)
        let row = 40
        let values = (80..<120).map { image.premultipliedRGBA(x: $0, y: row)!.r }
        #expect(values.contains(255) && values.contains(where: { $0 < 30 }))
    }

    @Test func labelSpritesAreReusedOnTheSecondFrame() throws {
        let backend = makeBackend()
        var list = DisplayList(size: ScreenSize(width: 400, height: 300))
        let style = TextStyle(size: 14, haloColor: .white, haloWidth: 1.5)
        for i in 0..<50 {
            list.append(
                .text(
                    TextCommand(
                        text: "Label \(i)", style: style,
                        position: ScreenPoint(x: Double(i % 5) * 80 + 40, y: Double(i / 5) * 28 + 15))))
        }
        let first = try backend.render(list)
        #expect(backend.labelSprites.misses == 50 && backend.labelSprites.hits == 0)
        let second = try backend.render(list)
        #expect(backend.labelSprites.misses == 50 && backend.labelSprites.hits == 50)
        #expect(first == second)
        // A different scale is a different sprite.
        list.scale = 2
        _ = try backend.render(list)
        #expect(backend.labelSprites.misses == 100)
    }

    @Test func labelSpriteCacheStaysWithinItsByteBound() throws {
        let backend = makeBackend(labelCacheBytes: 40_000)
        var list = DisplayList(size: ScreenSize(width: 300, height: 300))
        for i in 0..<40 {
            list.append(
                .text(
                    TextCommand(
                        text: "Street \(i)", style: TextStyle(size: 12), position: ScreenPoint(x: 150, y: 150))))
        }
        _ = try backend.render(list)
        #expect(backend.labelSprites.ownStore.totalBytes <= 40_000)
        #expect(backend.labelSprites.ownStore.count < 40 && backend.labelSprites.ownStore.count > 0)
    }

    @Test func labelSpritesLiveInTheOneStoreTheBackendWasHanded() throws {
        let backend = makeBackend()
        let sprites = backend.labelSprites
        var list = DisplayList(size: ScreenSize(width: 200, height: 60))
        list.append(.text(TextCommand(text: "Monte-Carlo", style: TextStyle(size: 14), position: .init(x: 100, y: 30))))
        _ = try backend.render(list)
        #expect(sprites.ownStore.count == 1 && sprites.misses == 1)
        // A handed-over store (an engine's) takes every sprite; the own store is emptied, so none is held twice.
        let handed = ByteBoundedCacheStore(byteLimit: 1 << 20)
        backend.useCacheStore(handed)
        #expect(sprites.ownStore.count == 0)
        _ = try backend.render(list)
        _ = try backend.render(list)
        #expect(handed.count == 1 && handed.totalBytes > 0 && sprites.ownStore.count == 0)
        #expect(sprites.misses == 2 && sprites.hits == 1)
        // `removeAll` empties the store in use; back on the own store, the sprite is made again and kept there.
        sprites.removeAll()
        #expect(handed.count == 0)
        backend.useCacheStore(nil)
        _ = try backend.render(list)
        #expect(sprites.store === sprites.ownStore && sprites.ownStore.count == 1 && sprites.misses == 3)
    }

    @Test func lineTextDrawsEveryCluster() throws {
        let backend = makeBackend()
        var list = DisplayList(size: ScreenSize(width: 200, height: 60))
        let glyphs = "Tie".enumerated().map { k, ch in
            GlyphPlacement(text: String(ch), position: ScreenPoint(x: 40 + Double(k) * 50, y: 40), rotation: 0)
        }
        list.append(.lineText(LineTextCommand(style: TextStyle(size: 20), glyphs: glyphs)))
        let image = try backend.render(list)
        // Each glyph is centred on its position: ink near x = 40, 90 and 140 and none in the gaps.
        for centre in [40, 90, 140] {
            let column = (centre - 6...centre + 6).contains { x in
                (20..<42).contains { y in image.pixels[(y * 200 + x) * 4 + 3] > 100 }
            }
            #expect(column, "no ink near x = \(centre)")
        }
        #expect(!(20..<42).contains { y in image.pixels[(y * 200 + 65) * 4 + 3] > 0 })
    }

    @Test func rotatedLabelsTurnAboutTheirAnchorInWholeDegrees() throws {
        let backend = makeBackend()
        let style = TextStyle(fontFamilies: ["DejaVu Sans"], size: 16, haloColor: .white, haloWidth: 1)
        func render(_ rotation: Double) throws -> RasterImage {
            var list = DisplayList(size: ScreenSize(width: 200, height: 200))
            list.append(
                .text(
                    TextCommand(
                        text: "Mannerheimintie", style: style, position: ScreenPoint(x: 100, y: 100),
                        rotation: rotation)))
            return try backend.render(list)
        }
        let flat = try #require(inkBox(try render(0), threshold: 60))
        let upright = try #require(inkBox(try render(90), threshold: 60))
        // A quarter turn swaps the box's width and height and keeps it centred on the anchor.
        #expect(abs((flat.maxX - flat.minX) - (upright.maxY - upright.minY)) <= 2)
        #expect(abs((flat.maxY - flat.minY) - (upright.maxX - upright.minX)) <= 2)
        #expect(abs(Double(upright.minY + upright.maxY) / 2 - 100) <= 2)
        #expect(abs(Double(upright.minX + upright.maxX) / 2 - 100) <= 3)
        // 30.2° and 29.8° share the 30° sprite.
        let misses = backend.labelSprites.misses
        let a = try render(30.2)
        #expect(backend.labelSprites.misses == misses + 1)
        let b = try render(29.8)
        #expect(backend.labelSprites.misses == misses + 1)
        #expect(a == b)
        // −90° is the same sprite as 270°.
        _ = try render(-90)
        let again = backend.labelSprites.misses
        _ = try render(270)
        #expect(backend.labelSprites.misses == again)
    }

    @Test func rotatedImagesTurnAboutTheirCentre() throws {
        let backend = makeBackend()
        let handle = try backend.register(
            RasterImage(width: 8, height: 2, pixels: [UInt8](repeating: 255, count: 8 * 2 * 4)))
        var list = DisplayList(size: ScreenSize(width: 20, height: 20))
        list.append(
            .image(ImageCommand(image: handle, rect: RenderRect(x: 6, y: 9, width: 8, height: 2), rotation: 90)))
        // Centre (10, 10); a quarter turn makes the 8 × 2 image 2 wide and 8 tall.
        let box = try #require(inkBox(try backend.render(list), threshold: 128))
        #expect(box == (minX: 9, minY: 6, maxX: 10, maxY: 13))
    }

    @Test func labelsScaleWithTheDeviceScale() throws {
        let backend = makeBackend()
        func box(_ scale: Double) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
            var list = DisplayList(size: ScreenSize(width: 160, height: 60), scale: scale)
            list.append(
                .text(
                    TextCommand(
                        text: "Espoo", style: TextStyle(size: 18, haloColor: .white, haloWidth: 1),
                        position: ScreenPoint(x: 80, y: 30))))
            return try #require(inkBox(try backend.render(list), threshold: 100))
        }
        let one = try box(1)
        let two = try box(2)
        // Twice as wide at scale 2, within the anti-aliasing: a pixel per side at scale 1 is two at scale 2.
        #expect(abs(Double(two.maxX - two.minX) - 2 * Double(one.maxX - one.minX)) <= 6)
        #expect(Double(two.maxX - two.minX) > 1.8 * Double(one.maxX - one.minX))
        #expect(abs(Double(two.minX + two.maxX) / 2 - 160) <= 2)
    }
}

@Suite struct BadInputTests {
    @Test func lineMeshesDrawExactlyAsTheRasteriserUnderTransformAndClip() throws {
        // Two translucent crossing lines in two consecutive commands (one batch), clipped to a rectangle; drawn
        // straight into the surface (axis-aligned matrix) and through a scratch image (a rotated matrix).
        var horizontal = LineTessellator(cap: .round)
        horizontal.addLine([ScreenPoint(x: 2, y: 10), ScreenPoint(x: 28, y: 12)])
        var vertical = LineTessellator(join: .round)
        vertical.addLine([ScreenPoint(x: 15, y: 2), ScreenPoint(x: 14, y: 18), ScreenPoint(x: 24, y: 26)])
        let a = LineMeshCommand(
            mesh: horizontal.mesh, paint: .solid(RGBAColor(rgb: 0xCC3300)), width: 4, blur: 1, opacity: 0.6)
        let b = LineMeshCommand(mesh: vertical.mesh, paint: .solid(RGBAColor(rgb: 0x0033CC, alpha: 0.7)), width: 3)
        let clip = RenderRect(x: 4, y: 3, width: 20, height: 20)
        for rotated in [false, true] {
            var list = DisplayList(size: ScreenSize(width: 30, height: 30), scale: 2)
            list.append(.save)
            var toPixels = RenderTransform.scale(x: 2, y: 2)
            if rotated {
                // A quarter turn about the centre (15, 15).
                let turn = RenderTransform(a: 0, b: 1, c: -1, d: 0, tx: 30, ty: 0)
                list.append(.transform(turn))
                toPixels = turn.concatenating(toPixels)
            }
            list.append(.clip(clip))
            list.append(.lineMesh(a))
            list.append(.lineMesh(b))
            list.append(.restore)
            let image = try makeBackend().render(list)
            var expected = RasterImage(width: 60, height: 60, scale: 2)
            // The clip in device pixels: user (4, 3)…(24, 23) through the transform.
            let p0 = toPixels.apply(to: clip.origin)
            let p1 = toPixels.apply(to: ScreenPoint(x: clip.maxX, y: clip.maxY))
            let pixelClip = PixelRect(
                minX: Int(min(p0.x, p1.x)), minY: Int(min(p0.y, p1.y)), maxX: Int(max(p0.x, p1.x)),
                maxY: Int(max(p0.y, p1.y)))
            for command in [a, b] {
                LineRasterizer.draw(command, into: &expected, transform: toPixels, clip: pixelClip, pixelRatio: 2)
            }
            #expect(image.pixels == expected.pixels, "rotated: \(rotated)")
            #expect(expected.pixels.contains { $0 != 0 })
        }
    }

    /// Two opaque rectangles of one colour share the edge x = 10.4 and a third (even-odd) the edge y = 6.5 with
    /// both: drawn as one run, the partly covered pixels along the shared edges add up to full cover, so no
    /// background shows through (one after another with source-over two half covers reach only 75 %).
    @Test func abuttingOpaqueFillsOfOneColourLeaveNoSeam() throws {
        var list = DisplayList(size: ScreenSize(width: 24, height: 14), scale: 1)
        list.append(.clear(RGBAColor(rgb: 0xFFFFFF)))
        let sea = RGBAColor(rgb: 0x0040C0)
        list.append(.fill(FillCommand(path: rectPath(2, 1, 8.4, 5.5), color: sea)))
        list.append(.fill(FillCommand(path: rectPath(10.4, 1, 8.6, 5.5), color: sea)))
        list.append(.fill(FillCommand(path: rectPath(2, 6.5, 17, 5), color: sea, fillRule: .evenOdd)))
        let image = try makeBackend().render(list)
        for y in 1..<11 {
            for x in 3..<18 {
                let p = image.premultipliedRGBA(x: x, y: y)!
                #expect(p == (0, 0x40, 0xC0, 255), "pixel (\(x), \(y)) is \(p)")
            }
        }
        // The outer edges keep their antialiasing: row 11 (the bottom edge at 11.5) is half covered.
        let edge = image.premultipliedRGBA(x: 10, y: 11)!
        #expect(edge.a == 255 && edge.r > 100 && edge.r < 160)
    }

    /// A run of fills still draws each with its own rule, and overlaps keep the colour (no brightening where two fills
    /// cover the same pixel), while a translucent fill in between breaks the run and blends as before.
    @Test func unionedFillsKeepHolesOverlapsAndTranslucentFills() throws {
        var list = DisplayList(size: ScreenSize(width: 20, height: 10), scale: 1)
        list.append(.clear(RGBAColor(rgb: 0xFFFFFF)))
        var ring = rectPath(0, 0, 10, 10)
        ring.addRect(RenderRect(x: 3, y: 3, width: 4, height: 4))
        let red = RGBAColor(rgb: 0xFF0000)
        list.append(.fill(FillCommand(path: ring, color: red, fillRule: .evenOdd)))
        list.append(.fill(FillCommand(path: rectPath(8, 0, 12, 10), color: red)))
        list.append(.fill(FillCommand(path: rectPath(12, 0, 8, 5), color: RGBAColor(rgb: 0x0000FF, alpha: 0.5))))
        let image = try makeBackend().render(list)
        #expect(image.premultipliedRGBA(x: 5, y: 5)! == (255, 255, 255, 255))  // the hole
        #expect(image.premultipliedRGBA(x: 1, y: 1)! == (255, 0, 0, 255))
        #expect(image.premultipliedRGBA(x: 9, y: 5)! == (255, 0, 0, 255))  // overlap
        let blended = image.premultipliedRGBA(x: 15, y: 2)!
        #expect(abs(Int(blended.r) - 128) <= 1 && blended.g == 0 && abs(Int(blended.b) - 128) <= 1)
    }

    @Test func badCommandsAreSkippedAndLaterCommandsStillDraw() throws {
        var line = RenderPath()
        line.addPolyline([1, 1, 9, 1], closed: false)
        var list = DisplayList(size: ScreenSize(width: 10, height: 10))
        list.append(.save)
        list.append(.transform(RenderTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)))  // singular
        list.append(.clip(RenderRect(x: .nan, y: 0, width: 1, height: 1)))
        list.append(.stroke(StrokeCommand(path: line, color: .black, width: 2, dashes: [-1, .nan])))
        list.append(.stroke(StrokeCommand(path: line, color: .black, width: .infinity)))
        list.append(
            .text(
                TextCommand(
                    text: "x", style: TextStyle(size: .infinity, haloColor: .white, haloWidth: 1, haloBlur: 1e300),
                    position: .zero)))
        list.append(
            .text(
                TextCommand(
                    text: "y", style: TextStyle(size: 12, haloColor: .white, haloWidth: .nan, haloBlur: 1e300),
                    position: ScreenPoint(x: .nan, y: 3))))
        var nanPath = RenderPath()
        nanPath.addPolyline([0, 0, .nan, 4, 8, .infinity], closed: true)
        list.append(.fill(FillCommand(path: nanPath, color: .black)))
        list.append(.stroke(StrokeCommand(path: nanPath, color: .black, width: 1)))
        list.append(.circle(CircleCommand(center: ScreenPoint(x: .nan, y: 1), radius: 3, fillColor: .black)))
        list.append(.restore)
        list.append(.restore)  // unmatched
        list.append(.fill(FillCommand(path: rectPath(0, 5, 10, 5), color: RGBAColor(rgb: 0x00FF00))))
        let image = try makeBackend().render(list)
        #expect(image.premultipliedRGBA(x: 5, y: 7)! == (0, 255, 0, 255))
    }
}

private func rectPath(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> RenderPath {
    var p = RenderPath()
    p.addRect(RenderRect(x: x, y: y, width: w, height: h))
    return p
}

@Suite struct ByteBoundedCacheStoreTests {
    final class Box {
        let n: Int
        init(_ n: Int) { self.n = n }
    }

    @Test func keepsValuesUnderItsBudgetLeastRecentlyUsedLeavingFirst() {
        let store = ByteBoundedCacheStore(byteLimit: 100)
        store.cache(Box(1), for: "a", cost: 40)
        store.cache(Box(2), for: "b", cost: 40)
        #expect((store.cachedValue(for: "a") as? Box)?.n == 1)  // "a" is now the most recent
        store.cache(Box(3), for: "c", cost: 40)
        #expect(store.cachedValue(for: "b") == nil)
        #expect(store.count == 2 && store.totalBytes == 80 && store.byteLimit == 100)
        // Too big for the whole budget: not kept, nothing else leaves.
        store.cache(Box(4), for: "d", cost: 101)
        #expect(store.cachedValue(for: "d") == nil && store.count == 2)
        store.removeAllValues()
        #expect(store.count == 0 && store.totalBytes == 0 && store.cachedValue(for: "a") == nil)
    }
}
