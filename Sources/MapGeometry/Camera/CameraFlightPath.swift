#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The path an animated camera follows between two cameras: centre and zoom move together along the "optimal"
/// zoom-and-pan curve of van Wijk and Nuij, so the view zooms out while it travels far and zooms back in on
/// arrival, and the ground moves at a steady visual speed; bearing, pitch, size and padding follow
/// ``CameraState/interpolated(to:fraction:)``.
///
/// Source: J. J. van Wijk, W. A. A. Nuij, "Smooth and efficient zooming and panning", IEEE InfoVis 2003, eq. 9–10
/// (the same curve as MapLibre's `flyTo`, with its default curvature ρ = 1.42). Units: `u` is the distance along the
/// straight world-space line from the start centre (world units, shortest way round the antimeridian), `w` the
/// visible width in world units (`max(width, height) / (256 · 2^zoom)`).
public struct CameraFlightPath: Sendable {
    /// The start camera.
    public let start: CameraState
    /// The end camera.
    public let end: CameraState
    /// The curvature ρ: larger values zoom out more on long trips. 1.42 (MapLibre's default).
    public static let curvature: Double = 1.42

    private let origin: WorldPoint
    private let direction: (x: Double, y: Double)
    private let u1: Double
    private let w0: Double
    private let w1: Double
    private let r0: Double
    private let length: Double
    private let zoomOnly: Bool

    /// The path from `start` to `end`. Non-finite fields make the path fall back to linear interpolation.
    public init(from start: CameraState, to end: CameraState) {
        self.start = start
        self.end = end
        let a = start.centerWorldPoint
        let b = end.centerWorldPoint
        var dx = b.x - a.x
        if dx.isFinite { dx -= dx.rounded() }
        let dy = b.y - a.y
        let distance = (dx * dx + dy * dy).squareRoot()
        origin = a
        let side = max(1, start.size.width, start.size.height)
        w0 = side / WebMercator.worldSize(zoom: start.zoom)
        w1 = side / WebMercator.worldSize(zoom: end.zoom)
        u1 = distance
        direction = distance > 0 ? (dx / distance, dy / distance) : (0, 0)
        let rho = Self.curvature
        let rho2 = rho * rho
        // Less than a thousandth of a point at the closer zoom: treat as a pure zoom.
        zoomOnly = !(distance * WebMercator.worldSize(zoom: max(start.zoom, end.zoom)) > 1e-3)
        if zoomOnly {
            r0 = 0
            length = abs(log(w1 / w0)) / rho
        } else {
            let b0 = (w1 * w1 - w0 * w0 + rho2 * rho2 * distance * distance) / (2 * w0 * rho2 * distance)
            let b1 = (w1 * w1 - w0 * w0 - rho2 * rho2 * distance * distance) / (2 * w1 * rho2 * distance)
            r0 = -asinh(b0)
            let r1 = -asinh(b1)
            length = (r1 - r0) / rho
        }
    }

    /// The camera a fraction of the way along the path (fraction of the path parameter `s`; apply easing first).
    /// 0 gives `start`, 1 gives `end` exactly (longitude and bearing wrapped). Fractions are clamped to [0, 1].
    public func camera(at fraction: Double) -> CameraState {
        let f = fraction.isNaN ? 1 : min(max(fraction, 0), 1)
        var result = start.interpolated(to: end, fraction: f)
        guard f > 0, f < 1, length.isFinite, length > 0, w0.isFinite, w1.isFinite else { return result }
        let rho = Self.curvature
        let s = f * length
        let u: Double
        let w: Double
        if zoomOnly {
            u = u1 * f
            w = w0 * exp(log(w1 / w0) * f)
        } else {
            u = w0 / (rho * rho) * (cosh(r0) * tanh(rho * s + r0) - sinh(r0))
            w = w0 * cosh(r0) / cosh(rho * s + r0)
        }
        guard u.isFinite, w.isFinite, w > 0 else { return result }
        let world = WorldPoint(x: origin.x + direction.x * u, y: origin.y + direction.y * u)
        result.center = WebMercator.latLng(world).wrapped
        result.zoom = start.zoom + log2(w0 / w)
        return result
    }
}
