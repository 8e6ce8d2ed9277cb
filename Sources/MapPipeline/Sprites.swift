import MapRender
import MapStyle

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
        sprite = sheet
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
