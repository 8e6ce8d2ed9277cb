/// An image one backend rendered for another backend to take over without copying its pixels: a tile image a worker
/// thread's backend drew (``RenderBackend/renderForTransfer(_:)``) and the frame's backend then owns
/// (``RenderBackend/adopt(_:)``). Waymark's own (issue 17: before it, each arrived tile image, up to 2048² pixels
/// or 16 MiB, was copied out of the worker's surface and into a new one on the frame's thread).
///
/// Thread rules: made on one thread, handed to another, and never touched again by the backend that made it, so the
/// receiving backend owns the pixels alone (the value is `Sendable` on that understanding).
public struct RenderedImage: Sendable {
    /// Width in pixels, `> 0`.
    public let pixelWidth: Int
    /// Height in pixels, `> 0`.
    public let pixelHeight: Int
    /// Pixels per point, `> 0` (the display list's ``DisplayList/scale``).
    public let scale: Double
    /// The pixels as the rendering backend keeps them: a surface of its own kind, or a ``RasterImage``.
    public let storage: any RenderedImageStorage

    /// Wraps pixels a backend holds in `storage`; only backends call this.
    public init(pixelWidth: Int, pixelHeight: Int, scale: Double, storage: any RenderedImageStorage) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.storage = storage
    }

    /// Wraps plain pixels: what a backend with no transferable surface of its own hands over (the default
    /// ``RenderBackend/renderForTransfer(_:)``).
    public init(_ image: RasterImage) {
        self.init(pixelWidth: image.width, pixelHeight: image.height, scale: image.scale, storage: image)
    }

    /// The pixels as a ``RasterImage`` at ``scale``: for a backend of another kind, which registers a copy
    /// (the default ``RenderBackend/adopt(_:)``).
    public func rasterImage() -> RasterImage { storage.rasterImage(scale: scale) }
}

/// How a backend keeps the pixels of a ``RenderedImage``: a ``RasterImage``, or a backend's own surface type (the
/// Cairo backend's image surface), which a backend of the same kind takes over as it is. Waymark's own.
public protocol RenderedImageStorage: Sendable {
    /// The pixels as a ``RasterImage`` with `scale` pixels per point (a copy unless the storage already is one).
    func rasterImage(scale: Double) -> RasterImage
}

extension RasterImage: RenderedImageStorage {
    /// This image, with `scale` pixels per point.
    public func rasterImage(scale: Double) -> RasterImage {
        var image = self
        image.scale = scale
        return image
    }
}

extension RenderBackend {
    /// Default: ``RenderBackend/render(_:)``'s pixels, wrapped (the receiving backend copies them in).
    public func renderForTransfer(_ list: DisplayList) throws -> RenderedImage { RenderedImage(try render(list)) }

    /// Default: registers a copy of the image's pixels (``RenderBackend/register(_:)``).
    public func adopt(_ image: RenderedImage) throws -> ImageHandle { try register(image.rasterImage()) }
}
