import MapGeometry
import MapRender
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A style's sprite: the sheet image and its index (style spec "Sprite": `<sprite>.png` and `<sprite>.json`).
///
/// The pipeline imports no image codec; hosts decode the PNG (for example with `MapRenderCairo.PNGCodec`, reading
/// `@2x` sheets with scale 2) and hand it over with ``MapRenderer/setSprite(_:)``.
public struct SpriteSheet: Sendable {
    /// The whole sheet, premultiplied BGRA as ``RasterImage`` defines.
    public var image: RasterImage
    /// Where each named image sits in the sheet, in sheet pixels, with its pixel ratio.
    public var index: SpriteIndex

    /// Creates a sheet.
    public init(image: RasterImage, index: SpriteIndex) {
        self.image = image
        self.index = index
    }

    /// The named image cut out of the sheet (scale = its pixel ratio), or `nil` when the name is unknown or its
    /// rectangle leaves the sheet.
    func crop(_ name: String) -> RasterImage? {
        guard let entry = index.images[name], entry.width > 0, entry.height > 0, entry.x >= 0, entry.y >= 0,
            entry.x + entry.width <= image.width, entry.y + entry.height <= image.height
        else { return nil }
        var pixels = [UInt8](repeating: 0, count: entry.width * entry.height * 4)
        for row in 0..<entry.height {
            let from = ((entry.y + row) * image.width + entry.x) * 4
            let to = row * entry.width * 4
            pixels.replaceSubrange(to..<(to + entry.width * 4), with: image.pixels[from..<(from + entry.width * 4)])
        }
        let ratio = entry.pixelRatio > 0 && entry.pixelRatio.isFinite ? entry.pixelRatio : 1
        return RasterImage(width: entry.width, height: entry.height, scale: ratio, pixels: pixels)
    }
}

extension MapRenderer {
    /// Sets (or with `nil` removes) the sprite that `icon-image` names refer to; forgets cached symbols.
    /// - Parameter sheet: the decoded sheet and its index.
    public func setSprite(_ sheet: SpriteSheet?) {
        for handle in spriteImages.values { if let handle { backend.unregister(handle) } }
        spriteImages = [:]
        spritePixels = [:]
        sprite = sheet
        spriteVersion += 1
        symbolCache.removeAll()
    }

    /// The backend handle of a sprite image, registered on first use; `nil` when the sprite lacks it.
    func spriteImage(_ name: String) -> ImageHandle? {
        if let known = spriteImages[name] { return known }
        let handle = sprite?.crop(name).flatMap { try? backend.register($0) }
        spriteImages[name] = handle
        return handle
    }
}

extension MapRenderer {
    /// The pixels of a sprite image, cut out on first use and shared afterwards; `nil` when the sprite lacks it.
    func spritePixels(_ name: String) -> RasterImage? {
        if let known = spritePixels[name] { return known }
        let image = sprite?.crop(name)
        spritePixels[name] = image
        return image
    }

    /// The commands of a `background-pattern` layer: the sprite image repeated over the frame, aligned to the world
    /// (its pixel grid at the integer style zoom) and scaled by the fraction of the zoom, turning with the bearing.
    /// A name the sprite lacks draws nothing (style spec: a missing pattern image leaves the layer out).
    func backgroundPattern(
        _ layer: CompiledLayer, _ ctx: EvaluationContext, camera: CameraState, size: RenderSize, opacity: Double
    ) -> [DrawCommand] {
        let name: String
        switch layer.value("background-pattern", ctx) {
        case .image(let n, _): name = n
        case .string(let n): name = n
        default: return []
        }
        guard opacity > 0, !name.isEmpty, let handle = spriteImage(name) else { return [] }
        let z = styleZoom(for: camera)
        let k = pow(2, z - z.rounded(.down))
        let w = handle.pointSize.width * k
        let h = handle.pointSize.height * k
        guard w >= 0.5, h >= 0.5, w.isFinite, h.isFinite else { return [] }
        // The frame centre in world points at the style zoom (MapLibre's 512-point tiles).
        let worldSize = options.tileSize * pow(2, z)
        let centre = WebMercator.worldPoint(camera.center)
        let cx = centre.x * worldSize
        let cy = centre.y * worldSize
        // Cover the frame's circumscribed square around its centre, in map-aligned points.
        let r = (size.width * size.width + size.height * size.height).squareRoot() / 2 + max(w, h)
        let x0 = ((cx - r) / w).rounded(.down) * w - cx
        let y0 = ((cy - r) / h).rounded(.down) * h - cy
        let columns = Int(((2 * r) / w).rounded(.up)) + 1
        let rows = Int(((2 * r) / h).rounded(.up)) + 1
        guard columns * rows <= 250_000 else { return [] }
        var out: [DrawCommand] = [.save]
        let rotation = RenderTransform.rotation(radians: -camera.bearing * .pi / 180)
        out.append(.transform(rotation.concatenating(.translation(x: size.width / 2, y: size.height / 2))))
        for j in 0..<rows {
            for i in 0..<columns {
                let rect = RenderRect(x: x0 + Double(i) * w, y: y0 + Double(j) * h, width: w, height: h)
                out.append(.image(ImageCommand(image: handle, rect: rect, opacity: opacity)))
            }
        }
        out.append(.restore)
        return out
    }
}
