import CCairo
import CairoGraphics
import MapDrawing

extension PangoTextShaper: GlyphCoverageSource {
    /// See ``GlyphCoverageSource/glyphCoverage(of:fontFamilies:weight:italic:pixelSize:)``: the character laid out
    /// alone with the thread's Pango context (hinting off, as every label), drawn in opaque black into an image just
    /// large enough for its ink extents, and its alpha read back. `nil` when Pango has no font for it (a box would be
    /// drawn) or the size is out of range.
    public func glyphCoverage(
        of scalar: Unicode.Scalar, fontFamilies: [String], weight: TextStyle.Weight, italic: Bool, pixelSize: Double
    ) -> GlyphCoverage? {
        guard pixelSize >= 1, pixelSize <= 256 else { return nil }
        let layout = PangoFontContext.current.reusableLayout
        layout.setAutoDirection(true)
        let font = PangoFont(
            families: fontFamilies.joined(separator: ","), size: pixelSize, weight: weight.value, italic: italic)
        layout.setFont(font)
        layout.setAttributes([])
        layout.setWidth(nil)
        layout.setAlignment(.left)
        layout.setText(String(Character(scalar)))
        guard layout.unknownGlyphCount == 0 else { return nil }
        let (ink, logical) = layout.extents
        let unit = Double(PangoTextLayout.unitsPerPoint)
        let baseline = Double(layout.baseline) / unit
        let advance = Double(logical.width) / unit
        let ascent = PangoFontContext.current.metrics(font).ascent
        guard ink.width > 0, ink.height > 0 else {
            return GlyphCoverage(width: 0, height: 0, coverage: [], left: 0, top: 0, advance: advance, ascent: ascent)
        }
        // The bitmap: whole pixels from the pen (x 0) and the baseline, holding the ink box; the layout is drawn with
        // its baseline on a pixel edge, `top` pixels below the bitmap's top.
        let left = Int((Double(ink.x) / unit).rounded(.down))
        let width = Int((Double(ink.x + ink.width) / unit).rounded(.up)) - left
        let top = Int((baseline - Double(ink.y) / unit).rounded(.up))
        let drawY = Double(top) - baseline
        let height = Int((drawY + Double(ink.y + ink.height) / unit).rounded(.up))
        guard width > 0, height > 0, width <= 1024, height <= 1024,
            let surface = try? CairoSurface(width: width, height: height)
        else { return nil }
        let canvas = CairoCanvas(surface: surface)
        layout.update(for: canvas)
        cairo_set_source_rgba(canvas.context, 0, 0, 0, 1)
        layout.draw(in: canvas, x: Double(-left), y: drawY)
        let stride = surface.stride / 4
        let coverage = surface.withPixels { pixels -> [UInt8] in
            var bytes = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width { bytes[y * width + x] = UInt8(truncatingIfNeeded: pixels[y * stride + x] >> 24) }
            }
            return bytes
        }
        return GlyphCoverage(
            width: width, height: height, coverage: coverage, left: left, top: top, advance: advance, ascent: ascent)
    }
}
