import MapDrawing
import Testing

/// The line paints: MapLibre's dash SDF (`LineAtlas` + `line_sdf`), gradient ramp and pattern sampling.
@Suite struct LinePaintTests {
    /// The atlas samples half a texel (1/512 of a period) late; these helpers put `d` where the pattern's `d` is.
    func sd(_ dash: LineDash, _ d: Double, across: Double = 0) -> Double {
        dash.signedDistance(distance: d + dash.unit * dash.period / 512, across: across)
    }

    func cover(_ dash: LineDash, _ d: Double, across: Double = 0) -> Double {
        dash.coverage(distance: d + dash.unit * dash.period / 512, across: across)
    }

    /// [2, 1] at 4 points per line width: dashes 0…8, gaps 8…12 points, repeating every 12.
    @Test func buttDashSignedDistances() {
        let dash = LineDash(dashes: [2, 1], unit: 4, round: false, edge: 0.5)
        #expect(abs(sd(dash, 4) - 4) < 1e-6)  // middle of the dash
        #expect(abs(sd(dash, 7) - 1) < 1e-6)
        #expect(abs(sd(dash, 10) + 2) < 1e-6)  // middle of the gap
        #expect(abs(sd(dash, 13) - 1) < 1e-6)  // next period
        #expect(abs(sd(dash, 0.5, across: 0.9) - 0.5) < 1e-6)  // butt: across ignored
        #expect(cover(dash, 4) == 1)
        #expect(cover(dash, 10) == 0)
        // On the edge: half covered; the step spans ±edge.
        #expect(abs(cover(dash, 8) - 0.5) < 1e-6)
        #expect(cover(dash, 8.6) == 0)
        #expect(cover(dash, 7.4) == 1)
    }

    /// An odd array repeats with its first and last dashes joined: [1, 1, 1] is dash 0…1, gap 1…2, dash 2…4 (2…3
    /// and the next period's 0…1), gap 4…5…
    @Test func oddDashArrayJoinsTheEnds() {
        let dash = LineDash(dashes: [1, 1, 1], unit: 1, round: false, edge: 0.1)
        #expect(abs(sd(dash, 3) - 1) < 1e-6)  // middle of the joined dash 2…4
        // 0.2 lies in the joined dash −1…1: 0.8 from its right end.
        #expect(abs(sd(dash, 0.2) - 0.8) < 1e-6)
        #expect(abs(sd(dash, 1.5) + 0.5) < 1e-6)
    }

    /// A zero-length gap vanishes with butt caps (one solid line); a zero-length dash vanishes too.
    @Test func zeroLengthPartsWithButtCaps() {
        let noGap = LineDash(dashes: [2, 0], unit: 3, round: false, edge: 0.5)
        #expect(noGap.isSolid)
        #expect(cover(noGap, 6) == 1)
        let gapInside = LineDash(dashes: [1, 0, 1, 2], unit: 1, round: false, edge: 0.1)
        // Dashes 0…1 and 1…2 merge into 0…2: the middle is 1 from both ends.
        #expect(abs(sd(gapInside, 1) - 1) < 1e-6)
        let noDash = LineDash(dashes: [0, 3], unit: 2, round: false, edge: 0.5)
        #expect(cover(noDash, 0) == 0)
        #expect(cover(noDash, 3) == 0)
    }

    /// Round caps grow a half disc of radius half a line width into the gap; a zero-length dash is a dot.
    @Test func roundDashEndsAreDiscs() {
        // [1, 2] at 10 points per width: dash 0…10, gap 10…30; caps reach 5 points into the gap on the centre line.
        let dash = LineDash(dashes: [1, 2], unit: 10, round: true, edge: 0.5)
        #expect(abs(sd(dash, 12) - 3) < 1e-6)
        #expect(abs(sd(dash, 15)) < 1e-6)
        #expect(cover(dash, 20) == 0)
        // Off the centre line the cap is narrower: at 4 points into the gap, across 0.8 (≈ 4 points) is outside.
        #expect(cover(dash, 14) == 1)
        #expect(cover(dash, 14, across: 0.8) == 0)
        // Inside a dash everything is covered, even at the edge of the line.
        #expect(cover(dash, 5, across: 1) == 1)
        // [0, 2]: dots of diameter one width (10 points) every 20 points.
        let dots = LineDash(dashes: [0, 2], unit: 10, round: true, edge: 0.5)
        #expect(!dots.isSolid)
        #expect(cover(dots, 20) == 1)
        #expect(cover(dots, 23) == 1)
        #expect(cover(dots, 10) == 0)
    }

    /// A zero-length gap with round caps leaves the line whole (the caps of both neighbours overlap).
    @Test func roundZeroGapIsSolid() {
        let dash = LineDash(dashes: [2, 0], unit: 4, round: true, edge: 0.5)
        for d in stride(from: 0.0, through: 24, by: 0.5) {
            #expect(cover(dash, d) == 1, "at \(d)")
        }
    }

    @Test func badDashInputDrawsSolidOrNothingWithoutTrapping() {
        #expect(LineDash(dashes: [], unit: 1, round: false, edge: 0.5).isSolid)
        #expect(LineDash(dashes: [-1, 2], unit: 1, round: false, edge: 0.5).isSolid)
        #expect(LineDash(dashes: [1, 1], unit: .nan, round: true, edge: 0.5).isSolid)
        let dash = LineDash(dashes: [1, 1], unit: 1, round: false, edge: 0.5)
        #expect(cover(dash, .infinity) == 0)
        #expect(cover(dash, -0.5, across: .nan) >= 0)
    }

    /// `LinePaint.dashed` scales the colour's alpha by the coverage.
    @Test func dashedPaintFadesTheColour() {
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let paint = LinePaint.dashed(red, LineDash(dashes: [1, 1], unit: 2, round: false, edge: 0.5))
        #expect(paint.uniformColor == nil)
        #expect(paint.color(at: LineFragment(distance: 1, across: 0, progress: 0)) == red)
        #expect(paint.color(at: LineFragment(distance: 3, across: 0, progress: 0)).alpha == 0)
    }

    /// The ramp holds 256 entries at progress i / 255 and is sampled like a linear-filtered texture.
    @Test func gradientRampSampling() {
        let g = LineGradient { p in RGBAColor(red: p, green: 0, blue: 1 - p) }
        #expect(g.count == 256)
        #expect(g.color(progress: 0) == RGBAColor(red: 0, green: 0, blue: 1))
        #expect(g.color(progress: 1) == RGBAColor(red: 1, green: 0, blue: 0))
        let mid = g.color(progress: 0.5)
        #expect(abs(mid.red - 0.5) < 0.003 && abs(mid.blue - 0.5) < 0.003)
        // Out of range and NaN clamp.
        #expect(g.color(progress: 7) == g.color(progress: 1))
        #expect(g.color(progress: .nan) == g.color(progress: 0))
        // Interpolation is premultiplied: halfway from transparent black to opaque red is half-transparent red.
        let fade = LineGradient(resolution: 2) { p in
            p < 0.5 ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) : .init(red: 1, green: 0, blue: 0)
        }
        let half = fade.color(progress: 0.5)
        #expect(abs(half.alpha - 0.5) < 1e-9 && abs(half.red - 1) < 1e-6)
        #expect(LinePaint.gradient(g).color(at: LineFragment(distance: 0, across: 0, progress: 1)).red == 1)
    }

    /// A 4 × 2 pixel image at scale 2 (2 × 1 points): left column red, right column blue, top row opaque, bottom
    /// row of the right half transparent.
    func image() -> RasterImage {
        var px: [UInt8] = []
        for y in 0..<2 {
            for x in 0..<4 {
                if x < 2 {
                    px += [0, 0, 255, 255]
                } else if y == 0 {
                    px += [255, 0, 0, 255]
                } else {
                    px += [0, 0, 0, 0]
                }
            }
        }
        return RasterImage(width: 4, height: 2, scale: 2, pixels: px)
    }

    @Test func patternRepeatsAlongTheLineAndCentresAcross() {
        // Period 2 points along; the line's outset is 0.5 points (the image is 1 point high).
        let p = LinePattern(to: LinePatternImage(image: image(), length: 2), outset: 0.5)
        // Pixel centres: x = 0.25 (red), 1.25 (blue) points. As in line_pattern.fragment.glsl the right side of the
        // line (across < 0) samples the image's top row, the left side (across > 0) its bottom row.
        let red = p.color(distance: 0.25, across: -0.5)
        #expect(red.red == 1 && red.blue == 0 && red.alpha == 1)
        let blue = p.color(distance: 1.25, across: -0.5)
        #expect(blue.blue == 1 && blue.red == 0 && blue.alpha == 1)
        // Wraps: one period later, and before 0.
        #expect(p.color(distance: 4.25, across: -0.5) == red)
        #expect(p.color(distance: -1.75, across: -0.5) == red)
        // The bottom row of the right half is transparent.
        #expect(p.color(distance: 1.25, across: 0.5).alpha == 0)
        #expect(LinePaint.pattern(p).uniformColor == nil)
    }

    @Test func patternCrossFadeMixesTheTwoImages() {
        let to = LinePatternImage(image: image(), length: 2)
        let from = LinePatternImage(image: image(), length: 4)
        let p = LinePattern(to: to, from: from, fade: 0.5, outset: 0.5)
        // At 1.25 points: `to` is blue, `from` (twice as long) is still red.
        let c = p.color(distance: 1.25, across: -0.5)
        #expect(abs(c.red - 0.5) < 1e-9 && abs(c.blue - 0.5) < 1e-9 && c.alpha == 1)
    }

    @Test func emptyOrDegeneratePatternsAreTransparent() {
        let empty = LinePattern(to: LinePatternImage(image: RasterImage(width: 0, height: 0), length: 2), outset: 1)
        #expect(empty.color(distance: 1, across: 0).alpha == 0)
        let zeroLength = LinePattern(to: LinePatternImage(image: image(), length: 0), outset: 1)
        #expect(zeroLength.color(distance: 1, across: 0).alpha == 0)
        let p = LinePattern(to: LinePatternImage(image: image(), length: 2), outset: 1)
        #expect(p.color(distance: .nan, across: .infinity).alpha == 0)
    }
}
