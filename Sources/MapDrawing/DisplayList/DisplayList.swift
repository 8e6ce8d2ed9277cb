import MapGeometry

/// An ordered list of ``DrawCommand``s for one frame or one tile image, with the frame size in points and the device
/// scale factor (device pixels per point).
///
/// A display list is a plain value: engine code builds it, tests compare its ``description`` text, and a
/// ``RenderBackend`` executes it. The output image is `ceil(size × scale)` device pixels.
public struct DisplayList: Hashable, Sendable, CustomStringConvertible {
    /// Frame size in points; both sides must be > 0 to render anything.
    public var size: ScreenSize
    /// Device pixels per point, `> 0` (1 on a normal screen, 2 on a HiDPI one). Default 1.
    public var scale: Double
    /// The commands in drawing order.
    public var commands: [DrawCommand]
    /// The attribution line of the data the frame shows (the sources' credits, decision D16), for the host to place;
    /// empty when none. The frame pipeline fills it and draws it into ``commands`` too unless the host places it
    /// (`MapRenderOptions.hostPlacesAttribution`). Not part of ``description``.
    public var attribution = ""
    /// Device pixels per point that line meshes' anti-aliasing is sized for (the ½-pixel outset and the 1-pixel
    /// fade, ``LineRasterizer``'s `pixelRatio`) when it is not ``scale``, `> 0`: a tile image drawn finer than the
    /// pitched frame it is warped into keeps the frame's fade, so its lines resample to the edges the frame's own
    /// vectors would have. `nil` (the default) means ``scale``. Not part of ``description``.
    public var antialiasingScale: Double?
    /// Whether the image this list renders (``RenderBackend/renderImage(_:)``,
    /// ``RenderBackend/renderForTransfer(_:)``) will be drawn minified by ``DrawCommand/projectedImage(_:)``s (a
    /// pitched frame's tile images): a backend that reads minified images from box-filtered levels then makes them
    /// with the image, on the thread that renders it, rather than on the first frame that draws it. Default `false`.
    /// Not part of ``description``. Waymark's own (issue 17).
    public var drawnMinified = false

    /// Creates a display list.
    public init(size: ScreenSize, scale: Double = 1, commands: [DrawCommand] = []) {
        self.size = size
        self.scale = scale
        self.commands = commands
    }

    /// The output width in device pixels: `ceil(size.width × scale)`, at least 0.
    public var pixelWidth: Int { Self.pixels(size.width * scale) }
    /// The output height in device pixels: `ceil(size.height × scale)`, at least 0.
    public var pixelHeight: Int { Self.pixels(size.height * scale) }

    /// Appends a command.
    public mutating func append(_ command: DrawCommand) { commands.append(command) }

    /// Appends several commands.
    public mutating func append(contentsOf other: some Sequence<DrawCommand>) { commands.append(contentsOf: other) }

    static func pixels(_ v: Double) -> Int {
        guard v.isFinite, v > 0 else { return 0 }
        return Int(min(v.rounded(.up), 32768))
    }
}
