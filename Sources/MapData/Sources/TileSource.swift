import MapGeometry

/// Where to draw an ancestor tile's geometry when a tile above a source's maxzoom is requested (over-zooming).
///
/// A point at tile coordinate `p` (units of the ancestor's extent `E`) in the ancestor lands at
/// `(p − offset·E/scale) · scale` in the requested tile's coordinates (same extent `E`); that is,
/// `requested = p · scale − offset · E`. Only the part of the ancestor with
/// `offset·E/scale ≤ p < (offset+1)·E/scale` falls inside the requested tile.
public struct OverzoomTransform: Sendable, Hashable {
    /// The tile to load and decode.
    public var source: TileID
    /// `2^(requested.z − source.z)`, ≥ 1.
    public var scale: Int
    /// The requested tile's column inside the ancestor's grid of `scale × scale` sub-tiles, `0..<scale`.
    public var offsetX: Int
    /// The requested tile's row inside the ancestor's grid of `scale × scale` sub-tiles, `0..<scale`.
    public var offsetY: Int

    /// Maps an ancestor tile coordinate to the requested tile's coordinates (Double, unclipped).
    /// - Parameters:
    ///   - x: ancestor tile units, horizontal.
    ///   - y: ancestor tile units, vertical.
    ///   - extent: the layer extent (the same for both tiles).
    /// - Returns: the point in the requested tile's units, `(x · scale − offsetX · extent, y · scale − offsetY ·
    ///   extent)`; not clipped, so points outside the requested tile fall outside `0..<extent`.
    public func apply(x: Double, y: Double, extent: Int) -> (x: Double, y: Double) {
        let s = Double(scale)
        let e = Double(extent)
        return (x * s - Double(offsetX) * e, y * s - Double(offsetY) * e)
    }
}

/// Plans which tile of a source serves a requested tile, given the source's zoom range.
/// - Parameters:
///   - requested: the tile the renderer wants (XYZ).
///   - minZoom: the source's lowest zoom; below it the source shows nothing.
///   - maxZoom: the source's highest zoom; above it the ancestor at `maxZoom` is over-zoomed.
/// - Returns: `nil` when `requested.z < minZoom`; otherwise the tile to load and the
///   transform (scale 1, offset 0 when `requested.z <= maxZoom`).
public func overzoomPlan(for requested: TileID, minZoom: Int, maxZoom: Int) -> OverzoomTransform? {
    guard requested.z >= minZoom, maxZoom >= 0 else { return nil }
    guard requested.z > maxZoom else {
        return OverzoomTransform(source: requested, scale: 1, offsetX: 0, offsetY: 0)
    }
    let d = requested.z - maxZoom
    let ancestor = requested.ancestor(atZoom: maxZoom)
    let scale = 1 << d
    return OverzoomTransform(
        source: ancestor, scale: scale, offsetX: requested.x - ancestor.x * scale,
        offsetY: requested.y - ancestor.y * scale)
}

/// What a tile source says about itself (MBTiles `metadata` table, TileJSON-like).
///
/// Every field is optional because real files omit or garble them; unknown keys are kept in ``extra``.
public struct TileSourceMetadata: Sendable, Equatable {
    /// Human-readable name (`name`).
    public var name: String?
    /// Tile payload format (`format`): `pbf` for vector tiles, or `png`, `jpg`, `webp`, `json`…
    public var format: String?
    /// Bounds in degrees: west, south, east, north (`bounds`), or `nil` when absent or unparsable.
    public var bounds: [Double]?
    /// Default view: longitude, latitude (degrees), zoom (`center`), or `nil`.
    public var center: [Double]?
    /// Lowest zoom with tiles (`minzoom`).
    public var minZoom: Int?
    /// Highest zoom with tiles (`maxzoom`).
    public var maxZoom: Int?
    /// Attribution text, possibly HTML (`attribution`).
    public var attribution: String?
    /// The raw `json` row (holds `vector_layers` for vector tilesets).
    public var json: String?
    /// The `vector_layers` entries of the `json` row, in file order; empty when absent or unparsable.
    public var vectorLayers: [TileSourceVectorLayer] = []
    /// Every other row, by name.
    public var extra: [String: String]

    /// Creates empty metadata.
    public init() {
        extra = [:]
    }
}

/// One entry of a tileset's `vector_layers` (MBTiles 1.3 spec, "Vector tileset metadata"): a layer the tiles contain.
public struct TileSourceVectorLayer: Sendable, Equatable {
    /// The layer name as it appears in the tiles.
    public var id: String
    /// The lowest zoom the layer appears at, when stated.
    public var minZoom: Int?
    /// The highest zoom the layer appears at, when stated.
    public var maxZoom: Int?
    /// Attribute names and their declared types (`String`, `Number`, `Boolean`) or descriptions.
    public var fields: [String: String]

    /// Creates an entry.
    public init(id: String, minZoom: Int? = nil, maxZoom: Int? = nil, fields: [String: String] = [:]) {
        self.id = id
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.fields = fields
    }
}

/// A provider of tile bytes by address, such as an MBTiles file or a directory of `.mvt` files.
///
/// Thread rules: implementations are `Sendable` and may be called from any thread.
public protocol TileSource: Sendable {
    /// The lowest zoom the source has tiles for, `0...30`.
    var minZoom: Int { get }
    /// The highest zoom the source has tiles for, `minZoom...30`; above it callers over-zoom (``overzoomPlan``).
    var maxZoom: Int { get }
    /// What the source says about itself.
    var metadata: TileSourceMetadata { get }
    /// The tile's payload, uncompressed (gzip/zlib already inflated), or `nil` when the source has no such tile.
    /// - Parameter address: the tile, in the primary world (`wrap` 0; callers pass ``TileID/canonical``).
    /// - Returns: the uncompressed tile bytes, or `nil` when the source has no tile at `address`.
    /// - Throws: an error naming the source when it cannot be read (corrupt file, I/O error, bad compression).
    func tileData(at address: TileID) throws -> [UInt8]?
    /// Whether ``requestTile(at:priority:completion:)`` answers later on another thread (network sources) instead
    /// of before returning. Default `false` (TileRequest.swift).
    var isAsynchronous: Bool { get }
    /// Asks for a tile without waiting (the tile-provider seam, TileRequest.swift): `completion` is called once with
    /// the tile, `nil` for no tile, or the error, on any thread; the handle cancels the request. The default reads
    /// ``tileData(at:)`` and answers before returning.
    /// - Parameters:
    ///   - address: an XYZ address.
    ///   - priority: smaller is more urgent (the pipeline passes the distance from the view's centre in tiles).
    ///   - completion: the answer, any thread; must not block.
    /// - Returns: a handle whose ``TileRequestHandle/cancel()`` asks the source to stop working on the request.
    func requestTile(
        at address: TileID, priority: Double, completion: @escaping @Sendable (TileLoadResult) -> Void
    ) -> TileRequestHandle
    /// A name for the data the source serves, equal for two sources that serve the same tiles (an MBTiles or
    /// PMTiles file's path), so renderers share what they decode from it (`MapPipeline.MapEngine`). Default `nil`:
    /// the source's tiles are never shared with another source's.
    var sharingIdentity: String? { get }
}

extension TileSource {
    /// Not shared (see the requirement).
    public var sharingIdentity: String? { nil }

    /// Which tile of this source serves `requested`, with its over-zoom transform (see ``overzoomPlan``).
    public func plan(for requested: TileID) -> OverzoomTransform? {
        overzoomPlan(for: requested, minZoom: minZoom, maxZoom: maxZoom)
    }
}
