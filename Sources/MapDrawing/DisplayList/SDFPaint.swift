/// The paint of an image whose alpha channel is a signed distance field (a sprite image marked `"sdf": true`, drawn
/// as MapLibre's SDF icon shader draws it): the shape in ``color`` with a ``haloColor`` halo ``haloWidth`` points
/// wide, its edge blurred by ``haloBlur`` points (`icon-color`, `icon-halo-color`, `icon-halo-width`,
/// `icon-halo-blur`). Waymark's own.
public struct SDFPaint: Hashable, Sendable {
    /// The shape's colour (`icon-color`). Default black.
    public var color: RGBAColor
    /// The halo's colour (`icon-halo-color`); clear draws no halo. Default clear.
    public var haloColor: RGBAColor
    /// The halo's width outside the shape in points (`icon-halo-width`), `≥ 0`. Default 0.
    public var haloWidth: Double
    /// The halo's blur in points (`icon-halo-blur`), `≥ 0`. Default 0.
    public var haloBlur: Double

    /// Creates a paint; see the properties for units and defaults (negative widths and blurs count as 0 when drawn).
    public init(color: RGBAColor = .black, haloColor: RGBAColor = .clear, haloWidth: Double = 0, haloBlur: Double = 0) {
        self.color = color
        self.haloColor = haloColor
        self.haloWidth = haloWidth
        self.haloBlur = haloBlur
    }
}
