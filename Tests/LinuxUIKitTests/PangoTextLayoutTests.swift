import CairoGraphics
import Foundation
import Testing

/// CairoGraphics' one Pango layout path, as LinuxUIKit and the map renderer use it.
@Suite struct PangoTextLayoutTests {
    init() { _ = pinFonts }

    @Test func markupIsLaidOutAndBadMarkupLeavesTheTextAsItWas() {
        let layout = PangoTextLayout(for: nil)
        layout.setFont(PangoFont(families: "DejaVu Sans", size: 20, weight: 400))
        layout.setText("Helsinki")
        let plain = layout.extents.logical.width
        #expect(layout.setMarkup("<b>Helsinki</b>"))
        let bold = layout.extents.logical.width
        #expect(bold > plain)
        #expect(!layout.setMarkup("<b>Helsinki"))
        #expect(layout.extents.logical.width == bold)
    }

    @Test func drawingPutsInkWhereTheExtentsSay() throws {
        let surface = try CairoSurface(width: 200, height: 60)
        let canvas = CairoCanvas(surface: surface)
        let layout = PangoTextLayout(for: canvas)
        layout.setFont(PangoFont(families: "DejaVu Sans", size: 30, weight: 700))
        layout.setText("HH")
        layout.draw(in: canvas, x: 10, y: 5)
        let ink = layout.pixelExtents.ink
        // The middle of the first H's left stem is covered; the surface's far right is not.
        let stem = surface.pixel(x: 10 + ink.x + 2, y: 5 + ink.y + ink.height / 2)
        #expect(stem.a > 200)
        #expect(surface.pixel(x: 195, y: 30).a == 0)
        #expect(layout.unknownGlyphCount == 0 && layout.lineCount == 1)
    }

    @Test func eachThreadHasItsOwnFontContext() {
        let here = ObjectIdentifier(PangoFontContext.current)
        #expect(ObjectIdentifier(PangoFontContext.current) == here)
        final class Box: @unchecked Sendable { var other: ObjectIdentifier? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.other = ObjectIdentifier(PangoFontContext.current)
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(box.other != nil && box.other != here)
    }
}
