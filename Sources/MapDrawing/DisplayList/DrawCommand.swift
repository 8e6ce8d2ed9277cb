import MapGeometry

/// How a fill decides which regions are inside a self-intersecting or multi-ring path.
public enum FillRule: String, Hashable, Sendable {
    /// Non-zero winding (the canvas and Cairo default; MapLibre fills with holes wound opposite to their shell).
    case nonZero = "nonzero"
    /// Even-odd: a point is inside when a ray from it crosses the path an odd number of times.
    case evenOdd = "evenodd"
}

/// The shape at the open ends of a stroked line (`line-cap`).
public enum LineCap: String, Hashable, Sendable {
    /// The line stops exactly at its end point (the default).
    case butt
    /// A half-disc of the line's width beyond the end point.
    case round
    /// A half-square of the line's width beyond the end point.
    case square
}

/// The shape where two stroked segments meet (`line-join`).
public enum LineJoin: String, Hashable, Sendable {
    /// A sharp corner, cut to a bevel when longer than the miter limit (the default).
    case miter
    /// A circular arc.
    case round
    /// A straight cut across the corner.
    case bevel
}

/// An image repeated over a fill (`fill-pattern`, `background-pattern`; MapLibre `fill_pattern.fragment.glsl`,
/// `background_pattern.fragment.glsl`).
///
/// Pattern space is measured in the image's points (its pixels ÷ its scale, the sprite's pixel ratio): the image
/// covers `0…pointWidth × 0…pointHeight` and repeats in both directions. ``transform`` maps pattern space to the
/// fill's points (the coordinate system the path is in), so it carries the zoom scale, the bearing and the
/// alignment to the world pixel grid. Backends sample bilinearly, wrapping at the image's edges, as MapLibre's
/// linear-filtered atlas with its wrapped padding does.
public struct FillPattern: Hashable, Sendable {
    /// The image, from ``RenderBackend/register(_:)``; its ``ImageHandle/pointSize`` is one period of the pattern.
    public var image: ImageHandle
    /// Pattern space (image points) → the fill's points. A singular or non-finite transform draws nothing.
    public var transform: RenderTransform

    /// Creates a pattern paint.
    public init(image: ImageHandle, transform: RenderTransform) {
        self.image = image
        self.transform = transform
    }
}

/// Fill a path's interior.
public struct FillCommand: Hashable, Sendable {
    /// The path in points.
    public var path: RenderPath
    /// Fill colour (straight alpha); ignored when ``pattern`` is set.
    public var color: RGBAColor
    /// Extra opacity multiplied into the colour's alpha (or the pattern's), `0…1`. Default 1.
    public var opacity: Double
    /// Inside test. Default non-zero.
    public var fillRule: FillRule
    /// Anti-aliased edges (`fill-antialias`). Default true.
    public var antialias: Bool
    /// An image repeated over the interior instead of ``color`` (`fill-pattern`), or `nil` (the default) for a
    /// solid fill. A handle the backend does not know draws nothing.
    public var pattern: FillPattern?

    /// Creates a fill; see the properties for defaults.
    public init(
        path: RenderPath, color: RGBAColor, opacity: Double = 1, fillRule: FillRule = .nonZero, antialias: Bool = true,
        pattern: FillPattern? = nil
    ) {
        self.path = path
        self.color = color
        self.opacity = opacity
        self.fillRule = fillRule
        self.antialias = antialias
        self.pattern = pattern
    }
}

/// Stroke a path's outline.
public struct StrokeCommand: Hashable, Sendable {
    /// The path in points.
    public var path: RenderPath
    /// Stroke colour (straight alpha).
    public var color: RGBAColor
    /// Line width in points, `> 0` (`line-width`). Default 1.
    public var width: Double
    /// End shape. Default butt.
    public var cap: LineCap
    /// Corner shape. Default miter.
    public var join: LineJoin
    /// Miter length limit as a multiple of the width (`line-miter-limit`). Default 2, as in the style spec.
    public var miterLimit: Double
    /// Dash pattern, alternating on/off lengths **in line widths** (`line-dasharray`); empty means solid.
    /// Backends multiply by ``width``; an all-zero or negative pattern draws solid.
    public var dashes: [Double]
    /// Extra opacity multiplied into the colour's alpha, `0…1`. Default 1.
    public var opacity: Double
    /// Width of the faded edge in points (`line-blur`), `≥ 0`. Default 0.
    public var blur: Double

    /// Creates a stroke; see the properties for defaults.
    public init(
        path: RenderPath, color: RGBAColor, width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter,
        miterLimit: Double = 2, dashes: [Double] = [], opacity: Double = 1, blur: Double = 0
    ) {
        self.path = path
        self.color = color
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dashes = dashes
        self.opacity = opacity
        self.blur = blur
    }
}

/// A filled and optionally stroked disc (the circle layer, `circle-*`).
public struct CircleCommand: Hashable, Sendable {
    /// Centre in points.
    public var center: ScreenPoint
    /// Radius in points, `≥ 0` (`circle-radius`).
    public var radius: Double
    /// Fill colour (`circle-color`).
    public var fillColor: RGBAColor
    /// Ring colour (`circle-stroke-color`). Default transparent.
    public var strokeColor: RGBAColor
    /// Ring width in points, drawn outside the radius (`circle-stroke-width`). Default 0.
    public var strokeWidth: Double
    /// Fade of the disc's edge as a fraction of the radius, `0…1` (`circle-blur`). Default 0.
    public var blur: Double
    /// Opacity multiplied into the fill (`circle-opacity`) and, unless ``mapLibreShading``, the ring. Default 1.
    public var opacity: Double
    /// Waymark's own: draw the disc with MapLibre's circle shading (``CircleShader``: per-pixel smoothstep edges,
    /// ``blur`` as a fraction of `radius + strokeWidth`, ``opacity`` on the fill only) instead of as vector paths.
    /// Default `false`.
    public var mapLibreShading: Bool
    /// Waymark's own, with ``mapLibreShading``: the disc lies on the ground (`circle-pitch-alignment: map`). The
    /// screen points of its bounding square's corners, extrude `(−1, −1)`, `(1, −1)`, `(1, 1)`, `(−1, 1)` in that
    /// order; each pixel is shaded at its centre's preimage in that square (perspective-correct, as a GPU
    /// interpolates). `nil` (default): a screen-aligned disc about ``center``.
    public var groundCorners: [ScreenPoint]?

    /// Creates a circle; see the properties for defaults.
    public init(
        center: ScreenPoint, radius: Double, fillColor: RGBAColor, strokeColor: RGBAColor = .clear,
        strokeWidth: Double = 0, blur: Double = 0, opacity: Double = 1, mapLibreShading: Bool = false,
        groundCorners: [ScreenPoint]? = nil
    ) {
        self.mapLibreShading = mapLibreShading
        self.groundCorners = groundCorners
        self.center = center
        self.radius = radius
        self.fillColor = fillColor
        self.strokeColor = strokeColor
        self.strokeWidth = strokeWidth
        self.blur = blur
        self.opacity = opacity
    }
}

/// A point-placed text label: the text box is positioned by its anchor, offset, then rotated about the anchor.
///
/// Geometry: the box's `anchor` point (see ``TextAnchor``) is put at `position + offset`, and the label is rotated
/// by `rotation` degrees clockwise about that point. Backends snap unrotated labels to whole device pixels.
public struct TextCommand: Hashable, Sendable {
    /// The text; `\n` starts a new line.
    public var text: String
    /// Font, colour, halo and paragraph settings.
    public var style: TextStyle
    /// Anchor position in points (the symbol's projected anchor).
    public var position: ScreenPoint
    /// Which point of the box sits on the anchor. Default center.
    public var anchor: TextAnchor
    /// Offset of the box from the anchor position in points (`text-offset` × size). Default zero.
    public var offset: ScreenPoint
    /// Clockwise rotation in degrees about the anchor (`text-rotate` plus map bearing for map-aligned labels).
    /// Default 0.
    public var rotation: Double
    /// Extra opacity `0…1` (`text-opacity`, fade animations). Default 1.
    public var opacity: Double

    /// Creates a label; see the properties for defaults.
    public init(
        text: String, style: TextStyle, position: ScreenPoint, anchor: TextAnchor = .center,
        offset: ScreenPoint = .zero, rotation: Double = 0, opacity: Double = 1
    ) {
        self.text = text
        self.style = style
        self.position = position
        self.anchor = anchor
        self.offset = offset
        self.rotation = rotation
        self.opacity = opacity
    }
}

/// One glyph cluster (one or more characters that shape together) placed along a line.
public struct GlyphPlacement: Hashable, Sendable {
    /// The characters of the cluster (usually one grapheme).
    public var text: String
    /// Where the cluster's baseline centre sits, in points.
    public var position: ScreenPoint
    /// Clockwise rotation of the cluster in degrees (the local direction of the line).
    public var rotation: Double
    /// For text lying on the ground under pitch (`text-pitch-alignment: map`): the linear map (``RenderTransform/a``
    /// … ``RenderTransform/d``; the translation is ignored) taking the cluster's upright frame at the command's text
    /// size (x along the baseline, y down, in points, the origin at ``position``) to screen points, which foreshortens
    /// the glyph as the ground is. When set it replaces ``rotation``. Default `nil`: upright on the screen, turned by
    /// ``rotation``.
    public var transform: RenderTransform?

    /// Creates a placement.
    /// - Parameters:
    ///   - text: the cluster's characters.
    ///   - position: the baseline centre in points.
    ///   - rotation: clockwise degrees.
    ///   - transform: the ground map of text laid on the ground (see ``transform``); default `nil`.
    public init(text: String, position: ScreenPoint, rotation: Double, transform: RenderTransform? = nil) {
        self.text = text
        self.position = position
        self.rotation = rotation
        self.transform = transform
    }
}

/// Line-following text (`symbol-placement: line`): each cluster was placed along the path by layout.
public struct LineTextCommand: Hashable, Sendable {
    /// Font, colour and halo; ``TextStyle/maxWidth`` and ``TextStyle/justify`` are ignored.
    public var style: TextStyle
    /// The clusters in reading order with their positions.
    public var glyphs: [GlyphPlacement]
    /// Extra opacity `0…1`. Default 1.
    public var opacity: Double

    /// Creates line text.
    public init(style: TextStyle, glyphs: [GlyphPlacement], opacity: Double = 1) {
        self.style = style
        self.glyphs = glyphs
        self.opacity = opacity
    }
}

/// Draw a registered image (an icon, a rendered tile) into a rectangle.
public struct ImageCommand: Hashable, Sendable {
    /// The image, from ``RenderBackend/register(_:)`` or ``RenderBackend/renderImage(_:)``.
    public var image: ImageHandle
    /// Destination rectangle in points; the image is scaled to fill it.
    public var rect: RenderRect
    /// Opacity `0…1`. Default 1.
    public var opacity: Double
    /// Clockwise rotation in degrees about the rectangle's centre. Default 0.
    public var rotation: Double
    /// How the image is sampled when scaled: bilinear (the default) or nearest pixel (`raster-resampling`).
    public var nearestNeighbor: Bool = false
    /// With a paint, the image's alpha is a signed distance field drawn in that paint (an SDF icon), else `nil` (the
    /// default): its own pixels. The pipeline draws SDF icons into plain images before a backend sees them; a backend
    /// given one draws the image's own pixels. Waymark's own.
    public var sdfPaint: SDFPaint? = nil
    /// The part of the image drawn into ``rect``, in image points (``ImageHandle/pointSize``), or `nil` (the default):
    /// the whole image, its edges snapped to device pixels. When given, the draw is exact as a GPU draws a textured
    /// quad (MapLibre's icon quads): every device pixel whose centre lies inside ``rect`` (turned by ``rotation``)
    /// takes the image's colour at the centre's preimage, read from the whole image (pixels beyond `sourceRect` blend
    /// in at its edges), clamped at the image's edges, bilinear or nearest; ``rect`` is not snapped.
    public var sourceRect: RenderRect? = nil

    /// Creates an image draw.
    public init(
        image: ImageHandle, rect: RenderRect, opacity: Double = 1, rotation: Double = 0, nearestNeighbor: Bool = false,
        sourceRect: RenderRect? = nil
    ) {
        self.image = image
        self.rect = rect
        self.opacity = opacity
        self.rotation = rotation
        self.nearestNeighbor = nearestNeighbor
        self.sourceRect = sourceRect
    }

    /// The exact draw of an image given ``sourceRect`` as a projected image: image points → points mapping
    /// `sourceRect` onto ``rect`` turned by ``rotation`` about the rectangle's centre, the area that turned rectangle;
    /// `nil` without a source rectangle or with an empty or non-finite one.
    public var projected: ProjectedImageCommand? {
        guard let s = sourceRect, s.width > 0, s.height > 0, rect.width > 0, rect.height > 0,
            [s.minX, s.minY, s.width, s.height, rect.minX, rect.minY, rect.width, rect.height, rotation].allSatisfy(
                \.isFinite)
        else { return nil }
        // The rectangle's edges on a 1/256-point grid, as a GPU snaps vertices to its sub-pixel grid: an edge a
        // rounding error past a pixel centre still covers it.
        func snap(_ v: Double) -> Double { (v * 256).rounded() / 256 }
        let minX = snap(rect.minX)
        let minY = snap(rect.minY)
        let width = snap(rect.maxX) - minX
        let height = snap(rect.maxY) - minY
        guard width > 0, height > 0 else { return nil }
        let rect = RenderRect(x: minX, y: minY, width: width, height: height)
        let sx = rect.width / s.width
        let sy = rect.height / s.height
        let cx = rect.minX + rect.width / 2
        let cy = rect.minY + rect.height / 2
        let angle = rotation * Double.pi / 180
        let c = rotation == 0 ? 1 : radiansCos(angle)
        let n = rotation == 0 ? 0 : radiansSin(angle)
        // p ↦ centre + R · (rect origin − centre + S · (p − s origin)).
        let ox = rect.minX - cx - sx * s.minX
        let oy = rect.minY - cy - sy * s.minY
        let map = RenderHomography(
            c * sx, -n * sy, cx + c * ox - n * oy, n * sx, c * sy, cy + n * ox + c * oy, 0, 0, 1)
        return ProjectedImageCommand(
            image: image, homography: map, rect: s, opacity: opacity, nearestNeighbor: nearestNeighbor)
    }
}

/// One drawing instruction of a ``DisplayList``, in screen space (points).
///
/// Commands execute in order, each painted over the previous ones (source-over), except ``clear(_:)`` which
/// replaces every pixel. `save`/`restore` bracket clip and transform changes and must balance; a backend ignores an
/// unmatched `restore`. Bad values never stop a frame: a command with non-finite coordinates, a singular transform or
/// a non-positive size draws nothing, and the commands after it still draw.
public enum DrawCommand: Hashable, Sendable {
    /// Replace every pixel of the frame (its rectangle, `DisplayList.size` at the origin, within the target's own
    /// clip) with the colour (the background layer; `.clear` makes it transparent).
    case clear(RGBAColor)
    /// Fill a path.
    case fill(FillCommand)
    /// Stroke a path.
    case stroke(StrokeCommand)
    /// Draw a line triangle mesh (the line layer, MapLibre's line shaders; see ``LineMeshCommand``). Each triangle
    /// blends over what is drawn, so consecutive meshes may be batched by a backend: source-over is associative.
    case lineMesh(LineMeshCommand)
    /// Draw a disc.
    case circle(CircleCommand)
    /// Draw a point label.
    case text(TextCommand)
    /// Draw line-following text.
    case lineText(LineTextCommand)
    /// Draw an image.
    case image(ImageCommand)
    /// Draw an image through a homography onto a convex area (images under a pitched camera).
    case projectedImage(ProjectedImageCommand)
    /// Composite glyph coverage masks at whole device pixels (the glyph path's labels; see ``GlyphRunCommand``).
    case glyphRun(GlyphRunCommand)
    /// Push the current clip and transform.
    case save
    /// Pop the clip and transform pushed by the matching `save`.
    case restore
    /// Intersect the clip with a rectangle given in the current coordinate system. A device pixel is inside when its
    /// centre is (no antialiased edge, as a GPU rasterizes a quad), so clips that share an edge leave no seam.
    case clip(RenderRect)
    /// Pre-multiply the current transform: later coordinates pass through this transform, then the current one.
    case transform(RenderTransform)
}
