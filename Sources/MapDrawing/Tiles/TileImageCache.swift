/// Identifies one rendered tile image: what was drawn (the revision of the sources and style), which tile, and at
/// what pixel density.
public struct TileImageKey: Hashable, Sendable {
    /// A number the caller bumps whenever the style or the set of sources changes (any change that would draw the
    /// same tile differently); images of older revisions are never returned for a newer one.
    public var revision: Int
    /// Zoom level of the tile, `0…30`.
    public var z: Int
    /// Tile column, `0..<2^z` for canonical tiles (unwrapped columns outside that range are allowed as distinct keys).
    public var x: Int
    /// Tile row from the north, `0..<2^z`.
    public var y: Int
    /// Device pixels per point of the rendered image (the frame's scale factor), `> 0`.
    public var pixelScale: Double
    /// Which run of consecutive tile-drawn style layers (between background and symbol layers) the image holds,
    /// numbered from 0 in style order; a style with no symbol or background layer between its other layers has only
    /// run 0. `≥ 0`. Default 0.
    public var run: Int
    /// The integer style zoom the image is styled for when it is not the tile's own `z` (a tile of a lower zoom in
    /// a pitched frame's distance, styled at the frame's zoom), else `nil` (the default: flat frames' images).
    public var styleZoom: Int?
    /// Device pixels per point the image's line anti-aliasing is sized for when it is not ``pixelScale``
    /// (``DisplayList/antialiasingScale``: a pitched frame's image, drawn finer than the frame), else `nil` (the
    /// default).
    public var antialiasingScale: Double?

    /// Creates a key.
    public init(
        revision: Int, z: Int, x: Int, y: Int, pixelScale: Double, run: Int = 0, styleZoom: Int? = nil,
        antialiasingScale: Double? = nil
    ) {
        self.antialiasingScale = antialiasingScale
        self.revision = revision
        self.z = z
        self.x = x
        self.y = y
        self.pixelScale = pixelScale
        self.run = run
        self.styleZoom = styleZoom
    }
}

/// Rendered tile images kept between frames so pans and fractional zooms recompose them instead of re-rasterising.
///
/// An LRU bounded by bytes (4 per pixel of each image). Values are backend ``ImageHandle``s: whatever leaves the cache
/// (evicted, replaced, too large) is returned by ``insert(_:for:)`` and ``removeAll()`` so the caller can
/// ``RenderBackend/unregister(_:)`` it. Thread rules: a value type used by the frame pipeline's thread.
public struct TileImageCache {
    private var lru: ByteBoundedLRU<TileImageKey, ImageHandle>

    /// Creates an empty cache holding at most `byteLimit` bytes of image pixels. Default 64 MiB: 64 tiles of 512×512.
    public init(byteLimit: Int = 64 << 20) { lru = ByteBoundedLRU(byteLimit: byteLimit) }

    /// The limit in bytes.
    public var byteLimit: Int { lru.byteLimit }
    /// Bytes of the images held now.
    public var totalBytes: Int { lru.totalBytes }
    /// Number of images held.
    public var count: Int { lru.count }
    /// Lookups that found an image.
    public var hits: Int { lru.hits }
    /// Lookups that found nothing.
    public var misses: Int { lru.misses }

    /// The image for `key`, marked most recently used; `nil` when absent.
    public mutating func image(for key: TileImageKey) -> ImageHandle? { lru.value(for: key) }

    /// True when an image for `key` is held (no recency change).
    public func contains(_ key: TileImageKey) -> Bool { lru.peek(key) != nil }

    /// Stores `image` under `key` and returns the handles that left the cache (to unregister from the backend).
    @discardableResult
    public mutating func insert(_ image: ImageHandle, for key: TileImageKey) -> [ImageHandle] {
        lru.insert(image, for: key, cost: image.byteCount)
    }

    /// Removes every image of revisions other than `revision` and returns them (after a style change).
    public mutating func removeAll(exceptRevision revision: Int) -> [ImageHandle] {
        var removed: [ImageHandle] = []
        for key in lru.keysByRecency where key.revision != revision {
            if let h = lru.removeValue(for: key) { removed.append(h) }
        }
        return removed
    }

    /// Removes and returns every image.
    public mutating func removeAll() -> [ImageHandle] { lru.removeAll() }
}
