/// A problem with a source, reported once per source: a failed request (MapNetwork's `HTTPTileSource.onProblem`)
/// or a tile whose content cannot be used (MapPipeline's `RasterProblemReporter`).
public struct SourceProblem: Sendable, Equatable, CustomStringConvertible {
    /// The style source's id.
    public var source: String
    /// The URL that failed; for a file source, the file and the tile's `z/x/y` (``TileLocating``).
    public var url: String
    /// What went wrong.
    public var message: String

    /// Creates a report.
    public init(source: String, url: String, message: String) {
        self.source = source
        self.url = url
        self.message = message
    }

    /// `source 'id': url: message`.
    public var description: String { "source '\(source)': \(url): \(message)" }
}
