import CCairo
import CairoGraphics
import Foundation

/// An immutable bitmap image (or a sequence of frames), as UIKit's `UIImage`, stored as Cairo ARGB32 surfaces.
///
/// - Size: ``size`` is in points: the pixel size divided by ``scale`` (1, 2 or 3 for `@2x`/`@3x` files).
/// - Formats: PNG, JPEG and GIF, decoded by Debian's gdk-pixbuf; multi-frame GIFs become animated images that
///   show each frame for its own GIF delay (a Waymark extension: UIKit shows a GIF's first frame only). Other
///   formats (BMP, TIFF…) are refused, so only incremental loaders that report the size first ever run.
/// - Failure: undecodable data, an empty or missing file, or a header announcing more than 16384 pixels a side or
///   64 Mi pixels in all gives `nil` and logs the reason on standard error (`[LinuxUIKit] warning: …`); nothing
///   crashes and oversized images are refused before their pixels are allocated.
/// - Thread rules: immutable and `Sendable`; create and draw on any thread.
public final class UIImage: @unchecked Sendable {
    /// How a view draws an image, as UIKit's `UIImage.RenderingMode`.
    public enum RenderingMode: Int, Sendable {
        /// Let the context decide; image views draw such images as they are (like `.alwaysOriginal`).
        case automatic = 0
        /// Draw the image's own colours.
        case alwaysOriginal = 1
        /// Draw only the image's alpha, filled with the view's tint colour.
        case alwaysTemplate = 2
    }

    /// The frames: one for a still image; for an animated image, the first frame of ``images``. Changed only by
    /// ``takeReusableBitmap()``, when nothing else can see the image.
    private(set) var bitmaps: [CairoBitmap]
    /// Pixels per point (≥ 1 in practice; 1 when unknown).
    public let scale: CGFloat
    /// How image views draw this image. Defaults to `.automatic`.
    public let renderingMode: RenderingMode
    /// Insets, in points, from the image edges to its content; used for alignment and (in GoogleMaps) the marker tap
    /// area and anchor space. Defaults to `.zero`.
    public let alignmentRectInsets: UIEdgeInsets
    /// For an animated image, its frames as still images (all the same size); `nil` for a still image.
    public let images: [UIImage]?
    /// For an animated image, the time of one loop in seconds; `0` for a still image.
    public let duration: TimeInterval
    /// For a decoded animated GIF, each frame's own display time in seconds (summing to ``duration``); nil when
    /// frames share the duration equally.
    let frameDurations: [TimeInterval]?

    init(
        bitmaps: [CairoBitmap], scale: CGFloat, renderingMode: RenderingMode = .automatic,
        alignmentRectInsets: UIEdgeInsets = .zero, images: [UIImage]? = nil, duration: TimeInterval = 0,
        frameDurations: [TimeInterval]? = nil
    ) {
        self.frameDurations = frameDurations
        self.bitmaps = bitmaps
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        self.renderingMode = renderingMode
        self.alignmentRectInsets = alignmentRectInsets
        self.images = images
        self.duration = duration
    }

    /// An empty image: no pixels, size `.zero`, scale 1, as UIKit's `UIImage()` (a navigation bar's
    /// `shadowImage = UIImage()`, a placeholder). Drawing it draws nothing; `pngData()` is nil.
    public convenience init() {
        self.init(bitmaps: [], scale: 1)
    }

    /// An image with `image`'s pixels and properties (both immutable, so shared), for another module's convenience
    /// initialiser that draws its image first (GoogleMaps' `GMSPinImage(options:)`). Waymark's own (package).
    package convenience init(sharing image: UIImage) {
        self.init(
            bitmaps: image.bitmaps, scale: image.scale, renderingMode: image.renderingMode,
            alignmentRectInsets: image.alignmentRectInsets, images: image.images, duration: image.duration,
            frameDurations: image.frameDurations)
    }

    private convenience init(decoded: ImageDecoder.Decoded, scale: CGFloat) {
        for warning in decoded.warnings { UIKitLog.warning(warning) }
        if decoded.frames.count > 1 {
            let frames = decoded.frames.map { UIImage(bitmaps: [$0], scale: scale) }
            let delays = decoded.delays.prefix(frames.count)
            let total = delays.reduce(0, +)
            self.init(
                bitmaps: [decoded.frames[0]], scale: scale, images: frames,
                duration: total > 0 ? total : Double(frames.count) / 10,
                frameDurations: total > 0 && delays.allSatisfy({ $0 > 0 }) ? Array(delays) : nil)
        } else {
            self.init(bitmaps: decoded.frames, scale: scale)
        }
    }

    /// The size in points: pixel size ÷ ``scale``.
    public var size: CGSize {
        guard let first = bitmaps.first else { return .zero }
        return CGSize(width: CGFloat(first.width) / scale, height: CGFloat(first.height) / scale)
    }

    /// Decodes an image from PNG, JPEG or GIF bytes at scale 1; `nil` (with a logged reason) when undecodable.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    /// Decodes an image from bytes at the given scale (pixels per point; values ≤ 0 become 1).
    public convenience init?(data: Data, scale: CGFloat) {
        do {
            self.init(decoded: try ImageDecoder.decode(data: data), scale: scale)
        } catch {
            UIKitLog.warning("UIImage(data:) (\(data.count) bytes): \(error)")
            return nil
        }
    }

    /// Loads an image file; a name ending in `@2x`/`@3x` (before the extension) sets ``scale`` to 2 or 3.
    /// `nil` (with a logged reason) for a missing, empty, oversized or undecodable file.
    public convenience init?(contentsOfFile path: String) {
        do {
            self.init(decoded: try ImageDecoder.decode(contentsOfFile: path), scale: UIImage.scale(ofFile: path))
        } catch {
            UIKitLog.warning("UIImage(contentsOfFile: \"\(path)\"): \(error)")
            return nil
        }
    }

    /// Finds and loads an image by name, as UIKit's `init?(named:)`; `nil` when no file matches or it is undecodable.
    ///
    /// Search order: each directory registered with ``registerSearchDirectory(_:)`` (latest first), then
    /// `Bundle.main.resourcePath`, then the current working directory. In each directory, for `name` without an
    /// extension, the candidates are `name@Sx.png` for the screen scale `S` (``UIScreen/scale``, rounded, 1…3), then
    /// the other scales from 3 down, then `name.png`, then `name.jpg`, `name.jpeg`, `name.gif`; a `name` with an
    /// extension is tried as given, then with `@2x`/`@3x` inserted. Exact file names are tried first, then a
    /// case-insensitive match (so `"House"` finds `house.png`, as on Apple's case-insensitive asset catalogs).
    ///
    /// Found images are cached by name and screen scale, as UIKit does: the same name returns an image sharing the
    /// same pixels (creating many markers from one name costs one decode). Registering or removing search
    /// directories empties the cache; misses are not cached.
    public convenience init?(named name: String) {
        guard !name.isEmpty else { return nil }
        let key = "\(name)\u{0}\(UIScreen.mainScale)"
        if let cached = UIImage.namedCache.withLock({ $0[key] }) {
            self.init(
                bitmaps: cached.bitmaps, scale: cached.scale, renderingMode: cached.renderingMode,
                alignmentRectInsets: cached.alignmentRectInsets, images: cached.images, duration: cached.duration,
                frameDurations: cached.frameDurations)
            return
        }
        guard let path = UIImage.resolve(named: name) else { return nil }
        self.init(contentsOfFile: path)
        UIImage.namedCache.withLock { $0[key] = self }
    }

    private static let namedCache = LockedBox<[String: UIImage]>([:])

    /// Adds a directory to the front of the search list of ``init(named:)``. A Waymark addition (no UIKit
    /// counterpart): on Linux there is no asset catalog, so hosts register their resource folders here.
    /// Thread-safe.
    public static func registerSearchDirectory(_ path: String) {
        searchState.withLock { $0.insert(path, at: 0) }
        namedCache.withLock { $0.removeAll() }
        UIColor.namedCache.withLock { $0.removeAll() }
    }

    /// Removes every directory added with ``registerSearchDirectory(_:)``. Thread-safe.
    public static func removeAllSearchDirectories() {
        searchState.withLock { $0.removeAll() }
        namedCache.withLock { $0.removeAll() }
        UIColor.namedCache.withLock { $0.removeAll() }
    }

    private static let searchState = LockedBox<[String]>([])

    /// The candidate file names for `name`, in search order, for a screen of the given scale.
    static func candidateFileNames(for name: String, screenScale: CGFloat) -> [String] {
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : (name as NSString).deletingPathExtension
        let preferred = Int(min(3, max(1, screenScale.rounded())))
        let scales = [preferred] + [3, 2, 1].filter { $0 != preferred }
        func variant(_ s: Int, _ e: String) -> String { s == 1 ? "\(stem).\(e)" : "\(stem)@\(s)x.\(e)" }
        if !ext.isEmpty {
            return [name] + scales.filter { $0 != 1 }.map { variant($0, ext) }
        }
        return scales.map { variant($0, "png") } + ["jpg", "jpeg", "gif"].map { "\(stem).\($0)" }
    }

    /// The directories ``init(named:)`` searches, in order.
    static var searchDirectories: [String] {
        var dirs = searchState.withLock { $0 }
        if let resources = Bundle.main.resourcePath { dirs.append(resources) }
        dirs.append(FileManager.default.currentDirectoryPath)
        return dirs
    }

    static func resolve(named name: String) -> String? {
        let candidates = candidateFileNames(for: name, screenScale: UIScreen.mainScale)
        let fm = FileManager.default
        for dir in searchDirectories {
            for file in candidates {
                let path = (dir as NSString).appendingPathComponent(file)
                if fm.fileExists(atPath: path) { return path }
            }
            if let listing = try? fm.contentsOfDirectory(atPath: dir) {
                let lower = Dictionary(listing.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
                for file in candidates {
                    if let match = lower[file.lowercased()] { return (dir as NSString).appendingPathComponent(match) }
                }
            }
        }
        return nil
    }

    static func scale(ofFile path: String) -> CGFloat {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if stem.hasSuffix("@3x") { return 3 }
        if stem.hasSuffix("@2x") { return 2 }
        return 1
    }

    /// An animated image cycling through `images` once every `duration` seconds, as UIKit's
    /// `animatedImage(with:duration:)`. `nil` when `images` is empty. Frames are shown for equal times; the first
    /// frame's scale is used; frames should share a size (GoogleMaps requires it for marker icons).
    public static func animatedImage(with images: [UIImage], duration: TimeInterval) -> UIImage? {
        guard let first = images.first else { return nil }
        let stills = images.flatMap { $0.images ?? [$0] }
        return UIImage(
            bitmaps: first.bitmaps, scale: first.scale, renderingMode: first.renderingMode,
            alignmentRectInsets: first.alignmentRectInsets, images: stills,
            duration: duration.isFinite && duration > 0 ? duration : 0)
    }

    /// The same image with another rendering mode (`.alwaysTemplate` makes image views fill it with their tint).
    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage {
        UIImage(
            bitmaps: bitmaps, scale: scale, renderingMode: renderingMode, alignmentRectInsets: alignmentRectInsets,
            images: images?.map { $0.withRenderingMode(renderingMode) }, duration: duration,
            frameDurations: frameDurations)
    }

    /// The same image with other alignment insets (points).
    public func withAlignmentRectInsets(_ alignmentInsets: UIEdgeInsets) -> UIImage {
        UIImage(
            bitmaps: bitmaps, scale: scale, renderingMode: renderingMode, alignmentRectInsets: alignmentInsets,
            images: images, duration: duration, frameDurations: frameDurations)
    }

    /// A new image whose pixels are this image's alpha filled with `color`, rendering mode `.alwaysOriginal`
    /// (UIKit's `withTintColor(_:)`).
    public func withTintColor(_ color: UIColor) -> UIImage {
        let tinted = bitmaps.map { source -> CairoBitmap in
            let bitmap = CairoBitmap.blank(width: source.width, height: source.height)
            let cr = cairo_create(bitmap.surface)
            let (r, g, b, a) = color.rgba
            cairo_set_source_rgba(cr, Double(r), Double(g), Double(b), Double(a))
            cairo_mask_surface(cr, source.surface, 0, 0)
            cairo_destroy(cr)
            cairo_surface_flush(bitmap.surface)
            return bitmap
        }
        return UIImage(
            bitmaps: tinted, scale: scale, renderingMode: .alwaysOriginal, alignmentRectInsets: alignmentRectInsets,
            images: images?.map { $0.withTintColor(color) }, duration: duration, frameDurations: frameDurations)
    }

    /// ``withTintColor(_:)`` with `renderingMode` instead of `.alwaysOriginal` (UIKit's
    /// `withTintColor(_:renderingMode:)`): an SF Symbol tinted for a marker icon, for example.
    public func withTintColor(_ color: UIColor, renderingMode: RenderingMode) -> UIImage {
        withTintColor(color).withRenderingMode(renderingMode)
    }

    /// The image encoded as PNG (8-bit RGBA), or nil if encoding fails.
    public func pngData() -> Data? { bitmaps.first?.pngFileData() }

    /// Not API: the first frame's pixels (CairoGraphics' ARGB32 `CairoSurface`, premultiplied, pixel size =
    /// ``size`` × ``scale``; read them through `withPixels`), for the map's marker sprites and the window backend.
    /// Owned by the image and shared with it: never write to it.
    package var surface: CairoSurface? { bitmaps.first }

    /// Not API: the surface of the frame shown at `time` seconds into the animation (the first frame for still
    /// images), with the same rules as ``surface``.
    package func surface(atTime time: TimeInterval) -> CairoSurface? {
        frame(at: time).bitmaps.first
    }

    /// The bitmap of a still image whose only holder is the caller (who checked that with
    /// `isKnownUniquelyReferenced`) when no other image or caller shares it, taken out for drawing into again (the
    /// window host's frames); the image is empty afterwards. Nil, the image unchanged, when the bitmap is shared.
    func takeReusableBitmap() -> CairoBitmap? {
        var frames = bitmaps
        bitmaps = []
        guard images == nil, frames.count == 1, isKnownUniquelyReferenced(&frames[0]) else {
            bitmaps = frames
            return nil
        }
        return frames[0]
    }

    /// The still image shown `time` seconds after an animation started (looping); `self` for a still image.
    func frame(at time: TimeInterval) -> UIImage {
        guard let images, !images.isEmpty else { return self }
        guard duration > 0, time.isFinite else { return images[0] }
        var phase = time.truncatingRemainder(dividingBy: duration)
        if phase < 0 { phase += duration }
        if let frameDurations, frameDurations.count == images.count {
            for (index, length) in frameDurations.enumerated() {
                if phase < length { return images[index] }
                phase -= length
            }
            return images[images.count - 1]
        }
        let index = Int(phase / duration * Double(images.count))
        return images[min(max(index, 0), images.count - 1)]
    }

    /// Draws the image into `cr` scaled to fill `rect` (points); template images are filled with `tint` when given.
    func draw(in cr: OpaquePointer, rect: CGRect, tint: UIColor?, alpha: CGFloat = 1) {
        guard let bitmap = bitmaps.first, bitmap.width > 0, bitmap.height > 0, rect.width > 0, rect.height > 0 else {
            return
        }
        cairo_save(cr)
        cairo_translate(cr, Double(rect.minX), Double(rect.minY))
        cairo_scale(cr, Double(rect.width) / Double(bitmap.width), Double(rect.height) / Double(bitmap.height))
        if renderingMode == .alwaysTemplate, let tint {
            let (r, g, b, a) = tint.rgba
            cairo_set_source_rgba(cr, Double(r), Double(g), Double(b), Double(a * alpha))
            let pattern = cairo_pattern_create_for_surface(bitmap.surface)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_mask(cr, pattern)
            cairo_pattern_destroy(pattern)
        } else {
            cairo_set_source_surface(cr, bitmap.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint_with_alpha(cr, Double(alpha))
        }
        cairo_restore(cr)
    }

    /// Draws the image into the current graphics context (see `UIGraphicsGetCurrentContext()`), scaled to `rect`.
    /// Does nothing when there is no current context.
    public func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        draw(in: context.cairo, rect: rect, tint: nil)
    }

    /// Draws the image at its point size with its top-left corner at `point` in the current graphics context.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }
}

/// A value guarded by a lock, for the few process-wide settings that are not main-actor bound.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The display, as UIKit's `UIScreen`: on Linux only its scale and bounds, which the host sets.
@preconcurrency @MainActor public final class UIScreen {
    /// The one screen.
    public static let main = UIScreen()

    /// Pixels per point used by `UIImage(named:)` to prefer `@2x`/`@3x` files and by image renderers whose format
    /// scale is left at its default. Defaults to 1. A Waymark extension: settable because the host (not a device)
    /// decides it. Values ≤ 0 or non-finite are ignored.
    public var scale: CGFloat {
        get { UIScreen.mainScale }
        set { if newValue > 0, newValue.isFinite { UIScreen.scaleBox.withLock { $0 = newValue } } }
    }

    /// The screen's rectangle in points. Defaults to 390 × 844 (a common phone size); hosts may set it.
    public var bounds = CGRect(x: 0, y: 0, width: 390, height: 844)

    package nonisolated static var mainScale: CGFloat { scaleBox.withLock { $0 } }
    private nonisolated static let scaleBox = LockedBox<CGFloat>(1)
}
