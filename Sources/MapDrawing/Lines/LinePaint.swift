// How a line fragment is coloured. Owned by the line-paint work (dashes, gradients, patterns); the rasteriser only
// calls `LinePaint.color(at:)`.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a fragment lies on the line, handed to ``LinePaint/color(at:)``.
public struct LineFragment: Sendable {
    /// Distance along the line in points (interpolated `LineMeshVertex.distance`).
    public var distance: Double
    /// Signed position across the line, −1 (right edge) … +1 (left edge) of the line's outset (`v_normal.y`).
    public var across: Double
    /// `line-progress`, `0…1`.
    public var progress: Double

    /// Creates a fragment position.
    public init(distance: Double, across: Double, progress: Double) {
        self.distance = distance
        self.across = across
        self.progress = progress
    }
}

/// The paint of a line: what colour each fragment gets before the edge fade and opacity multiply it.
///
/// The cases follow MapLibre's four line programs (`line`, `line_sdf`, `line_gradient`, `line_pattern`); a layer with
/// a pattern draws the pattern, else with a dash array the dashes, else with a gradient the gradient (MapLibre's
/// order). Every case is a pure value, safe to share between threads.
public enum LinePaint: Hashable, Sendable {
    /// One colour (`line-color`).
    case solid(RGBAColor)
    /// `line-color` shown where the dash pattern is on (`line-dasharray`, MapLibre `line_sdf.fragment.glsl`).
    case dashed(RGBAColor, LineDash)
    /// `line-gradient` sampled at the fragment's `line-progress` (MapLibre `line_gradient.fragment.glsl`).
    case gradient(LineGradient)
    /// A sprite image repeated along the line (`line-pattern`, MapLibre `line_pattern.fragment.glsl`).
    case pattern(LinePattern)

    /// The straight-alpha colour of the fragment, before fade and opacity.
    @inline(__always)
    public func color(at fragment: LineFragment) -> RGBAColor {
        switch self {
        case .solid(let c): return c
        case .dashed(let c, let dash):
            let a = dash.coverage(distance: fragment.distance, across: fragment.across)
            return a >= 1 ? c : c.withOpacity(a)
        case .gradient(let g):
            return g.color(progress: g.clipStart + (g.clipEnd - g.clipStart) * fragment.progress)
        case .pattern(let p): return p.color(distance: fragment.distance, across: fragment.across)
        }
    }

    /// Whether every fragment has the same colour (lets the rasteriser skip per-fragment calls).
    public var uniformColor: RGBAColor? {
        switch self {
        case .solid(let c): return c
        case .dashed, .gradient, .pattern: return nil
        }
    }
}

/// GLSL's `smoothstep(e0, e1, x)`: 0 below `e0`, 1 above `e1`, a cubic Hermite step between.
@inline(__always)
func lineSmoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    guard e1 > e0 else { return x < e0 ? 0 : 1 }
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}

/// A dash pattern laid along a line (style spec `line-dasharray`), as MapLibre's `LineAtlas` and `line_sdf` shaders
/// draw it: a signed distance to the nearest dash edge, turned into coverage by a smoothstep about one device pixel
/// wide.
///
/// Units: the dash array is in line widths; ``unit`` says how many points one line width is along the line (MapLibre
/// "floorwidth": `line-width` at the integer zoom, times `2^(zoom − floor(zoom))` so the pattern scales with the map
/// within a zoom level). With ``round`` caps every dash grows a half-disc of radius `unit / 2` at both ends (into the
/// gaps), so a zero-length dash is a dot (MapLibre `LineAtlas.addRoundDash`); with butt caps zero-length parts vanish
/// and neighbouring parts of the same kind merge (`addRegularDash`).
///
/// An odd-length array repeats with the roles swapped, as in the spec: its first and last dashes join.
/// Bad input (an empty array, negative, non-finite or all-zero values, a non-positive or non-finite unit) gives a
/// pattern that covers everything (a solid line).
public struct LineDash: Hashable, Sendable {
    /// One part of the pattern, in line widths from the start of the period (may start below 0 or end past the
    /// period after joining across the wrap).
    struct Part: Hashable, Sendable {
        var left: Double
        var right: Double
        var isDash: Bool
    }

    /// The parts, in order, covering one period.
    let parts: [Part]
    /// The period in line widths (the sum of the dash array), `> 0` when ``isSolid`` is false.
    public let period: Double
    /// Points per line width along the line.
    public let unit: Double
    /// Round dash ends (`line-cap: round`).
    public let round: Bool
    /// Half the width, in points, of the smoothstep that softens a dash edge (MapLibre `sdfgamma / floorwidth`,
    /// half a device pixel or one).
    public let edge: Double
    /// Whether the pattern covers the whole line (bad or all-dash input).
    public let isSolid: Bool

    /// Builds a pattern.
    /// - Parameters:
    ///   - dashes: `line-dasharray`, alternating dash and gap lengths in line widths, each `≥ 0`.
    ///   - unit: points per line width along the line (see the type's description), `> 0`.
    ///   - round: round dash ends (`line-cap: round`).
    ///   - edge: half the width in points of the soft edge, `≥ 0`; MapLibre uses about half a device pixel
    ///     (`255/512 × 2^(zoom − floor zoom) / pixelRatio`), twice that at a whole zoom (its cross-fade scales).
    public init(dashes: [Double], unit: Double, round: Bool, edge: Double) {
        self.unit = unit
        self.round = round
        self.edge = edge.isFinite ? max(0, edge) : 0
        let valid =
            !dashes.isEmpty && dashes.allSatisfy { $0.isFinite && $0 >= 0 } && unit > 0 && unit.isFinite
        let total = valid ? dashes.reduce(0, +) : 0
        guard valid, total > 0, total.isFinite else {
            parts = []
            period = 1
            isSolid = true
            return
        }
        period = total
        // MapLibre getDashRanges: an odd array starts with the last dash pulled in front of 0.
        var raw: [(left: Double, right: Double, isDash: Bool, zero: Bool)] = []
        var sum = 0.0
        for (i, length) in dashes.enumerated() {
            let left = (i == 0 && dashes.count % 2 == 1) ? -dashes[dashes.count - 1] : sum
            sum += length
            raw.append((left, sum, i % 2 == 0, length == 0))
        }
        if round {
            parts = raw.map { Part(left: $0.left, right: $0.right, isDash: $0.isDash) }
            isSolid = false
            return
        }
        // addRegularDash: drop zero-length parts, merge neighbours of the same kind, join the ends across the wrap.
        var merged: [Part] = []
        for r in raw where !r.zero {
            if let last = merged.last, last.isDash == r.isDash {
                merged[merged.count - 1].right = r.right
            } else {
                merged.append(Part(left: r.left, right: r.right, isDash: r.isDash))
            }
        }
        if merged.count <= 1 {
            // One kind only: all dash is a solid line, all gap draws nothing (no parts).
            parts = []
            isSolid = merged.first?.isDash ?? false
            return
        }
        if let first = merged.first, let last = merged.last, first.isDash == last.isDash {
            merged[0].left = last.left - total
            merged[merged.count - 1].right = first.right + total
        }
        parts = merged
        isSolid = false
    }

    /// Signed distance in points from the fragment to the nearest dash edge: positive inside a dash, negative in a
    /// gap. `across` is the fragment's position across the line (−1…+1, used by round ends).
    public func signedDistance(distance: Double, across: Double) -> Double {
        if isSolid { return .greatestFiniteMagnitude }
        guard !parts.isEmpty, distance.isFinite else { return -.greatestFiniteMagnitude }
        // The atlas is 256 texels per period, each holding the distance at its left edge but sampled at its centre:
        // the pattern lands half a texel later along the line.
        let texel = period / 256
        var t = (distance / unit - texel / 2).truncatingRemainder(dividingBy: period)
        if t < 0 { t += period }
        // The part holding t: the first whose right end is at or after it (LineAtlas walks its ranges this way).
        var part = parts[parts.count - 1]
        for p in parts where t <= p.right {
            part = p
            break
        }
        let along = min(abs(t - part.left), abs(t - part.right))
        let d: Double
        if round {
            // LineAtlas.addRoundDash: 15 rows, row ±7 at half a line width plus one texel; the line's edge
            // (across ±1) samples ±7.5 rows, clamped to the outer rows.
            let a = abs(across.isFinite ? across : 0)
            let middle = min(a * 15 / 14, 1) * (0.5 + texel)
            if part.isDash {
                let toEdge = 0.5 - middle
                d = (along * along + toEdge * toEdge).squareRoot()
            } else {
                d = 0.5 - (along * along + middle * middle).squareRoot()
            }
        } else {
            d = part.isDash ? along : -along
        }
        return d * unit
    }

    /// Coverage `0…1` of the dash pattern at the fragment (1 inside a dash, 0 in a gap, soft across an edge).
    public func coverage(distance: Double, across: Double) -> Double {
        if isSolid { return 1 }
        return lineSmoothstep(-edge, edge, signedDistance(distance: distance, across: across))
    }
}

/// A `line-gradient` as MapLibre draws it: the colour expression evaluated at 256 evenly spaced `line-progress`
/// values (`renderColorRamp`, entry `i` at progress `i / 255`) and sampled with linear filtering at the fragment's
/// progress, interpolating premultiplied colours like the GPU's texture unit.
public struct LineGradient: Hashable, Sendable {
    /// Premultiplied RGBA per entry, 4 values `0…1` each, 256 entries (or fewer for a test ramp, at least 1).
    let ramp: [Double]

    /// Where the mesh's own progress 0…1 lies on the whole line: a fragment of mesh progress `p` takes the colour at
    /// `clipStart + (clipEnd − clipStart) × p` (MapLibre `LineBucket` with line metrics, `mapbox_clip_start/end`).
    /// Defaults 0 and 1 (the mesh is the whole line).
    public var clipStart: Double = 0
    /// See ``clipStart``.
    public var clipEnd: Double = 1

    /// The number of entries MapLibre's colour ramp has.
    public static let resolution = 256

    /// Builds the ramp from `color(progress)` at `progress = i / (resolution − 1)` for `i` in `0..<resolution`.
    /// - Parameters:
    ///   - resolution: the number of entries, ≥ 1 (smaller values mean 1). Defaults to ``LineGradient/resolution``
    ///     (256).
    ///   - color: the gradient expression evaluated at a progress `0…1`; `nil` reads as transparent.
    public init(resolution: Int = LineGradient.resolution, color: (Double) -> RGBAColor?) {
        let n = max(1, resolution)
        var ramp: [Double] = []
        ramp.reserveCapacity(4 * n)
        for i in 0..<n {
            let c = color(n == 1 ? 0 : Double(i) / Double(n - 1)) ?? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
            // One value at a time: no four-element array made and freed per entry.
            ramp.append(c.red * c.alpha)
            ramp.append(c.green * c.alpha)
            ramp.append(c.blue * c.alpha)
            ramp.append(c.alpha)
        }
        self.ramp = ramp
    }

    /// The number of entries.
    public var count: Int { ramp.count / 4 }

    /// The colour at `progress` (clamped to `0…1`; NaN and ±infinity read as 0), straight alpha.
    public func color(progress: Double) -> RGBAColor {
        let n = count
        // Texture coordinate u = progress over n texels: texel centres at (i + 0.5) / n.
        let p = progress.isFinite ? min(max(progress, 0), 1) : 0
        let x = min(max(p * Double(n) - 0.5, 0), Double(n - 1))
        let i0 = Int(x.rounded(.down))
        let i1 = min(i0 + 1, n - 1)
        let f = x - Double(i0)
        // Per fragment: the ramp read without bounds checks (i0 and i1 are in 0..<n, the ramp has 4n values).
        return ramp.withUnsafeBufferPointer { ramp in
            func mix(_ k: Int) -> Double { ramp[4 * i0 + k] * (1 - f) + ramp[4 * i1 + k] * f }
            let a = mix(3)
            guard a > 0 else { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
            return RGBAColor(red: mix(0) / a, green: mix(1) / a, blue: mix(2) / a, alpha: a)
        }
    }
}

/// One sprite image laid along a line for ``LinePattern``.
public struct LinePatternImage: Hashable, Sendable {
    /// The image (premultiplied BGRA, its `scale` the sprite's pixel ratio).
    public let image: RasterImage
    /// The period along the line in points: the image's width in points × the cross-fade scale × the zoom scale
    /// (`2^(zoom − floor zoom)`), MapLibre's `pattern_size.x / tileZoomRatio`.
    public let length: Double

    /// Creates a placement; `length` must be `> 0` for the image to show.
    public init(image: RasterImage, length: Double) {
        self.image = image
        self.length = length
    }

    /// Bilinear sample, wrapping in both directions, at `(u, v)` in image fractions; premultiplied RGBA `0…1`.
    func sample(u: Double, v: Double) -> (Double, Double, Double, Double) {
        let w = image.width
        let h = image.height
        guard w > 0, h > 0, u.isFinite, v.isFinite else { return (0, 0, 0, 0) }
        let x = u * Double(w) - 0.5
        let y = v * Double(h) - 0.5
        let x0 = x.rounded(.down)
        let y0 = y.rounded(.down)
        let fx = x - x0
        let fy = y - y0
        func wrap(_ i: Double, _ n: Int) -> Int {
            let m = Int(i.truncatingRemainder(dividingBy: Double(n)))
            return m < 0 ? m + n : m
        }
        let xa = wrap(x0, w)
        let xb = (xa + 1) % w
        let ya = wrap(y0, h)
        let yb = (ya + 1) % h
        var r = 0.0
        var g = 0.0
        var b = 0.0
        var a = 0.0
        image.pixels.withUnsafeBufferPointer { px in
            func add(_ xi: Int, _ yi: Int, _ wgt: Double) {
                guard wgt > 0 else { return }
                let o = (yi * w + xi) * 4
                b += Double(px[o]) * wgt
                g += Double(px[o + 1]) * wgt
                r += Double(px[o + 2]) * wgt
                a += Double(px[o + 3]) * wgt
            }
            add(xa, ya, (1 - fx) * (1 - fy))
            add(xb, ya, fx * (1 - fy))
            add(xa, yb, (1 - fx) * fy)
            add(xb, yb, fx * fy)
        }
        return (r / 255, g / 255, b / 255, a / 255)
    }
}

/// A `line-pattern` as MapLibre's `line_pattern` shader draws it: the sprite image repeated along the line, one image
/// point per point across (not stretched to the line width: the image is centred on the line, and a line wider than
/// the image shows its wrapped edge rows), its period along the line ``LinePatternImage/length``; during a zoom
/// cross-fade the `from` image is mixed into the `to` image by `1 − fade`.
public struct LinePattern: Hashable, Sendable {
    /// The image of the current zoom (MapLibre's `to`, `toScale`).
    public let to: LinePatternImage
    /// The image faded out (MapLibre's `from`, `fromScale`), or `nil`.
    public let from: LinePatternImage?
    /// Weight of `to`, `0…1` (MapLibre `u_fade`); 1 shows only `to`.
    public let fade: Double
    /// The line's outset in points (half width plus half a device pixel, MapLibre `v_width2.s`): `across × outset`
    /// is the fragment's distance from the centre line.
    public let outset: Double

    /// Creates a pattern paint.
    public init(to: LinePatternImage, from: LinePatternImage? = nil, fade: Double = 1, outset: Double) {
        self.to = to
        self.from = from
        self.fade = fade.isFinite ? min(max(fade, 0), 1) : 1
        self.outset = outset.isFinite ? max(0, outset) : 0
    }

    func sample(_ p: LinePatternImage, distance: Double, across: Double) -> (Double, Double, Double, Double) {
        let size = p.image.pointSize
        guard p.length > 0, p.length.isFinite, size.height > 0 else { return (0, 0, 0, 0) }
        var u = (distance / p.length).truncatingRemainder(dividingBy: 1)
        if u < 0 { u += 1 }
        // line_pattern.fragment.glsl: the outset used for the row is capped at half the image height plus a pixel.
        let reach = min(outset, (size.height + 2) / 2)
        let v = 0.5 + across * reach / size.height
        return p.sample(u: u, v: v)
    }

    /// The straight-alpha colour of the pattern at a fragment.
    public func color(distance: Double, across: Double) -> RGBAColor {
        var c = sample(to, distance: distance, across: across)
        if let from, fade < 1 {
            let f = sample(from, distance: distance, across: across)
            c = (
                f.0 + (c.0 - f.0) * fade, f.1 + (c.1 - f.1) * fade, f.2 + (c.2 - f.2) * fade,
                f.3 + (c.3 - f.3) * fade
            )
        }
        guard c.3 > 0 else { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        return RGBAColor(red: c.0 / c.3, green: c.1 / c.3, blue: c.2 / c.3, alpha: c.3)
    }
}
