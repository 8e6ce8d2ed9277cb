import MapDrawing
import MapGeometry

/// Settings of a ``SymbolPlacer``; every length in screen points.
public struct PlacementOptions: Sendable {
    /// Cell side of the collision ``GridIndex`` in points, `> 0` (other values mean 32). Views so large that this
    /// would make more than about a million cells get larger cells. Default 32.
    public var cellSize: Double
    /// Symbols whose anchor is deeper than this many camera distances (``CameraState/cameraDistance``) are dropped:
    /// under pitch this hides labels near and beyond the horizon, where they would be tiny and crowded. `≥ 1`.
    /// Default 3 (with ``scalesWithPerspective`` the smallest perspective ratio drawn is then 2/3).
    public var maximumDepthFactor: Double
    /// Under pitch, scale text, icons and collision shapes by MapLibre's perspective ratio `0.5 + 0.5 · D / depth`
    /// (at most 4, as MapLibre's shader clamps it). Default `true`.
    public var scalesWithPerspective: Bool
    /// Two symbols with equal ``SymbolIdentity`` whose anchors are closer than this on screen are one label: only
    /// the first in priority order is considered (cross-tile dedup). `≥ 0`. Default 8.
    public var duplicateTolerance: Double
    /// A symbol whose identity was placed in the previous frame with an anchor within this distance on screen is
    /// "still shown" and outranks symbols of its layer that were not (see ``SymbolPlacer``). Default 16.
    public var stabilityTolerance: Double
    /// Keep labels placed in the previous frame ahead of new ones within a layer. Default `true`.
    public var prefersPreviousPlacement: Bool
    /// Require every collision shape to lie wholly inside the view; when `false` a label is dropped only when it is
    /// wholly outside the view. Default `false` (labels crossing the edge stay while panning).
    public var labelsMustFitInView: Bool
    /// Without ``labelsMustFitInView``: how far outside the view, in points, a label's collision shapes may lie
    /// and still be placed (MapLibre's collision grid reaches 100 points beyond each edge, so a label whose point
    /// is just off screen still shows its part that reaches into the view, and still blocks others). A label
    /// wholly beyond this band is dropped. Under pitch the band is twice this (as MapLibre's grid). `≥ 0`.
    /// Default 100.
    public var viewPadding: Double
    /// Labels of different sources collide with each other (MapLibre's `crossSourceCollisions`, default on). When
    /// `false`, each ``SymbolFeature/collisionGroup`` has its own collision index. Default `true`.
    public var crossSourceCollisions: Bool
    /// Waymark's own (not in Google's API): record every tested collision shape in
    /// ``PlacementResult/collisionShapes`` for a collision debug overlay. Default `false`.
    public var recordsCollisionShapes = false

    /// Creates options; see the properties for defaults.
    public init(
        cellSize: Double = 32, maximumDepthFactor: Double = 3, scalesWithPerspective: Bool = true,
        duplicateTolerance: Double = 8, stabilityTolerance: Double = 16, prefersPreviousPlacement: Bool = true,
        labelsMustFitInView: Bool = false, viewPadding: Double = 100, crossSourceCollisions: Bool = true
    ) {
        self.crossSourceCollisions = crossSourceCollisions
        self.viewPadding = viewPadding
        self.cellSize = cellSize
        self.maximumDepthFactor = maximumDepthFactor
        self.scalesWithPerspective = scalesWithPerspective
        self.duplicateTolerance = duplicateTolerance
        self.stabilityTolerance = stabilityTolerance
        self.prefersPreviousPlacement = prefersPreviousPlacement
        self.labelsMustFitInView = labelsMustFitInView
    }
}

/// One label that placement decided to draw.
public struct PlacedSymbol: Sendable {
    /// Index of the symbol in the array given to ``SymbolPlacer/place(_:camera:previous:)``.
    public var featureIndex: Int
    /// The symbol's identity.
    public var identity: SymbolIdentity
    /// The symbol's layer index (for interleaving with other layers' commands).
    public var layerIndex: Int
    /// The anchor in world coordinates (for line labels: the point on the line the text is centred on).
    public var anchor: WorldPoint
    /// The anchor on screen, in points.
    public var screenAnchor: ScreenPoint
    /// Perspective ratio applied to the text and icon (1 without pitch).
    public var scale: Double
    /// The text to draw: `.text` for point placement, `.lineText` for line placement; `nil` when only the icon is
    /// drawn (empty text, or the text collided and was optional).
    public var text: DrawCommand?
    /// The icon's rectangle on screen in points (before padding), when the icon is drawn.
    public var iconRect: RenderRect?
    /// The icon's draw command, when the icon is drawn and ``SymbolIcon/image`` was given.
    public var iconCommand: ImageCommand?
    /// The bounds of the text's collision shapes on screen, padding included (`nil` without text).
    public var textBounds: RenderRect?
    /// For line labels: whether keep-upright reversed the reading direction.
    public var flipped: Bool
    /// For point text: the text anchor used (one of ``SymbolFeature/textVariableAnchors`` when given).
    public var textAnchor: TextAnchor?
    /// An icon fitted to its text (``SymbolIcon/textFit``): the draw commands of its pieces, drawn in place of
    /// ``iconCommand`` (then `nil`). Empty otherwise.
    public var iconPieces: [ImageCommand] = []

    /// The icon's draw commands: ``iconPieces`` when there are any, else ``iconCommand`` when given.
    public var iconCommands: [ImageCommand] { iconPieces.isEmpty ? iconCommand.map { [$0] } ?? [] : iconPieces }

    /// The symbol's ``SymbolFeature/sortKey``: a layer with keys draws its labels key by key, each key's icons
    /// then its texts (``FadedLabels/commandsByLayer(_:)``). Default `nil`.
    public var sortKey: Double? = nil
}

/// What the next frame remembers of a placed label.
struct RememberedLabel: Sendable {
    /// The label's anchor in world coordinates.
    var anchor: WorldPoint
    /// The point text's anchor, for variable anchors.
    var textAnchor: TextAnchor?
    /// The number of the label's identity in the placer's ``IdentityNumbers`` (``PlacementResult/numbering``).
    var number: Int32
}

/// Counters of one placement, for tests, diagnostics and benchmarks.
public struct PlacementStatistics: Hashable, Sendable {
    /// Candidate anchors considered (after anchor generation; a line symbol may give several).
    public var candidates = 0
    /// Labels placed (text or icon drawn).
    public var placed = 0
    /// Candidates dropped because they collided.
    public var collided = 0
    /// Candidates dropped as duplicates of a higher-priority candidate with the same identity.
    public var duplicates = 0
    /// Anchors dropped before collision: beyond ``PlacementOptions/maximumDepthFactor``, behind the camera, outside
    /// their owner tile, or outside the view.
    public var culled = 0
    /// Line anchors rejected because the line bends more than `text-max-angle` under the text.
    public var tooCurved = 0

    /// Creates zeroed counters.
    public init() {}
}

/// The labels of one frame, in placement (priority) order, and what the next frame needs for stability.
public struct PlacementResult: Sendable {
    /// The placed labels in the order they were placed (highest priority first).
    public var symbols: [PlacedSymbol]
    /// Counters.
    public var statistics: PlacementStatistics
    /// Anchors of placed labels in placement order (before any drawing reorder), for the next frame's
    /// ``SymbolPlacer/place(_:camera:previous:)``; their identities by number in ``numbering``.
    var remembered: [RememberedLabel] = []
    /// The identity of each of ``remembered``, for a placer whose numbering is not ``numbering``.
    var rememberedIdentities: [SymbolIdentity] = []
    /// The numbering ``remembered`` uses (``IdentityNumbers/token``).
    var numbering: IdentityNumbers.Token?
    /// With ``PlacementOptions/recordsCollisionShapes``: the collision shapes tested, placed or not, in placement
    /// order. Empty otherwise.
    public var collisionShapes: [CollisionDebugShape] = []

    /// The indices of ``symbols`` in drawing order: layers bottom to top (ascending ``SymbolFeature/layerIndex``);
    /// within a layer placement order (which the placer has already turned top to bottom on screen for layers with
    /// ``SymbolFeature/drawsByViewportY``).
    public func drawOrder() -> [Int] {
        symbols.indices.sorted { a, b in
            let x = symbols[a].layerIndex
            let y = symbols[b].layerIndex
            return x != y ? x < y : a < b
        }
    }

    /// The draw commands of every placed label in drawing order: layers bottom to top (ascending
    /// ``SymbolFeature/layerIndex``); within a layer all icons, then all texts, each in ``drawOrder()``.
    public func drawCommands() -> [DrawCommand] {
        let order = drawOrder()
        var out: [DrawCommand] = []
        out.reserveCapacity(symbols.count * 2)
        var i = 0
        while i < order.count {
            let layer = symbols[order[i]].layerIndex
            var j = i
            while j < order.count && symbols[order[j]].layerIndex == layer { j += 1 }
            for k in i..<j { out.append(contentsOf: symbols[order[k]].iconCommands.map { .image($0) }) }
            for k in i..<j { if let text = symbols[order[k]].text { out.append(text) } }
            i = j
        }
        return out
    }
}
