import MapGeometry

/// A ``TileSource`` that can name where one of its tiles comes from (a URL, a file and row), for reports about a
/// tile's content such as an undecodable raster image (MapPipeline's `RasterProblemReporter`).
public protocol TileLocating {
    /// Where the tile at `address` is read from: an `http(s)://` URL, or a file path with the tile's `z/x/y`.
    func location(of address: TileID) -> String

    /// Whether the source reports its own failed reads (MapNetwork's `HTTPTileSource` does, once per source, with
    /// the URL), so the renderer reports only its tiles' content. Default `false`.
    var reportsOwnFailures: Bool { get }
}

extension TileLocating {
    /// `false`: the renderer reports the source's failed reads.
    public var reportsOwnFailures: Bool { false }
}
