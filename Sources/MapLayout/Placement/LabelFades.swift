import MapDrawing
import MapGeometry

/// The fade of every label across frames (MapLibre's symbol fading): a label that becomes placed fades in from 0,
/// one that stops being placed fades out to 0, both at the rate `1 / duration` per second of the caller's clock.
///
/// ## Rules
/// - A label is keyed as ``SymbolPlacer`` keys labels across frames: its ``SymbolIdentity`` and an anchor that
///   projects within ``PlacementOptions/stabilityTolerance`` points of the label's anchor this frame. A placed label
///   matching a remembered one continues its fade; one matching none starts at opacity 0 (so a map's first frame
///   with a fade shows no labels, and they fade in).
/// - A label that was placed and is not any more keeps fading out from its last placement (its text, icon and
///   shapes), moved on screen with its anchor as the camera moves (the anchor's screen shift; its shapes are not
///   turned or scaled), and drawn at its falling opacity. It does not occupy the collision grid (placement never
///   sees it), so the labels that replace it are placed at once. It is forgotten when its opacity reaches 0; if it is
///   placed again before that, it fades back in from where it was.
/// - `duration` 0 (or negative, or not finite) draws every placed label at opacity 1 and remembers nothing: the
///   frame is placement's own. The first frame after creation or ``reset()`` advances by 0 seconds.
///
/// Cost: one dictionary of the labels shown (placed or fading), rebuilt per frame; one projection per remembered
/// label. Thread rules: one instance per frame thread.
public struct LabelFades {
    private struct Entry {
        /// The label as last placed: what is drawn while it fades out.
        var symbol: PlacedSymbol
        var opacity: Double
        /// Whether this frame's placement placed it (set while matching).
        var placed: Bool
    }

    private var entries: [SymbolIdentity: [Entry]] = [:]
    private var lastTime: Double?
    /// Whether the last ``advance(_:camera:now:duration:stabilityTolerance:)`` left a label part-way through its
    /// fade (so a later frame at a later time differs: hosts keep drawing frames).
    public private(set) var isFading = false

    /// Creates an empty state (no label remembered).
    public init() {}

    /// Labels remembered (placed or fading out).
    public var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// Forgets every label (the next labels fade in from 0) and the last time.
    public mutating func reset() {
        entries.removeAll()
        lastTime = nil
        isFading = false
    }

    /// Advances every label's fade to `now` and returns this frame's labels with their opacities.
    /// - Parameters:
    ///   - placement: this frame's placement.
    ///   - camera: this frame's camera (re-projects remembered anchors).
    ///   - now: the frame's time in seconds (any monotonic clock; a time before the last one counts as no time).
    ///   - duration: seconds a full fade takes, `≥ 0`; 0 turns fading off (see the type's rules).
    ///   - stabilityTolerance: points within which a remembered anchor is the same label (the placer's
    ///     ``PlacementOptions/stabilityTolerance``).
    /// - Returns: the opacity of each placed label and the labels fading out.
    public mutating func advance(
        _ placement: PlacementResult, camera: CameraTransform, now: Double, duration: Double,
        stabilityTolerance: Double
    ) -> FadedLabels {
        guard duration > 0, duration.isFinite else {
            if lastTime != nil || !entries.isEmpty { reset() }
            return FadedLabels(opacities: [], fadingOut: [])
        }
        let elapsed = lastTime.map { now.isFinite && now > $0 ? now - $0 : 0 } ?? 0
        if now.isFinite { lastTime = now }
        let step = elapsed / duration
        let t2 = stabilityTolerance.isFinite ? stabilityTolerance * stabilityTolerance : 0
        var next: [SymbolIdentity: [Entry]] = [:]
        next.reserveCapacity(placement.symbols.count)
        var opacities: [Double] = []
        opacities.reserveCapacity(placement.symbols.count)
        var fading = false
        for symbol in placement.symbols {
            var opacity = 0.0
            if var remembered = entries[symbol.identity],
                let i = remembered.firstIndex(where: {
                    !$0.placed
                        && squaredDistance(screen(of: $0.symbol.anchor, camera), symbol.screenAnchor) <= t2
                })
            {
                opacity = min(1, remembered[i].opacity + step)
                remembered[i].placed = true
                entries[symbol.identity] = remembered
            }
            if opacity < 1 { fading = true }
            opacities.append(opacity)
            next[symbol.identity, default: []].append(Entry(symbol: symbol, opacity: opacity, placed: false))
        }
        var fadingOut: [FadedLabel] = []
        for (identity, remembered) in entries {
            for entry in remembered where !entry.placed {
                let opacity = entry.opacity - step
                guard opacity > 0 else { continue }
                fading = true
                let shift = screen(of: entry.symbol.anchor, camera)
                let moved = entry.symbol.moved(
                    dx: shift.x - entry.symbol.screenAnchor.x, dy: shift.y - entry.symbol.screenAnchor.y)
                fadingOut.append(FadedLabel(symbol: moved, opacity: opacity))
                next[identity, default: []].append(Entry(symbol: entry.symbol, opacity: opacity, placed: false))
            }
        }
        // Priority order among the fading labels (placement order of their last frame is lost): by layer, then a
        // stable order so frames are reproducible.
        fadingOut.sort {
            let a = $0.symbol
            let b = $1.symbol
            return (a.layerIndex, a.featureIndex, a.screenAnchor.x, a.screenAnchor.y)
                < (b.layerIndex, b.featureIndex, b.screenAnchor.x, b.screenAnchor.y)
        }
        entries = next
        isFading = fading
        return FadedLabels(opacities: opacities, fadingOut: fadingOut)
    }

    private func screen(of anchor: WorldPoint, _ camera: CameraTransform) -> ScreenPoint {
        // The copy of the anchor nearest the camera centre, as placement projects it.
        camera.screenPoint(forUnwrapped: camera.nearestWorldCopy(of: anchor))
    }
}

/// A label that is no longer placed, fading out: its last placement moved with its anchor.
public struct FadedLabel: Sendable {
    /// The label as last placed, its screen positions moved with the camera.
    public var symbol: PlacedSymbol
    /// Its opacity this frame, `0 < opacity < 1`.
    public var opacity: Double
}

/// One frame's labels with their fades (``LabelFades/advance(_:camera:now:duration:stabilityTolerance:)``).
public struct FadedLabels: Sendable {
    /// The opacity `0…1` of each of the placement's ``PlacementResult/symbols``, by index; empty when fading is off
    /// (every placed label at 1).
    public var opacities: [Double]
    /// Labels fading out, by layer.
    public var fadingOut: [FadedLabel]

    /// The opacity of the placement's symbol at `index`.
    public func opacity(ofPlaced index: Int) -> Double { index < opacities.count ? opacities[index] : 1 }

    /// The label draw commands of each layer (by ``SymbolFeature/layerIndex``): the layer's icons, then its texts,
    /// each first the placed labels in placement order, then the fading ones; each command's opacity multiplied by
    /// the label's fade; labels at opacity 0 left out. A layer whose labels have sort keys draws key by key (lowest
    /// first): each key's icons, then its texts (MapLibre draws a layer with `symbol-sort-key` so).
    public func commandsByLayer(_ placement: PlacementResult) -> [Int: [DrawCommand]] {
        // Each layer's labels by number, uncopied (a label's copy retains each of its references): placed symbol `k`
        // is `k`, fading label `j` is `placed + j`.
        let symbols = placement.symbols
        let placed = symbols.count
        var entries: [Int: [Int]] = [:]
        for k in symbols.indices { entries[symbols[k].layerIndex, default: []].append(k) }
        for j in fadingOut.indices { entries[fadingOut[j].symbol.layerIndex, default: []].append(placed + j) }
        func sortKey(_ k: Int) -> Double? { k < placed ? symbols[k].sortKey : fadingOut[k - placed].symbol.sortKey }
        func fade(_ k: Int) -> Double { k < placed ? opacity(ofPlaced: k) : fadingOut[k - placed].opacity }
        var labels: [Int: [DrawCommand]] = [:]
        labels.reserveCapacity(entries.count)
        for (layer, list) in entries {
            var groups = [list[...]]
            if list.contains(where: { sortKey($0) != nil }) {
                let sorted = list.enumerated().sorted {
                    (rankKey(sortKey($0.element)), $0.offset) < (rankKey(sortKey($1.element)), $1.offset)
                }.map(\.element)
                groups = []
                var start = 0
                for i in 1...sorted.count
                where i == sorted.count || rankKey(sortKey(sorted[i])) != rankKey(sortKey(sorted[start])) {
                    groups.append(sorted[start..<i])
                    start = i
                }
            }
            var out: [DrawCommand] = []
            for group in groups {
                for k in group {
                    let opacity = fade(k)
                    guard opacity > 0 else { continue }
                    func add(_ symbol: PlacedSymbol) {
                        // ``PlacedSymbol/iconCommands``, without making its array.
                        if symbol.iconPieces.isEmpty {
                            guard var icon = symbol.iconCommand else { return }
                            icon.opacity *= opacity
                            out.append(.image(icon))
                        } else {
                            for var icon in symbol.iconPieces {
                                icon.opacity *= opacity
                                out.append(.image(icon))
                            }
                        }
                    }
                    if k < placed { add(symbols[k]) } else { add(fadingOut[k - placed].symbol) }
                }
                for k in group {
                    let opacity = fade(k)
                    guard opacity > 0 else { continue }
                    func add(_ text: DrawCommand?) {
                        guard let text else { return }
                        out.append(opacity < 1 ? text.fading(opacity) : text)
                    }
                    if k < placed { add(symbols[k].text) } else { add(fadingOut[k - placed].symbol.text) }
                }
            }
            if !out.isEmpty { labels[layer] = out }
        }
        return labels
    }
}

extension DrawCommand {
    /// A label's text command with its opacity multiplied by `opacity`.
    fileprivate func fading(_ opacity: Double) -> DrawCommand {
        switch self {
        case .text(var t):
            t.opacity *= opacity
            return .text(t)
        case .lineText(var t):
            t.opacity *= opacity
            return .lineText(t)
        default: return self
        }
    }
}

extension PlacedSymbol {
    /// The label moved on screen by (`dx`, `dy`) points: its anchor, text, icon and bounds.
    func moved(dx: Double, dy: Double) -> PlacedSymbol {
        guard dx != 0 || dy != 0, dx.isFinite, dy.isFinite else { return self }
        var s = self
        s.screenAnchor = ScreenPoint(x: screenAnchor.x + dx, y: screenAnchor.y + dy)
        switch text {
        case .text(var t)?:
            t.position = ScreenPoint(x: t.position.x + dx, y: t.position.y + dy)
            s.text = .text(t)
        case .lineText(var t)?:
            for i in t.glyphs.indices {
                t.glyphs[i].position = ScreenPoint(x: t.glyphs[i].position.x + dx, y: t.glyphs[i].position.y + dy)
            }
            s.text = .lineText(t)
        default: break
        }
        func move(_ r: RenderRect) -> RenderRect {
            RenderRect(x: r.origin.x + dx, y: r.origin.y + dy, width: r.size.width, height: r.size.height)
        }
        s.iconCommand?.rect = move(iconCommand?.rect ?? RenderRect(x: 0, y: 0, width: 0, height: 0))
        for i in s.iconPieces.indices { s.iconPieces[i].rect = move(s.iconPieces[i].rect) }
        s.iconRect = iconRect.map(move)
        s.textBounds = textBounds.map(move)
        return s
    }
}
