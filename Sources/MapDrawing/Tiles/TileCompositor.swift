import MapGeometry

/// Where one cached tile image goes in a frame: a camera-free affine made of a translation and a uniform scale.
///
/// The tile's top-left corner lands at `origin` (points) and its image is drawn `scale` times its own point size
/// (so at zoom `z + f` over tiles rendered at integer zoom `z`, `scale = 2^f`).
public struct TilePlacement: Hashable, Sendable {
    /// The rendered tile image.
    public var image: ImageHandle
    /// Screen position of the tile's top-left corner, in points.
    public var origin: ScreenPoint
    /// Uniform scale applied to the image's point size, `> 0`. Default 1.
    public var scale: Double
    /// Opacity `0…1` (for fading in newly loaded tiles). Default 1.
    public var opacity: Double

    /// Creates a placement.
    public init(image: ImageHandle, origin: ScreenPoint, scale: Double = 1, opacity: Double = 1) {
        self.image = image
        self.origin = origin
        self.scale = scale
        self.opacity = opacity
    }
}

/// Builds the display list that recomposes cached tile images into a frame (pans and fractional zooms).
///
/// The tile rectangles are snapped in device pixels: each edge is rounded to the nearest device pixel, so tiles that
/// share an edge in exact arithmetic share it after rounding and no hairline seam shows between them. Tiles that fall
/// entirely outside the frame are skipped.
public enum TileCompositor {
    /// The image commands for `placements`, in order (draw lower zooms first to let higher ones cover them).
    public static func commands(for placements: [TilePlacement], frame: ScreenSize, scale: Double) -> [DrawCommand] {
        var out: [DrawCommand] = []
        out.reserveCapacity(placements.count)
        let frameRect = RenderRect(x: 0, y: 0, width: frame.width, height: frame.height)
        for p in placements where p.scale > 0 && p.opacity > 0 {
            let size = p.image.pointSize
            let x0 = snap(p.origin.x, scale)
            let y0 = snap(p.origin.y, scale)
            let x1 = snap(p.origin.x + size.width * p.scale, scale)
            let y1 = snap(p.origin.y + size.height * p.scale, scale)
            let rect = RenderRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            guard rect.width > 0, rect.height > 0, rect.intersects(frameRect) else { continue }
            out.append(.image(ImageCommand(image: p.image, rect: rect, opacity: p.opacity)))
        }
        return out
    }

    /// A whole frame: `background` clear, then the tiles. Append labels and overlays to the result.
    public static func displayList(
        for placements: [TilePlacement], frame: ScreenSize, scale: Double, background: RGBAColor = .clear
    ) -> DisplayList {
        var list = DisplayList(size: frame, scale: scale)
        list.append(.clear(background))
        list.append(contentsOf: commands(for: placements, frame: frame, scale: scale))
        return list
    }

    private static func snap(_ v: Double, _ scale: Double) -> Double {
        guard scale > 0 else { return v }
        return (v * scale).rounded() / scale
    }
}
