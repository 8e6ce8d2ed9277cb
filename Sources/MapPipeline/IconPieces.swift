import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

extension MapRenderer {
    /// How sprite image `name` stretches when fitted to text (its index entry's `stretchX`, `stretchY`, `content`,
    /// `textFitWidth`, `textFitHeight`), or `nil` when the sprite lacks the name.
    func spriteStretch(_ name: String) -> IconStretch? {
        guard let entry = sprite?.index.images[name] else { return nil }
        func zones(_ pairs: [[Double]]) -> [IconStretchZone] {
            pairs.compactMap { $0.count == 2 ? IconStretchZone(start: $0[0], end: $0[1]) : nil }
        }
        let content = entry.content.flatMap {
            $0.count == 4 ? IconBox(left: $0[0], top: $0[1], right: $0[2], bottom: $0[3]) : nil
        }
        return IconStretch(
            pixelWidth: Double(entry.width), pixelHeight: Double(entry.height), pixelRatio: entry.pixelRatio,
            stretchX: zones(entry.stretchX), stretchY: zones(entry.stretchY), content: content,
            textFitWidth: entry.textFitWidth.flatMap(IconTextFitMode.init(rawValue:)),
            textFitHeight: entry.textFitHeight.flatMap(IconTextFitMode.init(rawValue:)))
    }

    /// The backend handles of sprite image `name` cut into `sources` (``IconStretch/pieceSources``: rectangles of
    /// image pixels, read with one transparent pixel around the image), each registered on first use and released
    /// with the sprite's images (``setSprite(_:)``); `nil` when the sprite lacks the name or a piece cannot be
    /// registered.
    func spritePieces(_ name: String, _ sources: [IconBox]) -> [ImageHandle]? {
        var handles: [ImageHandle] = []
        handles.reserveCapacity(sources.count)
        for source in sources {
            guard let handle = spritePiece(name, source) else { return nil }
            handles.append(handle)
        }
        return handles
    }

    /// The backend handle of one piece of ``spritePieces(_:_:)``; `nil` for an empty piece, or when the sprite lacks
    /// the name or the piece cannot be registered.
    func spritePiece(_ name: String, _ source: IconBox) -> ImageHandle? {
        let x0 = Int(source.left.rounded(.down))
        let y0 = Int(source.top.rounded(.down))
        let x1 = Int(source.right.rounded(.down))
        let y1 = Int(source.bottom.rounded(.down))
        let key = "\(name)\u{0}\(x0),\(y0),\(x1),\(y1)"
        if let known = spriteImages[key] { return known }
        var handle: ImageHandle? = nil
        if let image = spritePixels(name), x1 > x0, y1 > y0, x1 - x0 <= image.width + 2, y1 - y0 <= image.height + 2 {
            handle = try? backend.register(Self.piece(of: image, x0: x0, y0: y0, x1: x1, y1: y1))
        }
        spriteImages[key] = handle
        return handle
    }

    /// The pixels `x0..<x1` × `y0..<y1` of `image`, transparent outside it.
    static func piece(of image: RasterImage, x0: Int, y0: Int, x1: Int, y1: Int) -> RasterImage {
        let w = x1 - x0
        let h = y1 - y0
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let fromX = max(x0, 0)
        let toX = min(x1, image.width)
        if toX > fromX {
            for y in max(y0, 0)..<max(max(y0, 0), min(y1, image.height)) {
                let from = (y * image.width + fromX) * 4
                let to = ((y - y0) * w + fromX - x0) * 4
                pixels.replaceSubrange(
                    to..<(to + (toX - fromX) * 4), with: image.pixels[from..<(from + (toX - fromX) * 4)])
            }
        }
        return RasterImage(width: w, height: h, scale: image.scale, pixels: pixels)
    }

    /// `icon` with `icon-text-fit` of `layer` for sprite image `name`: its fit, padding, stretch and registered
    /// pieces (unchanged with `icon-text-fit: none`, or when the pieces cannot be made).
    func fittingIcon(_ icon: SymbolIcon, name: String, _ layer: CompiledLayer, _ ctx: EvaluationContext)
        -> SymbolIcon
    {
        let fit = IconTextFit(styleName: layer.string("icon-text-fit", ctx))
        var icon = icon
        icon.paddedImage = paddedSpriteImage(name)
        icon.samplesNearest = iconSamplesNearest(layer, ctx)
        let rotate = layer.number("icon-rotate", ctx, 0)
        icon.rotation = rotate.isFinite ? rotate : 0
        guard fit != .none, let stretch = spriteStretch(name), let pieces = spritePieces(name, stretch.pieceSources)
        else { return icon }
        var fitted = icon
        fitted.textFit = fit
        let padding = layer.numbers("icon-text-fit-padding", ctx)
        fitted.textFitPadding = padding.count == 4 ? padding : [0, 0, 0, 0]
        fitted.stretch = stretch
        fitted.pieceImages = pieces
        fitted.innerPieceImages = stretch.innerPieceSources.map { spritePiece(name, $0) }
        fitted.paddedImage = spritePiece(
            name, IconBox(left: -1, top: -1, right: stretch.pixelWidth + 1, bottom: stretch.pixelHeight + 1))
        fitted.samplesNearest = iconSamplesNearest(layer, ctx)
        return fitted
    }

    /// Whether icons of `layer` are sampled nearest (MapLibre's `iconScaled || iconTransformed` reversed): not
    /// when `icon-size` is not 1 or depends on the feature, nor when `icon-rotate` is not 0 or depends on the
    /// feature, nor when the icons turn with the map. The renderer adds: not when drawn at another pixel ratio than
    /// the sprite's (``glyphLabelCommands(_:scale:zoom:)``), nor under pitch (``SymbolPlacer``).
    func iconSamplesNearest(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> Bool {
        let placement = layer.string("symbol-placement", ctx)
        let alignment = layer.string("icon-rotation-alignment", ctx)
        let mapAligned = alignment == "map" || (alignment != "viewport" && placement != "point" && placement != "")
        return layer.isFeatureConstant("icon-size") && layer.number("icon-size", ctx, 1) == 1
            && layer.isFeatureConstant("icon-rotate") && layer.number("icon-rotate", ctx, 0) == 0 && !mapAligned
    }

    /// Sprite image `name` with one transparent pixel around it (MapLibre's atlas padding), registered once, for an
    /// icon drawn exactly (``SymbolIcon/paddedImage``); `nil` for a signed-distance-field image (drawn by its own
    /// path) or when the sprite lacks the name.
    func paddedSpriteImage(_ name: String) -> ImageHandle? {
        guard let entry = sprite?.index.images[name], !entry.sdf else { return nil }
        return spritePiece(
            name, IconBox(left: -1, top: -1, right: Double(entry.width) + 1, bottom: Double(entry.height) + 1))
    }
}
