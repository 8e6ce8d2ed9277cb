/// Draws an image mapped onto a quadrilateral of the screen: the one mechanism for images on the map (raster tiles,
/// Google's tile layers) under flat and pitched cameras.
///
/// The image's unit square `(u, v) ∈ [0, 1]²` (u east, v south) is placed by `screen(u, v)`. The part
/// `u ∈ uRange, v ∈ vRange` is cut into `cells × cells` pieces; each piece is drawn under the affine map through
/// three of its projected corners and clipped to its own rectangle (with a tenth of an image point of overlap
/// between pieces, so no seam shows). A flat camera maps exactly with one cell; under pitch more cells follow the
/// perspective closer. A piece with a corner `screen` cannot place (`nil`: behind the near plane) is skipped.
public enum ImageQuad {
    /// The commands, appended to `commands`.
    /// - Parameters:
    ///   - image: the registered image; its ``ImageHandle/pointSize`` is its image-point size.
    ///   - uRange: the horizontal part drawn, within 0…1.
    ///   - vRange: the vertical part drawn, within 0…1.
    ///   - cells: pieces per side, ≥ 1.
    ///   - opacity: 0…1.
    ///   - nearestNeighbor: sample the nearest pixel instead of bilinearly.
    ///   - screen: the screen point (points) of `(u, v)`, or `nil` when it cannot be placed.
    public static func append(
        _ image: ImageHandle, uRange: ClosedRange<Double> = 0...1, vRange: ClosedRange<Double> = 0...1,
        cells: Int = 1, opacity: Double = 1, nearestNeighbor: Bool = false,
        screen: (Double, Double) -> RenderPoint?, into commands: inout [DrawCommand]
    ) {
        let size = image.pointSize
        let iw = size.width
        let ih = size.height
        guard iw > 0, ih > 0, opacity > 0, uRange.upperBound > uRange.lowerBound,
            vRange.upperBound > vRange.lowerBound
        else { return }
        let n = max(1, cells)
        let whole = uRange == 0...1 && vRange == 0...1
        for row in 0..<n {
            for column in 0..<n {
                let du = (uRange.upperBound - uRange.lowerBound) / Double(n)
                let dv = (vRange.upperBound - vRange.lowerBound) / Double(n)
                let u0 = uRange.lowerBound + Double(column) * du
                let v0 = vRange.lowerBound + Double(row) * dv
                let u1 = u0 + du
                let v1 = v0 + dv
                guard let p00 = screen(u0, v0), let p10 = screen(u1, v0), let p01 = screen(u0, v1),
                    n == 1 || screen(u1, v1) != nil
                else { continue }
                // Image points (x, y) → screen: p00 + (x − x0)·ex + (y − y0)·ey.
                let dx = du * iw
                let dy = dv * ih
                let ex = ((p10.x - p00.x) / dx, (p10.y - p00.y) / dx)
                let ey = ((p01.x - p00.x) / dy, (p01.y - p00.y) / dy)
                let x0 = u0 * iw
                let y0 = v0 * ih
                let m = RenderTransform(
                    a: ex.0, b: ex.1, c: ey.0, d: ey.1, tx: p00.x - x0 * ex.0 - y0 * ey.0,
                    ty: p00.y - x0 * ex.1 - y0 * ey.1)
                commands.append(.save)
                commands.append(.transform(m))
                if n > 1 {
                    commands.append(.clip(RenderRect(x: x0 - 0.1, y: y0 - 0.1, width: dx + 0.2, height: dy + 0.2)))
                } else if !whole {
                    commands.append(.clip(RenderRect(x: x0, y: y0, width: dx, height: dy)))
                }
                commands.append(
                    .image(
                        ImageCommand(
                            image: image, rect: RenderRect(x: 0, y: 0, width: iw, height: ih), opacity: opacity,
                            nearestNeighbor: nearestNeighbor)))
                commands.append(.restore)
            }
        }
    }
}
