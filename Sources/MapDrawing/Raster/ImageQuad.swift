import MapGeometry

/// Draws an image mapped onto a quadrilateral of the screen: the one entry for images on the map (raster tiles,
/// Google's tile layers, ground overlays) under flat and pitched cameras.
///
/// The image's unit square `(u, v) ∈ [0, 1]²` (u east, v south) is placed by `screen(u, v)`. Flat (`cells` 1): the
/// part `u ∈ uRange, v ∈ vRange` is one affine image through three of its projected corners, clipped to its
/// rectangle. Under pitch (`cells` > 1) `screen` is taken to be projective (a ground plane seen by a camera): the
/// part is one ``DrawCommand/projectedImage(_:)`` through the homography of its four projected corners, exact at
/// every pixel. When a corner cannot be placed (`nil`: behind the near plane) the part is cut into `cells × cells`
/// pieces and each piece whose four corners are placed is its own projected image (neighbouring pieces share their
/// corner points, so pixel-centre ownership leaves no seam).
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
    ///   - commands: receives the image commands (the `into:` argument); nothing is appended for an empty image,
    ///     an opacity ≤ 0 or an empty range.
    public static func append(
        _ image: ImageHandle, uRange: ClosedRange<Double> = 0...1, vRange: ClosedRange<Double> = 0...1,
        cells: Int = 1, opacity: Double = 1, nearestNeighbor: Bool = false,
        screen: (Double, Double) -> ScreenPoint?, into commands: inout [DrawCommand]
    ) {
        let size = image.pointSize
        let iw = size.width
        let ih = size.height
        guard iw > 0, ih > 0, opacity > 0, uRange.upperBound > uRange.lowerBound,
            vRange.upperBound > vRange.lowerBound
        else { return }
        let n = max(1, cells)
        if n > 1 {
            appendProjected(
                image, uRange: uRange, vRange: vRange, cells: n, opacity: opacity, nearestNeighbor: nearestNeighbor,
                screen: screen, into: &commands)
            return
        }
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

    /// The projective case of ``append(_:uRange:vRange:cells:opacity:nearestNeighbor:screen:into:)``.
    private static func appendProjected(
        _ image: ImageHandle, uRange: ClosedRange<Double>, vRange: ClosedRange<Double>, cells n: Int, opacity: Double,
        nearestNeighbor: Bool, screen: (Double, Double) -> ScreenPoint?, into commands: inout [DrawCommand]
    ) {
        let size = image.pointSize
        /// The piece `u0…u1 × v0…v1` when its four corners are placed.
        func piece(_ u0: Double, _ u1: Double, _ v0: Double, _ v1: Double) -> DrawCommand? {
            guard let p00 = screen(u0, v0), let p10 = screen(u1, v0), let p11 = screen(u1, v1),
                let p01 = screen(u0, v1), let square = RenderHomography(unitSquareTo: p00, p10, p11, p01)
            else { return nil }
            // Image points → the piece's unit square → screen.
            let su = 1 / ((u1 - u0) * size.width)
            let sv = 1 / ((v1 - v0) * size.height)
            let toSquare = RenderHomography(su, 0, -u0 / (u1 - u0), 0, sv, -v0 / (v1 - v0), 0, 0, 1)
            return .projectedImage(
                ProjectedImageCommand(
                    image: image, homography: square.concatenating(after: toSquare), area: [p00, p10, p11, p01],
                    opacity: opacity, nearestNeighbor: nearestNeighbor))
        }
        if let whole = piece(uRange.lowerBound, uRange.upperBound, vRange.lowerBound, vRange.upperBound) {
            commands.append(whole)
            return
        }
        let du = (uRange.upperBound - uRange.lowerBound) / Double(n)
        let dv = (vRange.upperBound - vRange.lowerBound) / Double(n)
        for row in 0..<n {
            for column in 0..<n {
                let u0 = uRange.lowerBound + Double(column) * du
                let v0 = vRange.lowerBound + Double(row) * dv
                let u1 = column == n - 1 ? uRange.upperBound : u0 + du
                let v1 = row == n - 1 ? vRange.upperBound : v0 + dv
                if let p = piece(u0, u1, v0, v1) { commands.append(p) }
            }
        }
    }
}
