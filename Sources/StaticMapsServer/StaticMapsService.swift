import Foundation
import MapGeometry
import MapStorage
import MicroHTTPServer
import StaticMaps
import Synchronization
import URLSigning

/// The static maps service: routes a request to Google's Static Maps API (`/maps/api/staticmap`), tileserver-gl's
/// routes (`/styles/{id}/…`), `/health` and `/metrics`, and renders on a ``RenderPool``. Used by `waymark serve`
/// behind ``HTTPServer`` and by `waymark static` directly: one path for both. Waymark's own.
///
/// Threads: ``respond(_:)`` is called on the HTTP library's threads, concurrently; it blocks while the pool renders.
public final class StaticMapsService: Sendable {
    /// The configuration.
    public let config: StaticMapsConfig
    /// The counters behind `/metrics`.
    public let metrics = ServerMetrics()
    /// The render threads.
    public let pool: RenderPool<StaticMapRenderer>
    /// The version of the data and styles, part of every ETag.
    public let dataVersion: String
    /// A place name and the request's region (ISO country code) → its position.
    private let resolvePlace: @Sendable (String, String?) -> LatLng?
    private let icons: IconStore
    private let cache: ImageCache
    private let draining = Atomic<Bool>(false)
    /// The archives, fonts and sprites of the local styles (`/data/…`, `/fonts/…`, `/styles/{id}/sprite…`).
    let served: ServedData

    /// Starts the render threads.
    /// - Parameters:
    ///   - config: the configuration.
    ///   - resolvePlace: a place name → its position (`center=Berkeley,CA`); default: the bundled GeoNames places
    ///     (``GeoNamesPlaces``), biased to the request's `region`. A resolver given here is not told the region.
    /// - Throws: ``StaticMapsConfigError`` when a configured style file is missing.
    public init(
        config: StaticMapsConfig,
        resolvePlace: (@Sendable (String) -> LatLng?)? = nil
    ) throws {
        for id in config.styles.keys.sorted() {
            guard let location = config.styleLocation(id) else { continue }
            if !location.contains("://") && !FileManager.default.fileExists(atPath: location) {
                throw StaticMapsConfigError(message: "style '\(id)': no file at \(location)")
            }
        }
        self.config = config
        if let resolvePlace {
            self.resolvePlace = { name, _ in resolvePlace(name) }
        } else {
            self.resolvePlace = { GeoNamesPlaces.locate($0, region: $1) }
            // Index the places now rather than on the first request that names one.
            DispatchQueue.global(qos: .utility).async { GeoNamesPlaces.preload() }
        }
        self.cache = ImageCache(byteLimit: config.cacheMegabytes << 20)
        self.served = ServedData(config: config)
        var version = ""
        for id in config.styles.keys.sorted() {
            let location = config.styleLocation(id) ?? ""
            version += id + "=" + location + ":" + Self.fileStamp(location) + ";"
        }
        for file in ["world.mbtiles", "cities.mbtiles", "helsinki.mbtiles"] {
            version += file + ":" + Self.fileStamp(DataFiles.path(file)) + ";"
        }
        dataVersion = Self.hex(URLSigning.sha1(Array(version.utf8))).prefix(12).description
        let icons = IconStore(hosts: config.iconHosts, maxBytes: config.maxIconBytes, maxSide: config.maxIconSide)
        self.icons = icons
        let renderConfig = config
        pool = RenderPool(workers: config.workerCount, queueLimit: config.queue) {
            StaticMapRenderer(config: renderConfig, icons: icons)
        }
    }

    /// Stops the render threads after the queued jobs.
    public func shutdown() { pool.shutdown() }

    /// Marks the service as draining: `/health` answers 503 so load balancers stop sending requests.
    public func beginDraining() { draining.store(true, ordering: .relaxed) }

    /// Whether ``beginDraining()`` was called.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    private static func fileStamp(_ path: String) -> String {
        guard let a = try? FileManager.default.attributesOfItem(atPath: path) else { return "-" }
        let size = (a[.size] as? NSNumber)?.intValue ?? 0
        let time = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size)@\(Int(time))"
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// Answers one request (any thread; blocks while rendering).
    public func respond(_ request: ServerRequest) -> ServerResponse {
        let start = Date()
        let (path, query) = StaticMapQuery.split(target: request.target)
        let (route, response) = route(request, path: path, query: query, start: start)
        metrics.request(route: route, status: response.status, seconds: Date().timeIntervalSince(start))
        return Self.encoded(response, acceptEncoding: request.headers["accept-encoding"])
    }

    /// Text answers (JSON, plain text, the Prometheus exposition) of at least 256 bytes are sent gzip-compressed when
    /// the request's `Accept-Encoding` lists `gzip` (or `*`) with a non-zero quality; every text answer says
    /// `Vary: Accept-Encoding`. Images are already compressed and are sent as they are.
    static func encoded(_ response: ServerResponse, acceptEncoding: String?) -> ServerResponse {
        guard let type = response.header("Content-Type")?.lowercased(),
            type.hasPrefix("text/") || type.hasPrefix("application/json")
        else { return response }
        var response = response
        response.headers.append(("Vary", "Accept-Encoding"))
        guard response.body.count >= 256, acceptsGzip(acceptEncoding),
            let compressed = try? gzipCompress(response.body), compressed.count < response.body.count
        else { return response }
        response.body = compressed
        response.headers.append(("Content-Encoding", "gzip"))
        return response
    }

    /// Whether an `Accept-Encoding` value (RFC 9110 §12.5.3) allows gzip: a `gzip`, `x-gzip` or `*` coding whose
    /// `q` is not 0.
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, ["gzip", "x-gzip", "*"].contains(coding) else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }

    private func route(_ request: ServerRequest, path: String, query: String, start: Date) -> (String, ServerResponse) {
        guard request.method == "GET" || request.method == "HEAD" else {
            return ("other", .text(405, "Method \(request.method) not allowed.\n", headers: [("Allow", "GET, HEAD")]))
        }
        guard request.target.utf8.count <= config.limits.maxURLLength else {
            return (
                Self.routeName(path),
                .text(414, "Invalid request. The URL is longer than \(config.limits.maxURLLength) characters.\n")
            )
        }
        switch path {
        case "/maps/api/staticmap":
            return ("staticmap", staticMap(request, query: query, start: start))
        case "/health":
            if draining.load(ordering: .relaxed) { return ("health", .text(503, "draining\n")) }
            return ("health", .text(200, "ok\n", headers: [("Cache-Control", "no-store")]))
        case "/metrics":
            let text = metrics.exposition(
                queueDepth: pool.queueDepth, busyWorkers: pool.busyWorkers, workers: pool.workerCount)
            return (
                "metrics",
                ServerResponse(
                    status: 200,
                    headers: [("Content-Type", "text/plain; version=0.0.4"), ("Cache-Control", "no-store")],
                    body: Array(text.utf8))
            )
        case "/styles.json", "/data.json", "/fonts.json":
            return (Self.routeName(path), list(request, path: path, query: query))
        default:
            if path.hasPrefix("/styles/") { return tileserver(request, path: path, query: query, start: start) }
            if path.hasPrefix("/data/") || path.hasPrefix("/fonts/") {
                return (Self.routeName(path), servedFile(request, path: path, query: query))
            }
            return ("other", .text(404, "Not found: \(path)\n"))
        }
    }

    /// The `/metrics` route label of a path: `staticmap`, `health`, `metrics`, `tilejson`, `style`, `static`, `tile`,
    /// `sprite`, `data-tilejson`, `data`, `fonts`, `styles-list`, `data-list`, `fonts-list` or `other`.
    static func routeName(_ path: String) -> String {
        switch path {
        case "/maps/api/staticmap": return "staticmap"
        case "/health": return "health"
        case "/metrics": return "metrics"
        case "/styles.json": return "styles-list"
        case "/data.json": return "data-list"
        case "/fonts.json": return "fonts-list"
        default:
            if path.hasPrefix("/fonts/") { return "fonts" }
            if path.hasPrefix("/data/") {
                return path.split(separator: "/", omittingEmptySubsequences: false).count == 3
                    ? "data-tilejson" : "data"
            }
            guard path.hasPrefix("/styles/") else { return "other" }
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2)
            if parts.count == 1, parts.first!.hasSuffix(".json") { return "tilejson" }
            if parts.count == 2, parts.last == "style.json" { return "style" }
            if parts.count == 2, parts.last!.hasPrefix("sprite") { return "sprite" }
            if parts.count == 4 { return parts.dropFirst().first == "static" ? "static" : "tile" }
            return "other"
        }
    }

    /// `/maps/api/staticmap`.
    private func staticMap(_ request: ServerRequest, query rawQuery: String, start: Date) -> ServerResponse {
        let query = StaticMapQuery(rawQuery)
        let parsed: StaticMapRequest
        do { parsed = try StaticMapRequest.parse(query, limits: config.limits) } catch {
            return .text(error.status, error.description + "\n")
        }
        if let refusal = checkKey(query, target: request.target) { return refusal }
        let styleID: String
        if let mapID = parsed.mapID {
            guard config.styles[mapID] != nil else {
                return .text(400, "Invalid request. Invalid 'map_id' parameter: unknown map ID '\(mapID)'.\n")
            }
            styleID = mapID
        } else {
            styleID = config.mapTypes[parsed.mapType.rawValue] ?? defaultStyleID
        }
        for group in parsed.markers {
            if let icon = group.icon, !icons.allows(icon) {
                return .text(
                    400, "Invalid request. Invalid 'markers' parameter: icon host of '\(icon)' is not allowed.\n")
            }
        }
        let scene: StaticMapScene
        let region = parsed.regionCountryCode
        do { scene = try StaticMapScene(request: parsed, resolve: { resolvePlace($0, region) }) } catch {
            return .text(error.status, error.description + "\n")
        }
        // The ETag covers what is drawn: the parameters without key and signature, the style and the data.
        let normalized =
            query.parameters.filter { $0.name != "key" && $0.name != "signature" }
            .map { $0.name + "=" + $0.value }.joined(separator: "\u{0}")
        let etag =
            "\""
            + Self.hex(URLSigning.sha1(Array((normalized + "\u{0}" + styleID + "\u{0}" + dataVersion).utf8)))
            .prefix(32) + "\""
        let rulesKey = query.values("style").joined(separator: "\u{0}")
        return image(
            request, etag: etag, contentType: parsed.format.contentType, start: start
        ) { renderer in
            try renderer.render(
                scene, styleID: styleID, rules: parsed.style, rulesKey: rulesKey, language: parsed.language,
                format: parsed.format)
        }
    }

    /// The style drawn without `map_id` or a configured map type: `default`, else the first id.
    var defaultStyleID: String {
        config.styles["default"] != nil ? "default" : config.styles.keys.sorted().first ?? "default"
    }

    /// Answers 304, a cached image, or renders on the pool (503 when full, 504 past the deadline).
    private func image(
        _ request: ServerRequest, etag: String, contentType: String, start: Date,
        render: @escaping (StaticMapRenderer) throws -> [UInt8]
    ) -> ServerResponse {
        let headers: [(name: String, value: String)] = [
            ("ETag", etag), ("Cache-Control", config.cacheControl),
        ]
        if let match = request.headers["if-none-match"],
            match == "*"
                || match.split(separator: ",").contains(where: {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag
                })
        {
            metrics.cacheHit("etag")
            return ServerResponse(status: 304, headers: headers)
        }
        if let cached = cache.get(etag) {
            metrics.cacheHit("memory")
            return ServerResponse(status: 200, headers: [("Content-Type", contentType)] + headers, body: cached)
        }
        let deadline = start.addingTimeInterval(Double(config.deadlineMs) / 1000)
        let metrics = self.metrics
        let outcome = pool.run(deadline: deadline) { renderer -> [UInt8] in
            let t = Date()
            defer { metrics.render(seconds: Date().timeIntervalSince(t)) }
            return try render(renderer)
        }
        switch outcome {
        case .done(let bytes):
            cache.put(etag, bytes)
            return ServerResponse(status: 200, headers: [("Content-Type", contentType)] + headers, body: bytes)
        case .failed(let error as StaticMapError):
            return .text(error.status, error.description + "\n")
        case .failed(let error):
            return .text(500, "The map could not be drawn: \(error)\n")
        case .queueFull:
            return .text(503, "The server is busy; retry shortly.\n", headers: [("Retry-After", "1")])
        case .timedOut:
            return .text(504, "The map was not drawn within \(config.deadlineMs) ms.\n")
        }
    }

    /// Keys and signatures, the same rule on every image and data route (`/maps/api/staticmap` and all of
    /// `/styles/…`; `/health` and `/metrics` stay open): nothing when no keys are configured; else a listed `key`, and
    /// for a key with a secret a `signature` over the path and query before `&signature=`, as Google signs. Google
    /// requires the signature to be the last parameter; one placed elsewhere is refused with that reason. A key
    /// without a secret needs no signature on any route.
    private func checkKey(_ query: StaticMapQuery, target: String) -> ServerResponse? {
        guard !config.keys.isEmpty else { return nil }
        guard let key = query.value("key") else {
            return .text(403, "Invalid request. Missing the 'key' parameter.\n")
        }
        guard let entry = config.keys[key] else {
            return .text(403, "Invalid request. The provided API key is invalid: 'key' parameter.\n")
        }
        guard let secret = entry else { return nil }
        guard let signature = query.value("signature"),
            let range = target.range(of: "signature=", options: .backwards),
            range.lowerBound > target.startIndex,
            ["&", "?"].contains(target[target.index(before: range.lowerBound)])
        else {
            return .text(403, "Invalid request. Missing the 'signature' parameter (the key requires signed URLs).\n")
        }
        guard query.parameters.last?.name == "signature", !target[range.upperBound...].contains("&") else {
            return .text(403, "Invalid request. The 'signature' parameter must be the last parameter of the URL.\n")
        }
        let signed = String(target[..<target.index(before: range.lowerBound)])
        guard URLSigning.verify(pathAndQuery: signed, signature: signature, secret: secret) else {
            return .text(403, "Invalid request. The 'signature' parameter is not valid for this URL and key.\n")
        }
        return nil
    }

    // MARK: - tileserver-gl routes

    private func tileserver(_ request: ServerRequest, path: String, query: String, start: Date) -> (
        String, ServerResponse
    ) {
        if let refusal = checkKey(StaticMapQuery(query), target: request.target) {
            return (Self.routeName(path), refusal)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        guard let first = parts.first, !first.isEmpty else { return ("other", .text(404, "Not found: \(path)\n")) }
        // /styles/{id}.json: TileJSON of the raster tiles.
        if parts.count == 1, first.hasSuffix(".json") {
            let id = String(first.dropLast(5))
            guard config.styles[id] != nil else { return ("tilejson", .text(404, "Unknown style '\(id)'.\n")) }
            let keyQuery = Self.keyQuery(query)
            // Serialised, not interpolated: the Host header is the client's text and may hold quotes.
            let tileJSON: [String: Any] = [
                "tilejson": "2.0.0", "name": id, "scheme": "xyz", "minzoom": 0, "maxzoom": 22,
                "bounds": [-180, -85.0511, 180, 85.0511], "format": "png",
                "tiles": ["\(baseURL(request))/styles/\(id)/{z}/{x}/{y}.png\(keyQuery)"],
            ]
            return ("tilejson", ServedData.json(tileJSON))
        }
        let id = first
        guard config.styles[id] != nil, let location = config.styleLocation(id) else {
            return ("other", .text(404, "Unknown style '\(id)'.\n"))
        }
        // /styles/{id}/style.json, its local files replaced by this server's routes (as tileserver-gl does).
        if parts.count == 2, parts[1] == "style.json" {
            guard !location.contains("://"),
                let body = served.servedStyle(
                    location: location, styleID: id, base: baseURL(request), query: Self.keyQuery(query))
            else {
                return ("style", .text(404, "Style '\(id)' is not a readable local file.\n"))
            }
            return ("style", ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: body))
        }
        // /styles/{id}/sprite[@2x].{json,png}
        if parts.count == 2,
            let sprite = served.sprite(location: location, name: parts[1], cacheControl: config.cacheControl)
        {
            return ("sprite", sprite)
        }
        // /styles/{id}/static/{lon},{lat},{zoom}[@{bearing}[,{pitch}]]/{w}x{h}[@2x].{format}
        if parts.count == 4, parts[1] == "static" {
            return ("static", tileserverStatic(request, id: id, camera: parts[2], sizePart: parts[3], start: start))
        }
        // /styles/{id}/{z}/{x}/{y}[@2x].png
        if parts.count == 4, let z = Int(parts[1]), let x = Int(parts[2]) {
            var last = parts[3]
            guard last.hasSuffix(".png") else { return ("tile", .text(404, "Tiles are .png: \(path)\n")) }
            last.removeLast(4)
            var scale = 1.0
            if last.hasSuffix("@2x") {
                scale = 2
                last.removeLast(3)
            }
            guard let y = Int(last), (0...22).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else {
                return ("tile", .text(400, "Invalid tile address \(path).\n"))
            }
            let etag =
                "\""
                + Self.hex(URLSigning.sha1(Array("\(id)/\(z)/\(x)/\(y)@\(scale)\u{0}\(dataVersion)".utf8)))
                .prefix(32) + "\""
            return (
                "tile",
                image(request, etag: etag, contentType: "image/png", start: start) { renderer in
                    try renderer.tile(styleID: id, z: z, x: x, y: y, scale: scale)
                }
            )
        }
        return ("other", .text(404, "Not found: \(path)\n"))
    }

    /// With keys, the URLs a TileJSON or style lists carry the request's key (`?key=…`, else `""`).
    private static func keyQuery(_ query: String) -> String {
        StaticMapQuery(query).value("key").map { "?key=" + ServedData.pathEncoded($0) } ?? ""
    }

    /// The absolute URL of this server, without a trailing `/`: the configured ``StaticMapsConfig/publicURL``, else
    /// `http://` and the request's `Host` (as sent: the URLs are serialised into JSON, never interpolated), else the
    /// bind address and port.
    func baseURL(_ request: ServerRequest) -> String {
        if let url = config.publicURL { return url }
        if let host = request.headers["host"], !host.isEmpty { return "http://" + host }
        return "http://\(config.bind):\(config.port)"
    }

    /// tileserver-gl's lists: `/styles.json` (the served styles), `/data.json` (the data sets' TileJSON) and
    /// `/fonts.json` (the font names), keyed like the routes they lead to.
    private func list(_ request: ServerRequest, path: String, query: String) -> ServerResponse {
        if let refusal = checkKey(StaticMapQuery(query), target: request.target) { return refusal }
        switch path {
        case "/styles.json":
            return ServedData.styleList(config: config, base: baseURL(request), query: Self.keyQuery(query))
        case "/data.json": return served.dataList(base: baseURL(request), query: Self.keyQuery(query))
        default: return served.fontList()
        }
    }

    /// `/data/…` and `/fonts/…` (tileserver-gl's routes) over ``ServedData``.
    private func servedFile(_ request: ServerRequest, path: String, query: String) -> ServerResponse {
        if let refusal = checkKey(StaticMapQuery(query), target: request.target) { return refusal }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        if path.hasPrefix("/fonts/") {
            guard parts.count == 2 else { return .text(404, "Not found: \(path)\n") }
            return served.glyphs(fontstack: parts[0], range: parts[1], cacheControl: config.cacheControl)
        }
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let id = parts[0].dropLast(5).removingPercentEncoding ?? ""
            return served.tileJSON(id: id, base: baseURL(request), query: Self.keyQuery(query))
        }
        guard parts.count == 4 else { return .text(404, "Not found: \(path)\n") }
        return served.tile(
            id: parts[0].removingPercentEncoding ?? "", parts: Array(parts[1...]),
            acceptsGzip: Self.acceptsGzip(request.headers["accept-encoding"]), cacheControl: config.cacheControl)
    }

    private func tileserverStatic(
        _ request: ServerRequest, id: String, camera: String, sizePart: String, start: Date
    ) -> ServerResponse {
        // Camera: lon,lat,zoom[@bearing[,pitch]].
        let cameraParts = camera.split(separator: "@", maxSplits: 1)
        let position = cameraParts[0].split(separator: ",").map { Double($0) }
        guard position.count == 3, let lon = position[0], let lat = position[1], let zoom = position[2],
            abs(lat) <= 90, abs(lon) <= 180, (0...22).contains(zoom)
        else {
            return .text(400, "Invalid request. The camera must be {lon},{lat},{zoom}, got '\(camera)'.\n")
        }
        var bearing = 0.0
        var pitch = 0.0
        if cameraParts.count == 2 {
            let bp = cameraParts[1].split(separator: ",").map { Double($0) }
            guard (1...2).contains(bp.count), bp.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                return .text(400, "Invalid request. The bearing and pitch must be numbers, got '\(camera)'.\n")
            }
            bearing = bp[0]!
            pitch = bp.count == 2 ? min(60, max(0, bp[1]!)) : 0
        }
        guard let dot = sizePart.lastIndex(of: ".") else {
            return .text(400, "Invalid request. The size must be {w}x{h}[@2x].{format}, got '\(sizePart)'.\n")
        }
        var size = String(sizePart[..<dot])
        let formatName = String(sizePart[sizePart.index(after: dot)...])
        var scale = 1
        if size.hasSuffix("@2x") {
            scale = 2
            size.removeLast(3)
        }
        let format: StaticMapFormat? = ["png": .png, "jpg": .jpg, "jpeg": .jpg][formatName]
        let wh = size.split(separator: "x").map { Int($0) }
        guard let format, wh.count == 2, let w = wh[0], let h = wh[1], (1...config.limits.maxSize).contains(w),
            (1...config.limits.maxSize).contains(h), w * h * scale * scale <= config.limits.maxPixels
        else {
            return .text(
                400,
                "Invalid request. The size must be {w}x{h}[@2x].png|jpg within the server's limits, got '\(sizePart)'.\n"
            )
        }
        var scene: StaticMapScene
        var r = StaticMapRequest()
        r.center = .coordinate(LatLng(latitude: lat, longitude: lon))
        r.zoom = 0
        r.width = w
        r.height = h
        r.scale = scale
        do { scene = try StaticMapScene(request: r, resolve: { _ in nil }) } catch {
            return .text(400, "Invalid request. \(error)\n")
        }
        // tileserver-gl's zoom is MapLibre's (512-pixel tiles): one more on Google's 256-point scale.
        scene.camera.zoom = zoom + 1
        scene.camera.bearing = bearing
        scene.camera.pitch = pitch
        let etag =
            "\""
            + Self.hex(URLSigning.sha1(Array("\(id)/\(camera)/\(sizePart)\u{0}\(dataVersion)".utf8)))
            .prefix(32) + "\""
        let frozen = scene
        return image(request, etag: etag, contentType: format.contentType, start: start) { renderer in
            try renderer.render(frozen, styleID: id, rules: nil, rulesKey: "", language: nil, format: format)
        }
    }
}

/// The rendered images by ETag, least recently used dropped first over the byte budget. Thread-safe.
final class ImageCache: Sendable {
    private struct State {
        var entries: [String: (bytes: [UInt8], tick: Int)] = [:]
        var bytes = 0
        var tick = 0
    }
    private let state = Mutex(State())
    private let byteLimit: Int

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    func get(_ key: String) -> [UInt8]? {
        state.withLock { s in
            guard let hit = s.entries[key] else { return nil }
            s.tick += 1
            s.entries[key] = (hit.bytes, s.tick)
            return hit.bytes
        }
    }

    func put(_ key: String, _ bytes: [UInt8]) {
        guard byteLimit > 0, bytes.count <= byteLimit / 4 else { return }
        state.withLock { s in
            s.tick += 1
            if let old = s.entries[key] { s.bytes -= old.bytes.count }
            s.entries[key] = (bytes, s.tick)
            s.bytes += bytes.count
            while s.bytes > byteLimit, let oldest = s.entries.min(by: { $0.value.tick < $1.value.tick }) {
                s.bytes -= oldest.value.bytes.count
                s.entries[oldest.key] = nil
            }
        }
    }
}
