import MapGeometry

/// An opaque reference to an image registered with a ``RenderBackend`` (an icon, a sprite sheet, a rendered tile).
///
/// Handles are only meaningful to the backend that issued them; drawing an unknown or unregistered handle draws
/// nothing. `id`s are unique per backend instance and never reused.
public struct ImageHandle: Hashable, Sendable {
    /// The backend's identifier for the image.
    public let id: Int
    /// Pixel width of the registered image.
    public let pixelWidth: Int
    /// Pixel height of the registered image.
    public let pixelHeight: Int
    /// Pixels per point of the registered image.
    public let scale: Double

    /// Bytes the image occupies in the backend, for cache accounting: 4 a pixel, plus what the backend made with
    /// it (the box-filtered levels of an image drawn minified, ``DisplayList/drawnMinified``).
    public let byteCount: Int

    /// Creates a handle; only backends call this. `byteCount` defaults to 4 bytes a pixel.
    public init(id: Int, pixelWidth: Int, pixelHeight: Int, scale: Double, byteCount: Int? = nil) {
        self.id = id
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.byteCount = byteCount ?? pixelWidth * pixelHeight * 4
    }

    /// The image's size in points (pixels / scale).
    public var pointSize: ScreenSize {
        ScreenSize(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
    }
}

/// Errors a backend reports for a display list or image it cannot process.
public enum RenderError: Error, Equatable, Sendable {
    /// The requested surface is empty or larger than the backend supports; carries the pixel size asked for.
    case invalidSize(width: Int, height: Int)
    /// The graphics library failed; carries its message.
    case backendFailure(String)
    /// ``RenderBackend/draw(_:into:)`` was given a ``RenderTarget`` the backend cannot draw into (another graphics
    /// library's surface, a test's stand-in); carries the backend's and the target's names. Nothing was drawn.
    case unsupportedTarget(String)
}

/// Executes display lists into pixels, and owns the images that ``ImageCommand``s reference.
///
/// This is the whole surface the engine sees of a graphics library (practice 6: a narrow backend protocol, headless
/// first). Implementations: `CairoBackend` (MapDrawingCairo), ``RecordingBackend`` (tests). Thread rules: a backend is used from one thread at a time.
public protocol RenderBackend: AnyObject {
    /// Measures and breaks text with the same fonts the backend draws with (for layout and collision boxes).
    var textMeasurer: any TextMeasurer { get }

    /// Executes `list` on a fresh transparent surface of `list.pixelWidth × list.pixelHeight` pixels and returns the
    /// pixels (scale = `list.scale`). Throws ``RenderError/invalidSize(width:height:)`` for an empty or huge surface.
    func render(_ list: DisplayList) throws -> RasterImage

    /// Executes `list` into a new image kept inside the backend and returns its handle, without copying the pixels
    /// out: the path for rasterising a tile into the ``TileImageCache``. Release it with ``unregister(_:)``.
    func renderImage(_ list: DisplayList) throws -> ImageHandle

    /// Executes `list` into a host's drawing surface, over what is there, through the target's current transform
    /// and clip (both as they were after the call): the path of a map view drawing its basemap and overlays into
    /// its graphics context. The list's points map to device pixels by ``DisplayList/scale`` unless the target's
    /// ``RenderTarget/userSpace`` is already points. The list's size is not checked against the target (drawing
    /// outside the clip is dropped).
    /// - Throws: ``RenderError/unsupportedTarget(_:)`` for a target this backend cannot draw into (nothing drawn).
    func draw(_ list: DisplayList, into target: any RenderTarget) throws

    /// Copies `image` into the backend and returns a handle for ``ImageCommand``s.
    func register(_ image: RasterImage) throws -> ImageHandle

    /// Executes `list` like ``render(_:)``, keeping the pixels in a form another backend of the same kind can take
    /// over without copying them (``adopt(_:)``): the path of a tile image a worker thread's backend draws for the
    /// frame's. Waymark's own. Default: ``render(_:)``'s pixels. Throws as ``render(_:)`` does.
    func renderForTransfer(_ list: DisplayList) throws -> RenderedImage

    /// Takes `image` (made by ``renderForTransfer(_:)`` of this or another backend, on any thread) into the backend
    /// and returns a handle for ``ImageCommand``s: a surface of the backend's own kind is kept as it is, anything
    /// else is copied in. Waymark's own. Default: ``register(_:)`` of its pixels.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an image the backend cannot hold.
    func adopt(_ image: RenderedImage) throws -> ImageHandle

    /// Releases a registered image; later draws of the handle draw nothing. Unknown handles are ignored.
    func unregister(_ handle: ImageHandle)

    /// Writes in place the pixels of an image the engine redraws every frame (a 3D-buildings layer) and returns its
    /// handle for ``ImageCommand``s: no new image and no copy a frame. Waymark's own (WritableImage.swift).
    ///
    /// `handle` is one this method returned earlier, or `nil`. While that image is still registered with
    /// `width × height` pixels at `scale`, `write` gets its pixels as the last write left them and the same handle
    /// is returned; otherwise `handle` is unregistered, `write` gets a new transparent image's pixels and the new
    /// image's handle is returned. `write` gets the first row's address and the bytes from one row to the next
    /// (at least `4 · width`): premultiplied BGRA, 4 bytes a pixel (little-endian ARGB32 words), `height` rows of
    /// `4 · width` bytes it may read and write, valid only during the call; it must not call the backend.
    ///
    /// Thread rules: the backend's thread (a renderer's frame thread). A display list holding the handle draws the
    /// pixels the image holds when the list is drawn (the latest write's), so a list is drawn before the next write
    /// changes them, as a renderer draws its frames; after ``unregister(_:)`` it draws nothing. Default: `write`
    /// fills a new transparent buffer, ``register(_:)`` copies it into a new image, and `handle` is unregistered.
    /// - Throws: ``RenderError/invalidSize(width:height:)`` for an empty or oversized image (nothing written, `handle`
    ///   kept), or what `write` throws.
    func writeImage(
        _ handle: ImageHandle?, width: Int, height: Int, scale: Double,
        _ write: (UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) throws -> Void
    ) throws -> ImageHandle

    /// Keeps what the backend caches between frames (label sprites) in `store` from now on, or in a cache of its own
    /// with `nil` (``BackendCacheStore``; a renderer hands it its engine's). Default: ignored.
    func useCacheStore(_ store: (any BackendCacheStore)?)
}

/// The size and line layout of a piece of text in a ``TextStyle``, in points.
public struct TextMetrics: Hashable, Sendable {
    /// One laid-out line.
    public struct Line: Hashable, Sendable {
        /// The line's characters as UTF-8 byte offsets into the measured text (trailing break characters excluded).
        public var utf8Range: Range<Int>
        /// Logical width (advance) of the line in points.
        public var width: Double
        /// Distance from the top of the text box to this line's baseline, in points.
        public var baseline: Double

        /// Creates a line record; measurers build these.
        public init(utf8Range: Range<Int>, width: Double, baseline: Double) {
            self.utf8Range = utf8Range
            self.width = width
            self.baseline = baseline
        }
    }

    /// Logical width: the widest line's advance, in points.
    public var width: Double
    /// Logical height: from the first line's top to the last line's bottom, in points (line height × lines).
    public var height: Double
    /// Distance from the top of the box to the first baseline, in points.
    public var baseline: Double
    /// Ink (drawn pixels) bounding box relative to the logical box's top-left, in points; may extend outside it.
    public var inkBounds: RenderRect
    /// The lines after wrapping at ``TextStyle/maxWidth`` and at `\n`, top to bottom.
    public var lines: [Line]
    /// Characters no installed font could draw (tofu); 0 when every glyph was found.
    public var unknownGlyphCount: Int

    /// Creates metrics; measurers build these.
    public init(
        width: Double, height: Double, baseline: Double, inkBounds: RenderRect, lines: [Line],
        unknownGlyphCount: Int
    ) {
        self.width = width
        self.height = height
        self.baseline = baseline
        self.inkBounds = inkBounds
        self.lines = lines
        self.unknownGlyphCount = unknownGlyphCount
    }

    /// The logical box size.
    public var size: ScreenSize { ScreenSize(width: width, height: height) }
}

/// Measures text for layout and collision without drawing it. `PangoTextShaper` (MapDrawingCairo) measures with real
/// fonts; ``FixedAdvanceTextMeasurer`` gives predictable numbers for engine tests without Pango.
public protocol TextMeasurer: AnyObject {
    /// Lays out `text` in `style` (wrapping, letter spacing, line height, bidi) and returns its metrics in points.
    func measure(_ text: String, style: TextStyle) -> TextMetrics
}

/// A measurer with fixed per-character metrics, for tests of layout and collision that must not depend on fonts.
///
/// Every grapheme advances `advance × size` points, plus ``TextStyle/letterSpacing`` between graphemes; a line is `lineHeight × size` tall with the
/// baseline at `0.8 × size` below its top. Wrapping at ``TextStyle/maxWidth`` breaks at spaces (a word longer than
/// the width gets a line of its own). Thread rules: stateless; safe from any thread.
public final class FixedAdvanceTextMeasurer: TextMeasurer, Sendable {
    /// Advance of one character as a fraction of the font size. Default 0.6.
    public let advance: Double

    /// Creates the measurer.
    public init(advance: Double = 0.6) { self.advance = advance }

    /// See ``TextMeasurer/measure(_:style:)``.
    public func measure(_ text: String, style: TextStyle) -> TextMetrics {
        let charWidth = advance * style.size + style.letterSpacing
        func lineWidth(_ chars: Int) -> Double { chars > 0 ? Double(chars) * charWidth - style.letterSpacing : 0 }
        let lineHeight = style.lineHeight * style.size
        let limit = (style.maxWidth ?? 0) > 0 ? style.maxWidth! : Double.infinity
        var lines: [TextMetrics.Line] = []
        var offset = 0
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var lineStart = offset
            var lineChars = 0
            var lineEnd = offset
            var cursor = offset
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let wordChars = word.count
                let wordBytes = word.utf8.count
                let candidate = lineChars == 0 ? wordChars : lineChars + 1 + wordChars
                if lineChars > 0 && lineWidth(candidate) > limit {
                    lines.append(
                        .init(utf8Range: lineStart..<lineEnd, width: lineWidth(lineChars), baseline: 0))
                    lineStart = cursor
                    lineChars = wordChars
                } else {
                    lineChars = candidate
                }
                cursor += wordBytes
                lineEnd = cursor
                cursor += 1  // the space
            }
            lines.append(.init(utf8Range: lineStart..<lineEnd, width: lineWidth(lineChars), baseline: 0))
            offset += paragraph.utf8.count + 1
        }
        for i in lines.indices { lines[i].baseline = Double(i) * lineHeight + 0.8 * style.size }
        let width = lines.map(\.width).max() ?? 0
        let height = Double(lines.count) * lineHeight
        return TextMetrics(
            width: width, height: height, baseline: 0.8 * style.size,
            inkBounds: RenderRect(x: 0, y: 0, width: width, height: height), lines: lines, unknownGlyphCount: 0)
    }
}
