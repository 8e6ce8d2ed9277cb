import MapGeometry

/// A projective map of the plane (a 3 × 3 matrix acting on homogeneous points): the map of a ground-plane tile to
/// the screen under a pitched camera, or of an image onto a quadrilateral.
///
/// `(x, y) ↦ ((m11·x + m12·y + m13) / w, (m21·x + m22·y + m23) / w)` with `w = m31·x + m32·y + m33`. Points with
/// `w ≤ 0` lie behind the camera (the map sends them nowhere). Affine maps are the homographies with
/// `m31 = m32 = 0, m33 = 1`.
public struct RenderHomography: Hashable, Sendable {
    /// Row 1 (the x numerator): the coefficients of x, y and 1.
    public var m11: Double
    /// See ``m11``.
    public var m12: Double
    /// See ``m11``.
    public var m13: Double
    /// Row 2 (the y numerator): the coefficients of x, y and 1.
    public var m21: Double
    /// See ``m21``.
    public var m22: Double
    /// See ``m21``.
    public var m23: Double
    /// Row 3 (the weight w): the coefficients of x, y and 1.
    public var m31: Double
    /// See ``m31``.
    public var m32: Double
    /// See ``m31``.
    public var m33: Double

    /// Creates the map from its matrix, row by row.
    public init(
        _ m11: Double, _ m12: Double, _ m13: Double, _ m21: Double, _ m22: Double, _ m23: Double, _ m31: Double,
        _ m32: Double, _ m33: Double
    ) {
        (self.m11, self.m12, self.m13) = (m11, m12, m13)
        (self.m21, self.m22, self.m23) = (m21, m22, m23)
        (self.m31, self.m32, self.m33) = (m31, m32, m33)
    }

    /// The identity map.
    public static let identity = RenderHomography(1, 0, 0, 0, 1, 0, 0, 0, 1)

    /// The affine map `t` as a homography.
    public init(_ t: RenderTransform) { self.init(t.a, t.c, t.tx, t.b, t.d, t.ty, 0, 0, 1) }

    /// The nine entries row by row (for tests and the display list's text form).
    public var entries: [Double] { [m11, m12, m13, m21, m22, m23, m31, m32, m33] }

    /// The image of `p`, or `nil` when `p` maps to infinity or behind the camera (`w ≤ 0`) or a non-finite point.
    public func apply(to p: ScreenPoint) -> ScreenPoint? {
        let w = m31 * p.x + m32 * p.y + m33
        guard w > 0 else { return nil }
        let x = (m11 * p.x + m12 * p.y + m13) / w
        let y = (m21 * p.x + m22 * p.y + m23) / w
        return x.isFinite && y.isFinite ? ScreenPoint(x: x, y: y) : nil
    }

    /// The homogeneous weight `w` of `p` (positive in front of the camera).
    public func weight(at p: ScreenPoint) -> Double { m31 * p.x + m32 * p.y + m33 }

    /// `self` after `first`: the map `p ↦ self(first(p))`.
    public func concatenating(after first: RenderHomography) -> RenderHomography {
        let a = self
        let b = first
        return RenderHomography(
            a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31, a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32,
            a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33,
            a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31, a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32,
            a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33,
            a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31, a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32,
            a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33)
    }

    /// The inverse map, scaled so that points in front of the camera keep a positive weight; `nil` when the matrix
    /// is singular or not finite.
    public var inverse: RenderHomography? {
        let c11 = m22 * m33 - m23 * m32
        let c12 = m13 * m32 - m12 * m33
        let c13 = m12 * m23 - m13 * m22
        let c21 = m23 * m31 - m21 * m33
        let c22 = m11 * m33 - m13 * m31
        let c23 = m13 * m21 - m11 * m23
        let c31 = m21 * m32 - m22 * m31
        let c32 = m12 * m31 - m11 * m32
        let c33 = m11 * m22 - m12 * m21
        let det = m11 * c11 + m12 * c21 + m13 * c31
        guard det != 0, det.isFinite else { return nil }
        // The adjugate is the inverse up to the factor 1 / det; dividing by |det| keeps the factor positive, so the
        // inverse's weight of a screen point has the sign of the forward weight of its preimage.
        let k = 1 / abs(det)
        let r = RenderHomography(
            c11 * k, c12 * k, c13 * k, c21 * k, c22 * k, c23 * k, c31 * k, c32 * k, c33 * k)
        return r.entries.allSatisfy(\.isFinite) ? r : nil
    }

    /// The map of the unit square onto a quadrilateral: `(0, 0) ↦ p00`, `(1, 0) ↦ p10`, `(1, 1) ↦ p11`,
    /// `(0, 1) ↦ p01` (Heckbert's square-to-quad); `nil` when the quadrilateral is degenerate or not finite.
    public init?(unitSquareTo p00: ScreenPoint, _ p10: ScreenPoint, _ p11: ScreenPoint, _ p01: ScreenPoint) {
        let dx1 = p10.x - p11.x
        let dx2 = p01.x - p11.x
        let dx3 = p00.x - p10.x + p11.x - p01.x
        let dy1 = p10.y - p11.y
        let dy2 = p01.y - p11.y
        let dy3 = p00.y - p10.y + p11.y - p01.y
        var g = 0.0
        var h = 0.0
        if dx3 != 0 || dy3 != 0 {
            let den = dx1 * dy2 - dx2 * dy1
            guard den != 0 else { return nil }
            g = (dx3 * dy2 - dx2 * dy3) / den
            h = (dx1 * dy3 - dx3 * dy1) / den
        }
        self.init(
            p10.x - p00.x + g * p10.x, p01.x - p00.x + h * p01.x, p00.x, p10.y - p00.y + g * p10.y,
            p01.y - p00.y + h * p01.y, p00.y, g, h, 1)
        guard entries.allSatisfy(\.isFinite), inverse != nil else { return nil }
    }

    /// Whether the map is affine (no perspective).
    public var isAffine: Bool { m31 == 0 && m32 == 0 && m33 == 1 }
}

/// Draw an image mapped onto the screen by a homography (``DrawCommand/projectedImage(_:)``): raster tiles, tile
/// images of a pitched frame, Google's tile layers under pitch.
///
/// Every device pixel whose centre lies inside ``area`` (a convex polygon in points, under the current transform)
/// takes the image's colour at the pixel centre's preimage (``homography`` inverted), bilinear or nearest, clamped at
/// the image's edges, composited source-over at ``opacity``. Where a bilinear image is strongly minified (a pixel
/// spanning many of its pixels) a backend may sample a box-filtered lower resolution of it instead. Pixel-centre ownership means two commands whose areas
/// share an edge neither blend a pixel twice nor leave one out.
public struct ProjectedImageCommand: Hashable, Sendable {
    /// The image, from ``RenderBackend/register(_:)``; the homography's domain is its points
    /// (``ImageHandle/pointSize``).
    public var image: ImageHandle
    /// Image points → points.
    public var homography: RenderHomography
    /// The convex polygon drawn, in points (at least three vertices, either winding); usually the image of the
    /// image's rectangle, or of its visible part.
    public var area: [ScreenPoint]
    /// Extra opacity, `0…1`. Default 1.
    public var opacity: Double
    /// Sample the nearest pixel instead of bilinearly (`raster-resampling: nearest`). Default false.
    public var nearestNeighbor: Bool

    /// Creates the command; see the properties.
    public init(
        image: ImageHandle, homography: RenderHomography, area: [ScreenPoint], opacity: Double = 1,
        nearestNeighbor: Bool = false
    ) {
        self.image = image
        self.homography = homography
        self.area = area
        self.opacity = opacity
        self.nearestNeighbor = nearestNeighbor
    }

    /// The command drawing the image's points `rect` (default the whole image) through `homography`, the area being
    /// the rectangle's image; `nil` when a corner maps behind the camera.
    public init?(
        image: ImageHandle, homography: RenderHomography, rect: RenderRect? = nil, opacity: Double = 1,
        nearestNeighbor: Bool = false
    ) {
        let size = image.pointSize
        let r = rect ?? RenderRect(x: 0, y: 0, width: size.width, height: size.height)
        var area: [ScreenPoint] = []
        for corner in [
            ScreenPoint(x: r.minX, y: r.minY), ScreenPoint(x: r.maxX, y: r.minY), ScreenPoint(x: r.maxX, y: r.maxY),
            ScreenPoint(x: r.minX, y: r.maxY),
        ] {
            guard let p = homography.apply(to: corner) else { return nil }
            area.append(p)
        }
        self.init(
            image: image, homography: homography, area: area, opacity: opacity, nearestNeighbor: nearestNeighbor)
    }
}
