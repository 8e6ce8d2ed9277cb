import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

// The frame-assembly stage: the style's layers as steps (`FrameStep`), the state of the frame being built
// (`FrameAssembly`), and the steps turned into the frame's display list in style order, then the overlay and the
// attribution (`MapRenderer.assembleSteps`). It draws what the other stages made: tile images (`TileImageStage`,
// TileImages.swift, WarpedTileImages.swift), labels (LabelStage.swift), frame images (HeatmapLayers.swift, FillExtrusionLayers.swift).

/// One step of a frame, in the style's layer order: what every frame draws, whatever caches it uses.
///
/// The style's layers fall into maximal runs of consecutive tile-drawn layers (fill, line, circle, raster and
/// hillshade), separated by background, symbol, heatmap and fill-extrusion layers. A frame draws the steps in order:
/// a background step over the whole frame, a tile-layer run either from its cached tile images (one image per tile
/// and run, flat frames) or as vectors (pitched frames, or with the tile-image cache off), a symbol step as the
/// labels the frame's one placement gave that layer. So labels sit between the layers the style puts around them.
/// Circle layers form runs of their own (a circle layer next to a fill or line layer starts a new run): pitched
/// frames warp the other runs' tile images onto the ground but draw circles as vectors, round on the screen
/// (`circle-pitch-alignment: viewport`, the default).
enum FrameStep {
    /// Consecutive background layers, drawn over the whole frame.
    case backgrounds([CompiledLayer])
    /// A run of consecutive tile-drawn layers; `run` numbers the runs from 0 in style order (the tile-image key's
    /// ``TileImageKey/run``).
    case tileLayers(run: Int, layers: [CompiledLayer])
    /// A symbol layer: the labels placed for it.
    case symbols(CompiledLayer)
    /// A `heatmap` or `fill-extrusion` layer: one image over the whole frame made from every tile's features
    /// (HeatmapLayers.swift, FillExtrusionLayers.swift), since a heatmap's density and an extrusion's faces cross
    /// tile edges.
    case frameImage(CompiledLayer)

    /// The steps of `layers` (in style order).
    static func plan(_ layers: [CompiledLayer]) -> [FrameStep] {
        var steps: [FrameStep] = []
        var runs = 0
        for layer in layers {
            switch (layer.type, steps.last) {
            case (.background, .backgrounds(let earlier)?):
                steps[steps.count - 1] = .backgrounds(earlier + [layer])
            case (.background, _): steps.append(.backgrounds([layer]))
            case (.symbol, _): steps.append(.symbols(layer))
            case (.heatmap, _), (.fillExtrusion, _): steps.append(.frameImage(layer))
            case (_, .tileLayers(let run, let earlier)?) where (layer.type == .circle) == (earlier[0].type == .circle):
                steps[steps.count - 1] = .tileLayers(run: run, layers: earlier + [layer])
            default:
                steps.append(.tileLayers(run: runs, layers: [layer]))
                runs += 1
            }
        }
        return steps
    }
}

/// The frame-assembly stage's state (MapLibre Native's render orchestrator): the style's steps, fixed when the
/// renderer is made, and what the frame being built keeps until it ends. Frame thread only.
struct FrameAssembly {
    /// The style's layers as a frame draws them (``FrameStep/plan(_:)``).
    let steps: [FrameStep]
    /// What the frame being built did (``MapRenderer/lastFrameStatistics`` once it ends).
    var stats = FrameStatistics()
    /// Device pixels per point of the frame being built, or of the tile image being drawn while a tile job draws one
    /// (``MapRenderer/workOnTile(_:keepsImages:)``, on any renderer): `fill-outline-color` hairlines are one device
    /// pixel.
    var scale = 1.0
    /// Whether the tile image being drawn is for a pitched frame's warp (its fills then get no default outline).
    var drawsWarpedImage = false
    /// The frame's centre (world units, for the order of tile jobs).
    var center = WorldPoint(x: 0.5, y: 0.5)
    /// Whole zoom levels the frame's style zoom lies below 0 (a camera below zoom 1: its vector tiles are clamped to
    /// zoom 0), so that raster sources with smaller tiles are read at the level the style zoom asks for
    /// (``MapRenderer/rasterAddresses(_:definition:tile:)``). 0 otherwise.
    var levelsBelowZero = 0
    /// Images the last frame made for itself alone (heatmaps, extrusions), unregistered when the next frame starts
    /// (``MapRenderer/releaseFrameImages()``).
    var images: [ImageHandle] = []

    /// The steps of the style's compiled `layers`.
    init(layers: [CompiledLayer]) {
        steps = FrameStep.plan(layers)
    }

    /// A frame begins at `scale` device pixels per point: fresh statistics (the last frame's
    /// ``images`` are released by the renderer).
    mutating func begin(scale: Double) {
        self.scale = scale
        stats = FrameStatistics()
    }
}

extension MapRenderer {
    /// Appends the frame's steps in style order (style spec "layers": each drawn over the ones before it) for the
    /// covering `tiles` at style zoom `zoom` (`transform` is `camera`'s), the labels of `placement` (placed for
    /// `labelTransform`'s camera: LabelPhaseHold.swift) in their layers' places, then `overlay` and the attribution.
    func assembleSteps(
        _ tiles: [TileID], placement: PlacementResult, zoom z: Double, camera: CameraState,
        transform: CameraTransform, labelTransform: CameraTransform, scale: Double, composes: Bool,
        overlay: [DrawCommand], into list: inout DisplayList
    ) {
        let flat = camera.pitch == 0
        let size = list.size
        // Every step whatever the caches: tile-layer runs from tile images (placed north-up, warped turned or
        // pitched; circle runs of warped frames and frames with the cache off as vectors); labels in their layer's
        // place.
        assembly.stats.composedFromTileImages = composes
        let labelCommands = labels.glyphLabelCommands(
            labels.translatedLabels(
                labels.fadedLabelCommands(placement, camera: labelTransform, clock: clock), zoom: z,
                bearing: camera.bearing),
            scale: scale, zoom: z, sdfNames: sdfSpriteNames(), spritePixels: { spritePixels($0) })
        for step in assembly.steps {
            switch step {
            case .backgrounds(let backgrounds):
                appendBackgrounds(backgrounds, z: z, camera: camera, into: &list)
            case .symbols(let layer):
                guard layer.layer.isVisible(atZoom: z) else { continue }
                list.append(contentsOf: labelCommands[layer.index] ?? [])
                if options.debugOverlays.contains(.collisionShapes) {
                    list.append(
                        contentsOf: collisionDebugCommands(
                            placement.collisionShapes, layerIndex: layer.index, scale: scale))
                }
            case .frameImage(let layer):
                guard layer.layer.isVisible(atZoom: z) else { continue }
                list.append(
                    contentsOf: layer.type == .heatmap
                        ? heatmapCommands(layer, tiles: tiles, z: z, camera: transform, scale: scale, size: size)
                        : fillExtrusionCommands(layer, tiles: tiles, z: z, camera: transform, scale: scale, size: size))
            case .tileLayers(let run, _) where composes && tileImages.composesRun(run, camera: transform):
                list.append(
                    contentsOf: flat
                        ? tileImages.composeTileImages(
                            tiles, run: run, camera: transform, scale: scale,
                            remakeTileImage: { remakeTileImage($0, of: $1, scale: $2) },
                            rasterFadeAlpha: { rasterFadeAlpha($0, run: $1, scale: $2) })
                        : tileImages.composeWarpedTileImages(
                            tiles, run: run, camera: transform, scale: scale,
                            remakeTileImage: { remakeTileImage($0, of: $1, scale: $2) }))
            case .tileLayers(_, let runLayers):
                for layer in runLayers where layer.layer.isVisible(atZoom: z) {
                    drawVectors(layer, tiles: tiles, z: z, flat: flat, camera: transform, scale: scale, into: &list)
                }
            }
        }
        if !list.commands.contains(where: { if case .clear = $0 { return true } else { return false } }) {
            list.commands.insert(.clear(.clear), at: 0)
        }
        if options.debugOverlays.contains(.tileBorders) {
            list.append(contentsOf: tileBorderCommands(tiles, camera: transform))
        }
        list.append(contentsOf: overlay)

        // Attribution.
        if options.drawsAttribution {
            let text = attributionText(tiles: tiles, zoom: z)
            assembly.stats.attribution = text
            list.attribution = text
            if !text.isEmpty && !options.hostPlacesAttribution {
                // The map view's palette (its controls, D16): Google's grey with a white halo, or over a dark frame
                // background (a dark style) light grey with a dark halo.
                let dark =
                    list.commands.lazy.compactMap { if case .clear(let c) = $0 { c } else { nil } }.first
                    .map(Self.isDarkBackground) ?? false
                var style = TextStyle(
                    fontFamilies: ["sans-serif"], size: 11, color: RGBAColor(rgb: dark ? 0xbdc1c6 : 0x5f6368),
                    haloColor: dark
                        ? RGBAColor(red: 0x20 / 255, green: 0x21 / 255, blue: 0x24 / 255, alpha: 0.85)
                        : RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.85), haloWidth: 1.5)
                let fitted = fitAttribution(text, style: &style, width: size.width - 12)
                if !fitted.isEmpty {
                    list.append(
                        .text(
                            TextCommand(
                                text: fitted, style: style, position: ScreenPoint(x: 6, y: size.height - 5),
                                anchor: .bottomLeft)))
                }
            }
        }
    }

    /// Whether a frame background of `color` is dark: mostly opaque (alpha ≥ ½) with a relative luminance (Rec. 709
    /// weights of the sRGB channels) below ½. A transparent frame counts as light.
    static func isDarkBackground(_ color: RGBAColor) -> Bool {
        color.alpha >= 0.5 && 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue < 0.5
    }

    /// The attribution line made to fit `width` points, as Google's static maps shrink their logo on small images:
    /// the font shrinks from 11 down to 8 points, then the line is cut at a word (or character) with "…"; empty when
    /// not even "© …" fits.
    func fitAttribution(_ text: String, style: inout TextStyle, width: Double) -> String {
        let measurer = backend.textMeasurer
        guard width > 0 else { return "" }
        for size in stride(from: 11.0, through: 8.0, by: -1) {
            style.size = size
            if measurer.measure(text, style: style).width <= width { return text }
        }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            while characters.last == " " || characters.last == "·" || characters.last == "," {
                characters.removeLast()
            }
            let candidate = String(characters) + "…"
            if characters.count >= 1, measurer.measure(candidate, style: style).width <= width { return candidate }
        }
        return ""
    }

    /// Appends one tile-drawn layer of every tile as vectors through the camera (circle layers of pitched frames, or
    /// with the tile-image cache off).
    private func drawVectors(
        _ layer: CompiledLayer, tiles: [TileID], z: Double, flat: Bool, camera transform: CameraTransform,
        scale: Double, into list: inout DisplayList
    ) {
        guard let sourceID = layer.layer.source, sources[sourceID] != nil else { return }
        // MapLibre clips each tile's fills and lines to the tile (a per-pixel stencil), so the buffered geometry two
        // tiles share is drawn once. Done here for flat north-up frames, with the tile's edges on device pixels;
        // circles are not clipped.
        let clipsToTile = flat && transform.state.bearing == 0 && (layer.type == .fill || layer.type == .line)
        for tile in tiles {
            var projectors = ProjectorCache(tile: tile, camera: transform)
            let start = list.commands.count
            drawLayer(layer, tile: tile, zoom: z, projectors: &projectors, into: &list.commands)
            if clipsToTile && list.commands.count > start {
                let p = projectors.projector(extent: 4096)
                let a = p.project(0, 0)
                let b = p.project(4096, 4096)
                func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
                let rect = RenderRect(
                    x: snap(min(a.x, b.x)), y: snap(min(a.y, b.y)),
                    width: snap(max(a.x, b.x)) - snap(min(a.x, b.x)),
                    height: snap(max(a.y, b.y)) - snap(min(a.y, b.y)))
                list.commands.insert(contentsOf: [.save, .clip(rect)], at: start)
                list.append(.restore)
            } else if layer.type == .line && list.commands.count > start {
                limitLineMeshes(&list.commands, from: start, to: tile, camera: transform)
            }
        }
    }

    /// Appends background layers (colour or `background-pattern`); the frame's first background becomes its
    /// `clear` when nothing was drawn before it.
    private func appendBackgrounds(
        _ backgrounds: [CompiledLayer], z: Double, camera: CameraState, into list: inout DisplayList
    ) {
        let size = list.size
        for layer in backgrounds where layer.layer.isVisible(atZoom: z) {
            let ctx = EvaluationContext(zoom: z)
            let opacity = layer.number("background-opacity", ctx, 1)
            if layer.isSet("background-pattern") {
                if list.commands.isEmpty { list.append(.clear(.clear)) }
                list.append(contentsOf: backgroundPattern(layer, ctx, camera: camera, size: size, opacity: opacity))
                continue
            }
            let color = (layer.color("background-color", ctx) ?? .black).withOpacity(opacity)
            if list.commands.isEmpty {
                list.append(.clear(color))
            } else {
                var path = RenderPath()
                path.addRect(RenderRect(x: 0, y: 0, width: size.width, height: size.height))
                list.append(.fill(FillCommand(path: path, color: color)))
            }
        }
    }

    /// The attribution of the sources that have data for the frame's tiles and a visible layer, deduplicated,
    /// after ``MapRenderOptions/baseAttribution``; joined with " · ".
    func attributionText(tiles: [TileID], zoom: Double) -> String {
        var parts: [String] = []
        if let base = options.baseAttribution, !base.isEmpty { parts.append(base) }
        var used = Set<String>()
        for layer in layers where layer.layer.isVisible(atZoom: zoom) {
            if let s = layer.layer.source { used.insert(s) }
        }
        for id in used.sorted() {
            guard let source = sources[id], let text = source.attribution, !text.isEmpty else { continue }
            let inView = tiles.contains { tile in
                // Read now, or (asynchronous frames never read tiles) what the workers reported.
                guard let key = sourceKey(source, tile) else { return false }
                return tileSupply.reportedSourceData(SourceDataKey(source: source.id, address: key.address))
                    ?? (sourceTiles.decodedTile(source, key).tile != nil)
            }
            guard inView else { continue }
            if !parts.contains(where: { $0.lowercased() == text.lowercased() }) { parts.append(text) }
        }
        return parts.joined(separator: " · ")
    }

}
