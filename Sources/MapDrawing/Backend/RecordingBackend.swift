/// A ``RenderBackend`` that draws nothing: it records every display list it is given and returns transparent images,
/// measuring text with a ``FixedAdvanceTextMeasurer``. For engine tests that check frames through
/// ``DisplayList/description`` without Cairo or fonts. Every command is kept as given (``DrawCommand/projectedImage(_:)``
/// included: its homography and area are in the list's text form; ``DrawCommand/glyphRun(_:)`` too: its mask count
/// and device box).
///
/// Thread rules: not thread-safe; use from one thread.
public final class RecordingBackend: RenderBackend {
    /// Every list passed to ``render(_:)`` or ``renderImage(_:)``, in order.
    public private(set) var renderedLists: [DisplayList] = []
    /// Every list passed to ``draw(_:into:)``, with the target it was drawn into, in order.
    public private(set) var drawnLists: [(list: DisplayList, target: any RenderTarget)] = []
    /// Handles currently registered (by ``register(_:)`` or ``renderImage(_:)``), by id.
    public private(set) var registered: [Int: ImageHandle] = [:]
    private var nextID = 1
    private let measurer: FixedAdvanceTextMeasurer

    /// Creates a recorder whose measurer advances `advance × size` points per character (default 0.6).
    public init(advance: Double = 0.6) { measurer = FixedAdvanceTextMeasurer(advance: advance) }

    /// The fixed-advance measurer.
    public var textMeasurer: any TextMeasurer { measurer }

    /// Records `list` and returns a transparent image of its pixel size; throws
    /// ``RenderError/invalidSize(width:height:)`` for an empty list size, as real backends do.
    public func render(_ list: DisplayList) throws -> RasterImage {
        guard list.pixelWidth > 0, list.pixelHeight > 0 else {
            throw RenderError.invalidSize(width: list.pixelWidth, height: list.pixelHeight)
        }
        renderedLists.append(list)
        return RasterImage(width: list.pixelWidth, height: list.pixelHeight, scale: list.scale)
    }

    /// Records `list` and registers a handle of its pixel size.
    public func renderImage(_ list: DisplayList) throws -> ImageHandle {
        guard list.pixelWidth > 0, list.pixelHeight > 0 else {
            throw RenderError.invalidSize(width: list.pixelWidth, height: list.pixelHeight)
        }
        renderedLists.append(list)
        return add(width: list.pixelWidth, height: list.pixelHeight, scale: list.scale)
    }

    /// Records `list` and its target and draws nothing: a recorder accepts every target, so it never throws.
    public func draw(_ list: DisplayList, into target: any RenderTarget) throws {
        drawnLists.append((list, target))
    }

    /// Registers a handle of the image's size (the pixels are not kept).
    public func register(_ image: RasterImage) throws -> ImageHandle {
        guard image.width > 0, image.height > 0 else {
            throw RenderError.invalidSize(width: image.width, height: image.height)
        }
        return add(width: image.width, height: image.height, scale: image.scale)
    }

    /// Forgets the handle.
    public func unregister(_ handle: ImageHandle) { registered[handle.id] = nil }

    private func add(width: Int, height: Int, scale: Double) -> ImageHandle {
        let handle = ImageHandle(id: nextID, pixelWidth: width, pixelHeight: height, scale: scale)
        nextID += 1
        registered[handle.id] = handle
        return handle
    }
}
