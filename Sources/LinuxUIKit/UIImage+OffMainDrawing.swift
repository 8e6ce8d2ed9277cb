import CCairo
import CairoGraphics
import Foundation

extension UIImage {
    /// Draws an image of `size` points at `scale` pixels per point (≤ 0 or non-finite counts as 1) on the calling
    /// thread, any thread: the context is not pushed as `UIGraphicsGetCurrentContext()` (that stack is main-actor).
    /// For SDK code that must make images off the main thread, as UIKit's thread-safe `UIGraphicsImageRenderer` can
    /// (for example `GMSMarker.markerImage(with:)`, which tile layers call from their threads). The bitmap starts
    /// transparent; user space is in points, origin top-left.
    package static func drawnOnAnyThread(size: CGSize, scale: CGFloat, _ actions: (CGContext) -> Void) -> UIImage {
        let s = scale > 0 && scale.isFinite ? scale : 1
        let bitmap = CairoBitmap.blank(width: pixelCount(size.width, s), height: pixelCount(size.height, s))
        let canvas = CairoCanvas(surface: bitmap)
        canvas.scale(by: Double(s), Double(s))
        actions(CGContext(canvas: canvas))
        cairo_surface_flush(bitmap.surface)
        return UIImage(bitmaps: [bitmap], scale: s)
    }
}
