import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

/// The choice between the style's SDF glyphs and the backend's fonts, and the measuring of text on the glyph path:
/// the renderer's ``SymbolPlacer`` measures through it, and the label stage draws with the same shapings.
///
/// Text goes the glyph path when its ``TextStyle/glyphFontstack`` is set (the style names `glyphs`), a
/// ``GlyphStore`` is set, the text holds no right-to-left or joining script, at least one of its characters that are
/// not whitespace has a glyph in the fontstack's ranges, and every other one has one there or from the backend's
/// fonts (``localGlyphs``, when `fallback` is a ``GlyphCoverageSource``: the label is then one label of SDF glyphs,
/// a few drawn from the system's fonts). A range that failed to load counts as having no glyphs. Anything else goes
/// to `fallback` (Pango) whole. Ranges are loaded on first use through the store's loader on the calling thread.
///
/// Thread rules: the frame thread (the placer's and the label stage's); not thread-safe.
final class GlyphTextMeasurer: TextMeasurer {
    /// The backend's measurer, for text off the glyph path.
    let fallback: any TextMeasurer
    /// The style's glyphs; `nil` sends all text to `fallback`.
    var store: GlyphStore? {
        didSet {
            shapings = [:]
            masks.removeAll()
        }
    }
    /// The glyphs' coverage masks the labels' glyph runs are made of (at most
    /// ``GlyphMaskCache/defaultByteLimit`` bytes).
    let masks = GlyphMaskCache()
    private struct Key: Hashable {
        var text: String
        var style: TextStyle

        /// Hashes the text and the style's size and fontstack only (a label's lookup each frame no longer hashes its
        /// whole style: fonts, colours, halo, sections). Equality still compares everything; styles that differ
        /// elsewhere only share a hash.
        func hash(into hasher: inout Hasher) {
            hasher.combine(text)
            hasher.combine(style.size)
            hasher.combine(style.glyphFontstack)
        }
    }
    private var shapings: [Key: GlyphShaping?] = [:]
    /// The lines of text off the glyph path (``fallbackBreaking(_:style:)``).
    let fallbackBreaks = FallbackLineBreakCache()
    /// Glyphs the ranges lack, from `fallback`'s fonts (LocalGlyphs.swift); `nil` when it cannot draw a character
    /// alone.
    let localGlyphs: LocalGlyphs?

    init(fallback: any TextMeasurer) {
        self.fallback = fallback
        localGlyphs = (fallback as? any GlyphCoverageSource).map(LocalGlyphs.init)
    }

    /// What the engine group of the renderer adds for its glyphs (MapRenderer.joinGroup): the store's identity, 0
    /// without one, so only renderers measuring with the same store share symbols.
    var groupSalt: Int { store.map { ObjectIdentifier($0).hashValue } ?? 0 }

    /// `text` shaped from `style`'s fontstack, or `nil` when it is not on the glyph path. Cached (emptied past
    /// 20,000 entries).
    func shaping(_ text: String, style: TextStyle) -> GlyphShaping? {
        guard let fontstack = style.glyphFontstack, let store, style.size > 0, style.size.isFinite else { return nil }
        let key = Key(text: text, style: style)
        if let hit = shapings[key] { return hit }
        var result: GlyphShaping? = nil
        if !text.isEmpty && !needsWholeShaping(text) {
            result = sectionedShaping(text, style: style, fontstack: fontstack, store: store)
        }
        if shapings.count > 20_000 { shapings = [:] }
        shapings[key] = result
        return result
    }

    /// Metrics of the glyph shaping in points when `text` is on the glyph path, else `fallback`'s.
    func measure(_ text: String, style: TextStyle) -> TextMetrics {
        guard let shaping = shaping(text, style: style) else {
            if let breaking = fallbackBreaking(text, style: style) { return measure(breaking) }
            return fallback.measure(text, style: style)
        }
        let s = style.size / GlyphShaping.emSize
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for g in shaping.glyphs where g.glyph.width > 0 && g.glyph.height > 0 {
            let ink = g.inkBox
            minX = min(minX, ink.minX)
            minY = min(minY, ink.minY)
            maxX = max(maxX, ink.maxX)
            maxY = max(maxY, ink.maxY)
        }
        let ink =
            minX.isFinite
            ? RenderRect(x: minX * s, y: minY * s, width: (maxX - minX) * s, height: (maxY - minY) * s)
            : RenderRect(x: 0, y: 0, width: 0, height: 0)
        return TextMetrics(
            width: shaping.width * s, height: shaping.height * s, baseline: (shaping.lines.first?.baseline ?? 0) * s,
            inkBounds: ink,
            lines: shaping.lines.map { .init(utf8Range: $0.utf8Range, width: $0.width * s, baseline: $0.baseline * s) },
            unknownGlyphCount: 0)
    }
}

/// Where a layer's labels are looked for in the previous frame's glyph-run memo
/// (``LabelStage/glyphRuns(_:scale:opacity:glyphs:previous:search:made:requests:)``): labels of the memo ahead of
/// this frame's (negative: behind) where the last one was found, and the labels found nowhere since.
struct MemoSearch {
    var shift = 0
    var misses = 0
}

/// A glyph-path label's run as a frame made it (``LabelStage/glyphRunMemo``): its command (at opacity 1) and pass,
/// the run (`nil`: it draws nothing), and whether it was made at all (a label at opacity 0 is not).
struct GlyphRunMemo {
    var command: DrawCommand
    var passes: SDFText.Passes
    var run: GlyphRunCommand?
    var isMade: Bool
}

/// An SDF icon's image (its halo or fill pass), keyed by its command (at opacity 1), paint and the frame's scale. Glyph
/// labels draw as glyph runs and are not kept as images.
struct GlyphImageKey: Hashable {
    var command: DrawCommand
    var scale: Double
    /// The paint of an SDF icon (`nil` for text, whose command carries it).
    var paint: TextStyle? = nil
    /// The passes drawn.
    var passes = SDFText.Passes.both
}

extension MapRenderer {
    /// The style's glyph PBFs: with a store, labels whose text the fontstack covers are laid out from the glyphs'
    /// metrics (MapLibre's shaping: advances, `text-max-width` breaking, `text-letter-spacing`,
    /// `text-line-height`, `text-justify`) and drawn from their signed distance fields (MapLibre's SDF shader:
    /// `text-halo-width`, `text-halo-blur`). A character the fontstack lacks in a label with others it has is made
    /// from the backend's fonts when its measurer is a ``GlyphCoverageSource`` (as MapLibre GL JS makes local
    /// glyphs), so the label stays one glyph label; other text stays with the backend's fonts. Only used when the style
    /// names `glyphs`. The store's loader is called on the frame thread on a range's first use, so give one that
    /// reads local files, or ranges loaded already. Renderers of one style given the same store share their cached
    /// symbols in the ``MapEngine``. Before the first frame that placed labels nothing else changes (hosts set the
    /// store as they make the renderer); later, cached symbols and tiles are dropped (``invalidate()``). Setting the
    /// store already set does nothing. Waymark's own.
    /// - Parameter store: the glyphs, or `nil` to draw all text with the backend's fonts.
    public func setGlyphs(_ store: GlyphStore?) {
        guard labels.glyphText.store !== store else { return }
        labels.glyphText.store = store
        if labels.lastLabels == nil && labels.glyphImages.isEmpty {
            group = joinGroup()
        } else {
            invalidate()
        }
    }
}

extension LabelStage {
    /// `commands` with every text the glyph path draws replaced by its glyph runs (halo, then fill; composited at
    /// whole device pixels) and every SDF icon by its images (registered with the backend); icon images not used
    /// by the previous frame are released first. `sdfNames` names
    /// the renderer's SDF sprite images by handle id (``MapRenderer/sdfSpriteNames()``), `spritePixels` gives a sprite
    /// image's pixels (``MapRenderer/spritePixels(_:)``).
    func glyphLabelCommands(
        _ labels: [Int: [DrawCommand]], scale: Double, zoom: Double, sdfNames: [Int: String],
        spritePixels: (String) -> RasterImage?
    ) -> [Int: [DrawCommand]] {
        let unused = glyphImages.keys.filter { !glyphImagesUsed.contains($0) }
        for key in unused {
            if let removed = glyphImages.removeValue(forKey: key), let removed { backend.unregister(removed.handle) }
        }
        glyphImagesUsed = []
        guard scale > 0, scale.isFinite else { return labels }
        // The previous frame's runs serve only the same glyphs at the same scale.
        let store = glyphText.store.map(ObjectIdentifier.init)
        if store != glyphRunMemoStore || scale != glyphRunMemoScale { glyphRunMemo = [:] }
        (glyphRunMemoStore, glyphRunMemoScale) = (store, scale)
        var memo: [Int: [GlyphRunMemo]] = [:]
        defer { glyphRunMemo = memo }
        // The labels' runs made after every layer's commands are converted, together (their missed glyph masks drawn
        // on several threads): the commands hold a pending item for each until then, and the memo a place to fill.
        var requests: [SDFText.GlyphRunRequest] = []
        var pendingMemo: [(index: Int, slot: Int, request: Int, halo: Bool)] = []
        var items: [Int: [GlyphLabelItem]] = [:]
        for (index, commands) in labels {
            let layer = layers.indices.contains(index) ? layers[index] : nil
            let previous = glyphRunMemo[index] ?? []
            // Where the layer's labels were last found in the previous frame's memo.
            var search = MemoSearch()
            var made: [GlyphRunMemo] = []
            defer { memo[index] = made }
            // MapLibre draws a layer's text halos, then its text fills over every halo; with `symbol-sort-key` it
            // draws symbol by symbol (a draw call a sort key), each label's halo then its fill.
            let perLabel = layer?.isSet("symbol-sort-key") ?? true
            var halos: [GlyphLabelItem] = []
            var fills: [GlyphLabelItem] = []
            // Per label: in place among the layer's commands (icons stay between the sort keys' texts).
            /// `false` when the label is not on the glyph path (`glyphs` gives `nil`); then nothing was added.
            func split(
                _ command: DrawCommand, opacity: Double, glyphs: () -> GlyphRunGlyphs?,
                into out: inout [GlyphLabelItem]
            ) -> Bool {
                let slot = made.count
                guard
                    let (halo, fill) = glyphRuns(
                        command, scale: scale, opacity: opacity, glyphs: glyphs, previous: previous, search: &search,
                        made: &made, requests: &requests)
                else { return false }
                if case .pending(let request, _, _)? = halo { pendingMemo.append((index, slot, request, true)) }
                if case .pending(let request, _, _)? = fill { pendingMemo.append((index, slot + 1, request, false)) }
                if let halo { perLabel ? out.append(halo) : halos.append(halo) }
                if let fill { perLabel ? out.append(fill) : fills.append(fill) }
                return true
            }
            // SDF icon halos: MapLibre draws a layer's icon halos, then its icon fills (per label with a sort key).
            var iconHalos: [GlyphLabelItem] = []
            // Appended to `out` (no array a label).
            func convert(_ command: DrawCommand, into out: inout [GlyphLabelItem]) {
                switch command {
                case .image(var i) where layer != nil:
                    // An icon (its `icon-opacity` set by placement), SDF icons drawn with their paint.
                    // A fitted icon's pieces sample nearest only at the sprite's own pixel ratio (IconPieces.swift):
                    // at another ratio MapLibre samples them bilinearly.
                    if i.nearestNeighbor && i.image.scale != scale { i.nearestNeighbor = false }
                    guard let name = sdfNames[i.image.id] else {
                        if i.opacity > 0 { out.append(.command(.image(i))) }
                        return
                    }
                    let passes = sdfIconPasses(
                        i, name: name, layer: layer!, zoom: zoom, scale: scale, spritePixels: spritePixels)
                    if let halo = passes.halo {
                        perLabel ? out.append(.command(halo)) : iconHalos.append(.command(halo))
                    }
                    if let fill = passes.fill { out.append(.command(fill)) }
                case .text(let t):
                    // The glyphs are looked up only for a label whose runs are not reused.
                    var plain = t
                    plain.opacity = 1
                    if split(
                        .text(plain), opacity: t.opacity,
                        glyphs: { self.glyphText.shaping(t.text, style: t.style).map { .text($0) } }, into: &out)
                    {
                        return
                    }
                    // The backend draws the lines the measurer chose (MapLibre's breaks, not its own wrapping).
                    guard let breaking = glyphText.fallbackBreaking(t.text, style: t.style) else {
                        return out.append(.command(command))
                    }
                    var broken = t
                    (broken.text, broken.style) = (breaking.text, breaking.style)
                    out.append(.command(.text(broken)))
                case .lineText(let l):
                    var plain = l
                    plain.opacity = 1
                    if !split(
                        .lineText(plain), opacity: l.opacity,
                        glyphs: { self.lineTextGlyphs(l).map { .lineText($0) } }, into: &out)
                    {
                        out.append(.command(command))
                    }
                default:
                    out.append(.command(command))
                }
            }
            var others: [GlyphLabelItem] = []
            others.reserveCapacity(commands.count)
            var iconHalosAt: Int?
            for command in commands {
                let haloCount = iconHalos.count
                let start = others.count
                convert(command, into: &others)
                if iconHalosAt == nil && iconHalos.count > haloCount { iconHalosAt = start }
            }
            others.insert(contentsOf: iconHalos, at: iconHalosAt ?? others.count)
            others.append(contentsOf: halos)
            others.append(contentsOf: fills)
            items[index] = others
        }
        let runs = SDFText.glyphRuns(batch: requests, masks: glyphText.masks)
        for (index, slot, request, halo) in pendingMemo {
            memo[index]?[slot].run = halo ? runs[request].halo : runs[request].fill
        }
        var result: [Int: [DrawCommand]] = [:]
        for (index, layerItems) in items {
            var commands: [DrawCommand] = []
            commands.reserveCapacity(layerItems.count)
            for item in layerItems {
                switch item {
                case .command(let command):
                    commands.append(command)
                case .pending(let request, let halo, let opacity):
                    guard var run = halo ? runs[request].halo : runs[request].fill else { continue }
                    run.opacity = opacity
                    commands.append(.glyphRun(run))
                }
            }
            result[index] = commands
        }
        return result
    }
}

extension MapRenderer {
    /// The sprite names of the registered signed-distance-field images (`"sdf": true` in the sprite index) by
    /// handle id.
    func sdfSpriteNames() -> [Int: String] {
        guard let index = sprite?.index.images else { return [:] }
        var names: [Int: String] = [:]
        for (name, handle) in spriteImages {
            if let handle, index[name]?.sdf == true { names[handle.id] = name }
        }
        return names
    }
}

extension LabelStage {
    /// An SDF icon's halo and fill images (``sdfIcon(_:name:layer:zoom:scale:spritePixels:passes:)``), each drawn at the icon's
    /// opacity as MapLibre's two passes are (`nil` for a pass that draws nothing).
    private func sdfIconPasses(
        _ i: ImageCommand, name: String, layer: CompiledLayer, zoom: Double, scale: Double,
        spritePixels: (String) -> RasterImage?
    ) -> (halo: DrawCommand?, fill: DrawCommand?) {
        guard i.opacity > 0 else { return (nil, nil) }
        var plain = i
        plain.opacity = 1
        func pass(_ passes: SDFText.Passes) -> DrawCommand? {
            guard
                case .image(var drawn)? = sdfIcon(
                    plain, name: name, layer: layer, zoom: zoom, scale: scale, spritePixels: spritePixels,
                    passes: passes)
            else { return nil }
            drawn.opacity = i.opacity
            return .image(drawn)
        }
        return (pass(.halo), pass(.fill))
    }

    /// An SDF icon drawn as MapLibre's SDF shader draws it: the command's ``ImageCommand/sdfPaint`` (without one
    /// `icon-color`, `icon-halo-color`, `icon-halo-width` and `icon-halo-blur` of `layer` evaluated at `zoom` without a
    /// feature), the field the image's alpha, its one-texel padding drawn too, the edge sharpened by the drawn size
    /// (`icon-size`); `spritePixels` gives the sprite image's pixels; `passes` the halo, the fill or both.
    private func sdfIcon(
        _ i: ImageCommand, name: String, layer: CompiledLayer, zoom: Double, scale: Double,
        spritePixels: (String) -> RasterImage?, passes: SDFText.Passes = .both
    ) -> DrawCommand? {
        guard let pixels = spritePixels(name), pixels.width > 0, pixels.height > 0, i.rect.width > 0,
            i.rect.height > 0,
            [i.rect.minX, i.rect.minY, i.rect.width, i.rect.height, i.rotation].allSatisfy(\.isFinite)
        else { return nil }
        let ctx = EvaluationContext(zoom: zoom)
        let sdf =
            i.sdfPaint
            ?? SDFPaint(
                color: layer.color("icon-color", ctx) ?? .black,
                haloColor: layer.color("icon-halo-color", ctx) ?? .clear,
                haloWidth: layer.number("icon-halo-width", ctx, 0), haloBlur: layer.number("icon-halo-blur", ctx, 0))
        let paint = TextStyle(
            color: sdf.color, haloColor: sdf.haloColor, haloWidth: sdf.haloWidth, haloBlur: sdf.haloBlur)
        let key = GlyphImageKey(command: .image(i), scale: scale, paint: paint, passes: passes)
        return cachedGlyphImage(key, scale: scale, opacity: 1) {
            let w = pixels.width
            let h = pixels.height
            var field = [UInt8](repeating: 0, count: (w + 2) * (h + 2))
            for y in 0..<h {
                for x in 0..<w { field[(y + 1) * (w + 2) + x + 1] = pixels.pixels[(y * w + x) * 4 + 3] }
            }
            let sx = i.rect.width / Double(w)
            let sy = i.rect.height / Double(h)
            let transform = RenderTransform.translation(x: -1, y: -1)
                .concatenating(.scale(x: sx, y: sy))
                .concatenating(.translation(x: -i.rect.width / 2, y: -i.rect.height / 2))
                .concatenating(.rotation(radians: i.rotation * .pi / 180))
                .concatenating(.translation(x: i.rect.minX + i.rect.width / 2, y: i.rect.minY + i.rect.height / 2))
                .concatenating(.scale(x: scale, y: scale))
            // MapLibre's icon size: the sprite image's points at `icon-size` 1.
            let iconSize = i.rect.width / (Double(w) / pixels.scale)
            return SDFText.render(
                [SDFText.Quad(field: field, width: w + 2, height: h + 2, transform: transform)], style: paint,
                fontScale: iconSize, pixelRatio: scale, passes: passes)
        }
    }

    /// The glyph runs of a label (`command` at opacity 1; `glyphs` gives its glyphs, `nil` off the glyph path, and is
    /// called only when a run is not reused) drawn at `opacity`, its
    /// halo pass and its fill pass: its glyphs' coverage masks (``GlyphMaskCache``: each glyph at its own sub-pixel
    /// phase, rounded to 1/8 device pixel, so each lies at most 1/16 device pixel from its exact place), composited
    /// straight into the frame. Nothing is composed or registered per label: a label moved by a fraction of a pixel
    /// (a pan, a turn of the map) costs its masks' look-ups, and the masks its glyphs have not drawn at that phase
    /// yet. A label that has not moved reuses its runs: the run its layer's previous frame made in the same place of
    /// its order (`previous`) when made from the same command and pass. A pass not reused is made later with every
    /// label's (``SDFText/glyphRuns(batch:masks:parallel:)``): its glyphs' quads are appended to `requests` and the
    /// pass is a pending item of that request. Each pass's memo (its run, or that none was made) is appended to
    /// `made` for the next frame, the halo's first; a pending pass's run is filled in when it is made. `nil` for a
    /// pass that draws nothing; `nil` altogether for a label off the glyph path (nothing was added, and `search` is
    /// as it was).
    private func glyphRuns(
        _ command: DrawCommand, scale: Double, opacity: Double, glyphs: () -> GlyphRunGlyphs?,
        previous: [GlyphRunMemo], search: inout MemoSearch, made: inout [GlyphRunMemo],
        requests: inout [SDFText.GlyphRunRequest]
    ) -> (halo: GlyphLabelItem?, fill: GlyphLabelItem?)? {
        guard opacity > 0 else {
            guard glyphs() != nil else { return nil }
            made.append(GlyphRunMemo(command: command, passes: .halo, run: nil, isMade: false))
            made.append(GlyphRunMemo(command: command, passes: .fill, run: nil, isMade: false))
            return (nil, nil)
        }
        let slot = made.count
        /// The previous frame's runs (halo, fill; `nil`: the pass drew nothing) of the label at memo slots `at`,
        /// `at + 1` when they serve: made from the same command, or from it moved by whole device pixels (the runs
        /// moved as much: GlyphRunMoves.swift). A memo holds glyph-path labels only, made with the same glyphs (the
        /// memo is emptied when they change), so a label found there is on the glyph path; its two passes were
        /// remembered together from one command.
        func reused(_ at: Int) -> (halo: GlyphRunCommand?, fill: GlyphRunCommand?)? {
            guard at >= 0, at + 1 < previous.count, previous[at].isMade, previous[at].passes == .halo,
                previous[at + 1].passes == .fill, let move = previous[at].move(to: command, scale: scale)
            else { return nil }
            func moved(_ run: GlyphRunCommand?) -> GlyphRunCommand?? {
                guard let run else { return .some(nil) }
                return run.moved(x: move.x, y: move.y).map { .some($0) }
            }
            guard let halo = moved(previous[at].run), let fill = moved(previous[at + 1].run) else { return nil }
            return (halo, fill)
        }
        // A label's runs are two slots (halo, fill). Labels that came or went before this one in the layer shift the
        // previous frame's slots: the label is looked for at the last shift found, then up to 8 labels either side
        // (after 4 labels in a row found nowhere, only every 8th label looks around: a frame that moved otherwise
        // than by whole pixels finds none).
        var runs: (halo: GlyphRunCommand?, fill: GlyphRunCommand?)? = nil
        var found = search
        let around = search.misses < 4 || search.misses % 8 == 0
        for k in around ? Self.memoSearch[...] : Self.memoSearch.prefix(1) {
            runs = reused(slot + 2 * (search.shift + k))
            guard runs != nil else { continue }
            found.shift += k
            break
        }
        var request: Int? = nil
        if runs == nil {
            // Not found: the label's glyphs (none: it is not on the glyph path, and the search goes on as before it).
            guard let glyphs = glyphs() else { return nil }
            if let (quads, style, s) = glyphQuads(command, scale: scale, glyphs: glyphs) {
                request = requests.count
                requests.append(SDFText.GlyphRunRequest(quads: quads, style: style, fontScale: s, pixelRatio: scale))
            }
        }
        found.misses = runs == nil ? search.misses + 1 : 0
        search = found
        // The memo's runs of passes made now are filled in when they are made.
        made.append(GlyphRunMemo(command: command, passes: .halo, run: runs?.halo, isMade: true))
        made.append(GlyphRunMemo(command: command, passes: .fill, run: runs?.fill, isMade: true))
        guard let runs else {
            return (
                request.map { .pending(request: $0, halo: true, opacity: opacity) },
                request.map { .pending(request: $0, halo: false, opacity: opacity) }
            )
        }
        func item(_ run: GlyphRunCommand?) -> GlyphLabelItem? {
            guard var run else { return nil }
            run.opacity = opacity
            return .command(.glyphRun(run))
        }
        return (item(runs.halo), item(runs.fill))
    }

    /// The label shifts ``glyphRuns(_:scale:opacity:glyphs:previous:search:made:requests:)`` tries, in order: the
    /// last one found, then up to 8 labels either side.
    private static let memoSearch = [0] + (1...8).flatMap { [$0, -$0] }

    /// The image command of the SDF icon image under `key`, made by `make` and registered on first use.
    private func cachedGlyphImage(
        _ key: GlyphImageKey, scale: Double, opacity: Double, make: () -> SDFText.Image?
    ) -> DrawCommand? {
        glyphImagesUsed.insert(key)
        let entry: (handle: ImageHandle, x: Int, y: Int)?
        if let hit = glyphImages[key] {
            entry = hit
        } else {
            if let image = make(), let handle = try? backend.register(image.image) {
                entry = (handle, image.x, image.y)
            } else {
                entry = nil
            }
            glyphImages[key] = entry
        }
        guard let entry else { return nil }
        return .image(
            ImageCommand(
                image: entry.handle,
                rect: RenderRect(
                    x: Double(entry.x) / scale, y: Double(entry.y) / scale,
                    width: Double(entry.handle.pixelWidth) / scale, height: Double(entry.handle.pixelHeight) / scale),
                opacity: opacity, nearestNeighbor: true))
    }

    /// The glyphs of a line label on the glyph path, one for each of its clusters (`nil` for a cluster without a
    /// glyph): `nil` when it is not on the glyph path (no clusters, or a cluster is not shaped from the glyphs or
    /// shapes to more than one glyph).
    private func lineTextGlyphs(_ l: LineTextCommand) -> [SDFGlyph?]? {
        guard !l.glyphs.isEmpty else { return nil }
        var glyphs: [SDFGlyph?] = []
        glyphs.reserveCapacity(l.glyphs.count)
        for g in l.glyphs {
            guard let shaping = glyphText.shaping(g.text, style: l.style), shaping.glyphs.count <= 1 else { return nil }
            glyphs.append(shaping.glyphs.first?.glyph)
        }
        return glyphs
    }

    /// The glyph quads of a glyph-path `.text` or `.lineText` command (device pixels at `scale`), its style and its
    /// font scale (`text-size / 24`); `nil` when it draws nothing.
    private func glyphQuads(_ command: DrawCommand, scale: Double, glyphs: GlyphRunGlyphs)
        -> (quads: [SDFText.Quad], style: TextStyle, fontScale: Double)?
    {
        let device = RenderTransform.scale(x: scale, y: scale)
        switch (command, glyphs) {
        case (.text(let t), .text(let shaping)):
            guard [t.position.x, t.position.y, t.offset.x, t.offset.y, t.rotation].allSatisfy(\.isFinite)
            else { return nil }
            let s = t.style.size / GlyphShaping.emSize
            let anchor = ScreenPoint(x: t.position.x + t.offset.x, y: t.position.y + t.offset.y)
            let origin = t.anchor.boxOrigin(
                for: ScreenSize(width: shaping.width * s, height: shaping.height * s), at: anchor)
            let local = RenderTransform.scale(x: s, y: s)
                .concatenating(.translation(x: origin.x - anchor.x, y: origin.y - anchor.y))
                .concatenating(.rotation(radians: t.rotation * .pi / 180))
                .concatenating(.translation(x: anchor.x, y: anchor.y))
                .concatenating(device)
            let quads = shaping.glyphs.compactMap { SDFText.Quad(positioned: $0, style: t.style, local: local) }
            return (quads, t.style, s)
        case (.lineText(let l), .lineText(let glyphs)):
            let s = l.style.size / GlyphShaping.emSize
            guard s > 0, s.isFinite else { return nil }
            var quads: [SDFText.Quad] = []
            quads.reserveCapacity(l.glyphs.count)
            for (g, glyph) in zip(l.glyphs, glyphs) where g.position.x.isFinite && g.position.y.isFinite {
                guard let glyph else { continue }
                var linear = RenderTransform.rotation(radians: g.rotation * .pi / 180)
                if let m = g.transform, m.isFinite {
                    linear = RenderTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: 0, ty: 0)
                }
                let local = RenderTransform.scale(x: s, y: s)
                    .concatenating(linear)
                    .concatenating(.translation(x: g.position.x, y: g.position.y))
                    .concatenating(device)
                if let quad = SDFText.Quad(
                    unpadded: glyph,
                    transform: SDFText.quadTransform(glyph: glyph, pen: (-Double(glyph.advance) / 2, 0), local: local))
                {
                    quads.append(quad)
                }
            }
            return (quads, l.style, s)
        default:
            return nil
        }
    }
}

/// The glyphs a glyph-path label is drawn from, as its command's conversion found them: a point label's shaping, or
/// a line label's glyph for each cluster (`nil` for a cluster without one).
enum GlyphRunGlyphs {
    case text(GlyphShaping)
    case lineText([SDFGlyph?])
}

/// A command of a layer's converted list, or a label's glyph run still to be made: the pass (`halo`, else the fill)
/// of the batch's request `request`, drawn at `opacity`.
enum GlyphLabelItem {
    case command(DrawCommand)
    case pending(request: Int, halo: Bool, opacity: Double)
}
