import GoogleMaps

/// A map from heatmap intensity (0…1) to colour (google-maps-ios-utils' `GMUGradient`): colours at start points,
/// interpolated in hue, saturation, brightness and alpha between them (hue the short way round the wheel).
/// Below the first start point the colours fade from transparent black; above the last, the last colour holds.
/// - Thread rules: immutable; any thread.
public final class GMUGradient: @unchecked Sendable {
    /// The colours, one per start point.
    public let colors: [UIColor]
    /// The intensities (0…1, non-decreasing) where each colour is reached.
    public let startPoints: [NSNumber]
    /// The number of entries of the generated colour map.
    public let mapSize: UInt
    /// `startPoints` as doubles.
    private let starts: [Double]

    /// A gradient through `colors` at `startPoints`, sampled into `colorMapSize` entries.
    /// - Precondition: `colors` non-empty and as many as `startPoints`; start points non-decreasing within [0, 1];
    ///   `colorMapSize` at least 2 (Google raises an exception otherwise). Sizes above 256 × the colour count add
    ///   nothing visible.
    public init(colors: [UIColor], startPoints: [NSNumber], colorMapSize: UInt) {
        precondition(!colors.isEmpty, "GMUGradient: colors must not be empty")
        precondition(
            colors.count == startPoints.count,
            "GMUGradient: \(colors.count) colors but \(startPoints.count) startPoints")
        let starts = startPoints.map(\.doubleValue)
        precondition(
            zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 },
            "GMUGradient: startPoints must be non-decreasing: \(starts)")
        precondition(
            starts.allSatisfy { $0 >= 0 && $0 <= 1 }, "GMUGradient: startPoints must lie in [0, 1]: \(starts)")
        precondition(colorMapSize >= 2, "GMUGradient: colorMapSize must be at least 2, not \(colorMapSize)")
        self.colors = colors
        self.startPoints = startPoints
        self.mapSize = colorMapSize
        self.starts = starts
    }

    /// The colour map: ``mapSize`` colours for intensities `i / (mapSize − 1)`.
    public func generateColorMap() -> [UIColor] {
        colorMapRGBA().map { UIColor(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a) }
    }

    /// The colour map as straight red, green, blue, alpha components in 0…1.
    func colorMapRGBA() -> [(r: Double, g: Double, b: Double, a: Double)] {
        let hsba = colors.map(Self.hsba(of:))
        var result: [(r: Double, g: Double, b: Double, a: Double)] = []
        result.reserveCapacity(Int(mapSize))
        var current = 0
        for i in 0..<Int(mapSize) {
            let target = Double(i) / Double(mapSize - 1)
            while current < starts.count && target >= starts[current] { current += 1 }
            if current == starts.count {
                result.append(Self.rgba(of: hsba[current - 1]))
                continue
            }
            let curValue = starts[current]
            let prevValue = current == 0 ? 0 : starts[current - 1]
            let from = current == 0 ? (0.0, 0.0, 0.0, 0.0) : hsba[current - 1]
            let to = hsba[current]
            let ratio = (target - prevValue) / (curValue - prevValue)
            result.append(Self.rgba(of: Self.interpolate(from, to, ratio)))
        }
        return result
    }

    /// Hue, saturation, brightness and alpha, each 0…1 (UIKit's `getHue`).
    static func hsba(of color: UIColor) -> (Double, Double, Double, Double) {
        var r: CGFloat = 0
        var g: CGFloat = 0
        var b: CGFloat = 0
        var a: CGFloat = 0
        _ = color.getRed(&r, green: &g, blue: &b, alpha: &a)
        let maxC = max(r, g, b)
        let minC = min(r, g, b)
        let delta = maxC - minC
        var hue = 0.0
        if delta > 0 {
            if maxC == r {
                hue = Double((g - b) / delta).truncatingRemainder(dividingBy: 6)
            } else if maxC == g {
                hue = Double((b - r) / delta) + 2
            } else {
                hue = Double((r - g) / delta) + 4
            }
            hue /= 6
            if hue < 0 { hue += 1 }
        }
        let saturation = maxC > 0 ? Double(delta / maxC) : 0
        return (hue, saturation, Double(maxC), Double(a))
    }

    /// Red, green, blue and alpha of a hue, saturation, brightness and alpha.
    static func rgba(of hsba: (Double, Double, Double, Double)) -> (r: Double, g: Double, b: Double, a: Double) {
        let (h, s, v, a) = hsba
        let h6 = (h - h.rounded(.down)) * 6
        let sector = Int(h6) % 6
        let f = h6 - Double(Int(h6))
        let p = v * (1 - s)
        let q = v * (1 - s * f)
        let t = v * (1 - s * (1 - f))
        switch sector {
        case 0: return (v, t, p, a)
        case 1: return (q, v, p, a)
        case 2: return (p, v, t, a)
        case 3: return (p, q, v, a)
        case 4: return (t, p, v, a)
        default: return (v, p, q, a)
        }
    }

    /// Google's interpolation: each component linearly, the hue the short way round.
    static func interpolate(
        _ from: (Double, Double, Double, Double), _ to: (Double, Double, Double, Double), _ ratio: Double
    ) -> (Double, Double, Double, Double) {
        var hue = from.0 + (to.0 - from.0) * ratio
        if to.0 - from.0 > 0.5 {
            hue = fmod(1 + from.0 + (to.0 - from.0 - 1) * ratio, 1)
        } else if to.0 - from.0 < -0.5 {
            hue = fmod(from.0 + (to.0 + 1 - from.0) * ratio, 1)
        }
        return (
            hue, from.1 + (to.1 - from.1) * ratio, from.2 + (to.2 - from.2) * ratio, from.3 + (to.3 - from.3) * ratio
        )
    }
}

/// A weighted point of heatmap data (google-maps-ios-utils' `GMUWeightedLatLng`).
/// - Thread rules: immutable; any thread.
public final class GMUWeightedLatLng: GQTPointQuadTreeItem, Sendable {
    /// The weight, on a linear scale: 3 is the same as three points of 1 at the same place.
    public let intensity: Float
    /// The ``GMSMapPoint`` of the coordinate.
    private let projected: GQTPoint

    /// A point at `coordinate` weighing `intensity`.
    public init(coordinate: CLLocationCoordinate2D, intensity: Float) {
        self.intensity = intensity
        let p = GMSProject(coordinate)
        projected = GQTPoint(x: p.x, y: p.y)
    }

    /// The coordinate's ``GMSMapPoint`` (x and y in [−1, 1] for latitudes within ±85.0511°).
    public func point() -> GQTPoint { projected }
}
