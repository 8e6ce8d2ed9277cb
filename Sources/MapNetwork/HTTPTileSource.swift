import Foundation
import MapData
import MapGeometry
import MapStorage
import MapStyle

/// A vector ``TileSource`` over HTTP(S) (or `file://`) tile URL templates — a style's `tiles`, or a TileJSON's —
/// through an ``HTTPClient`` (bounded, prioritised, retried, cached). MapLibre style spec semantics:
/// `{z}`, `{x}`, `{y}` (`scheme: "tms"` flips `y`), `{prefix}` (the hex digits of `x % 16` and `y % 16`),
/// `{quadkey}`; several templates are used round-robin by `(x + y) % count`; no request outside `bounds` or the
/// zoom range (over-zoomed above `maxzoom` by the renderer).
///
/// Answers: `200` → the body, inflated when gzip- or zlib-compressed; `404`, `204`, an empty body or outside
/// bounds → no tile (not an error); anything else, a transport error after the retries, or a body that does not
/// inflate → a failure, passed to the renderer (which keeps drawing the parent tile) and reported to ``onProblem``
/// once per source (with the URL).
///
/// Thread rules: immutable apart from the once-only report flag (locked); any thread. ``isAsynchronous`` is `true`:
/// ``requestTile(at:priority:completion:)`` returns at once; ``tileData(at:)`` waits (snapshots only).
public final class HTTPTileSource: TileSource, @unchecked Sendable {
    /// The style source's id (for reports).
    public let id: String
    /// The URL templates.
    public let templates: [String]
    /// `xyz` or `tms`.
    public let scheme: String
    /// `[west, south, east, north]` in degrees.
    public let bounds: [Double]
    /// Lowest zoom, `0...30`.
    public let minZoom: Int
    /// Highest zoom, `minZoom...30`.
    public let maxZoom: Int
    /// Name and attribution.
    public let metadata: TileSourceMetadata
    /// The client the tiles come through.
    public let client: HTTPClient
    /// Called once, with the first failure of this source (any thread). Default: a line on standard error.
    public let onProblem: @Sendable (SourceProblem) -> Void
    private let lock = NSLock()
    private var reported: SourceProblem?

    /// `true`: requests are answered later, from the network.
    public var isAsynchronous: Bool { true }

    /// The first failure reported, or `nil`.
    public var reportedProblem: SourceProblem? {
        lock.lock()
        defer { lock.unlock() }
        return reported
    }

    /// Creates a source.
    /// - Parameters:
    ///   - id: the style source id.
    ///   - templates: URL templates (at least one; an empty list serves nothing).
    ///   - scheme: `tms` flips rows; anything else is `xyz`. Default `xyz`.
    ///   - minZoom: clamped to `0...30`. Default 0.
    ///   - maxZoom: clamped to `minZoom...30`. Default 14.
    ///   - bounds: `[west, south, east, north]`; invalid → the whole world. Default the world.
    ///   - attribution: shown with the map's attribution, or `nil`.
    ///   - client: the HTTP client.
    ///   - onProblem: the once-per-source report. Default: standard error.
    public init(
        id: String, templates: [String], scheme: String = "xyz", minZoom: Int = 0, maxZoom: Int = 14,
        bounds: [Double] = TileJSON.worldBounds, attribution: String? = nil, client: HTTPClient,
        onProblem: @escaping @Sendable (SourceProblem) -> Void = HTTPTileSource.printProblem
    ) {
        self.id = id
        self.templates = templates
        self.scheme = scheme == "tms" ? "tms" : "xyz"
        self.minZoom = min(max(minZoom, 0), 30)
        self.maxZoom = min(max(maxZoom, self.minZoom), 30)
        self.bounds = TileJSON.validBounds(bounds) ?? TileJSON.worldBounds
        self.client = client
        self.onProblem = onProblem
        var meta = TileSourceMetadata()
        meta.name = id
        meta.format = "pbf"
        meta.minZoom = self.minZoom
        meta.maxZoom = self.maxZoom
        meta.bounds = self.bounds
        meta.attribution = attribution
        metadata = meta
    }

    /// Writes `waymark: source 'id': url: message` to standard error.
    public static let printProblem: @Sendable (SourceProblem) -> Void = { problem in
        FileHandle.standardError.write(Data("waymark: \(problem)\n".utf8))
    }

    /// Whether `address` lies inside ``bounds`` (MapLibre's `TileBounds`: the tile range covering the bounds).
    public func contains(_ address: TileID) -> Bool {
        let n = Double(1 << address.z)
        func column(_ lon: Double) -> Int { Int(((lon + 180) / 360 * n).rounded(.down)) }
        func row(_ lat: Double) -> Int {
            let s = sin(lat * .pi / 180)
            return Int(((0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * n).rounded(.down))
        }
        let maxIndex = Int(n) - 1
        let west = min(max(column(bounds[0]), 0), maxIndex)
        let east = min(max(column(bounds[2]), 0), maxIndex)
        let north = min(max(row(bounds[3]), 0), maxIndex)
        let south = min(max(row(bounds[1]), 0), maxIndex)
        return address.x >= west && address.x <= east && address.y >= north && address.y <= south
    }

    /// The URL of a tile, or `nil` outside the zooms, the bounds, or with no template.
    public func url(for address: TileID) -> URL? {
        guard !templates.isEmpty, address.z >= minZoom, address.z <= maxZoom, contains(address)
        else { return nil }
        let y = scheme == "tms" ? (1 << address.z) - 1 - address.y : address.y
        var quadkey = ""
        for i in stride(from: address.z, to: 0, by: -1) {
            let mask = 1 << (i - 1)
            quadkey.append(String((address.x & mask != 0 ? 1 : 0) + (address.y & mask != 0 ? 2 : 0)))
        }
        let text = templates[(address.x + address.y) % templates.count]
            .replacingOccurrences(of: "{z}", with: String(address.z))
            .replacingOccurrences(of: "{x}", with: String(address.x))
            .replacingOccurrences(of: "{y}", with: String(y))
            .replacingOccurrences(
                of: "{prefix}", with: String(address.x % 16, radix: 16) + String(address.y % 16, radix: 16)
            )
            .replacingOccurrences(of: "{quadkey}", with: quadkey)
        return URL(string: text)
    }

    /// Fetches the tile; see the type's documentation for what each answer means.
    public func requestTile(
        at address: TileID, priority: Double, completion: @escaping @Sendable (TileLoadResult) -> Void
    ) -> TileRequestHandle {
        guard let url = url(for: address) else {
            completion(.success(nil))
            return .completed
        }
        return client.get(url, priority: priority) { [self] result in completion(self.tile(from: result, url: url)) }
    }

    /// Fetches the tile and waits (synchronous renderers: snapshots). Frames in asynchronous mode never call it.
    /// - Throws: ``HTTPError`` as reported.
    public func tileData(at address: TileID) throws -> [UInt8]? {
        let box = ResultBox<[UInt8]?>()
        _ = requestTile(at: address, priority: 0) { result in
            box.set(result.mapError { $0 as? HTTPError ?? HTTPError(url: "", message: "\($0)") })
        }
        return try box.wait()
    }

    private func tile(from result: Result<HTTPResponse, HTTPError>, url: URL) -> TileLoadResult {
        switch result {
        case .success(let response) where response.status == 200:
            guard !response.body.isEmpty else { return .success(nil) }
            do {
                return .success(
                    try decompressTileData(response.body, limit: client.loader.options.maxResponseBytes))
            } catch {
                return .failure(report(HTTPError(url: url.absoluteString, message: "bad tile data: \(error)")))
            }
        case .success(let response) where response.status == 404 || response.status == 204:
            return .success(nil)
        case .success(let response):
            return .failure(
                report(HTTPError(url: url.absoluteString, message: "HTTP \(response.status)", status: response.status))
            )
        case .failure(let error):
            return .failure(report(error))
        }
    }

    private func report(_ error: HTTPError) -> HTTPError {
        lock.lock()
        let first = reported == nil
        let problem = SourceProblem(source: id, url: error.url, message: error.message)
        if first { reported = problem }
        lock.unlock()
        if first { onProblem(problem) }
        return error
    }
}

extension HTTPTileSource: TileLocating {
    /// The tile's URL (``url(for:)``), or the source id and `z/x/y` when it has none.
    public func location(of address: TileID) -> String {
        url(for: address)?.absoluteString ?? "source '\(id)' tile \(address)"
    }

    /// `true`: failed requests are reported through ``onProblem``.
    public var reportsOwnFailures: Bool { true }
}
