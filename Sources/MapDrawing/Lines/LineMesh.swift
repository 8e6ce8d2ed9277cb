// The line mesh contract shared by the tessellator (MapDrawing/Lines/LineTessellator.swift), the paints
// (LinePaint.swift) and the rasteriser (LineRasterizer.swift). Lines are drawn the way MapLibre draws them: a triangle
// mesh built once per polyline with an extrusion vector at every vertex, pushed out by the line's half width when
// drawn, each fragment's alpha computed from its distance to the centre line and every triangle blended on its own
// (so a translucent line that folds over itself darkens where it overlaps, as in MapLibre).
import MapGeometry

/// One vertex of a ``LineMesh``: a point on the centre line and how it is pushed out to make the line's body.
///
/// Mirrors MapLibre's line vertex (`LineBucket.addCurrentVertex`): `extrude` is the unit-ish extrusion vector
/// (`a_extrude / EXTRUDE_SCALE`, quantised to 1/63 like MapLibre's byte attribute), `round` and `up` are the two bits
/// of MapLibre's `v_normal` (x: 1 at round cap and join tips so the fade turns circular, y: +1 on the left side,
/// −1 on the right), `direction` the sign MapLibre packs for `line-offset` at joins (−1, 0 or +1), and `distance`
/// the distance along the line from its first vertex (MapLibre's `linesofar`), in the same units as `center`.
public struct LineMeshVertex: Hashable, Sendable {
    /// The centre-line point, in points of the display list's coordinate space.
    public var center: ScreenPoint
    /// Extrusion direction; the drawn vertex is `center + extrude × outset` (see ``LineMeshCommand``).
    public var extrude: ScreenPoint
    /// `v_normal.x`: true at round cap and round join vertices.
    public var round: Bool
    /// `v_normal.y`: true for the left side (+1), false for the right side (−1).
    public var up: Bool
    /// −1, 0 or +1: MapLibre's `a_direction`, used to bend `line-offset` at joins.
    public var direction: Double
    /// Distance along the line from its start, in points, `≥ 0`.
    public var distance: Double

    /// Creates a vertex.
    public init(
        center: ScreenPoint, extrude: ScreenPoint, round: Bool, up: Bool, direction: Double = 0, distance: Double
    ) {
        self.center = center
        self.extrude = extrude
        self.round = round
        self.up = up
        self.direction = direction
        self.distance = distance
    }
}

/// The triangles of one or more polylines of one feature.
public struct LineMesh: Hashable, Sendable {
    /// The vertices.
    public var vertices: [LineMeshVertex]
    /// Vertex indices, three per triangle, drawn in order.
    public var indices: [UInt32]
    /// Length of the whole line in points (MapLibre's `total`), for `line-progress`: a fragment's progress is
    /// `(distance + progressStart) / progressLength` clamped to `0…1`. ``LineTessellator`` sets it to the length of
    /// the longest polyline it added (distances restart at 0 for each polyline) and leaves the start at 0; the
    /// initialiser's default is 0.
    public var progressStart: Double
    /// See ``progressStart``; `> 0` for gradients to show.
    public var progressLength: Double

    /// An empty mesh.
    public init(
        vertices: [LineMeshVertex] = [], indices: [UInt32] = [], progressStart: Double = 0,
        progressLength: Double = 0
    ) {
        self.vertices = vertices
        self.indices = indices
        self.progressStart = progressStart
        self.progressLength = progressLength
    }

    /// Whether there is nothing to draw.
    public var isEmpty: Bool { indices.isEmpty }
}

/// Draw a line mesh (the line layer): positions, fade and paint as MapLibre's line shaders compute them.
///
/// Per vertex (MapLibre `line.vertex.glsl`): `halfwidth = width / 2`, `inset = gapWidth > 0 ? gapWidth/2 + aa : 0`,
/// `outset = gapWidth/2 + halfwidth × (gapWidth > 0 ? 2 : 1) + (halfwidth == 0 ? 0 : aa)` with `aa = ½ device pixel`;
/// the vertex is drawn at `center + offset2 + extrude × outset` where `offset2` bends `offset` by `direction`.
/// Per fragment (`line.fragment.glsl`): `dist = |v_normal| × outset`, `blur2 = blur + 1 device pixel`,
/// `alpha = clamp(min(dist − (inset − blur2), outset − dist) / blur2, 0, 1)`, colour = paint × alpha × opacity.
/// Fragments are the device pixels whose centres lie inside a triangle (top-left rule); each triangle blends over the
/// pixels already drawn (source-over, premultiplied).
public struct LineMeshCommand: Hashable, Sendable {
    /// The triangles.
    public var mesh: LineMesh
    /// What colours a fragment: solid, dashed, gradient or pattern.
    public var paint: LinePaint
    /// Line width in points (`line-width`), `≥ 0`.
    public var width: Double
    /// Gap inside a casing in points (`line-gap-width`), `≥ 0`. Default 0.
    public var gapWidth: Double
    /// Perpendicular offset in points (`line-offset`), positive to the right of the direction. Default 0.
    public var offset: Double
    /// Fade width in points (`line-blur`), `≥ 0`. Default 0.
    public var blur: Double
    /// Opacity `0…1` (`line-opacity`). Default 1.
    public var opacity: Double
    /// A convex polygon in points (any winding) that limits the fragments, as MapLibre's per-tile stencil does: a
    /// pixel is drawn only when its centre is inside (top-left rule on the edges, so tiles sharing an edge cover each
    /// pixel once). Empty (the default) means no limit; fewer than 3 points or a non-finite point draws nothing.
    public var clipPolygon: [ScreenPoint]

    /// Creates a line mesh draw; see the properties for defaults.
    public init(
        mesh: LineMesh, paint: LinePaint, width: Double, gapWidth: Double = 0, offset: Double = 0, blur: Double = 0,
        opacity: Double = 1, clipPolygon: [ScreenPoint] = []
    ) {
        self.clipPolygon = clipPolygon
        self.mesh = mesh
        self.paint = paint
        self.width = width
        self.gapWidth = gapWidth
        self.offset = offset
        self.blur = blur
        self.opacity = opacity
    }
}
