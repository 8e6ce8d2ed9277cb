import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle
import WaymarkTime

extension LabelStage {
    /// The label stage's last step: each symbol layer's label commands for the frame, faded on `clock` (the
    /// renderer's) over ``MapRenderOptions/labelFadeDuration`` (`LabelFades`: labels fading out are drawn too, from
    /// their last placement; with a duration of 0 exactly the placed labels at full opacity). Within a layer: icons,
    /// then texts.
    func fadedLabelCommands(_ placement: PlacementResult, camera: CameraTransform, clock: any TimeSource)
        -> [Int: [DrawCommand]]
    {
        let duration = options.labelFadeDuration
        let now = duration > 0 && duration.isFinite ? clock.now : 0
        let faded = fades.advance(
            placement, camera: camera, now: now, duration: duration,
            stabilityTolerance: options.placement.stabilityTolerance)
        return translatedIcons(faded.commandsByLayer(placement), camera: camera)
    }
}

extension MapRenderer {
    /// The symbol candidates of one symbol layer in one covering tile, evaluated at `zoom` (cached per tile and
    /// sixteenth of a zoom level, so pans only re-run placement).
    func symbolFeatures(_ layer: CompiledLayer, tile: TileID, zoom: Double) -> [SymbolFeature] {
        let step = SymbolSpec(layer: layer.index, tile: tile, zoom: zoom).zoomStep
        let key = EngineKey.symbols(group: group, layer: layer.index, tile: tile, zoomStep: step)
        if case .symbols(let hit)? = engine.value(key) { return hit }
        // Built now, or (asynchronous frames) none while the tile's data is on its way or over the frame's label
        // budget (``TileSupply/missingLabelCandidates(_:tile:zoom:step:for:)``).
        return missingLabelCandidates(layer, tile: tile, zoom: zoom, step: step)
    }

    /// Builds the candidates of ``symbolFeatures(_:tile:zoom:)`` now and caches them under the zoom step `step`.
    func buildAndCacheSymbols(_ layer: CompiledLayer, tile: TileID, zoom: Double, step: Int) -> [SymbolFeature] {
        let built = buildSymbols(layer, tile: tile, zoom: zoom).features
        engine.insert(
            .symbols(built), for: .symbols(group: group, layer: layer.index, tile: tile, zoomStep: step),
            cost: 64 + built.count * 256)
        return built
    }

    /// The symbol layers a frame at style zoom `zoom` places labels of: visible at that zoom, with a resolved
    /// source, in style order. The last zoom's are kept (the renderer's layers and sources never change, and a frame
    /// asks twice: its tile jobs and its placement).
    func symbolLayers(atZoom zoom: Double) -> [CompiledLayer] {
        if let kept = labels.symbolLayersMemo, kept.zoom == zoom { return kept.layers }
        let found = layers.filter { layer in
            guard layer.type == .symbol && layer.layer.isVisible(atZoom: zoom), let sourceID = layer.layer.source
            else { return false }
            return sources[sourceID] != nil
        }
        labels.symbolLayersMemo = (zoom, found)
        return found
    }

}

extension LabelStage {
    /// The candidates of one symbol layer in one covering tile at `zoom`, built from the tile's prepared `features`
    /// of the layer's source layer (`overscaling`: the tile's over-zoom factor from its source tile;
    /// `wholeSourceLines`: the source tile's whole lines when over-zoomed; `symbolIcon`: a feature's icon from the
    /// renderer's sprite), on the calling renderer's thread (``MapRenderer/buildSymbols(_:tile:zoom:)``).
    /// `iconNames` holds, per feature, the sprite image name of its icon (`nil`: no icon).
    func buildSymbols(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, features: [PreparedFeature], overscaling: Int,
        wholeSourceLines: () -> [Int: [[(x: Double, y: Double)]]]?,
        symbolIcon: (CompiledLayer, EvaluationContext) -> (SymbolIcon, String)?
    ) -> (
        features: [SymbolFeature], iconNames: [String?]
    ) {
        guard let sourceID = layer.layer.source, !features.isEmpty else { return ([], []) }
        // Every feature is evaluated at `zoom`: properties that depend on no feature are evaluated once.
        let layer = layer.fixingFeatureConstants(zoom: zoom)
        let p = SymbolLayerProperties(layer)
        let radialSet = layer.isSet("text-radial-offset")
        let keepUprightSet = layer.isSet("text-keep-upright")
        // MapLibre's collision boxes: `text-size` one zoom level above the tile's (SymbolLayout's layoutTextSize),
        // worked out once when no feature changes it.
        let layoutZoom = Double(tile.z) + 1
        let constantLayoutSize =
            p.textSize.isFeatureConstant ? p.textSize.number(EvaluationContext(zoom: layoutZoom), 16) : nil
        // `text-font` is the same for most features: its families and glyph fontstack are worked out once per stack.
        var lastFontStack: [String]?
        var lastFont: (families: [String], weight: TextStyle.Weight, italic: Bool) = ([], .regular, false)
        var lastGlyphFontstack: String?
        var out: [SymbolFeature] = []
        var iconNames: [String?] = []
        // Per symbol: the first line of its feature (the one MapLibre's `mergeLines` joins).
        var firstLines: [Bool] = []
        // Over-zoomed: line symbols take the source tile's whole lines (``MapRenderer/wholeSourceLines(sourceID:sourceLayer:tile:)``).
        var wholeLines: [Int: [[(x: Double, y: Double)]]]?
        var wholeLinesLoaded = false
        let matcher = layer.filterMatcher(zoom: zoom)
        for f in features {
            let ctx = EvaluationContext(zoom: zoom, feature: TileFeature(f, tile: tile))
            if let matcher, !matcher.matches(ctx) { continue }
            var text = labelText(p, ctx)
            let transform = p.textTransform.string(ctx)
            switch transform {
            case "uppercase": text = text.uppercased()
            case "lowercase": text = text.lowercased()
            default: break
            }
            let textOpacity = p.textOpacity.number(ctx, 1)
            let formatted = FormattedLabel(p.textField.value(ctx), transform: transform, opacity: textOpacity)
            if let formatted { text = formatted.text }
            let madeIcon = symbolIcon(layer, ctx)
            let icon = madeIcon?.0
            guard !text.isEmpty || icon != nil else { continue }
            let size = p.textSize.number(ctx, 16)
            let layoutSize: Double
            if let constantLayoutSize {
                layoutSize = constantLayoutSize
            } else {
                var layoutContext = ctx
                layoutContext.zoom = layoutZoom
                layoutSize = p.textSize.number(layoutContext, 16)
            }
            let collisionScale = size > 0 && layoutSize > 0 ? layoutSize / size : 1
            let fontStack = p.textFont.strings(ctx)
            if fontStack != lastFontStack {
                lastFontStack = fontStack
                lastFont = fontFamilies(fontStack)
                lastGlyphFontstack =
                    self.style.glyphs == nil
                    ? nil
                    : (fontStack.isEmpty ? ["Open Sans Regular", "Arial Unicode MS Regular"] : fontStack)
                        .joined(separator: ",")
            }
            let font = lastFont
            let placementName = p.symbolPlacement.string(ctx)
            let mode: SymbolPlacementMode =
                placementName == "line" ? .line : placementName == "line-center" ? .lineCenter : .point
            let maxWidthEms = p.textMaxWidth.number(ctx, 10)
            var style = TextStyle(
                fontFamilies: font.families, size: size, weight: font.weight,
                color: (p.textColor.color(ctx) ?? .black).withOpacity(textOpacity),
                // MapLibre's `text-opacity` fades the halo too; the glyph path draws it so (Pango's labels keep theirs).
                haloColor: (p.textHaloColor.color(ctx) ?? .clear)
                    .withOpacity(self.style.glyphs == nil ? 1 : textOpacity),
                haloWidth: p.textHaloWidth.number(ctx, 0), haloBlur: p.textHaloBlur.number(ctx, 0),
                letterSpacing: p.textLetterSpacing.number(ctx, 0) * size,
                lineHeight: p.textLineHeight.number(ctx, 1.2),
                maxWidth: mode == .point && maxWidthEms > 0 && (text.utf8.contains(0x20) || mayBreakLines(text))
                    ? maxWidthEms * size : nil,
                justify: justification(p, ctx),
                glyphFontstack: lastGlyphFontstack)
            style.italic = font.italic
            let alternateStyle = adjustGlyphLayout(
                &style, formatted: formatted, text: text, layer: layer, ctx: ctx, mode: mode)
            let offset = p.textOffset.numbers(ctx)
            let variable = p.textVariableAnchor.strings(ctx).map(TextAnchor.init(styleName:))
            let radial = radialSet ? p.textRadialOffset.number(ctx, 0) : nil
            let anchorOffsets = variableAnchorOffsets(p.textVariableAnchorOffset.value(ctx))
            let zOrder = symbolZOrder(p, layer, ctx)
            let sortValue = p.symbolSortKey.value(ctx)
            let identity = SymbolIdentity(
                layer: layer.id, featureID: f.feature.id, text: text.isEmpty ? "icon:\(icon?.image?.id ?? 0)" : text)
            let extent = f.feature.extent
            func world(_ x: Double, _ y: Double) -> WorldPoint {
                TileProjector.world(x, y, tile: tile, extent: extent)
            }
            var geometries: [SymbolGeometry] = []
            switch f.geometry {
            case .points(let points):
                for p in points { geometries.append(.point(world(Double(p.x), Double(p.y)))) }
            case .lineStrings(let lines) where mode == .point:
                // MapLibre places a point symbol of a line at its first vertex.
                for line in lines {
                    if let p = line.first { geometries.append(.point(world(Double(p.x), Double(p.y)))) }
                }
            case .lineStrings(let lines):
                if !wholeLinesLoaded {
                    wholeLines = wholeSourceLines()
                    wholeLinesLoaded = true
                }
                if let whole = wholeLines?[f.feature.index] {
                    for line in whole where line.count >= 2 { geometries.append(.line(line.map { world($0.x, $0.y) })) }
                } else {
                    for line in lines where line.count >= 2 {
                        geometries.append(.line(line.map { world(Double($0.x), Double($0.y)) }))
                    }
                }
            case .polygons(let polygons):
                if mode == .point {
                    for lp in f.labelPoints { geometries.append(.point(world(lp.x, lp.y))) }
                } else {
                    for polygon in polygons {
                        if let ring = polygon.first {
                            geometries.append(.line(ring.map { world(Double($0.x), Double($0.y)) }))
                        }
                    }
                }
            case .unknown: break
            }
            let rotationAlignment = SymbolAlignment.rotation(
                p.textRotationAlignment.string(ctx), placement: mode)
            let pitchAlignment = SymbolAlignment.pitch(
                p.textPitchAlignment.string(ctx), rotation: rotationAlignment)
            let iconRotationAlignment = SymbolAlignment.rotation(
                p.iconRotationAlignment.string(ctx), placement: mode)
            // The same for each of the feature's geometries.
            let textAnchor = TextAnchor(styleName: p.textAnchor.string(ctx))
            let textOffset = ScreenPoint(x: offset.first ?? 0, y: offset.count > 1 ? offset[1] : 0)
            let textRotation = p.textRotate.number(ctx, 0)
            let textPadding = p.textPadding.number(ctx, 2)
            let textAllowOverlap = p.textAllowOverlap.bool(ctx)
            let textIgnorePlacement = p.textIgnorePlacement.bool(ctx)
            let textOptional = p.textOptional.bool(ctx)
            let spacing = max(1, p.symbolSpacing.number(ctx, 250))
            let maxAngle = p.textMaxAngle.number(ctx, 45)
            let keepUpright = keepUprightSet ? p.textKeepUpright.bool(ctx) : true
            let justifyFollowsAnchor = p.textJustify.string(ctx) == "auto"
            let overscale = Double(max(overscaling, 1))
            for (geometryIndex, geometry) in geometries.enumerated() {
                var symbol =
                    SymbolFeature(
                        identity: identity, geometry: geometry, text: text, textStyle: style, placement: mode,
                        textAnchor: textAnchor, textOffset: textOffset,
                        textVariableAnchors: variable, textRadialOffset: radial,
                        textRotation: textRotation, textPadding: textPadding, textAllowOverlap: textAllowOverlap,
                        textIgnorePlacement: textIgnorePlacement, textOptional: textOptional, icon: icon,
                        sortKey: sortValue.number, layerIndex: layer.index, sourceOrder: 0, spacing: spacing,
                        maxAngle: maxAngle, keepUpright: keepUpright, ownerTile: tile,
                        textRotationAlignment: rotationAlignment,
                        textPitchAlignment: pitchAlignment,
                        textVariableAnchorOffsets: anchorOffsets,
                        textJustifyFollowsAnchor: justifyFollowsAnchor,
                        placesByViewportY: zOrder.places, drawsByViewportY: zOrder.draws, collisionGroup: sourceID)
                symbol.alternateTextStyle = alternateStyle
                symbol.layoutTileSize = options.tileSize
                symbol.overscaling = overscale
                symbol.iconRotationAlignment = iconRotationAlignment
                symbol.collisionTextScale = collisionScale
                out.append(symbol)
                iconNames.append(madeIcon?.1)
                firstLines.append(geometryIndex == 0)
            }
        }
        // MapLibre joins the pieces of `line` labels with the same text that meet end to start.
        let merging = out.indices.map { i -> (text: String, line: [WorldPoint])? in
            guard firstLines[i], out[i].placement == .line, !out[i].text.isEmpty,
                case .line(let points) = out[i].geometry
            else { return nil }
            return (out[i].text, points)
        }
        guard merging.contains(where: { $0 != nil }) else { return (out, iconNames) }
        let merged = mergeLabelLines(merging)
        var kept: [SymbolFeature] = []
        var keptIcons: [String?] = []
        for i in out.indices {
            if merging[i] != nil {
                guard let line = merged[i] else { continue }
                out[i].geometry = .line(line)
            }
            kept.append(out[i])
            keptIcons.append(iconNames[i])
        }
        return (kept, keptIcons)
    }
}

extension MapRenderer {
    /// For a tile over-zoomed from its source's deepest tile, that source tile's whole lines of `sourceLayer` by
    /// feature index, in `tile`'s units and unclipped, when the decoded source tile is cached; else `nil`. MapLibre
    /// lays out the anchors of an over-zoomed tile's line symbols on the source tile's lines, so anchors continue as
    /// they do at the source's zoom.
    func wholeSourceLines(sourceID: String, sourceLayer: String, tile: TileID) -> [Int: [[(x: Double, y: Double)]]]? {
        guard let source = sources[sourceID], let key = sourceKey(source, tile), let plan = key.plan, plan.scale > 1,
            case .decoded(let decoded)? = engine.value(.decoded(source: source.dataID, address: key.address))
        else { return nil }
        var lines: [Int: [[(x: Double, y: Double)]]] = [:]
        for f in decoded.features(layer: sourceLayer) {
            guard case .lineStrings(let strings) = f.geometry else { continue }
            let extent = f.feature.extent
            lines[f.feature.index] = strings.map { line in
                line.map { plan.apply(x: Double($0.x), y: Double($0.y), extent: extent) }
            }
        }
        return lines
    }

    /// The `icon-*` layout of a feature and the sprite image name when its `icon-image` names a sprite image, else
    /// `nil`.
    func symbolIcon(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> (SymbolIcon, String)? {
        guard sprite != nil else { return nil }
        let value = layer.value("icon-image", ctx)
        let name: String
        switch value {
        case .null: return nil
        case .image(let n, _): name = n
        case .string(let s): name = resolveTokens(s, ctx)
        default: name = value.stringRepresentation
        }
        guard !name.isEmpty, let handle = spriteImage(name) else { return nil }
        let k = layer.number("icon-size", ctx, 1)
        guard k > 0 else { return nil }
        let offset = layer.numbers("icon-offset", ctx)
        let size = handle.pointSize
        var icon = SymbolIcon(
            size: ScreenSize(width: size.width * k, height: size.height * k),
            anchor: TextAnchor(styleName: layer.string("icon-anchor", ctx)),
            offset: ScreenPoint(x: (offset.first ?? 0) * k, y: (offset.count > 1 ? offset[1] : 0) * k),
            padding: layer.numbers("icon-padding", ctx).first ?? 2, allowOverlap: layer.bool("icon-allow-overlap", ctx),
            ignorePlacement: layer.bool("icon-ignore-placement", ctx), optional: layer.bool("icon-optional", ctx),
            image: handle)
        icon.sidePaddings = SymbolIcon.sidePaddings(layer.numbers("icon-padding", ctx))
        icon.opacity = min(1, max(0, layer.number("icon-opacity", ctx, 1)))
        if sprite?.index.images[name]?.sdf == true { icon.sdfPaint = sdfIconPaint(layer, ctx) }
        return (fittingIcon(icon, name: name, layer, ctx), name)
    }

    /// The paint of an SDF icon of a feature: `icon-color`, `icon-halo-color`, `icon-halo-width` and `icon-halo-blur`
    /// evaluated for it (MapLibre's data-driven icon paint).
    func sdfIconPaint(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> SDFPaint {
        SDFPaint(
            color: layer.color("icon-color", ctx) ?? .black, haloColor: layer.color("icon-halo-color", ctx) ?? .clear,
            haloWidth: layer.number("icon-halo-width", ctx, 0), haloBlur: layer.number("icon-halo-blur", ctx, 0))
    }
}

extension LabelStage {
    /// `symbol-z-order` as MapLibre reads it (`SymbolLayout`): `viewport-y` places symbols from the bottom of the
    /// screen up; symbols draw top to bottom for `viewport-y`, or `auto` without `symbol-sort-key`, when text or
    /// icons allow overlap or ignore placement.
    func symbolZOrder(_ p: SymbolLayerProperties, _ layer: CompiledLayer, _ ctx: EvaluationContext) -> (
        places: Bool, draws: Bool
    ) {
        let order = p.symbolZOrder.string(ctx)
        let byKey = order != "viewport-y" && layer.isSet("symbol-sort-key")
        let byY = order == "viewport-y" || (order != "source" && !byKey)
        let overlaps = [p.textAllowOverlap, p.iconAllowOverlap, p.textIgnorePlacement, p.iconIgnorePlacement]
            .contains { $0.bool(ctx) }
        return (order == "viewport-y", byY && overlaps)
    }

    /// A `text-variable-anchor-offset` value — `[anchor, [x, y], anchor, [x, y], …]`, offsets in ems — as entries;
    /// empty for anything else.
    func variableAnchorOffsets(_ value: ExpressionValue) -> [TextAnchorOffset] {
        guard case .array(let items) = value, items.count % 2 == 0 else { return [] }
        var out: [TextAnchorOffset] = []
        for i in stride(from: 0, to: items.count, by: 2) {
            guard case .string(let name) = items[i], TextAnchor(rawValue: name) != nil else { return [] }
            let xy: [Double]
            switch items[i + 1] {
            case .array(let a): xy = a.compactMap(\.number)
            case .numberArray(let a): xy = a
            default: return []
            }
            guard xy.count == 2 else { return [] }
            out.append(TextAnchorOffset(anchor: TextAnchor(styleName: name), offset: ScreenPoint(x: xy[0], y: xy[1])))
        }
        return out
    }

    private func labelText(_ p: SymbolLayerProperties, _ ctx: EvaluationContext) -> String {
        let value = p.textField.value(ctx)
        let text: String
        switch value {
        case .null: return ""
        case .string(let s): text = resolveTokens(s, ctx)
        default: text = value.stringRepresentation
        }
        return text.trimmingSpaces()
    }
}

/// One symbol layer's label candidates over one covering tile, as the frame's tile stage asks a job for them: built
/// at the frame's style zoom and cached under its sixteenth of a zoom level (``MapRenderer/symbolFeatures(_:tile:zoom:)``).
struct SymbolSpec: Sendable {
    /// The symbol layer's style index.
    let layer: Int
    /// The covering tile (wrapped copies are tiles of their own: candidates carry world positions).
    let tile: TileID
    /// The frame's style zoom.
    let zoom: Double

    /// The cache's zoom step of ``zoom``.
    var zoomStep: Int { Int((zoom * 16).rounded()) }
}

/// Label candidates a tile job built, with the sprite image name of each feature's icon (another lane's backend
/// registered its icons: the frame's renderer registers its own when it takes them).
struct MadeSymbols: Sendable {
    let spec: SymbolSpec
    let features: [SymbolFeature]
    let iconNames: [String?]
}

extension MapRenderer {
    /// `layer`'s candidates over `tile` cached for the zoom step of `zoom`, else `nil`.
    func cachedSymbols(_ layer: Int, tile: TileID, zoom: Double) -> [SymbolFeature]? {
        let step = SymbolSpec(layer: layer, tile: tile, zoom: zoom).zoomStep
        guard case .symbols(let hit)? = engine.value(.symbols(group: group, layer: layer, tile: tile, zoomStep: step))
        else { return nil }
        return hit
    }

    /// Caches label candidates a tile job built, under this renderer's group, with icons registered with this
    /// renderer's backend (an icon-only symbol's identity names its icon's handle, so it is made again).
    func adoptSymbols(_ made: MadeSymbols) {
        let key = EngineKey.symbols(
            group: group, layer: made.spec.layer, tile: made.spec.tile, zoomStep: made.spec.zoomStep)
        guard !engine.contains(key) else { return }
        var features = made.features
        for (i, name) in made.iconNames.enumerated() {
            guard let name, features[i].icon != nil else { continue }
            // A backend that cannot take the image leaves the symbol without its icon, as building it here would.
            let handle = spriteImage(name)
            if handle == nil { features[i].icon = nil } else { features[i].icon?.image = handle }
            if features[i].icon?.paddedImage != nil { features[i].icon?.paddedImage = paddedSpriteImage(name) }
            if let stretch = features[i].icon?.stretch {
                features[i].icon?.pieceImages = spritePieces(name, stretch.pieceSources) ?? []
                features[i].icon?.innerPieceImages = stretch.innerPieceSources.map { spritePiece(name, $0) }
                features[i].icon?.paddedImage = spritePiece(
                    name, IconBox(left: -1, top: -1, right: stretch.pixelWidth + 1, bottom: stretch.pixelHeight + 1))
            }
            if features[i].text.isEmpty { features[i].identity.text = "icon:\(handle?.id ?? 0)" }
        }
        engine.insert(.symbols(features), for: key, cost: 64 + features.count * 256)
    }
}

extension LabelStage {
    /// `text-justify`; `auto` follows `text-anchor` on the glyph path (left anchors justify left, right anchors
    /// right, as MapLibre's `getAnchorJustification`), and is centred otherwise.
    func justification(_ p: SymbolLayerProperties, _ ctx: EvaluationContext) -> TextStyle.Justify {
        let name = p.textJustify.string(ctx)
        if let justify = TextStyle.Justify(rawValue: name) { return justify }
        guard name == "auto", style.glyphs != nil else { return .center }
        switch p.textAnchor.string(ctx) {
        case "left", "top-left", "bottom-left": return .left
        case "right", "top-right", "bottom-right": return .right
        default: return .center
        }
    }
}

/// The properties of a symbol layer ``LabelStage/buildSymbols(_:tile:zoom:features:overscaling:wholeSourceLines:symbolIcon:)``
/// reads per feature, looked up once per layer and tile.
struct SymbolLayerProperties {
    let iconAllowOverlap: PropertyRef
    let iconIgnorePlacement: PropertyRef
    let iconRotationAlignment: PropertyRef
    let symbolPlacement: PropertyRef
    let symbolSortKey: PropertyRef
    let symbolSpacing: PropertyRef
    let symbolZOrder: PropertyRef
    let textAllowOverlap: PropertyRef
    let textAnchor: PropertyRef
    let textColor: PropertyRef
    let textField: PropertyRef
    let textFont: PropertyRef
    let textHaloBlur: PropertyRef
    let textHaloColor: PropertyRef
    let textHaloWidth: PropertyRef
    let textIgnorePlacement: PropertyRef
    let textJustify: PropertyRef
    let textKeepUpright: PropertyRef
    let textLetterSpacing: PropertyRef
    let textLineHeight: PropertyRef
    let textMaxAngle: PropertyRef
    let textMaxWidth: PropertyRef
    let textOffset: PropertyRef
    let textOpacity: PropertyRef
    let textOptional: PropertyRef
    let textPadding: PropertyRef
    let textPitchAlignment: PropertyRef
    let textRadialOffset: PropertyRef
    let textRotate: PropertyRef
    let textRotationAlignment: PropertyRef
    let textSize: PropertyRef
    let textTransform: PropertyRef
    let textVariableAnchor: PropertyRef
    let textVariableAnchorOffset: PropertyRef

    init(_ layer: CompiledLayer) {
        iconAllowOverlap = layer.property("icon-allow-overlap")
        iconIgnorePlacement = layer.property("icon-ignore-placement")
        iconRotationAlignment = layer.property("icon-rotation-alignment")
        symbolPlacement = layer.property("symbol-placement")
        symbolSortKey = layer.property("symbol-sort-key")
        symbolSpacing = layer.property("symbol-spacing")
        symbolZOrder = layer.property("symbol-z-order")
        textAllowOverlap = layer.property("text-allow-overlap")
        textAnchor = layer.property("text-anchor")
        textColor = layer.property("text-color")
        textField = layer.property("text-field")
        textFont = layer.property("text-font")
        textHaloBlur = layer.property("text-halo-blur")
        textHaloColor = layer.property("text-halo-color")
        textHaloWidth = layer.property("text-halo-width")
        textIgnorePlacement = layer.property("text-ignore-placement")
        textJustify = layer.property("text-justify")
        textKeepUpright = layer.property("text-keep-upright")
        textLetterSpacing = layer.property("text-letter-spacing")
        textLineHeight = layer.property("text-line-height")
        textMaxAngle = layer.property("text-max-angle")
        textMaxWidth = layer.property("text-max-width")
        textOffset = layer.property("text-offset")
        textOpacity = layer.property("text-opacity")
        textOptional = layer.property("text-optional")
        textPadding = layer.property("text-padding")
        textPitchAlignment = layer.property("text-pitch-alignment")
        textRadialOffset = layer.property("text-radial-offset")
        textRotate = layer.property("text-rotate")
        textRotationAlignment = layer.property("text-rotation-alignment")
        textSize = layer.property("text-size")
        textTransform = layer.property("text-transform")
        textVariableAnchor = layer.property("text-variable-anchor")
        textVariableAnchorOffset = layer.property("text-variable-anchor-offset")
    }
}
