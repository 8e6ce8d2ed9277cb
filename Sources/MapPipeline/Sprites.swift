import MapDrawing
import MapGeometry
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
/// The pipeline imports no image codec; hosts decode the PNG (for example with `MapDrawingCairo.PNGCodec`, reading
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
    /// Sets (or with `nil` removes) the sprite that `icon-image` and `*-pattern` names refer to; cached symbols and
    /// tile images of the old sheet are no longer used (the renderer joins the engine's group of renderers with
    /// this sheet: ``MapEngine``).
    /// - Parameter sheet: the decoded sheet and its index.
    public func setSprite(_ sheet: SpriteSheet?) {
        for handle in spriteImages.values { if let handle { backend.unregister(handle) } }
        spriteImages = [:]
        spritePixels = [:]
        sprite = sheet
        spriteVersion += 1
        guard !isLane else { return }
        var hasher = Hasher()
        if let sheet {
            hasher.combine(sheet.image.width)
            hasher.combine(sheet.image.height)
            hasher.combine(sheet.image.pixels)
            hasher.combine(structuralHash(sheet.index))
        }
        spriteHash = sheet == nil ? 0 : hasher.finalize()
        group = joinGroup()
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

    /// The pattern transform of a `fill-pattern` drawn in `tile` (MapLibre `fill_pattern.vertex.glsl`,
    /// `get_pattern_pos`): pattern space (image points) → screen points, the image repeated on the world's pixel
    /// grid at the integer zoom `floor(zoom)` (so it lines up across tiles and with `background-pattern`), which the
    /// tile's projection scales by `2^(zoom − floor zoom)` and turns with the bearing.
    ///
    /// The tile's origin is reduced modulo the image size first (MapLibre's `u_pixel_coord_upper/lower`), so the
    /// numbers stay small at any zoom. A pitched projection is linearised about `anchor` (tile units, a visible point
    /// of the feature; Cairo patterns are affine): exact when flat, approximate under pitch away from the anchor.
    /// `nil` for an empty image or a degenerate projection.
    func fillPatternTransform(
        image: ImageHandle, tile: TileID, zoom: Double, projector: TileProjector, extent: Int,
        anchor: (x: Double, y: Double)
    ) -> RenderTransform? {
        let w = image.pointSize.width
        let h = image.pointSize.height
        guard w > 0, h > 0, w.isFinite, h.isFinite, extent > 0, zoom.isFinite else { return nil }
        let floorZoom = zoom.rounded(.down)
        // The tile's side in world points at the integer zoom.
        let side = options.tileSize * pow(2, floorZoom - Double(tile.z))
        guard side > 0, side.isFinite else { return nil }
        func positiveMod(_ v: Double, _ m: Double) -> Double {
            let r = v.truncatingRemainder(dividingBy: m)
            return r < 0 ? r + m : r
        }
        // Pattern point of the tile's north-west corner.
        let offX = positiveMod(positiveMod(Double(tile.unwrappedX), w) * side, w)
        let offY = positiveMod(positiveMod(Double(tile.y), h) * side, h)
        // Tile units → screen: the projector's derivative at the anchor (its own map when flat).
        let e = Double(extent)
        let step = e / 64
        let c = projector.project(anchor.x, anchor.y)
        let px = projector.project(anchor.x + step, anchor.y)
        let py = projector.project(anchor.x, anchor.y + step)
        let a = (px.x - c.x) / step
        let b = (px.y - c.y) / step
        let cc = (py.x - c.x) / step
        let d = (py.y - c.y) / step
        let tileUnits = RenderTransform(
            a: a, b: b, c: cc, d: d, tx: c.x - a * anchor.x - cc * anchor.y, ty: c.y - b * anchor.x - d * anchor.y)
        let k = e / side
        let t = RenderTransform.translation(x: -offX, y: -offY).concatenating(.scale(x: k, y: k))
            .concatenating(tileUnits)
        guard t.isFinite, t.a * t.d - t.b * t.c != 0 else { return nil }
        return t
    }

    /// The command of a `background-pattern` layer: the sprite image repeated over the frame, aligned to the world
    /// (its pixel grid at the integer style zoom) and scaled by the fraction of the zoom, turning with the bearing
    /// (MapLibre `background_pattern`). A name the sprite lacks draws nothing (style spec: a missing pattern image
    /// leaves the layer out).
    func backgroundPattern(
        _ layer: CompiledLayer, _ ctx: EvaluationContext, camera: CameraState, size: ScreenSize, opacity: Double
    ) -> [DrawCommand] {
        guard opacity > 0, let handle = patternHandle(layer, "background-pattern", ctx) else { return [] }
        let z = styleZoom(for: camera)
        let k = pow(2, z - z.rounded(.down))
        let w = handle.pointSize.width * k
        let h = handle.pointSize.height * k
        guard w > 0, h > 0, w.isFinite, h.isFinite else { return [] }
        // The frame centre in world points at the style zoom (MapLibre's 512-point tiles), and its offset into the
        // pattern period there.
        let worldSize = options.tileSize * pow(2, z)
        if camera.pitch != 0 {
            return pitchedBackgroundPattern(
                handle, k: k, worldSize: worldSize, camera: camera, size: size, scale: frameScale, opacity: opacity)
        }
        let centre = WebMercator.worldPoint(camera.center)
        let fx = (centre.x * worldSize).truncatingRemainder(dividingBy: w)
        let fy = (centre.y * worldSize).truncatingRemainder(dividingBy: h)
        // Pattern point q → map-aligned offset from the centre k·q − f → turned by the bearing → screen.
        let transform = RenderTransform.scale(x: k, y: k).concatenating(.translation(x: -fx, y: -fy))
            .concatenating(.rotation(radians: -camera.bearing * .pi / 180))
            .concatenating(.translation(x: size.width / 2, y: size.height / 2))
        var path = RenderPath()
        path.addRect(RenderRect(x: 0, y: 0, width: size.width, height: size.height))
        return [
            .fill(
                FillCommand(
                    path: path, color: .black, opacity: opacity,
                    pattern: FillPattern(image: handle, transform: transform)))
        ]
    }
}
