import Foundation

extension UIImage {
    /// Draws an image of `size` points at `scale` pixels per point (≤ 0 or non-finite counts as 1) on the calling
    /// thread, any thread: ``UIGraphicsImageRenderer`` with that scale, handing `actions` its context (current on the
    /// calling thread while they run). For SDK code that makes images off the main thread (for example
    /// `GMSMarker.markerImage(with:)`, which tile layers call from their threads). The bitmap starts transparent; user
    /// space is in points, origin top-left.
    package static func drawnOnAnyThread(size: CGSize, scale: CGFloat, _ actions: (CGContext) -> Void) -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return UIGraphicsImageRenderer(size: size, format: format).image { actions($0.cgContext) }
    }
}
