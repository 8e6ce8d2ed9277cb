import MapDrawing
import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Places the labels of every visible tile for one frame: projection, priority, cross-tile dedup, collision.
///
/// ## What one call does
/// 1. **Anchors.** Each ``SymbolFeature`` is projected through the camera. A point symbol has one anchor. A line
///    symbol's line is cut to the depth range the camera may label, projected to screen, and gets anchors every
///    ``SymbolFeature/spacing`` points where the text fits (the middle for `line-center`); anchors where the line
///    turns more than ``SymbolFeature/maxAngle`` under the text are rejected. With a
///    ``SymbolFeature/layoutTileSize`` the anchors are laid out as MapLibre lays them out in the owner tile instead
///    (on the line clipped to the tile, in its pixels, with MapLibre's start offset, `text-max-angle` test and
///    repeat distance for the same text); the label then follows the projected line from there. Anchors deeper than
///    ``PlacementOptions/maximumDepthFactor`` camera distances (near and beyond the horizon under pitch) or behind
///    the camera, and anchors outside ``SymbolFeature/ownerTile``, are dropped.
/// 2. **Priority.** Candidates are sorted by, in order: higher ``SymbolFeature/layerIndex`` first (the layer drawn
///    on top is placed first, as in MapLibre); then, with ``PlacementOptions/prefersPreviousPlacement``, labels
///    shown in the previous frame first; then lower ``SymbolFeature/sortKey`` first (no key last); then lower
///    ``SymbolFeature/sourceOrder``; then the input index; then the anchor's order along its line. The result does
///    not depend on the input order except through that index tie-break.
/// 3. **Dedup.** A candidate whose identity equals an earlier candidate's and whose anchor lies within
///    ``PlacementOptions/duplicateTolerance`` of it is dropped (the same feature in two tiles' buffers).
/// 4. **Collision.** Point text collides as the axis-aligned box of its (rotated) text box grown by
///    ``SymbolFeature/textPadding``; line text as a chain of circles along the path, at most half a line height
///    apart (radius half the line height plus padding); an icon as its box plus its padding. Under pitch, paddings
///    scale with the perspective ratio like the shapes (MapLibre scales the padded box). Text and icon each pass when they do not hit the index or allow
///    overlap; `text-optional`/`icon-optional` decide whether one may be drawn without the other (MapLibre's rule).
///    Shapes wholly outside the view drop the label. Point text with ``SymbolFeature/textVariableAnchors`` tries
///    each anchor (the previous frame's first) and keeps the first that fits. Placed shapes enter the index unless
///    they ignore placement.
///
/// Point labels stay screen-aligned and upright whatever the bearing and pitch (only `text-rotate` turns them),
/// unless their text is pitched with the map (``SymbolFeature/textPitchAlignment`` `.map`): under pitch that text lies
/// on the ground, cluster by cluster (GroundPointText.swift), while it collides as its screen-aligned box (MapLibre's);
/// line labels follow their projected line, so bearing and pitch turn them with the road, and keep-upright flips
/// those that would read right to left. Text is measured once per (text, style) with the injected ``TextMeasurer``
/// and cached across frames; the perspective ratio scales the cached metrics.
///
/// Output: a ``PlacementResult`` whose ``PlacementResult/drawCommands()`` are MapDrawing `DrawCommand`s in screen
/// points. Thread rules: one placer per render thread; `place` is not reentrant.
///
/// ```swift
/// let placer = SymbolPlacer(measurer: backend.textMeasurer)          // keep it: it caches measurements
/// var previous: PlacementResult?
/// // each frame:
/// let symbols: [SymbolFeature] = …                                    // style-evaluated symbols of every visible tile
/// let labels = placer.place(symbols, camera: camera, previous: previous)
/// displayList.append(contentsOf: labels.drawCommands())              // after the map's fills and lines
/// previous = labels
/// ```
public final class SymbolPlacer {
    /// The measurer shared with the backend (for example `PangoTextShaper`).
    public let measurer: any TextMeasurer
    /// The settings.
    public var options: PlacementOptions
    private var grid: GridIndex
    /// The current frame's view size in points.
    private var view = (width: 1.0, height: 1.0)
    private var shapes: [ShapeKey: Shape] = [:]
    /// Whether the current frame's camera is pitched (fitted icons are then sampled bilinearly).
    private var pitched = false
    /// The current frame's band beyond the view in points: ``PlacementOptions/viewPadding``, doubled under pitch.
    private var framePadding = 0.0
    /// The current frame's camera transform (point text on the ground is projected through it).
    private var frameTransform: CameraTransform?
    /// Point text laid out for the ground, per (text, style) (GroundPointText.swift).
    var groundLayouts: [ShapeKey: GroundTextLayout] = [:]
    /// Without cross-source collisions: the collision index of each group but the current one (in ``grid``).
    private var groupGrids: [String: GridIndex] = [:]
    /// The current frame's bearing in degrees clockwise (map-aligned point text turns with it).
    private var bearing = 0.0
    /// The frame's `line` text anchors so far per layer, tile and text, for MapLibre's repeat distance.
    private var repeatAnchors: [RepeatKey: [WorldPoint]] = [:]
    /// The frame's collision shapes so far (``PlacementOptions/recordsCollisionShapes``; CollisionDebugShapes.swift).
    var collisionShapes: [CollisionDebugShape] = []
    /// Per symbol of the last array placed, what placement made of it regardless of the camera (PlacementInputMemo.swift).
    private var memo = PlacementInputMemo()
    /// Numbers of the identities met so far (IdentityNumbers.swift), for the frame's look-ups by identity.
    private var identities = IdentityNumbers()
    /// The frame's cross-tile dedup lists, kept so that their storage serves every frame: per identity number the
    /// first of its anchors in ``seenAnchors`` (`-1`: none), and the anchors so far, each with the next of its
    /// identity's.
    private var seenFirst: [Int32] = []
    private var seenAnchors: [(point: ScreenPoint, tile: TileID?, next: Int32)] = []

    private struct RepeatKey: Hashable {
        var layer: Int
        var tile: TileID
        var text: String
    }

    /// Creates a placer.
    /// - Parameters:
    ///   - measurer: measures text in the fonts the backend draws with.
    ///   - options: settings. Defaults to ``PlacementOptions/init(cellSize:maximumDepthFactor:scalesWithPerspective:duplicateTolerance:stabilityTolerance:prefersPreviousPlacement:labelsMustFitInView:viewPadding:)``.
    public init(measurer: any TextMeasurer, options: PlacementOptions = PlacementOptions()) {
        self.measurer = measurer
        self.options = options
        grid = GridIndex(width: 1, height: 1)
    }

    /// Number of (text, style) measurements cached; the cache is emptied when it passes 20,000 entries.
    public var cachedShapeCount: Int { shapes.count }

    /// Places `symbols` for the frame seen by `camera`.
    /// - Parameters:
    ///   - symbols: the symbols of every visible tile (any order; see the type's priority rules).
    ///   - camera: the frame's camera; its ``CameraState/size`` is the view.
    ///   - previous: the previous frame's result, so labels that were shown keep priority. Defaults to `nil`.
    /// - Returns: the placed labels and counters.
    /// - Complexity: O(n log n) for n candidate anchors, plus the collision queries (near O(n) for labels spread
    ///   over the view).
    public func place(_ symbols: [SymbolFeature], camera: CameraState, previous: PlacementResult? = nil)
        -> PlacementResult
    {
        place(symbols, parts: nil, camera: camera, previous: previous)
    }

    /// ``place(_:camera:previous:)`` for `symbols` joined from `parts` in order: each part an array the caller keeps
    /// from frame to frame (a tile's candidates of one layer; in `symbols` its symbols may differ in
    /// ``SymbolFeature/sourceOrder`` only). What placement made of a part's symbols regardless of the camera (text
    /// measurements, anchors laid out in the tile) is then reused when the part comes again at another place, as
    /// when a turned map offers its tiles in another order. Parts are used only when they hold every symbol, each
    /// holds the symbols of one layer and one owner tile, and no two hold the same layer's and tile's; else (and
    /// with `parts` `nil`) as ``place(_:camera:previous:)``. The placement is the same either way.
    package func place(
        _ symbols: [SymbolFeature], parts: [[SymbolFeature]]?, camera: CameraState, previous: PlacementResult? = nil
    ) -> PlacementResult {
        let transform = camera.transform
        frameTransform = transform
        let viewWidth = camera.size.width.isFinite ? max(camera.size.width, 1) : 1
        let viewHeight = camera.size.height.isFinite ? max(camera.size.height, 1) : 1
        view = (viewWidth, viewHeight)
        pitched = camera.pitch != 0
        bearing = camera.bearing.isFinite ? camera.bearing : 0
        // Cells of at least the configured size, and few enough for any view (at most about a million cells).
        let configured = options.cellSize.isFinite && options.cellSize > 0 ? options.cellSize : 32
        var cellSize = configured
        while (viewWidth / cellSize + 8) * (viewHeight / cellSize + 8) > 1e6 { cellSize *= 2 }
        // MapLibre doubles its collision grid's band beyond the view under pitch.
        let padding = (options.viewPadding.isFinite ? max(options.viewPadding, 0) : 0) * (pitched ? 2 : 1)
        framePadding = padding
        let margin = max(4 * cellSize, (padding / cellSize).rounded(.up) * cellSize + cellSize)
        if grid.originX != -margin || grid.width != viewWidth + 2 * margin || grid.height != viewHeight + 2 * margin
            || grid.cellSize != cellSize
        {
            grid = GridIndex(
                originX: -margin, originY: -margin, width: viewWidth + 2 * margin, height: viewHeight + 2 * margin,
                cellSize: cellSize)
        } else {
            grid.removeAll()
        }
        if shapes.count > 20_000 {
            shapes.removeAll(keepingCapacity: true)
            groundLayouts.removeAll(keepingCapacity: true)
            memo.reset()
        }
        // The identity numbers start over when they are many more than a frame holds (the frame's look-up arrays are
        // as long as the numbering); the memo holds numbers, so it starts over too.
        if identities.count > 50_000 && identities.count > 4 * symbols.count {
            identities.reset()
            memo.reset()
        }
        memo.begin(symbols, parts: parts, identities: &identities)
        let numbers = memo.identityNumbers
        repeatAnchors.removeAll(keepingCapacity: true)
        collisionShapes.removeAll()

        var statistics = PlacementStatistics()
        let context = FrameContext(
            transform: transform, options: options, numbers: numbers,
            previous: options.prefersPreviousPlacement ? previous : nil, identities: &identities)

        // 1. Anchors.
        var candidates: [Candidate] = []
        candidates.reserveCapacity(symbols.count)
        // Each symbol is handed on in place (see ``inPlace(_:_:)``): a copy costs a retain and a release of each of its
        // many references.
        inPlace(symbols) { symbols in
            for index in symbols.indices {
                makeCandidates(
                    &symbols[index], index: index, context: context, into: &candidates, statistics: &statistics)
            }
        }
        statistics.candidates = candidates.count + statistics.culled + statistics.tooCurved

        // 2. Priority.
        // Compared in place: a candidate's copy would retain its line geometry.
        let order = candidates.withUnsafeBufferPointer { candidates in
            candidates.indices.sorted { a, b in
                let x = candidates.baseAddress! + a
                let y = candidates.baseAddress! + b
                if x.pointee.layerIndex != y.pointee.layerIndex { return x.pointee.layerIndex > y.pointee.layerIndex }
                if x.pointee.wasPlaced != y.pointee.wasPlaced { return x.pointee.wasPlaced }
                if x.pointee.byViewportY && y.pointee.byViewportY && x.pointee.screen.y != y.pointee.screen.y {
                    return x.pointee.screen.y > y.pointee.screen.y
                }
                if x.pointee.sortKey != y.pointee.sortKey { return x.pointee.sortKey < y.pointee.sortKey }
                if x.pointee.sourceOrder != y.pointee.sourceOrder {
                    return x.pointee.sourceOrder < y.pointee.sourceOrder
                }
                if x.pointee.featureIndex != y.pointee.featureIndex {
                    return x.pointee.featureIndex < y.pointee.featureIndex
                }
                return x.pointee.ordinal < y.pointee.ordinal
            }
        }

        // 3 and 4. Dedup and collision.
        // Each identity's anchors so far, by identity number (storage kept from frame to frame).
        var seenFirst = self.seenFirst
        var seenAnchors = self.seenAnchors
        self.seenFirst = []
        self.seenAnchors = []
        seenFirst.removeAll(keepingCapacity: true)
        seenFirst.append(contentsOf: repeatElement(-1, count: identities.count))
        seenAnchors.removeAll(keepingCapacity: true)
        seenAnchors.reserveCapacity(candidates.count)
        var placed: [PlacedSymbol] = []
        placed.reserveCapacity(min(candidates.count, max(previous?.symbols.count ?? 0, 64) * 2))
        var remembered: [RememberedLabel] = []
        var rememberedIdentities: [SymbolIdentity] = []
        remembered.reserveCapacity(placed.capacity)
        rememberedIdentities.reserveCapacity(placed.capacity)
        grid.reserve(candidates.count * 2)
        let tolerance2 = options.duplicateTolerance * options.duplicateTolerance
        groupGrids = [:]
        var currentGroup = ""
        inPlace(symbols) { symbols in
            candidates.withUnsafeBufferPointer { candidates in
                for candidateIndex in order {
                    // In place: a candidate's copy would retain its line geometry.
                    let c = candidates.baseAddress! + candidateIndex
                    let symbol = symbols.baseAddress! + c.pointee.featureIndex
                    let number = Int(numbers[c.pointee.featureIndex])
                    // Copies of a feature in different tiles are one label; features of one tile are never duplicates
                    // of each other (MapLibre's cross-tile index matches only across tiles). The identity's earlier
                    // anchors are checked and, when none is a copy, added to.
                    let tile = symbol.pointee.ownerTile
                    var copy = false
                    var k = Int(seenFirst[number])
                    while k >= 0 {
                        let earlier = seenAnchors[k]
                        if (earlier.tile == nil || earlier.tile != tile)
                            && squaredDistance(earlier.point, c.pointee.screen) <= tolerance2
                        {
                            copy = true
                            break
                        }
                        k = Int(earlier.next)
                    }
                    if copy {
                        statistics.duplicates += 1
                        continue
                    }
                    seenAnchors.append((c.pointee.screen, tile, seenFirst[number]))
                    seenFirst[number] = Int32(truncatingIfNeeded: seenAnchors.count - 1)
                    if !options.crossSourceCollisions {
                        useGrid(of: symbol.pointee.collisionGroup ?? "", &currentGroup)
                    }
                    if collide(
                        &UnsafeMutablePointer(mutating: c).pointee, &symbol.pointee, into: &placed,
                        statistics: &statistics)
                    {
                        remembered.append(
                            RememberedLabel(
                                anchor: c.pointee.world, textAnchor: placed[placed.count - 1].textAnchor,
                                number: Int32(truncatingIfNeeded: number)))
                        rememberedIdentities.append(symbol.pointee.identity)
                    }
                }
            }
        }
        self.seenFirst = seenFirst
        self.seenAnchors = seenAnchors
        statistics.placed = placed.count
        if symbols.contains(where: \.drawsByViewportY) { drawTopToBottom(&placed, symbols) }
        return PlacementResult(
            symbols: placed, statistics: statistics, remembered: remembered,
            rememberedIdentities: rememberedIdentities, numbering: identities.token, collisionShapes: collisionShapes)
    }

    /// Reorders, in place, the placed symbols of each layer whose symbols draw by viewport y: among the positions
    /// those symbols hold, top of the screen first (ties: later features first, as MapLibre's `sortFeatures`).
    private func drawTopToBottom(_ placed: inout [PlacedSymbol], _ symbols: [SymbolFeature]) {
        var positions: [Int: [Int]] = [:]
        for (i, p) in placed.enumerated() where symbols[p.featureIndex].drawsByViewportY {
            positions[p.layerIndex, default: []].append(i)
        }
        for (_, slots) in positions where slots.count > 1 {
            let sorted = slots.map { placed[$0] }.sorted { a, b in
                if a.screenAnchor.y != b.screenAnchor.y { return a.screenAnchor.y < b.screenAnchor.y }
                return symbols[a.featureIndex].sourceOrder > symbols[b.featureIndex].sourceOrder
            }
            for (slot, symbol) in zip(slots, sorted) { placed[slot] = symbol }
        }
    }

    /// Runs `body` on the storage of `symbols`, so that each symbol can be handed to a function `inout`, in place: one
    /// passed by value is copied out of the array first (placement's callees cannot be shown not to change the
    /// array), and a ``SymbolFeature`` copy retains and releases each of its many references. `body` must not change
    /// a symbol (the storage may be shared with other arrays).
    private func inPlace<R>(
        _ symbols: [SymbolFeature], _ body: (UnsafeMutableBufferPointer<SymbolFeature>) -> R
    ) -> R {
        symbols.withUnsafeBufferPointer { body(UnsafeMutableBufferPointer(mutating: $0)) }
    }

    /// Makes ``grid`` the collision index of `group` (an empty one on its first use), keeping the current one.
    private func useGrid(of group: String, _ current: inout String) {
        guard group != current else { return }
        let fresh = GridIndex(
            originX: grid.originX, originY: grid.originY, width: grid.width, height: grid.height,
            cellSize: grid.cellSize)
        groupGrids[current] = grid
        grid = groupGrids.removeValue(forKey: group) ?? fresh
        current = group
    }

    // MARK: - Anchors

    private struct FrameContext {
        let transform: CameraTransform
        let options: PlacementOptions
        /// Per symbol: its identity's number (``PlacementInputMemo/identityNumbers``).
        let numbers: [Int32]
        /// The previous frame's labels in its placement order (empty without one), and per identity number the
        /// first of them (`-1`: none) and per label the next of its identity's (`-1`: none), in that order.
        let previousLabels: [RememberedLabel]
        let previousFirst: [Int32]
        let previousNext: [Int32]

        /// The context of a frame seen through `transform`, preferring the labels of `previous` (numbered in
        /// `identities`, which numbers any identity of `previous` it has not met) when given.
        init(
            transform: CameraTransform, options: PlacementOptions, numbers: [Int32], previous: PlacementResult?,
            identities: inout IdentityNumbers
        ) {
            self.transform = transform
            self.options = options
            self.numbers = numbers
            guard let previous, !previous.remembered.isEmpty else {
                previousLabels = []
                previousFirst = []
                previousNext = []
                return
            }
            let labels = previous.remembered
            // A result of another numbering (another placer's, or one before a reset) is numbered here by identity.
            let own = previous.numbering === identities.token && labels.count == previous.rememberedIdentities.count
            var labelNumbers = own ? [] : previous.rememberedIdentities.map { identities.number($0) }
            if !own && labelNumbers.count != labels.count { labelNumbers = [] }
            var first = [Int32](repeating: -1, count: identities.count)
            var next = [Int32](repeating: -1, count: labels.count)
            if own || !labelNumbers.isEmpty {
                // Backwards, each in front: each identity's labels end in placement order.
                for i in labels.indices.reversed() {
                    let number = Int(own ? labels[i].number : labelNumbers[i])
                    next[i] = first[number]
                    first[number] = Int32(truncatingIfNeeded: i)
                }
            }
            previousLabels = labels
            previousFirst = first
            previousNext = next
        }

        var minimumDepth: Double { 0.1 * transform.distance }
        var maximumDepth: Double { max(options.maximumDepthFactor, 1) * transform.distance }

        func perspectiveRatio(depth: Double) -> Double {
            guard options.scalesWithPerspective, depth > 0 else { return 1 }
            // MapLibre's viewport perspective ratio, exact (its shader clamps it to at most 4).
            return min(0.5 + 0.5 * transform.distance / depth, 4)
        }

        /// The world copy `symbol` is placed in at `w`: its tile's own copy (as MapLibre labels every world copy's
        /// tiles), or the copy nearest the camera centre for a symbol without a tile.
        func worldCopy(of w: WorldPoint, _ symbol: SymbolFeature) -> WorldPoint {
            symbol.ownerTile == nil ? transform.nearestWorldCopy(of: w) : w
        }

        /// The previous frame's first label of the identity of the `index`-th symbol whose anchor lies within the
        /// stability tolerance of `screen`.
        func remembered(_ index: Int, at screen: ScreenPoint) -> RememberedLabel? {
            guard !previousLabels.isEmpty else { return nil }
            let t2 = options.stabilityTolerance * options.stabilityTolerance
            var k = Int(previousFirst[Int(numbers[index])])
            while k >= 0 {
                let label = previousLabels[k]
                let at = transform.screenPoint(forUnwrapped: transform.nearestWorldCopy(of: label.anchor))
                if squaredDistance(at, screen) <= t2 { return label }
                k = Int(previousNext[k])
            }
            return nil
        }
    }

    private struct Candidate {
        var featureIndex: Int
        var layerIndex: Int
        /// `symbol-sort-key`, `+infinity` when absent.
        var sortKey: Double
        var sourceOrder: Int
        var ordinal: Int
        var world: WorldPoint
        var screen: ScreenPoint
        var ratio: Double
        var wasPlaced: Bool
        /// `symbol-z-order: viewport-y`: placed from the bottom of the screen up.
        var byViewportY = false
        /// The text anchor this identity used in the previous frame, when it was placed there.
        var previousAnchor: TextAnchor?
        var line: LineLabelGeometry?
        var lineHeight: Double
        /// The icon's clockwise turn in degrees (an icon on a line, turned along it).
        var iconRotation = 0.0
    }

    /// `symbol` is `inout` only to be passed in place, uncopied (``inPlace(_:_:)``); it is not changed.
    private func makeCandidates(
        _ symbol: inout SymbolFeature, index: Int, context: FrameContext, into candidates: inout [Candidate],
        statistics: inout PlacementStatistics
    ) {
        let hasText = !symbol.text.isEmpty
        guard hasText || symbol.icon != nil else { return }
        // Line text follows its line unless it is aligned to the viewport (then it is a point label at the middle).
        let alongLine = symbol.placement != .point && hasText && symbol.textRotationAlignment == .map
        switch symbol.geometry {
        case .point(let w):
            // MapLibre lays out no anchor on a point for `line` and `line-center` symbols.
            guard symbol.placement == .point || symbol.layoutTileSize <= 0 else { return }
            pointCandidate(symbol, index: index, world: w, context: context, into: &candidates, stats: &statistics)
        case .line(let points):
            guard points.count >= 2 else { return }
            if alongLine {
                lineCandidates(symbol, index: index, points, context: context, into: &candidates, &statistics)
            } else if symbol.placement == .line && hasText {
                uprightLineCandidates(symbol, index: index, points, context: context, into: &candidates, &statistics)
            } else if symbol.placement != .point, !hasText, symbol.icon != nil, symbol.layoutTileSize > 0,
                symbol.ownerTile != nil
            {
                iconLineCandidates(symbol, index: index, points, context: context, into: &candidates, &statistics)
            } else if let middle = worldMiddle(points) {
                pointCandidate(
                    symbol, index: index, world: middle, context: context, into: &candidates, stats: &statistics)
            }
        }
    }

    private func owns(_ tile: TileID?, _ w: WorldPoint) -> Bool {
        guard let tile else { return true }
        let nw = tile.northWest
        let size = tile.worldSize
        // Compare in the tile's own world copy: shift x by whole worlds into [nw.x, nw.x + 1).
        let x = w.x - (w.x - nw.x).rounded(.down)
        return x >= nw.x && x < nw.x + size && w.y >= nw.y && w.y < nw.y + size
    }

    private func pointCandidate(
        _ symbol: SymbolFeature, index: Int, world: WorldPoint, context: FrameContext,
        into candidates: inout [Candidate], stats: inout PlacementStatistics
    ) {
        guard world.x.isFinite, world.y.isFinite, owns(symbol.ownerTile, world) else {
            stats.culled += 1
            return
        }
        let w = context.worldCopy(of: world, symbol)
        let depth = context.transform.depth(of: w)
        guard depth >= context.minimumDepth, depth <= context.maximumDepth else {
            stats.culled += 1
            return
        }
        let screen = context.transform.screenPoint(forUnwrapped: w)
        let remembered = context.remembered(index, at: screen)
        candidates.append(
            Candidate(
                featureIndex: index, layerIndex: symbol.layerIndex, sortKey: rankKey(symbol.sortKey),
                sourceOrder: symbol.sourceOrder, ordinal: 0, world: world, screen: screen,
                ratio: context.perspectiveRatio(depth: depth), wasPlaced: remembered != nil,
                byViewportY: symbol.placesByViewportY, previousAnchor: remembered?.textAnchor, line: nil,
                lineHeight: 0))
    }

    private func lineCandidates(
        _ symbol: SymbolFeature, index: Int, _ points: [WorldPoint], context: FrameContext,
        into candidates: inout [Candidate], _ stats: inout PlacementStatistics
    ) {
        let shape = lineShape(symbol, index: index)
        guard let clusters = shape.clusters, !clusters.isEmpty else { return }
        // The two lengths used, not the style (a copy of a style retains its references).
        let style = (size: symbol.textStyle.size, letterSpacing: symbol.textStyle.letterSpacing)
        let labelLength =
            clusters.reduce(0) { $0 + $1.advance } + style.letterSpacing * Double(clusters.count - 1)
        let transform = context.transform
        if symbol.textPitchAlignment == .map && transform.state.pitch != 0 {
            groundLineCandidates(
                symbol, index: index, points, shape: shape, clusters: clusters, labelLength: labelLength,
                context: context, into: &candidates, &stats)
            return
        }
        // Same world copy for the whole line.
        let first = context.worldCopy(of: points[0], symbol)
        let shift = first.x - points[0].x
        var ordinal = 0
        // One anchor `distance` points along the projected `line`; `checkAngle` tests text-max-angle there.
        func place(_ line: ScreenPolyline, _ distance: Double, checkAngle: Bool) {
            defer { ordinal += 1 }
            let p = line.sample(at: distance)
            let screen = ScreenPoint(x: p.x, y: p.y)
            guard let world = transform.worldPoint(for: screen) else {
                stats.culled += 1
                return
            }
            let depth = transform.depth(of: world)
            let unshifted = WorldPoint(x: world.x - shift, y: world.y)
            guard owns(symbol.ownerTile, unshifted) else {
                stats.culled += 1
                return
            }
            let ratio = context.perspectiveRatio(depth: depth)
            let scaledLength = labelLength * ratio
            let window = 0.6 * style.size * ratio
            if checkAngle
                && bendsTooMuch(
                    line, from: distance - scaledLength / 2, to: distance + scaledLength / 2, window: window,
                    maxAngle: max(symbol.maxAngle, 0) * .pi / 180)
            {
                stats.tooCurved += 1
                return
            }
            let height = shape.lineHeight * ratio
            let offset = symbol.textOffset.y * style.size * ratio
            guard
                let geometry = layoutLineLabel(
                    clusters, on: line, anchor: distance, scale: ratio, letterSpacing: style.letterSpacing,
                    baselineShift: shape.lineBaseline * ratio - height / 2 + offset, centerShift: offset,
                    keepUpright: symbol.keepUpright, circleSpacing: height / 2)
            else {
                stats.culled += 1
                return
            }
            candidates.append(
                Candidate(
                    featureIndex: index, layerIndex: symbol.layerIndex, sortKey: rankKey(symbol.sortKey),
                    sourceOrder: symbol.sourceOrder, ordinal: ordinal, world: unshifted, screen: screen,
                    ratio: ratio,
                    wasPlaced: context.remembered(index, at: screen) != nil, previousAnchor: nil,
                    line: geometry, lineHeight: height,
                    iconRotation: symbol.iconRotationAlignment == .map ? p.angle * 180 / .pi : 0))
        }
        if let runs = tileRuns(symbol, index: index, points, textLength: labelLength) {
            atTileAnchors(runs, shift: shift, context: context) {
                let s = transform.screenPoint(forUnwrapped: $0)
                return (s.x, s.y)
            } culled: {
                stats.culled += 1
                ordinal += 1
            } place: {
                place($0, $1, checkAngle: false)
            }
            return
        }

        let shifted = points.map { WorldPoint(x: $0.x + shift, y: $0.y) }
        for run in depthClippedRuns(shifted, context: context) {
            let screenRun = run.map { transform.screenPoint(forUnwrapped: $0) }
            let line = ScreenPolyline(screenRun.lazy.map { (x: $0.x, y: $0.y) })
            guard line.count >= 2 else { continue }
            let anchors = lineAnchorDistances(
                length: line.length, labelLength: labelLength, spacing: symbol.spacing,
                center: symbol.placement == .lineCenter)
            for distance in anchors { place(line, distance, checkAngle: true) }
        }
    }

    /// Line text aligned to the viewport (`symbol-placement: line`, `text-rotation-alignment: viewport`), as
    /// MapLibre places it: anchors every ``SymbolFeature/spacing`` points along the projected line where the text's
    /// width fits, each an upright point label.
    private func uprightLineCandidates(
        _ symbol: SymbolFeature, index: Int, _ points: [WorldPoint], context: FrameContext,
        into candidates: inout [Candidate], _ stats: inout PlacementStatistics
    ) {
        let width = pointShape(symbol, index: index).width
        if let runs = tileRuns(symbol, index: index, points, textLength: width) {
            for run in runs {
                for anchor in run.anchors {
                    pointCandidate(
                        symbol, index: index, world: anchor, context: context, into: &candidates, stats: &stats)
                }
            }
            return
        }
        let first = context.worldCopy(of: points[0], symbol)
        let shift = first.x - points[0].x
        let shifted = points.map { WorldPoint(x: $0.x + shift, y: $0.y) }
        for run in depthClippedRuns(shifted, context: context) {
            let line = ScreenPolyline(
                run.lazy.map { context.transform.screenPoint(forUnwrapped: $0) }.map { ($0.x, $0.y) })
            guard line.count >= 2 else { continue }
            for distance in lineAnchorDistances(
                length: line.length, labelLength: width, spacing: symbol.spacing, center: false)
            {
                let p = line.sample(at: distance)
                guard let world = context.transform.worldPoint(for: ScreenPoint(x: p.x, y: p.y)) else {
                    stats.culled += 1
                    continue
                }
                pointCandidate(
                    symbol, index: index, world: WorldPoint(x: world.x - shift, y: world.y), context: context,
                    into: &candidates, stats: &stats)
            }
        }
    }

    /// Line text on the ground (`text-pitch-alignment: map` under pitch), as MapLibre lays it: anchors, the
    /// `text-max-angle` test and the clusters' layout are made along the line on the ground, in points of the
    /// camera's zoom (the screen's scale at the centre without pitch), and each cluster is then projected with the
    /// local linear map of the ground to the screen (``GlyphPlacement/transform``), so it is foreshortened as the
    /// road is. A label's ground size is the text size times `0.5 + 0.5 · depth / D` (MapLibre's perspective ratio
    /// for pitch-aligned text), which the projection's `D / depth` brings back to about the viewport ratio on the
    /// screen. Keep-upright decides from the label's direction on the screen; collision circles are the ground
    /// circles' centres projected, with the viewport ratio's radius.
    private func groundLineCandidates(
        _ symbol: SymbolFeature, index: Int, _ points: [WorldPoint], shape: Shape, clusters: [LabelCluster],
        labelLength: Double, context: FrameContext, into candidates: inout [Candidate],
        _ stats: inout PlacementStatistics
    ) {
        // The two lengths used, not the style (a copy of a style retains its references).
        let style = (size: symbol.textStyle.size, letterSpacing: symbol.textStyle.letterSpacing)
        let transform = context.transform
        let worldSize = transform.worldSize
        let centre = transform.centerWorld
        guard worldSize.isFinite, worldSize > 0 else { return }
        let first = context.worldCopy(of: points[0], symbol)
        let shift = first.x - points[0].x
        // World ↔ ground points (relative to the camera centre, so the numbers stay small).
        func ground(_ w: WorldPoint) -> (x: Double, y: Double) {
            ((w.x - centre.x) * worldSize, (w.y - centre.y) * worldSize)
        }
        func world(_ x: Double, _ y: Double) -> WorldPoint {
            WorldPoint(x: centre.x + x / worldSize, y: centre.y + y / worldSize)
        }
        func screen(_ x: Double, _ y: Double) -> ScreenPoint { transform.screenPoint(forUnwrapped: world(x, y)) }
        var ordinal = 0
        let shifted = points.map { WorldPoint(x: $0.x + shift, y: $0.y) }
        func place(_ line: ScreenPolyline, _ distance: Double, checkAngle: Bool) {
            defer { ordinal += 1 }
            let p = line.sample(at: distance)
            let w = world(p.x, p.y)
            let depth = transform.depth(of: w)
            let unshifted = WorldPoint(x: w.x - shift, y: w.y)
            guard depth > 0, depth.isFinite, owns(symbol.ownerTile, unshifted) else {
                stats.culled += 1
                return
            }
            let at = transform.screenPoint(forUnwrapped: w)
            var iconRotation = 0.0
            if symbol.iconRotationAlignment == .map {
                let ahead = screen(p.x + cos(p.angle), p.y + sin(p.angle))
                iconRotation = atan2(ahead.y - at.y, ahead.x - at.x) * 180 / .pi
            }
            let ratio = context.perspectiveRatio(depth: depth)
            // The label's size on the ground: MapLibre's pitch-aligned perspective ratio.
            let groundRatio =
                context.options.scalesWithPerspective
                ? min(max(0.5 + 0.5 * depth / transform.distance, 0.5), 4) : 1
            let scaledLength = labelLength * groundRatio
            if checkAngle
                && bendsTooMuch(
                    line, from: distance - scaledLength / 2, to: distance + scaledLength / 2,
                    window: 0.6 * style.size * groundRatio, maxAngle: max(symbol.maxAngle, 0) * .pi / 180)
            {
                stats.tooCurved += 1
                return
            }
            // Keep upright as the label reads on the screen.
            var flip: Bool?
            if symbol.keepUpright {
                let a = line.sample(at: max(distance - scaledLength / 2, 0))
                let b = line.sample(at: min(distance + scaledLength / 2, line.length))
                let sa = screen(a.x, a.y)
                let sb = screen(b.x, b.y)
                flip = abs(atan2(sb.y - sa.y, sb.x - sa.x)) > .pi / 2 + 1e-12
            }
            let height = shape.lineHeight * groundRatio
            let offset = symbol.textOffset.y * style.size * groundRatio
            guard
                let layout = layoutLineLabel(
                    clusters, on: line, anchor: distance, scale: groundRatio, letterSpacing: style.letterSpacing,
                    baselineShift: shape.lineBaseline * groundRatio - height / 2 + offset, centerShift: offset,
                    keepUpright: symbol.keepUpright, circleSpacing: height / 2, flip: flip)
            else {
                stats.culled += 1
                return
            }
            // Each cluster: its ground frame (turned along the line, `groundRatio / ratio` times the drawn text
            // size) through the projection's local linear map.
            var glyphs: [GlyphPlacement] = []
            glyphs.reserveCapacity(layout.glyphs.count)
            for g in layout.glyphs {
                let o = screen(g.position.x, g.position.y)
                let ex = screen(g.position.x + 0.5, g.position.y)
                let ex0 = screen(g.position.x - 0.5, g.position.y)
                let ey = screen(g.position.x, g.position.y + 0.5)
                let ey0 = screen(g.position.x, g.position.y - 0.5)
                let j = RenderTransform(
                    a: ex.x - ex0.x, b: ex.y - ex0.y, c: ey.x - ey0.x, d: ey.y - ey0.y, tx: 0, ty: 0)
                let angle = g.rotation * .pi / 180
                let k = groundRatio / ratio
                let turn = RenderTransform(
                    a: cos(angle) * k, b: sin(angle) * k, c: -sin(angle) * k, d: cos(angle) * k, tx: 0, ty: 0)
                let m = turn.concatenating(j)
                guard o.x.isFinite, o.y.isFinite, m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite
                else { return }
                glyphs.append(
                    GlyphPlacement(
                        text: g.text, position: ScreenPoint(x: o.x, y: o.y),
                        rotation: atan2(m.b, m.a) * 180 / .pi, transform: m))
            }
            let centers = layout.centers.map { c -> (x: Double, y: Double) in
                let s = screen(c.x, c.y)
                return (s.x, s.y)
            }
            candidates.append(
                Candidate(
                    featureIndex: index, layerIndex: symbol.layerIndex, sortKey: rankKey(symbol.sortKey),
                    sourceOrder: symbol.sourceOrder, ordinal: ordinal, world: unshifted, screen: at,
                    ratio: ratio, wasPlaced: context.remembered(index, at: at) != nil,
                    previousAnchor: nil,
                    line: LineLabelGeometry(glyphs: glyphs, centers: centers, flipped: layout.flipped),
                    lineHeight: shape.lineHeight * ratio, iconRotation: iconRotation))
        }
        if let runs = tileRuns(symbol, index: index, points, textLength: labelLength) {
            atTileAnchors(runs, shift: shift, context: context, project: ground) {
                stats.culled += 1
                ordinal += 1
            } place: {
                place($0, $1, checkAngle: false)
            }
            return
        }

        for run in depthClippedRuns(shifted, context: context) {
            let line = ScreenPolyline(run.lazy.map { ground($0) })
            guard line.count >= 2 else { continue }
            let anchors = lineAnchorDistances(
                length: line.length, labelLength: labelLength, spacing: symbol.spacing,
                center: symbol.placement == .lineCenter)
            for distance in anchors { place(line, distance, checkAngle: true) }
        }
    }

    /// The anchors of a `line` or `line-center` symbol laid out in its tile as MapLibre lays them out
    /// (``anchoredRuns(_:tile:tileSize:overscaling:spacing:maxAngle:labelLength:window:fixedOffset:center:)``), or
    /// `nil` when the symbol has no layout tile (``SymbolFeature/layoutTileSize``). The label's length is the longer
    /// of the text (`textLength` points) and the icon, whose width counts at the text size's scale (text size / 24),
    /// as in MapLibre.
    private func tileRuns(_ symbol: SymbolFeature, _ points: [WorldPoint], textLength: Double) -> [AnchoredRun]? {
        guard symbol.layoutTileSize > 0, symbol.layoutTileSize.isFinite, let tile = symbol.ownerTile else {
            return nil
        }
        let size = symbol.textStyle.size.isFinite ? max(symbol.textStyle.size, 0) : 16
        let iconLength = symbol.icon.map { $0.size.width * size / 24 } ?? 0
        let spacing = symbol.spacing.isFinite ? max(symbol.spacing, 1) : 250
        let runs = anchoredRuns(
            points, tile: tile, tileSize: symbol.layoutTileSize, overscaling: symbol.overscaling, spacing: spacing,
            maxAngle: max(symbol.maxAngle, 0) * .pi / 180, labelLength: max(textLength, iconLength),
            window: maxAngleWindow(textWidth: textLength, textSize: size), fixedOffset: 2 * size,
            center: symbol.placement == .lineCenter)
        // Only the anchors inside the tile (an over-zoomed tile lays out its source tile's square).
        func ownedAnchors(_ run: AnchoredRun) -> AnchoredRun? {
            var run = run
            let owned = run.anchors.indices.filter { owns(tile, run.anchors[$0]) }
            guard !owned.isEmpty else { return nil }
            run.anchors = owned.map { run.anchors[$0] }
            run.segments = owned.map { run.segments[$0] }
            return run
        }
        guard symbol.placement == .line, !symbol.text.isEmpty else { return runs.compactMap(ownedAnchors) }
        // MapLibre's `anchorIsTooClose`: a `line` text anchor nearer than half the spacing to an earlier anchor of
        // the same text in the layer's tile is dropped (the other carriageway of a divided road).
        let key = RepeatKey(layer: symbol.layerIndex, tile: tile, text: symbol.text)
        let limit = spacing / 2 * tile.worldSize / symbol.layoutTileSize
        var earlier = repeatAnchors[key] ?? []
        var kept: [AnchoredRun] = []
        for var run in runs {
            var anchors: [WorldPoint] = []
            var segments: [Int] = []
            for (a, segment) in zip(run.anchors, run.segments) {
                if earlier.contains(where: { worldDistance($0, a) < limit }) { continue }
                earlier.append(a)
                anchors.append(a)
                segments.append(segment)
            }
            run.anchors = anchors
            run.segments = segments
            if !anchors.isEmpty { kept.append(run) }
        }
        repeatAnchors[key] = earlier
        return kept.compactMap(ownedAnchors)
    }

    /// ``tileRuns(_:_:textLength:)`` of the `index`-th symbol, kept for the next frames that place the same array
    /// (PlacementInputMemo.swift: every frame asks in the same order, so the repeat distance sees the same anchors).
    private func tileRuns(_ symbol: SymbolFeature, index: Int, _ points: [WorldPoint], textLength: Double)
        -> [AnchoredRun]?
    {
        if index < memo.tileRuns.count, let kept = memo.tileRuns[index] { return kept }
        let runs = tileRuns(symbol, points, textLength: textLength)
        if index < memo.tileRuns.count { memo.tileRuns[index] = .some(runs) }
        return runs
    }

    /// ``TextAnchorOffsets/fixed(_:)`` of a symbol with these `text-radial-offset`, `text-anchor` and `text-offset`
    /// (without the symbol: a call with it copies it).
    private func fixedOffset(_ radial: Double?, _ anchor: TextAnchor, _ offset: ScreenPoint) -> ScreenPoint {
        if let r = radial, r > 0 { return TextAnchorOffsets.radial(anchor, r) }
        return offset
    }

    /// ``pointShape(_:index:)`` when a frame before kept it (without the symbol: a call with it copies it).
    private func keptPointShape(_ index: Int) -> Shape? {
        index < memo.pointShapes.count ? memo.pointShapes[index] : nil
    }

    /// The `index`-th symbol's text measured in its own style (``shape(_:_:clusters:)`` without clusters), kept
    /// for the next frames that place the same array.
    private func pointShape(_ symbol: SymbolFeature, index: Int) -> Shape {
        if index < memo.pointShapes.count, let kept = memo.pointShapes[index] { return kept }
        let shape = self.shape(symbol.text, symbol.textStyle, clusters: false)
        if index < memo.pointShapes.count { memo.pointShapes[index] = shape }
        return shape
    }

    /// The `index`-th symbol's text as one line (newlines become spaces) measured with its clusters, for a label
    /// along its line; kept for the next frames that place the same array.
    private func lineShape(_ symbol: SymbolFeature, index: Int) -> Shape {
        if index < memo.lineShapes.count, let kept = memo.lineShapes[index] { return kept }
        // Line labels are one line: newlines become spaces.
        let text =
            symbol.text.utf8.contains(10) ? String(symbol.text.map { $0 == "\n" ? " " : $0 }) : symbol.text
        let shape = self.shape(text, symbol.textStyle, clusters: true)
        if index < memo.lineShapes.count { memo.lineShapes[index] = shape }
        return shape
    }

    /// An icon-only `line` or `line-center` symbol: the icon at each of its tile's anchors, turned along the line
    /// on the screen when ``SymbolFeature/iconRotationAlignment`` is `.map`.
    private func iconLineCandidates(
        _ symbol: SymbolFeature, index: Int, _ points: [WorldPoint], context: FrameContext,
        into candidates: inout [Candidate], _ stats: inout PlacementStatistics
    ) {
        guard let runs = tileRuns(symbol, index: index, points, textLength: 0) else { return }
        var ordinal = 0
        for run in runs {
            for (k, anchor) in run.anchors.enumerated() {
                defer { ordinal += 1 }
                let before = candidates.count
                pointCandidate(symbol, index: index, world: anchor, context: context, into: &candidates, stats: &stats)
                guard candidates.count > before else { continue }
                candidates[before].ordinal = ordinal
                let segment = run.segments[k]
                guard symbol.iconRotationAlignment == .map, segment + 1 < run.points.count else { continue }
                let a = run.points[segment]
                let b = run.points[segment + 1]
                let length = worldDistance(a, b)
                guard length > 0 else { continue }
                let step = 1e-3 * (symbol.ownerTile?.worldSize ?? 1) / length
                let w = context.worldCopy(of: anchor, symbol)
                let s0 = context.transform.screenPoint(forUnwrapped: w)
                let s1 = context.transform.screenPoint(
                    forUnwrapped: WorldPoint(x: w.x + (b.x - a.x) * step, y: w.y + (b.y - a.y) * step))
                let angle = atan2(s1.y - s0.y, s1.x - s0.x) * 180 / .pi
                if angle.isFinite { candidates[before].iconRotation = angle }
            }
        }
    }

    /// Splits a world polyline into runs whose depth lies in the labelled range, cutting segments exactly where
    /// they cross it (depth is linear in world coordinates).
    /// Calls `place` at each anchor of `runs` (laid out in the tile, moved by `shift` world units) with the line,
    /// of the runs' depth-clipped lines projected by `project` (screen or ground points), that passes nearest to
    /// it and the anchor's distance along that line; `culled` for an anchor no line passes within half a point of.
    private func atTileAnchors(
        _ runs: [AnchoredRun], shift: Double, context: FrameContext,
        project: (WorldPoint) -> (x: Double, y: Double), culled: () -> Void,
        place: (ScreenPolyline, Double) -> Void
    ) {
        // The projected lines of one run (projected straight into each polyline, no array in between).
        var lines: [ScreenPolyline] = []
        for run in runs {
            lines.removeAll(keepingCapacity: true)
            for clipped in depthClippedRuns(
                run.points.map { WorldPoint(x: $0.x + shift, y: $0.y) }, context: context)
            {
                let line = ScreenPolyline(clipped, projectedBy: project)
                if line.count >= 2 { lines.append(line) }
            }
            for anchor in run.anchors {
                let p = project(WorldPoint(x: anchor.x + shift, y: anchor.y))
                // The first line of least error (each read in place, uncopied).
                var found: (line: Int, distance: Double, error: Double)?
                for i in lines.indices {
                    let at = lines[i].locate(x: p.x, y: p.y)
                    if found == nil || at.error < found!.error { found = (i, at.distance, at.error) }
                }
                guard let found, found.error < 0.5 else {
                    culled()
                    continue
                }
                place(lines[found.line], found.distance)
            }
        }
    }

    private func depthClippedRuns(_ points: [WorldPoint], context: FrameContext) -> [[WorldPoint]] {
        let low = context.minimumDepth
        let high = context.maximumDepth
        var runs: [[WorldPoint]] = []
        var current: [WorldPoint] = []
        func at(_ a: WorldPoint, _ b: WorldPoint, _ t: Double) -> WorldPoint {
            WorldPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
        // Each vertex's depth once: a segment's end is the next one's start.
        var next = points.isEmpty ? 0 : context.transform.depth(of: points[0])
        for i in 0..<(points.count - 1) {
            let a = points[i]
            let b = points[i + 1]
            let da = next
            let db = context.transform.depth(of: b)
            next = db
            guard da.isFinite, db.isFinite else { continue }
            var t0 = 0.0
            var t1 = 1.0
            let delta = db - da
            if abs(delta) < 1e-12 {
                if da < low || da > high {
                    t0 = 1
                    t1 = 0
                }
            } else {
                let tLow = (low - da) / delta
                let tHigh = (high - da) / delta
                t0 = max(t0, min(tLow, tHigh))
                t1 = min(t1, max(tLow, tHigh))
            }
            if t0 > t1 {
                if current.count >= 2 { runs.append(current) }
                current = []
                continue
            }
            if t0 > 0 || current.isEmpty {
                if current.count >= 2 { runs.append(current) }
                current = [at(a, b, t0)]
            }
            current.append(at(a, b, t1))
            if t1 < 1 {
                if current.count >= 2 { runs.append(current) }
                current = []
            }
        }
        if current.count >= 2 { runs.append(current) }
        return runs
    }

    private func worldMiddle(_ points: [WorldPoint]) -> WorldPoint? {
        var total = 0.0
        for i in 1..<points.count { total += worldDistance(points[i - 1], points[i]) }
        guard total.isFinite else { return nil }
        guard total > 0 else { return points[0] }
        var remaining = total / 2
        for i in 1..<points.count {
            let d = worldDistance(points[i - 1], points[i])
            if d >= remaining && d > 0 {
                let t = remaining / d
                return WorldPoint(
                    x: points[i - 1].x + (points[i].x - points[i - 1].x) * t,
                    y: points[i - 1].y + (points[i].y - points[i - 1].y) * t)
            }
            remaining -= d
        }
        return points[points.count - 1]
    }

    // MARK: - Collision

    /// Collides candidate `c` of `symbol` with the labels placed so far and, when it is shown, appends it to `placed`.
    /// `c` and `symbol` are `inout` only to be passed in place, uncopied (``inPlace(_:_:)``); they are not changed.
    /// - Returns: whether the label was placed.
    private func collide(
        _ c: inout Candidate, _ symbol: inout SymbolFeature, into placed: inout [PlacedSymbol],
        statistics: inout PlacementStatistics
    ) -> Bool {
        let key = UInt32(truncatingIfNeeded: c.featureIndex)
        let hasText = !symbol.text.isEmpty
        let ratio = c.ratio
        // The alternate writing mode's style when the text takes it; else the symbol's own (read in place: a copy of
        // a style retains its references).
        let hasAlternate = memo.hasAlternateStyle(c.featureIndex) ?? (symbol.alternateTextStyle != nil)
        let alternate = hasAlternate ? writingModeAlternate(c, symbol) : nil

        // Text shapes.
        var textBox: (Double, Double, Double, Double)?
        var circles: [(x: Double, y: Double)] = []
        var radius = 0.0
        var pointOffset = ScreenPoint.zero
        var pointAnchor = symbol.textAnchor
        var drawnAnchor: TextAnchor?
        var drawnRotation = symbol.textRotation
        var chosen: (TextAnchor, ScreenPoint, (Double, Double, Double, Double))?
        var unusedTextBox: (Double, Double, Double, Double)?  // collision debug: variable text never placed
        // View bounds: every shape must be finite, and some (or, optionally, all) of it inside the view.
        func usable(_ b: (Double, Double, Double, Double)?) -> Bool {
            guard let b else { return true }
            return b.0.isFinite && b.1.isFinite && b.2.isFinite && b.3.isFinite && inView(b)
        }
        if hasText, let line = c.line {
            // Padding scales with the perspective ratio, as the rest of the shape (MapLibre's tileToViewport).
            radius = c.lineHeight / 2 + max(symbol.textPadding, 0) * ratio
            circles = line.centers
            var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            for p in circles {
                b = (min(b.0, p.x - radius), min(b.1, p.y - radius), max(b.2, p.x + radius), max(b.3, p.y + radius))
            }
            textBox = b
        } else if hasText {
            // Without an alternate writing mode the style is the symbol's own.
            let shape =
                !hasAlternate
                ? (keptPointShape(c.featureIndex) ?? pointShape(symbol, index: c.featureIndex))
                : self.shape(symbol.text, alternate ?? symbol.textStyle, clusters: false)
            let size = ScreenSize(width: shape.width * ratio, height: shape.height * ratio)
            let padding = max(symbol.textPadding, 0) * ratio
            let em = (alternate?.size ?? symbol.textStyle.size) * ratio
            // Point text aligned to the map (`text-rotation-alignment: map`) turns with it: by −bearing degrees.
            let mapTurn = symbol.placement == .point && symbol.textRotationAlignment == .map ? -bearing : 0
            drawnRotation = symbol.textRotation + mapTurn
            // Without variable anchors no list is made (a call with the symbol copies it).
            var variable =
                symbol.textVariableAnchorOffsets.isEmpty && symbol.textVariableAnchors.isEmpty
                ? [] : TextAnchorOffsets.candidates(symbol)
            // Variable anchors: the previous frame's choice first, then the style's order.
            if let previous = c.previousAnchor, let i = variable.firstIndex(where: { $0.anchor == previous }), i > 0 {
                variable.insert(variable.remove(at: i), at: 0)
            }
            if variable.isEmpty {
                let ems = fixedOffset(symbol.textRadialOffset, symbol.textAnchor, symbol.textOffset)
                let offset = ScreenPoint(x: ems.x * em, y: ems.y * em)
                let pivot = ScreenPoint(x: c.screen.x + offset.x, y: c.screen.y + offset.y)
                let origin = symbol.textAnchor.boxOrigin(for: size, at: pivot)
                // `text-rotate` turns the offset text about the anchor, offset included (MapLibre's quads).
                var b = rotatedBounds(origin: origin, size: size, pivot: c.screen, degrees: symbol.textRotation)
                let k = symbol.collisionTextScale
                let scalesBox = k != 1 && k.isFinite && k > 0
                if scalesBox {
                    let (x, y) = (c.screen.x, c.screen.y)
                    b = (x + (b.0 - x) * k, y + (b.1 - y) * k, x + (b.2 - x) * k, y + (b.3 - y) * k)
                }
                b = (b.0 - padding, b.1 - padding, b.2 + padding, b.3 + padding)
                if symbol.textRotation != 0 && !scalesBox {  // the padded box turns (MapLibre's CollisionFeature)
                    b = paddedRotatedBounds(origin, size, padding, pivot: c.screen, symbol.textRotation)
                }
                if usable(b) {
                    if symbol.textAllowOverlap || !grid.intersectsBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3) {
                        chosen = (symbol.textAnchor, offset, b)
                    }
                    textBox = b
                    // Map-aligned text turns about the point with the map; its collision box does not (MapLibre).
                    pointOffset = turned(offset, by: mapTurn + symbol.textRotation)
                }
            } else {
                // MapLibre's variable placement: the text is laid out centred and its box (padding included) moved
                // so the anchor's point of the box sits on the point, then by the anchor's offset. Every anchor is
                // tried without overlap first; text that allows overlap then takes the first anchor in view.
                var fallback: (TextAnchor, ScreenPoint, (Double, Double, Double, Double))?
                for candidate in variable {
                    // Map-aligned text: the shift turns with the map; the box keeps its unturned size (MapLibre).
                    let shift = turned(
                        TextAnchorOffsets.shift(
                            candidate.anchor, width: size.width + 2 * padding, height: size.height + 2 * padding,
                            offset: candidate.offset, em: em), by: mapTurn)
                    let pivot = ScreenPoint(x: c.screen.x + shift.x, y: c.screen.y + shift.y)
                    let origin = TextAnchor.center.boxOrigin(for: size, at: pivot)
                    var b = rotatedBounds(origin: origin, size: size, pivot: pivot, degrees: symbol.textRotation)
                    b = (b.0 - padding, b.1 - padding, b.2 + padding, b.3 + padding)
                    guard usable(b) else { continue }
                    if fallback == nil { fallback = (candidate.anchor, shift, b) }
                    if !grid.intersectsBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3) {
                        chosen = (candidate.anchor, shift, b)
                        break
                    }
                }
                if chosen == nil && symbol.textAllowOverlap { chosen = fallback }
                if chosen == nil && options.recordsCollisionShapes {
                    unusedTextBox = centredTextBox(size: size, padding: padding, at: c.screen, symbol.textRotation)
                }
                if let pick = chosen ?? fallback {
                    textBox = pick.2
                    pointOffset = pick.1
                    pointAnchor = pick.0
                    drawnAnchor = .center
                }
            }
            guard textBox != nil else {
                statistics.culled += 1
                return false
            }
        }

        // Icon shape.
        var iconRect: RenderRect?
        var iconBox: (Double, Double, Double, Double)?
        var iconPieces: [ImageCommand] = []
        // A plain icon's turn about its anchor, degrees clockwise (`icon-rotate`, and the map's for map-aligned points).
        var iconTurn = 0.0
        if let icon = symbol.icon, hasText, c.line == nil, icon.textFit != .none,
            let fitted = icon.fitted(toText: fitTextBox(symbol, c.featureIndex, pointAnchor, pointOffset, ratio))
        {
            // `icon-text-fit`: the icon follows the text's box (IconFit.swift).
            let padding = max(icon.padding, 0) * ratio
            func screen(_ b: IconBox) -> RenderRect {
                RenderRect(
                    x: c.screen.x + b.left * ratio, y: c.screen.y + b.top * ratio, width: b.width * ratio,
                    height: b.height * ratio)
            }
            let rect = screen(fitted.bounds)
            let collision = screen(fitted.collision)
            iconRect = rect
            iconBox = (
                collision.minX - padding, collision.minY - padding, collision.maxX + padding, collision.maxY + padding
            )
            let sources = icon.stretch?.pieceSources ?? []
            if let padded = icon.paddedImage, sources.count == fitted.pieces.count {
                // One texture for every piece, read through its one-pixel transparent border (MapLibre's quads).
                let k = padded.scale > 0 && padded.scale.isFinite ? padded.scale : 1
                iconPieces = zip(sources, fitted.pieces).map { s, d in
                    ImageCommand(
                        image: padded, rect: screen(d), nearestNeighbor: icon.samplesNearest && !pitched,
                        sourceRect: RenderRect(
                            x: (s.left + 1) / k, y: (s.top + 1) / k, width: s.width / k, height: s.height / k))
                }
            } else if icon.samplesNearest && !pitched {
                if fitted.innerPieces.count == icon.innerPieceImages.count {
                    iconPieces = zip(icon.innerPieceImages, fitted.innerPieces).compactMap { image, box in
                        image.map { ImageCommand(image: $0, rect: screen(box), nearestNeighbor: true) }
                    }
                }
            } else if fitted.pieces.count == icon.pieceImages.count {
                iconPieces = zip(icon.pieceImages, fitted.pieces).map { ImageCommand(image: $0, rect: screen($1)) }
            }
            for k in iconPieces.indices { iconPieces[k].opacity = icon.opacity }
        } else if let icon = symbol.icon {
            let size = ScreenSize(width: icon.size.width * ratio, height: icon.size.height * ratio)
            let at = ScreenPoint(x: c.screen.x + icon.offset.x * ratio, y: c.screen.y + icon.offset.y * ratio)
            let origin = icon.anchor.boxOrigin(for: size, at: at)
            var rect = RenderRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
            let padding = max(icon.padding, 0) * ratio
            // A point icon aligned to the map turns with it, by −bearing degrees (MapLibre turns its quad about the
            // anchor in the shader); `icon-rotate` adds to that.
            let mapTurn =
                c.line == nil && symbol.placement == .point && symbol.iconRotationAlignment == .map ? -bearing : 0
            iconTurn = (icon.rotation.isFinite ? icon.rotation : 0) + mapTurn
            if iconTurn != 0 {
                // The turn is about the anchor: the box's centre moves, and it is drawn turned about that.
                let angle = iconTurn * Double.pi / 180
                let dx = rect.minX + size.width / 2 - c.screen.x
                let dy = rect.minY + size.height / 2 - c.screen.y
                let cx = c.screen.x + cos(angle) * dx - sin(angle) * dy
                let cy = c.screen.y + sin(angle) * dx + cos(angle) * dy
                rect = RenderRect(
                    x: cx - size.width / 2, y: cy - size.height / 2, width: size.width, height: size.height)
                // The collision box turns by `icon-rotate` only (MapLibre's point collision box ignores the map's turn).
                // The padded box turns (MapLibre's CollisionFeature pads before turning).
                iconBox = paddedRotatedBounds(
                    rect.origin, size, padding, pivot: ScreenPoint(x: cx, y: cy),
                    icon.rotation.isFinite ? icon.rotation : 0)
            } else {
                // Unturned when the icon follows its line, as MapLibre's icon collision box is.
                iconBox = (rect.minX - padding, rect.minY - padding, rect.maxX + padding, rect.maxY + padding)
            }
            iconRect = rect
        }

        if let sides = symbol.icon?.sidePaddings, let b = iconBox, let icon = symbol.icon {
            iconBox = icon.withSidePaddings(b, sides, scale: ratio)
        }
        guard usable(textBox), usable(iconBox) else {
            statistics.culled += 1
            return false
        }

        // Collision tests.
        var textFits = true
        if hasText && !symbol.textAllowOverlap {
            if c.line != nil {
                textFits = !circles.contains { grid.intersectsCircle(x: $0.x, y: $0.y, radius: radius) }
            } else {
                textFits = chosen != nil
            }
        }
        var iconFits = true
        if let icon = symbol.icon, let b = iconBox, !icon.allowOverlap {
            iconFits = !grid.intersectsBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3)
        }
        // MapLibre's rule: each part may be shown alone only if the other part is optional (or absent).
        let iconWithoutText = symbol.textOptional || !hasText
        let textWithoutIcon = (symbol.icon?.optional ?? false) || symbol.icon == nil
        var showText = hasText && textFits
        var showIcon = symbol.icon != nil && iconFits
        if !iconWithoutText && !textWithoutIcon {
            showText = showText && showIcon
            showIcon = showText
        } else if !textWithoutIcon {
            showText = showText && showIcon
        } else if !iconWithoutText {
            showIcon = showIcon && showText
        }
        recordCollisionShapes(
            textBox: textBox, unusedTextBox: unusedTextBox, circles: circles, radius: radius, iconBox: iconBox,
            showText: showText, showIcon: showIcon, layerIndex: symbol.layerIndex)
        guard showText || showIcon else {
            statistics.collided += 1
            return false
        }

        // Insert.
        if showText && !symbol.textIgnorePlacement {
            if c.line != nil {
                for p in circles { grid.insertCircle(x: p.x, y: p.y, radius: radius, key: key) }
            } else if let b = textBox {
                grid.insertBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, key: key)
            }
        }
        if showIcon, let icon = symbol.icon, let b = iconBox, !icon.ignorePlacement {
            grid.insertBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, key: key)
        }
        var textCommand: DrawCommand?
        if showText {
            let style = alternate ?? symbol.textStyle
            var scaledStyle = ratio == 1 ? style : scaled(style, ratio)
            if symbol.textJustifyFollowsAnchor && drawnAnchor != nil {
                scaledStyle.justify = TextAnchorOffsets.justification(pointAnchor)
            }
            let fixedEms = fixedOffset(symbol.textRadialOffset, symbol.textAnchor, symbol.textOffset)
            if let line = c.line {
                textCommand = .lineText(LineTextCommand(style: scaledStyle, glyphs: line.glyphs))
            } else if symbol.textPitchAlignment == .map, pitched, let transform = frameTransform,
                let glyphs = groundPointGlyphs(
                    symbol.text, style: style, justify: scaledStyle.justify, anchor: drawnAnchor ?? pointAnchor,
                    offset: drawnAnchor == nil
                        ? ScreenPoint(x: fixedEms.x * style.size, y: fixedEms.y * style.size) : .zero,
                    degrees: symbol.textRotation, turnsWithMap: symbol.textRotationAlignment == .map,
                    // A variable anchor's shift, at the viewport ratio, along the map's axes (MapLibre's tile units).
                    groundShift: drawnAnchor == nil
                        ? .zero : turned(pointOffset, by: symbol.textRotationAlignment == .map ? bearing : 0),
                    at: c.screen, ratio: ratio, transform: transform)
            {
                // Point text on the ground (`text-pitch-alignment: map` under pitch), as MapLibre draws it.
                textCommand = .lineText(LineTextCommand(style: scaledStyle, glyphs: glyphs))
            } else {
                textCommand = .text(
                    TextCommand(
                        text: symbol.text, style: scaledStyle, position: ScreenPoint(x: c.screen.x, y: c.screen.y),
                        anchor: drawnAnchor ?? pointAnchor, offset: pointOffset, rotation: drawnRotation))
            }
        }
        var iconCommand: ImageCommand?
        if showIcon && iconPieces.isEmpty, let icon = symbol.icon, let rect = iconRect {
            let turn = c.iconRotation + iconTurn
            if let padded = icon.paddedImage, padded.pixelWidth > 2, padded.pixelHeight > 2 {
                // MapLibre's icon quad: the image and its transparent border pixel, exactly where the box says.
                let ex = rect.width / Double(padded.pixelWidth - 2)
                let ey = rect.height / Double(padded.pixelHeight - 2)
                let size = padded.pointSize
                iconCommand = ImageCommand(
                    image: padded,
                    rect: RenderRect(
                        x: rect.minX - ex, y: rect.minY - ey, width: rect.width + 2 * ex, height: rect.height + 2 * ey),
                    opacity: icon.opacity, rotation: turn,
                    nearestNeighbor: icon.samplesNearest && !pitched && turn == 0,
                    sourceRect: RenderRect(x: 0, y: 0, width: size.width, height: size.height))
            } else if let image = icon.image {
                iconCommand = ImageCommand(image: image, rect: rect, opacity: icon.opacity, rotation: turn)
                iconCommand?.sdfPaint = icon.sdfPaint
            }
        }
        // Made in place in the frame's list (a placed symbol is large).
        placed.append(
            PlacedSymbol(
                featureIndex: c.featureIndex, identity: symbol.identity, layerIndex: symbol.layerIndex, anchor: c.world,
                screenAnchor: c.screen, scale: ratio, text: textCommand,
                iconRect: showIcon ? iconRect : nil, iconCommand: iconCommand,
                textBounds: showText
                    ? textBox.map { RenderRect(x: $0.0, y: $0.1, width: $0.2 - $0.0, height: $0.3 - $0.1) }
                    : nil,
                flipped: c.line?.flipped ?? false, textAnchor: showText && c.line == nil ? pointAnchor : nil,
                iconPieces: showIcon ? iconPieces : [], sortKey: symbol.sortKey))
        return true
    }

    /// The box of a point symbol's text relative to its anchor, in points at perspective ratio 1, for
    /// `icon-text-fit`: the shaping's box at `anchor`, moved by `offset` (points at `ratio`).
    private func fitTextBox(
        _ symbol: SymbolFeature, _ index: Int, _ anchor: TextAnchor, _ offset: ScreenPoint, _ ratio: Double
    ) -> IconBox {
        let shape = pointShape(symbol, index: index)
        let size = ScreenSize(width: shape.width, height: shape.height)
        let origin = anchor.boxOrigin(for: size, at: ScreenPoint(x: offset.x / ratio, y: offset.y / ratio))
        return IconBox(left: origin.x, top: origin.y, right: origin.x + size.width, bottom: origin.y + size.height)
    }

    private func inView(_ b: (Double, Double, Double, Double)) -> Bool {
        let w = view.width
        let h = view.height
        if options.labelsMustFitInView { return b.0 >= 0 && b.1 >= 0 && b.2 <= w && b.3 <= h }
        let p = framePadding
        return b.0 < w + p && b.2 > -p && b.1 < h + p && b.3 > -p
    }

    // MARK: - Shaping cache

    struct ShapeKey: Hashable {
        var text: String
        var style: TextStyle
    }

    struct Shape {
        var width: Double
        var height: Double
        var baseline: Double
        var clusters: [LabelCluster]?
        /// Height and baseline of one line of the text (line labels are a single line), in points.
        var lineHeight = 0.0
        var lineBaseline = 0.0
    }

    /// Measures `text` in `style` once; with `clusters`, also each grapheme's advance (for line labels: clusters
    /// are measured alone, so kerning between them is ignored). Text in a right-to-left or joining script (see
    /// ``needsWholeShaping(_:)``) is one cluster: it is drawn straight, centred on the anchor, along the line's
    /// direction.
    func shape(_ text: String, _ style: TextStyle, clusters: Bool) -> Shape {
        let key = ShapeKey(text: text, style: style)
        if let cached = shapes[key], !clusters || cached.clusters != nil { return cached }
        var shape: Shape
        if let cached = shapes[key] {
            shape = cached
        } else {
            let m = measurer.measure(text, style: style)
            shape = Shape(width: m.width, height: m.height, baseline: m.baseline, clusters: nil)
        }
        if clusters {
            var single = style
            single.letterSpacing = 0
            single.maxWidth = nil
            if needsWholeShaping(text) {
                // Right-to-left and joining scripts cannot be drawn cluster by cluster: one straight run.
                shape.clusters = [LabelCluster(text: text, advance: measurer.measure(text, style: single).width)]
            } else {
                // A whitespace cluster measured alone may measure empty: its advance is what it adds between two
                // letters.
                let pair = measurer.measure("xx", style: single).width
                shape.clusters = text.map {
                    let cluster = String($0)
                    let advance =
                        $0.isWhitespace
                        ? max(measurer.measure("x" + cluster + "x", style: single).width - pair, 0)
                        : measurer.measure(cluster, style: single).width
                    return LabelCluster(text: cluster, advance: advance)
                }
            }
            // A line label is one line: its height is one line's.
            let m = measurer.measure(text.isEmpty ? " " : String(text.prefix(1)), style: single)
            shape.lineHeight = m.height
            shape.lineBaseline = m.baseline
        }
        shapes[key] = shape
        return shape
    }
}

/// `true` when `text` holds characters of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko) or of a
/// script whose letters join or reorder (Indic, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian): such text must be
/// shaped as a whole, not cluster by cluster. MapPipeline's glyph path leaves such text to Pango.
package func needsWholeShaping(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
        switch scalar.value {
        case 0x0590...0x08FF, 0x0900...0x0DFF, 0x0E00...0x0FFF, 0x1000...0x109F, 0x1780...0x18AF, 0xFB1D...0xFDFF,
            0xFE70...0xFEFF:
            return true
        default:
            return false
        }
    }
}

/// `style` with every length multiplied by `ratio` (size, halo width and blur, letter spacing, wrap width).
func scaled(_ style: TextStyle, _ ratio: Double) -> TextStyle {
    var s = style
    s.size *= ratio
    s.haloWidth *= ratio
    s.haloBlur *= ratio
    s.letterSpacing *= ratio
    s.maxWidth = s.maxWidth.map { $0 * ratio }
    return s
}

/// The axis-aligned bounds of the box at `origin` of `size`, turned `degrees` clockwise about `pivot`.
func rotatedBounds(origin: ScreenPoint, size: ScreenSize, pivot: ScreenPoint, degrees: Double) -> (
    Double, Double, Double, Double
) {
    if degrees == 0 || !degrees.isFinite {
        return (origin.x, origin.y, origin.x + size.width, origin.y + size.height)
    }
    let r = degrees * .pi / 180
    let c = cos(r)
    let s = sin(r)
    var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
    for (x, y) in [
        (origin.x, origin.y), (origin.x + size.width, origin.y), (origin.x, origin.y + size.height),
        (origin.x + size.width, origin.y + size.height),
    ] {
        let dx = x - pivot.x
        let dy = y - pivot.y
        let px = pivot.x + dx * c - dy * s
        let py = pivot.y + dx * s + dy * c
        b = (min(b.0, px), min(b.1, py), max(b.2, px), max(b.3, py))
    }
    return b
}

/// `v` turned `degrees` clockwise on the screen (y down).
func turned(_ v: ScreenPoint, by degrees: Double) -> ScreenPoint {
    guard degrees != 0, degrees.isFinite else { return v }
    let r = degrees * .pi / 180
    return ScreenPoint(x: v.x * cos(r) - v.y * sin(r), y: v.x * sin(r) + v.y * cos(r))
}

/// A sort key for ordering: `nil` and NaN rank after every number.
func rankKey(_ key: Double?) -> Double {
    guard let key, !key.isNaN else { return .infinity }
    return key
}

@inline(__always)
func squaredDistance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double {
    (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
}

@inline(__always)
func worldDistance(_ a: WorldPoint, _ b: WorldPoint) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

extension SymbolPlacer {
    /// The text style point text is placed in when it is not ``SymbolFeature/textStyle``:
    /// ``SymbolFeature/alternateTextStyle`` (the next `text-writing-mode`) when the text collides at its anchor in
    /// ``SymbolFeature/textStyle`` and not in the alternate; else `nil`.
    private func writingModeAlternate(_ c: Candidate, _ symbol: SymbolFeature) -> TextStyle? {
        guard let alternate = symbol.alternateTextStyle, !symbol.text.isEmpty, c.line == nil,
            !symbol.textAllowOverlap, symbol.textVariableAnchors.isEmpty
        else { return nil }
        func collides(_ style: TextStyle) -> Bool {
            let shape = self.shape(symbol.text, style, clusters: false)
            let size = ScreenSize(width: shape.width * c.ratio, height: shape.height * c.ratio)
            let em = style.size * c.ratio
            let pivot = ScreenPoint(x: c.screen.x + symbol.textOffset.x * em, y: c.screen.y + symbol.textOffset.y * em)
            let origin = symbol.textAnchor.boxOrigin(for: size, at: pivot)
            var b = rotatedBounds(origin: origin, size: size, pivot: pivot, degrees: symbol.textRotation)
            let padding = max(symbol.textPadding, 0) * c.ratio
            b = (b.0 - padding, b.1 - padding, b.2 + padding, b.3 + padding)
            return !inView(b) || grid.intersectsBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3)
        }
        return collides(symbol.textStyle) && !collides(alternate) ? alternate : nil
    }
}
