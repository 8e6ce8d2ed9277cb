import MapDrawing
import MapGeometry
import MapLayout
import MapTestSupport
import Testing

@Suite struct IconFitTests {
    let text = IconBox(left: -20, top: -10, right: 20, bottom: 10)

    @Test func bothAxesFollowTheTextPlusPaddingAndOffset() {
        let image = IconStretch(pixelWidth: 10, pixelHeight: 8)
        let box = image.fitted(to: text, fit: .both, padding: [1, 2, 3, 4], offset: ScreenPoint(x: 5, y: 6))
        #expect(box == IconBox(left: -19, top: -5, right: 27, bottom: 19))
    }

    @Test func oneAxisFitsAndTheOtherKeepsTheImageSizeCentredOnTheText() {
        let image = IconStretch(pixelWidth: 10, pixelHeight: 8)
        let offset = ScreenPoint(x: 5, y: 6)
        let width = image.fitted(to: text, fit: .width, padding: [1, 2, 3, 4], offset: offset)
        #expect(width == IconBox(left: -19, top: 2, right: 27, bottom: 10))
        let height = image.fitted(to: text, fit: .height, padding: [1, 2, 3, 4], offset: offset)
        #expect(height == IconBox(left: 0, top: -5, right: 10, bottom: 19))
        // A 2× image is half as many points.
        let retina = IconStretch(pixelWidth: 10, pixelHeight: 8, pixelRatio: 2)
        #expect(
            retina.fitted(to: text, fit: .none, padding: [], offset: .zero)
                == IconBox(
                    left: -2.5, top: -2, right: 2.5, bottom: 2))
    }

    @Test func anImageWithoutStretchZonesIsOnePieceWithItsTransparentBorder() {
        let image = IconStretch(pixelWidth: 10, pixelHeight: 10)
        #expect(image.pieceSources == [IconBox(left: -1, top: -1, right: 11, bottom: 11)])
        // The 10 pixels fill the box's 40 × 20 points; the border pixel takes a tenth more on each side.
        #expect(
            image.pieceDestinations(for: text, iconSize: 1) == [IconBox(left: -24, top: -12, right: 24, bottom: 12)])
        // Sampled nearest, the border never shows: the image's own pixels fill the box.
        #expect(image.innerPieceSources == [IconBox(left: 0, top: 0, right: 10, bottom: 10)])
        #expect(image.innerPieceDestinations(for: text, iconSize: 1) == [text])
    }

    @Test func aNinePartImageKeepsItsCornersAndStretchesItsMiddle() {
        let zone = IconStretchZone(start: 10, end: 30)
        let image = IconStretch(pixelWidth: 40, pixelHeight: 40, stretchX: [zone], stretchY: [zone])
        let sources = image.pieceSources
        let destinations = image.pieceDestinations(
            for: IconBox(left: -50, top: -20, right: 50, bottom: 20), iconSize: 1)
        #expect(sources.count == 9 && destinations.count == 9)
        // Columns first: top-left corner, middle, bottom-right corner.
        #expect(sources[0] == IconBox(left: -1, top: -1, right: 10, bottom: 10))
        #expect(destinations[0] == IconBox(left: -51, top: -21, right: -40, bottom: -10))
        #expect(sources[4] == IconBox(left: 10, top: 10, right: 30, bottom: 30))
        #expect(destinations[4] == IconBox(left: -40, top: -10, right: 40, bottom: 10))
        #expect(sources[8] == IconBox(left: 30, top: 30, right: 41, bottom: 41))
        #expect(destinations[8] == IconBox(left: 40, top: 10, right: 51, bottom: 21))
        let inner = image.innerPieceDestinations(for: IconBox(left: -50, top: -20, right: 50, bottom: 20), iconSize: 1)
        #expect(image.innerPieceSources[0] == IconBox(left: 0, top: 0, right: 10, bottom: 10))
        #expect(inner[0] == IconBox(left: -50, top: -20, right: -40, bottom: -10))
        #expect(inner[4] == destinations[4])
        #expect(inner[8] == IconBox(left: 40, top: 10, right: 50, bottom: 20))
    }

    @Test func proportionalHeightWidensANarrowBoxToTheContentAspect() {
        let zone = IconStretchZone(start: 10, end: 30)
        let image = IconStretch(
            pixelWidth: 40, pixelHeight: 40, stretchX: [zone], stretchY: [zone],
            content: IconBox(left: 10, top: 10, right: 30, bottom: 30), textFitWidth: .stretchOnly,
            textFitHeight: .proportional)
        // 20 × 40 is narrower than the square content: the width becomes 40, its left edge scaled about the anchor.
        #expect(
            image.applyingTextFitModes(IconBox(left: -10, top: -20, right: 10, bottom: 20))
                == IconBox(
                    left: -20, top: -20, right: 20, bottom: 20))
        // Wider than the content: stretchOnly leaves it.
        let wide = IconBox(left: -40, top: -10, right: 40, bottom: 10)
        #expect(image.applyingTextFitModes(wide) == wide)
        // Without modes nothing changes.
        let plain = IconStretch(
            pixelWidth: 40, pixelHeight: 40, content: IconBox(left: 10, top: 10, right: 30, bottom: 30))
        #expect(
            plain.applyingTextFitModes(IconBox(left: -10, top: -20, right: 10, bottom: 20))
                == IconBox(
                    left: -10, top: -20, right: 10, bottom: 20))
    }

    @Test func theCollisionBoxGrowsByTheMarginsOutsideTheContent() {
        let image = IconStretch(
            pixelWidth: 40, pixelHeight: 40, pixelRatio: 2, content: IconBox(left: 10, top: 10, right: 30, bottom: 30))
        let box = IconBox(left: -15, top: -10, right: 15, bottom: 10)
        #expect(image.collisionBox(for: box, iconSize: 1) == IconBox(left: -20, top: -15, right: 20, bottom: 15))
        #expect(image.collisionBox(for: box, iconSize: 2) == IconBox(left: -40, top: -30, right: 40, bottom: 30))
        #expect(IconStretch(pixelWidth: 4, pixelHeight: 4).collisionBox(for: box, iconSize: 1) == box)
    }

    @Test func placementFitsTheIconToItsTextAndDrawsItsPieces() throws {
        let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
        // "AAAA" at 10 pt is 24 × 12 points: centred at (100, 100) its box is [88, 112] × [94, 106].
        var poi = pointLabel("AAAA", at: 100, 100)
        let handle = ImageHandle(id: 7, pixelWidth: 12, pixelHeight: 12, scale: 1)
        var icon = SymbolIcon(size: ScreenSize(width: 10, height: 10), padding: 0, image: handle)
        icon.textFit = .both
        icon.textFitPadding = [1, 2, 3, 4]
        icon.stretch = IconStretch(pixelWidth: 10, pixelHeight: 10)
        icon.pieceImages = [handle]
        poi.icon = icon
        let placed = try #require(placer.place([poi], camera: testCamera()).symbols.first)
        // Fitted box [84, 114] × [93, 109]; the image's border pixels reach 3 and 1.6 points further.
        #expect(placed.iconCommand == nil)
        #expect(placed.iconPieces.count == 1)
        let rect = try #require(placed.iconRect)
        #expect(near(rect.minX, 81) && near(rect.maxX, 117) && near(rect.minY, 91.4) && near(rect.maxY, 110.6))
        #expect(placed.iconPieces.first?.rect == rect)
        #expect(placed.iconCommands.map(\.image) == [handle])
        #expect(placed.iconPieces.first?.nearestNeighbor == false)

        // Sampled nearest: the inner piece fills exactly the fitted box [84, 114] × [93, 109].
        let inner = ImageHandle(id: 8, pixelWidth: 10, pixelHeight: 10, scale: 1)
        poi.icon?.samplesNearest = true
        poi.icon?.innerPieceImages = [inner]
        let nearest = try #require(placer.place([poi], camera: testCamera()).symbols.first?.iconPieces.first)
        #expect(nearest.image == inner && nearest.nearestNeighbor)
        #expect(
            near(nearest.rect.minX, 84) && near(nearest.rect.maxX, 114) && near(nearest.rect.minY, 93)
                && near(nearest.rect.maxY, 109))
        poi.icon?.samplesNearest = false

        // With the padded image every piece is drawn from it exactly: the one piece is the whole padded image
        // (12 × 12 points at scale 1) in the box reaching the border pixels, [81, 117] × [91.4, 110.6].
        let padded = ImageHandle(id: 9, pixelWidth: 12, pixelHeight: 12, scale: 1)
        poi.icon?.paddedImage = padded
        poi.icon?.samplesNearest = true
        let exact = try #require(placer.place([poi], camera: testCamera()).symbols.first?.iconPieces)
        #expect(exact.count == 1)
        #expect(exact.first?.image == padded && exact.first?.nearestNeighbor == true)
        #expect(exact.first?.sourceRect == RenderRect(x: 0, y: 0, width: 12, height: 12))
        #expect(exact.first?.rect == rect)
        poi.icon?.paddedImage = nil
        poi.icon?.samplesNearest = false

        // The fitted box collides: a label over its right end (outside the text) is blocked by it.
        var blocker = pointLabel("BB", at: 119, 100, layer: "other")
        blocker.textPadding = 0
        let both = placer.place([poi, blocker], camera: testCamera())
        #expect(placedTexts(both) == ["AAAA"])
        // Without the fit the same label fits beside the small icon.
        poi.icon?.textFit = .none
        #expect(placedTexts(placer.place([poi, blocker], camera: testCamera())) == ["AAAA", "BB"])
    }

    /// An icon that is not fitted draws its padded image exactly, one image pixel wider a side; `icon-rotate` turns
    /// its box about the anchor (the offset too), and its collision box is the turned box's bounds.
    @Test func plainIconsDrawTheirPaddedImageTurnedAboutTheAnchor() throws {
        let placer = SymbolPlacer(measurer: FixedAdvanceTextMeasurer())
        var poi = pointLabel("", at: 100, 100)
        let handle = ImageHandle(id: 7, pixelWidth: 10, pixelHeight: 4, scale: 1)
        let padded = ImageHandle(id: 8, pixelWidth: 12, pixelHeight: 6, scale: 1)
        // 20 × 8 points (icon-size 2), its centre 10 points right of the anchor.
        var icon = SymbolIcon(
            size: ScreenSize(width: 20, height: 8), offset: ScreenPoint(x: 10, y: 0), padding: 0, allowOverlap: true,
            image: handle)
        icon.paddedImage = padded
        icon.samplesNearest = true
        poi.icon = icon
        let flat = try #require(placer.place([poi], camera: testCamera()).symbols.first)
        let drawn = try #require(flat.iconCommand)
        #expect(drawn.image == padded && drawn.nearestNeighbor && drawn.rotation == 0)
        #expect(drawn.sourceRect == RenderRect(x: 0, y: 0, width: 12, height: 6))
        #expect(near(drawn.rect.minX, 98) && near(drawn.rect.maxX, 122) && near(drawn.rect.minY, 94))
        #expect(near(drawn.rect.maxY, 106))

        // Turned a quarter clockwise: the centre moves below the anchor, the box stands upright, drawn bilinear.
        poi.icon?.rotation = 90
        let turned = try #require(placer.place([poi], camera: testCamera()).symbols.first)
        let rect = try #require(turned.iconRect)
        #expect(near(rect.minX + rect.width / 2, 100) && near(rect.minY + rect.height / 2, 110))
        let command = try #require(turned.iconCommand)
        #expect(command.rotation == 90 && !command.nearestNeighbor)
        // The turned box, 8 × 20 about (100, 110), blocks a label there.
        var blocker = pointLabel("B", at: 100, 117, layer: "other")
        blocker.textPadding = 0
        poi.icon?.allowOverlap = false
        #expect(placedTexts(placer.place([poi, blocker], camera: testCamera())).isEmpty)
        poi.icon?.rotation = 0
        #expect(placedTexts(placer.place([poi, blocker], camera: testCamera())) == ["B"])

        // Aligned to the map, a point icon turns with it: a bearing of 90° turns it a quarter anticlockwise about
        // the anchor, its centre moving above it.
        let east = testCamera(bearing: 90)
        var mapped = pointLabel("", at: 100, 100, camera: east)
        mapped.icon = icon
        mapped.iconRotationAlignment = .map
        let withMap = try #require(placer.place([mapped], camera: east).symbols.first)
        #expect(withMap.iconCommand?.rotation == -90)
        let moved = try #require(withMap.iconRect)
        #expect(near(moved.minX + moved.width / 2, 100) && near(moved.minY + moved.height / 2, 90))
        mapped.iconRotationAlignment = .viewport
        #expect(try #require(placer.place([mapped], camera: east).symbols.first).iconCommand?.rotation == 0)
    }
}
