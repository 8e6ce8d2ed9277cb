import MapDrawing

/// Per-pixel image comparison in the manner of pixelmatch (Mapbox, ISC), the comparator of MapLibre's render tests.
///
/// Both images are flattened onto white by their alpha, converted to YIQ, and the squared YIQ distance
/// `0.5053·ΔY² + 0.299·ΔI² + 0.1957·ΔQ²` (Kotsarenko & Ramos, "Measuring perceived color difference using YIQ NTSC
/// transmission color space in mobile applications", 2010) is compared with `35215 · threshold²` (35215 is the largest
/// possible distance). A pixel over it counts as different unless it looks like anti-aliasing: a pixel whose
/// brightness lies strictly between its darkest and brightest 8-neighbours, at most two of its neighbours equal to
/// it, and one of those extreme neighbours sits in a flat area (≥ 3 equal neighbours) in both images.
///
/// Waymark's tolerance: `threshold = 0.1285`, the value MapLibre's runners use; the case passes when
/// `different / (width·height) ≤ allowed` (the case's `metadata.test.allowed`, default 0.00015).
public enum PixelMatch {
    /// The YIQ threshold MapLibre's render-test harnesses use.
    public static let defaultThreshold = 0.1285

    /// The comparison outcome.
    public struct Result: Sendable {
        /// Pixels counted as different.
        public var differentPixels: Int
        /// `differentPixels / (width·height)`, in `0...1`.
        public var ratio: Double
        /// A diff image (red where different, faded grey elsewhere), the same size as the inputs.
        public var diff: RasterImage?
    }

    /// Compares two images of the same pixel size.
    /// - Parameters:
    ///   - actual: BGRA premultiplied pixels.
    ///   - expected: BGRA premultiplied pixels, same width and height.
    ///   - threshold: `0...1`, default ``defaultThreshold``.
    ///   - detectAntiAliasing: skip pixels that look anti-aliased (pixelmatch's default), default `true`.
    ///   - makeDiff: also build the diff image.
    /// - Returns: `nil` when the sizes differ.
    public static func compare(
        _ actual: RasterImage, _ expected: RasterImage, threshold: Double = defaultThreshold,
        detectAntiAliasing: Bool = true, makeDiff: Bool = false
    ) -> Result? {
        guard actual.width == expected.width, actual.height == expected.height else { return nil }
        let w = actual.width
        let h = actual.height
        let a = flatten(actual)
        let b = flatten(expected)
        let maxDelta = 35215 * threshold * threshold
        var diffPixels = [UInt8](repeating: 0, count: makeDiff ? w * h * 4 : 0)
        var count = 0
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let delta = colorDelta(a, i, b, i, yOnly: false)
                var different = false
                if abs(delta) > maxDelta {
                    if detectAntiAliasing
                        && (antialiased(a, b, x, y, w, h) || antialiased(b, a, x, y, w, h))
                    {
                        different = false
                        if makeDiff { paint(&diffPixels, i, r: 255, g: 255, b: 0) }
                    } else {
                        different = true
                        count += 1
                        if makeDiff { paint(&diffPixels, i, r: 255, g: 0, b: 0) }
                    }
                }
                if makeDiff && !different && abs(delta) <= maxDelta {
                    let grey = UInt8(max(0, min(255, 255 + (yiqY(b, i) - 255) * 0.1)))
                    paint(&diffPixels, i, r: grey, g: grey, b: grey)
                }
            }
        }
        let total = max(1, w * h)
        return Result(
            differentPixels: count, ratio: Double(count) / Double(total),
            diff: makeDiff ? RasterImage(width: w, height: h, scale: actual.scale, pixels: diffPixels) : nil)
    }

    /// RGB (0…255, Double) flattened onto white: premultiplied `c + (255 − α)`.
    static func flatten(_ image: RasterImage) -> [Double] {
        var out = [Double](repeating: 0, count: image.width * image.height * 3)
        let p = image.pixels
        for i in 0..<(image.width * image.height) {
            let alphaGap = 255 - Double(p[i * 4 + 3])
            out[i * 3] = min(255, Double(p[i * 4 + 2]) + alphaGap)
            out[i * 3 + 1] = min(255, Double(p[i * 4 + 1]) + alphaGap)
            out[i * 3 + 2] = min(255, Double(p[i * 4]) + alphaGap)
        }
        return out
    }

    static func yiqY(_ c: [Double], _ i: Int) -> Double {
        c[i * 3] * 0.29889531 + c[i * 3 + 1] * 0.58662247 + c[i * 3 + 2] * 0.11448223
    }

    /// Squared YIQ distance, signed by brightness (negative when the second is brighter); `yOnly` gives ΔY.
    static func colorDelta(_ c1: [Double], _ i: Int, _ c2: [Double], _ j: Int, yOnly: Bool) -> Double {
        let r1 = c1[i * 3]
        let g1 = c1[i * 3 + 1]
        let b1 = c1[i * 3 + 2]
        let r2 = c2[j * 3]
        let g2 = c2[j * 3 + 1]
        let b2 = c2[j * 3 + 2]
        if r1 == r2 && g1 == g2 && b1 == b2 { return 0 }
        let y1 = r1 * 0.29889531 + g1 * 0.58662247 + b1 * 0.11448223
        let y2 = r2 * 0.29889531 + g2 * 0.58662247 + b2 * 0.11448223
        let dy = y1 - y2
        if yOnly { return dy }
        let di =
            (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189)
            - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let dq =
            (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694)
            - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        let delta = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
        return dy > 0 ? -delta : delta
    }

    /// Whether pixel (x, y) of `img` looks like an anti-aliased edge pixel (see the type's description).
    static func antialiased(_ img: [Double], _ other: [Double], _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
        let x0 = max(x - 1, 0)
        let y0 = max(y - 1, 0)
        let x2 = min(x + 1, w - 1)
        let y2 = min(y + 1, h - 1)
        let i = y * w + x
        var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minX = 0
        var minY = 0
        var maxX = 0
        var maxY = 0
        for ny in y0...y2 {
            for nx in x0...x2 where !(nx == x && ny == y) {
                let delta = colorDelta(img, i, img, ny * w + nx, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = nx
                    minY = ny
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = nx
                    maxY = ny
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (flat(img, minX, minY, w, h) && flat(other, minX, minY, w, h))
            || (flat(img, maxX, maxY, w, h) && flat(other, maxX, maxY, w, h))
    }

    /// Whether at least three 8-neighbours of (x, y) have exactly its colour.
    static func flat(_ img: [Double], _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
        let i = y * w + x
        var equal = (x == 0 || x == w - 1 || y == 0 || y == h - 1) ? 1 : 0
        for ny in max(y - 1, 0)...min(y + 1, h - 1) {
            for nx in max(x - 1, 0)...min(x + 1, w - 1) where !(nx == x && ny == y) {
                let j = ny * w + nx
                if img[i * 3] == img[j * 3] && img[i * 3 + 1] == img[j * 3 + 1] && img[i * 3 + 2] == img[j * 3 + 2] {
                    equal += 1
                    if equal > 2 { return true }
                }
            }
        }
        return false
    }

    static func paint(_ pixels: inout [UInt8], _ i: Int, r: UInt8, g: UInt8, b: UInt8) {
        pixels[i * 4] = b
        pixels[i * 4 + 1] = g
        pixels[i * 4 + 2] = r
        pixels[i * 4 + 3] = 255
    }
}
