import MapDrawing
import MapGeometry

/// The identity of a labelled feature, stable across tiles and frames: two symbols with equal identities whose
/// anchors land within ``PlacementOptions/duplicateTolerance`` of each other are one label (cross-tile dedup), and
/// a symbol keeps the priority of an earlier frame's label with an equal identity (stability).
///
/// Equality: same ``layer`` and same ``featureID`` when one is given; otherwise same ``layer`` and same ``text``
/// (features without ids, as tilemaker and GDAL write them, are recognised by their label text and position).
public struct SymbolIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The style layer id (or source-layer name) the symbol belongs to.
    public var layer: String
    /// The MVT feature id, when the tile has one. Default `nil`.
    public var featureID: UInt64?
    /// The label text; compared only when ``featureID`` is `nil`.
    public var text: String

    /// Creates an identity.
    /// - Parameters:
    ///   - layer: the style layer id or source-layer name.
    ///   - featureID: the feature id from the tile, or `nil` (then `text` identifies the feature). Defaults to `nil`.
    ///   - text: the label text.
    public init(layer: String, featureID: UInt64? = nil, text: String) {
        self.layer = layer
        self.featureID = featureID
        self.text = text
    }

    /// Equal layers and, when either has a feature id, equal ids; otherwise equal texts.
    public static func == (a: SymbolIdentity, b: SymbolIdentity) -> Bool {
        guard a.layer == b.layer, a.featureID == b.featureID else { return false }
        return a.featureID != nil || a.text == b.text
    }

    /// Hashes the fields that ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(layer)
        hasher.combine(featureID)
        if featureID == nil { hasher.combine(text) }
    }

    /// `layer#id` or `layer:"text"`.
    public var description: String {
        featureID.map { "\(layer)#\($0)" } ?? "\(layer):\"\(text)\""
    }
}

/// Where a symbol's labels go (`symbol-placement` in the MapLibre style spec).
public enum SymbolPlacementMode: String, Hashable, Sendable {
    /// One label at the point (for a line geometry: at the middle of the line by length).
    case point
    /// Labels along the line, one every ``SymbolFeature/spacing`` points where the text fits and does not bend too
    /// much (for a point geometry: as `.point`).
    case line
    /// One label along the line, centred at the middle of the line by length (`line-center`).
    case lineCenter = "line-center"
}

/// `text-pitch-alignment` or `text-rotation-alignment` once `auto` is resolved (``SymbolAlignment/rotation(_:placement:)``,
/// ``SymbolAlignment/pitch(_:rotation:)``).
public enum SymbolAlignment: String, Hashable, Sendable {
    /// Aligned to the map: rotation follows the line (line placement); pitch lays the text on the ground.
    case map
    /// Aligned to the screen: upright, facing the viewer whatever the pitch.
    case viewport

    /// `text-rotation-alignment` resolved: `"auto"` (and anything unknown) is `.map` for line placements and
    /// `.viewport` for point placement; `"viewport-glyph"` is `.viewport`.
    /// - Parameters:
    ///   - value: the property's value.
    ///   - placement: the layer's `symbol-placement`.
    /// - Returns: `.map` for `"map"`, `.viewport` for `"viewport"` and `"viewport-glyph"`, otherwise `.viewport` for
    ///   `.point` placement and `.map` for the line placements.
    public static func rotation(_ value: String, placement: SymbolPlacementMode) -> SymbolAlignment {
        switch value {
        case "map": return .map
        case "viewport", "viewport-glyph": return .viewport
        default: return placement == .point ? .viewport : .map
        }
    }

    /// `text-pitch-alignment` resolved: `"auto"` (and anything unknown) takes the resolved rotation alignment, as
    /// the style spec says.
    /// - Parameters:
    ///   - value: the property's value.
    ///   - rotation: the resolved rotation alignment.
    /// - Returns: `.map` for `"map"`, `.viewport` for `"viewport"`, otherwise `rotation`.
    public static func pitch(_ value: String, rotation: SymbolAlignment) -> SymbolAlignment {
        switch value {
        case "map": return .map
        case "viewport": return .viewport
        default: return rotation
        }
    }
}

/// The anchor geometry of a symbol, in world coordinates (``WorldPoint``: Web Mercator 0…1, north-west origin).
public enum SymbolGeometry: Hashable, Sendable {
    /// One anchor point (a POI, a place, a polygon's label point chosen by the caller).
    case point(WorldPoint)
    /// A polyline of at least two points (a road, a river); fewer points place nothing.
    case line([WorldPoint])
}

/// An icon drawn with a symbol (`icon-*`): only its box matters to placement; the image is the caller's.
public struct SymbolIcon: Hashable, Sendable {
    /// The icon's size on screen in points (`icon-size` × the image's point size).
    public var size: ScreenSize
    /// Which point of the icon's box sits on the anchor (`icon-anchor`). Default center.
    public var anchor: TextAnchor
    /// Offset of the box from the anchor in points (`icon-offset` × `icon-size`). Default zero.
    public var offset: ScreenPoint
    /// Extra collision margin around the box, in points (`icon-padding`), `≥ 0`. Default 2.
    public var padding: Double
    /// `icon-padding` given per side, `[top, right, bottom, left]` in points (may be negative, as in MapLibre):
    /// when set, the collision box takes these margins instead of ``padding``. Default `nil` (``padding`` on every
    /// side).
    public var sidePaddings: [Double]? = nil
    /// Draw even when the icon collides with earlier labels (`icon-allow-overlap`). Default `false`.
    public var allowOverlap: Bool
    /// Other labels may overlap this icon: it is not added to the collision index (`icon-ignore-placement`).
    /// Default `false`.
    public var ignorePlacement: Bool
    /// The text may be drawn without the icon when the icon collides (`icon-optional`). Default `false`.
    public var optional: Bool
    /// The image to draw, when the caller has registered one; placement copies it into ``PlacedSymbol/iconCommand``.
    /// Default `nil`.
    public var image: ImageHandle?
    /// `icon-text-fit`: with point text that is not empty, the icon is fitted to the text's box (see
    /// ``IconStretch``) and drawn in ``pieceImages``. Default ``IconTextFit/none``.
    public var textFit: IconTextFit = .none
    /// `icon-text-fit-padding`, `[top, right, bottom, left]` in points. Default zeros.
    public var textFitPadding: [Double] = [0, 0, 0, 0]
    /// How the image stretches when fitted; a fitted icon needs it (without it the icon is not fitted). Default `nil`.
    public var stretch: IconStretch?
    /// The images of ``IconStretch/pieceSources``, in that order, registered by the caller: a fitted icon draws
    /// them (none drawn when the counts differ). Default empty.
    public var pieceImages: [ImageHandle] = []
    /// The images of ``IconStretch/innerPieceSources``, in that order (`nil` for an empty piece): drawn instead of
    /// ``pieceImages`` when the icon ``samplesNearest`` (none drawn when the counts differ). Default empty.
    public var innerPieceImages: [ImageHandle?] = []
    /// `icon-rotate`: the icon's clockwise turn in degrees about its anchor (its offset turns too), added to a line
    /// icon's turn; the collision box becomes the turned box's bounds (MapLibre's `getIconQuads` and point
    /// `CollisionFeature`). Fitted icons ignore it. Default 0.
    public var rotation = 0.0
    /// The image with one transparent pixel around it (MapLibre's icon atlas padding), registered by the caller. An
    /// icon that is not fitted draws it exactly (``ImageCommand/sourceRect``) in its box grown by one image pixel a
    /// side, sampled as ``samplesNearest`` says, as MapLibre draws its icon quads. When given, a fitted icon draws each of ``IconStretch/pieceSources`` from it exactly (``ImageCommand/sourceRect``),
    /// as MapLibre's quads sample one texture: a piece's edge blends into its neighbour's pixels, and the pieces are
    /// neither snapped to pixels nor cut from the image (``pieceImages`` and ``innerPieceImages`` are then unused).
    /// Default `nil`.
    public var paddedImage: ImageHandle?
    /// Draw the icon (a fitted icon: its inner pieces, or its pieces from ``paddedImage``) with nearest-pixel
    /// sampling on a map without pitch (MapLibre samples icons so unless they are scaled, rotated or aligned to the
    /// map). Default `false` (bilinear).
    public var samplesNearest = false
    /// The icon's opacity (`icon-opacity`), `0…1`; placement copies it into the icon's draw commands. Default 1.
    public var opacity = 1.0
    /// The paint of an SDF icon (`icon-color`, `icon-halo-*`); placement copies it into ``PlacedSymbol/iconCommand``.
    /// Default `nil` (the image drawn as it is, or painted by the caller).
    public var sdfPaint: SDFPaint?

    /// Creates an icon; see the properties for units and defaults.
    public init(
        size: ScreenSize, anchor: TextAnchor = .center, offset: ScreenPoint = .zero, padding: Double = 2,
        allowOverlap: Bool = false, ignorePlacement: Bool = false, optional: Bool = false, image: ImageHandle? = nil
    ) {
        self.size = size
        self.anchor = anchor
        self.offset = offset
        self.padding = padding
        self.allowOverlap = allowOverlap
        self.ignorePlacement = ignorePlacement
        self.optional = optional
        self.image = image
    }
}

/// One symbol to place: the style-evaluated layout of a feature of a symbol layer, in plain values.
///
/// The lead's pipeline builds these from tiles (MapData) and the style (MapStyle); placement needs nothing else. Em
/// values (`text-offset`) stay in ems and are multiplied by the text size here. Defaults are the MapLibre style
/// spec v8 defaults except ``textPadding`` (same: 2) and ``layerIndex``/``sourceOrder`` (0).
public struct SymbolFeature: Sendable {
    /// Cross-tile and cross-frame identity.
    public var identity: SymbolIdentity
    /// Anchor geometry in world coordinates.
    public var geometry: SymbolGeometry
    /// `symbol-placement`. Default `.point`.
    public var placement: SymbolPlacementMode
    /// The label text (`text-field` after `text-transform`); empty means icon only.
    public var text: String
    /// Font, size (points), colours, halo, letter spacing (points), wrap width (points).
    public var textStyle: TextStyle
    /// `text-anchor` for point placement. Default center.
    public var textAnchor: TextAnchor
    /// `text-offset` in ems (× `textStyle.size` points): x right, y down. For line placement only `y` is used, as a
    /// shift perpendicular to the line (positive: below the line as read). Default zero.
    public var textOffset: ScreenPoint
    /// `text-variable-anchor`: anchors to try in order for point text until one fits (the previous frame's choice
    /// is tried first); empty means ``textAnchor`` only. Default empty.
    public var textVariableAnchors: [TextAnchor]
    /// `text-radial-offset` in ems, used with ``textVariableAnchors``: the text moves this far from the anchor
    /// point in the direction the anchor implies. `nil` uses the absolute values of ``textOffset`` instead.
    /// Default `nil`.
    public var textRadialOffset: Double?
    /// `text-variable-anchor-offset`: anchors to try in order, each with its own offset in ems; when non-empty it
    /// replaces ``textVariableAnchors``, ``textRadialOffset`` and ``textOffset`` for point text (as in MapLibre).
    /// Default empty.
    public var textVariableAnchorOffsets: [TextAnchorOffset]
    /// `text-justify: auto` with variable anchors: multi-line text is justified by the anchor placement chooses
    /// (left anchors left, right anchors right, others centred) instead of ``TextStyle/justify``. Default `false`.
    public var textJustifyFollowsAnchor: Bool
    /// `symbol-z-order: viewport-y`: within the layer, symbols lower on the screen are placed first (they win
    /// collisions), before ``sortKey``. Default `false`.
    public var placesByViewportY: Bool
    /// Within the layer, draw symbols top to bottom on the screen so lower ones cover higher ones (MapLibre does so
    /// for `symbol-z-order: viewport-y`, and for `auto` without `symbol-sort-key`, when the layer's text or icons
    /// allow overlap or ignore placement). Default `false`: drawn in placement order.
    public var drawsByViewportY: Bool
    /// The collision group (the style source id): without ``PlacementOptions/crossSourceCollisions`` only symbols
    /// of one group collide. Default `nil` (one group of its own, shared by every symbol without a group).
    public var collisionGroup: String?
    /// `text-rotate` in degrees clockwise, point placement only. Default 0.
    public var textRotation: Double
    /// `text-padding` in points: extra collision margin around the text box, `≥ 0`. Default 2.
    public var textPadding: Double
    /// `text-allow-overlap`: draw even when colliding. Default `false`.
    public var textAllowOverlap: Bool
    /// `text-ignore-placement`: do not block later labels. Default `false`.
    public var textIgnorePlacement: Bool
    /// `text-optional`: the icon may be drawn without the text. Default `false`.
    public var textOptional: Bool
    /// The icon, if the symbol has one. Default `nil`.
    public var icon: SymbolIcon?
    /// `symbol-sort-key`: within a layer, lower keys are placed first; `nil` places after every keyed symbol.
    /// Default `nil`.
    public var sortKey: Double?
    /// The symbol layer's index in the style (higher: drawn later, on top, and placed first). Default 0.
    public var layerIndex: Int
    /// The feature's order in its source (tile, then feature index); earlier is placed first. Default 0.
    public var sourceOrder: Int
    /// `symbol-spacing`: distance between line label anchors in points, `≥ 1`. Default 250.
    public var spacing: Double
    /// `text-max-angle`: largest sum of turns, in degrees, the line may make within a window of 0.6 × text size
    /// under the text. Default 45.
    public var maxAngle: Double
    /// `text-keep-upright`: flip line labels that would read right to left or upside down. Default `true`.
    public var keepUpright: Bool
    /// `text-rotation-alignment`, resolved: `.map` with a line placement lays the text along the line (each cluster
    /// turned with it); `.viewport` with a line placement draws the text upright, as point labels at anchors every
    /// ``spacing`` points along the line (`line-center`: at its middle). Point labels stay upright either way (only `text-rotate` turns them). Default `.map` for line
    /// placements, `.viewport` for point placement (the spec's `auto`).
    public var textRotationAlignment: SymbolAlignment
    /// `text-pitch-alignment`, resolved: `.map` lays line text on the ground under pitch, each cluster foreshortened
    /// as the ground is (MapLibre's `auto` for line placement); `.viewport` keeps it upright on the screen, following
    /// the projected line. Point text stays upright on the screen either way. Default: the rotation alignment (`auto`).
    public var textPitchAlignment: SymbolAlignment
    /// The tile this copy of the feature came from. When set, anchors outside the tile's square are dropped: a
    /// feature repeated in the buffers of neighbouring tiles is labelled only by the tile that owns the anchor.
    /// Default `nil` (no ownership check).
    public var ownerTile: TileID?
    /// The text style of the next writing mode (`text-writing-mode`): point text that collides in ``textStyle``
    /// at its anchor is placed in this one if it fits there. Default `nil`. Waymark's own.
    public var alternateTextStyle: TextStyle? = nil
    /// The side of ``ownerTile`` in points at its own zoom (MapLibre's 512). When positive (and ``ownerTile`` is
    /// set), the anchors of `line` and `line-center` symbols are laid out as MapLibre lays them out in a tile: in
    /// the tile's pixels, on the line clipped to the tile, `symbol-spacing` apart and continuing across tile edges,
    /// with `text-max-angle` tested there; else along the line projected to the screen. Default 0. Waymark's own.
    public var layoutTileSize: Double = 0
    /// How many times ``ownerTile`` is over-zoomed from its source's deepest tile (`2^(z − maxzoom)`, 1 when not):
    /// anchors are laid out over the source tile's square, as MapLibre does. Default 1. Waymark's own.
    public var overscaling: Double = 1
    /// `icon-rotation-alignment`: with `.map` an icon on a `line` symbol is turned along its line; `.viewport`
    /// keeps it upright. Default `.map`. Waymark's own.
    public var iconRotationAlignment: SymbolAlignment = .map
    /// How much larger than the drawn text a point label's collision box is, before `text-padding`: MapLibre lays a
    /// tile's symbols out with `text-size` evaluated one zoom level above the tile's and keeps those boxes, so a
    /// zoom-dependent size collides at that size (its box and text offset scaled about the anchor) while the text
    /// is drawn at the frame's size. `> 0`; default 1. Waymark's own.
    public var collisionTextScale: Double = 1

    /// Creates a symbol; see the properties for units and defaults.
    public init(
        identity: SymbolIdentity, geometry: SymbolGeometry, text: String, textStyle: TextStyle,
        placement: SymbolPlacementMode = .point, textAnchor: TextAnchor = .center, textOffset: ScreenPoint = .zero,
        textVariableAnchors: [TextAnchor] = [], textRadialOffset: Double? = nil, textRotation: Double = 0,
        textPadding: Double = 2, textAllowOverlap: Bool = false,
        textIgnorePlacement: Bool = false, textOptional: Bool = false, icon: SymbolIcon? = nil,
        sortKey: Double? = nil, layerIndex: Int = 0, sourceOrder: Int = 0, spacing: Double = 250,
        maxAngle: Double = 45, keepUpright: Bool = true, ownerTile: TileID? = nil,
        textRotationAlignment: SymbolAlignment? = nil, textPitchAlignment: SymbolAlignment? = nil,
        textVariableAnchorOffsets: [TextAnchorOffset] = [], textJustifyFollowsAnchor: Bool = false,
        placesByViewportY: Bool = false, drawsByViewportY: Bool = false, collisionGroup: String? = nil
    ) {
        self.collisionGroup = collisionGroup
        self.placesByViewportY = placesByViewportY
        self.drawsByViewportY = drawsByViewportY
        self.textVariableAnchorOffsets = textVariableAnchorOffsets
        self.textJustifyFollowsAnchor = textJustifyFollowsAnchor
        self.identity = identity
        self.geometry = geometry
        self.text = text
        self.textStyle = textStyle
        self.placement = placement
        self.textAnchor = textAnchor
        self.textOffset = textOffset
        self.textVariableAnchors = textVariableAnchors
        self.textRadialOffset = textRadialOffset
        self.textRotation = textRotation
        self.textPadding = textPadding
        self.textAllowOverlap = textAllowOverlap
        self.textIgnorePlacement = textIgnorePlacement
        self.textOptional = textOptional
        self.icon = icon
        self.sortKey = sortKey
        self.layerIndex = layerIndex
        self.sourceOrder = sourceOrder
        self.spacing = spacing
        self.maxAngle = maxAngle
        self.keepUpright = keepUpright
        self.ownerTile = ownerTile
        let rotation = textRotationAlignment ?? SymbolAlignment.rotation("auto", placement: placement)
        self.textRotationAlignment = rotation
        self.textPitchAlignment = textPitchAlignment ?? rotation
    }
}
