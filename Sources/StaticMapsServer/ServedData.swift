import Foundation
import MapData
import MapGeometry
import MapStorage
import MicroHTTPServer

/// The local files behind the configured styles, served on tileserver-gl's data, font and sprite routes so that a
/// style fetched from `/styles/{id}/style.json` is usable by any client. Waymark's own.
///
/// - Data: every local archive source of a style file — `mbtiles://PATH` or `pmtiles://PATH` (also
///   `pmtiles://file://PATH`), resolved against the style's folder — is one data set, named by the file's name
///   without its extension (`world`, `cities`; a second file of the same name gets `-2`, …): `/data/{id}.json`
///   (TileJSON 2.2.0), `/data/{id}/{z}/{x}/{y}.{format}` and the list `/data.json`. A PMTiles archive whose tiles are
///   brotli- or zstd-compressed is not served (Waymark reads neither).
/// - Fonts: the local `glyphs` templates of the style files: `/fonts/{fontstack}/{start}-{end}.pbf` and the list
///   `/fonts.json`. A comma-separated fontstack (at most ``ServedGlyphs/maxFonts`` fonts) merges the listed fonts
///   that have the range, each glyph from the first that has it (``ServedGlyphs``), as tileserver-gl does.
/// - Sprites: a style's local `sprite`: `/styles/{id}/sprite[@2x].{json,png}`.
///
/// Only these files are ever read: request paths name data ids, font directory names and fixed suffixes, never file
/// paths (a fontstack holding `/`, `\`, a control character, or being `.`/`..` answers 400). Memory: the archives are
/// opened once (SQLite reads each tile on demand); a glyph or sprite file above ``maxFileBytes`` is not served.
///
/// Threads: immutable after init; every method may be called from any thread.
final class ServedData: Sendable {
    /// One `.mbtiles` or `.pmtiles` archive.
    struct Dataset: Sendable {
        var id: String
        var path: String
        var source: any ServedArchive
    }

    /// Largest glyph range or sprite file served, bytes.
    static let maxFileBytes = 8 << 20

    /// Data sets by id.
    let datasets: [String: Dataset]
    /// Data id of each archive's standardized absolute path.
    private let idOfPath: [String: String]
    /// Local glyph path templates (`…/{fontstack}/{range}.pbf`), in the order of the style ids.
    let glyphTemplates: [String]

    /// Reads the local style files of `config` (an unreadable or remote style contributes nothing) and opens their
    /// `mbtiles://` and local `pmtiles://` archives (one that does not open is left out; the style keeps that
    /// source's local URL).
    init(config: StaticMapsConfig) {
        var datasets: [String: Dataset] = [:]
        var idOfPath: [String: String] = [:]
        var templates: [String] = []
        for styleID in config.styles.keys.sorted() {
            guard let location = config.styleLocation(styleID), !location.contains("://"),
                let root = Self.readStyle(location)
            else { continue }
            let folder = URL(fileURLWithPath: location).deletingLastPathComponent()
            if let sources = root["sources"] as? [String: Any] {
                for name in sources.keys.sorted() {
                    guard let source = sources[name] as? [String: Any], let url = source["url"] as? String,
                        let found = Self.archivePath(url, folder: folder), idOfPath[found.path] == nil,
                        let archive = Self.open(found.path, kind: found.kind)
                    else { continue }
                    let path = found.path
                    let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                    var id = stem.isEmpty ? "data" : stem
                    var n = 2
                    while datasets[id] != nil {
                        id = "\(stem)-\(n)"
                        n += 1
                    }
                    datasets[id] = Dataset(id: id, path: path, source: archive)
                    idOfPath[path] = id
                }
            }
            if let glyphs = root["glyphs"] as? String, let template = Self.localPath(glyphs, folder: folder),
                !templates.contains(template)
            {
                templates.append(template)
            }
        }
        self.datasets = datasets
        self.idOfPath = idOfPath
        self.glyphTemplates = templates
    }

    /// A style file's JSON object, `nil` when unreadable or not an object.
    static func readStyle(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The kinds of archive a source `url` may name.
    enum ArchiveKind: String, Sendable {
        case mbtiles, pmtiles
    }

    /// The standardized absolute path and kind of a local archive URL — `mbtiles://PATH`, `pmtiles://PATH` or
    /// `pmtiles://file://PATH` — relative to `folder`; `nil` for other URLs (`pmtiles://https://…` among them).
    static func archivePath(_ url: String, folder: URL) -> (path: String, kind: ArchiveKind)? {
        for kind in [ArchiveKind.mbtiles, .pmtiles] {
            let prefix = kind.rawValue + "://"
            guard url.hasPrefix(prefix) else { continue }
            return localPath(String(url.dropFirst(prefix.count)), folder: folder).map { ($0, kind) }
        }
        return nil
    }

    /// The archive at `path`, or `nil` when it does not open (or is a PMTiles archive of brotli or zstd tiles).
    static func open(_ path: String, kind: ArchiveKind) -> (any ServedArchive)? {
        switch kind {
        case .mbtiles: return try? MBTilesSource(path: path)
        case .pmtiles:
            guard let archive = try? PMTilesSource(path: path),
                ![.brotli, .zstd].contains(archive.archive.header.tileCompression)
            else { return nil }
            return archive
        }
    }

    /// The standardized absolute path of a local reference (a path or `file://` URL) relative to `folder`; `nil` for
    /// other URL schemes.
    static func localPath(_ reference: String, folder: URL) -> String? {
        var path = reference
        if path.hasPrefix("file://") {
            path.removeFirst("file://".count)
        } else if path.contains("://") {
            return nil
        }
        guard !path.isEmpty else { return nil }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
        // Keep the template's braces as written (a URL would percent-encode them).
        return url.standardizedFileURL.path.removingPercentEncoding ?? url.standardizedFileURL.path
    }

    // MARK: - The served style

    /// The style file at `location` with its local references replaced by this server's absolute URLs:
    /// `mbtiles://` and local `pmtiles://` sources → `{base}/data/{id}.json`, local `glyphs` → `{base}/fonts/{fontstack}/{range}.pbf`,
    /// a local `sprite` → `{base}/styles/{styleID}/sprite`; `query` (`""` or `?key=…`) is appended to each.
    /// `nil` when the file is unreadable or not a JSON object.
    func servedStyle(location: String, styleID: String, base: String, query: String) -> [UInt8]? {
        guard var root = Self.readStyle(location) else { return nil }
        let folder = URL(fileURLWithPath: location).deletingLastPathComponent()
        if var sources = root["sources"] as? [String: Any] {
            for (name, value) in sources {
                guard var source = value as? [String: Any], let url = source["url"] as? String,
                    let path = Self.archivePath(url, folder: folder)?.path, let id = idOfPath[path]
                else { continue }
                source["url"] = "\(base)/data/\(Self.pathEncoded(id)).json\(query)"
                sources[name] = source
            }
            root["sources"] = sources
        }
        if let glyphs = root["glyphs"] as? String, Self.localPath(glyphs, folder: folder) != nil {
            root["glyphs"] = "\(base)/fonts/{fontstack}/{range}.pbf\(query)"
        }
        if let sprite = root["sprite"] as? String, Self.localPath(sprite, folder: folder) != nil {
            root["sprite"] = "\(base)/styles/\(Self.pathEncoded(styleID))/sprite\(query)"
        }
        // Sorted keys: the same bytes for the same file (caches, ETags and gzip compare them).
        let data = try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { [UInt8]($0) }
    }

    /// A path segment or query value, percent-encoded (everything but RFC 3986's unreserved characters).
    static func pathEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    // MARK: - Routes

    /// `/data/{id}.json`: the TileJSON of a data set, tiles at `{base}/data/{id}/{z}/{x}/{y}.{format}{query}`.
    func tileJSON(id: String, base: String, query: String) -> ServerResponse {
        guard let set = datasets[id] else { return .text(404, "Unknown data '\(id)'.\n") }
        return Self.json(tileJSONObject(set, base: base, query: query))
    }

    /// `/data.json`: the TileJSON of every data set (as `/data/{id}.json` answers it) with its `id`, in id order.
    func dataList(base: String, query: String) -> ServerResponse {
        Self.json(
            datasets.keys.sorted().map { id -> [String: Any] in
                var object = tileJSONObject(datasets[id]!, base: base, query: query)
                object["id"] = id
                return object
            })
    }

    /// `/fonts.json`: the names of the font folders beside the local glyph templates (the directories where a
    /// template has `{fontstack}` as a whole path segment), sorted, each once; at most 4096.
    func fontList() -> ServerResponse {
        var names = Set<String>()
        for template in glyphTemplates {
            let segments = template.split(separator: "/", omittingEmptySubsequences: false)
            guard let index = segments.firstIndex(of: "{fontstack}"),
                !segments[..<index].contains(where: { $0.contains("{") }),
                let entries = try? FileManager.default.contentsOfDirectory(
                    atPath: segments[..<index].joined(separator: "/") + "/")
            else { continue }
            let folder = segments[..<index].joined(separator: "/")
            for entry in entries.sorted() where names.count < 4096 && Self.isFontName(entry) {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    names.insert(entry)
                }
            }
        }
        return Self.json(names.sorted())
    }

    /// `/styles.json`: `id`, `name` (the style's, else its id), `version` and `url`
    /// (`{base}/styles/{id}/style.json{query}`) of every configured style that `/styles/{id}/style.json` serves (a
    /// readable local file), in id order.
    static func styleList(config: StaticMapsConfig, base: String, query: String) -> ServerResponse {
        var list: [[String: Any]] = []
        for id in config.styles.keys.sorted() {
            guard let location = config.styleLocation(id), !location.contains("://"),
                let root = readStyle(location)
            else { continue }
            list.append([
                "id": id, "name": root["name"] as? String ?? id, "version": root["version"] as? Int ?? 8,
                "url": "\(base)/styles/\(pathEncoded(id))/style.json\(query)",
            ])
        }
        return json(list)
    }

    /// A JSON answer (sorted keys, slashes as written).
    static func json(_ object: Any) -> ServerResponse {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: [UInt8](data))
    }

    /// The TileJSON object of a data set.
    private func tileJSONObject(_ set: Dataset, base: String, query: String) -> [String: Any] {
        let id = set.id
        let meta = set.source.metadata
        let format = meta.format ?? "pbf"
        var json: [String: Any] = [
            "tilejson": "2.2.0", "name": meta.name ?? id, "scheme": "xyz", "format": format,
            "minzoom": set.source.minZoom, "maxzoom": set.source.maxZoom,
            "bounds": meta.bounds ?? [-180, -85.0511, 180, 85.0511],
            "tiles": ["\(base)/data/\(Self.pathEncoded(id))/{z}/{x}/{y}.\(format)\(query)"],
        ]
        if let center = meta.center { json["center"] = center }
        if let attribution = meta.attribution { json["attribution"] = attribution }
        // `vector_layers` as stored: MBTiles' `json` row, or a PMTiles archive's metadata (top level, or in a `json`
        // string as MBTiles-converted archives carry it).
        func layers(_ text: String?) -> Any? {
            guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            else { return nil }
            return object["vector_layers"] ?? layers(object["json"] as? String)
        }
        if let vectorLayers = layers(meta.json) { json["vector_layers"] = vectorLayers }
        return json
    }

    /// `/data/{id}/{z}/{x}/{y}.{format}`: the stored tile, sent gzip-compressed (`Content-Encoding: gzip`) when
    /// stored so and the client accepts gzip, else inflated; 204 when the archive has no such tile.
    func tile(id: String, parts: [String], acceptsGzip: Bool, cacheControl: String) -> ServerResponse {
        guard let set = datasets[id] else { return .text(404, "Unknown data '\(id)'.\n") }
        let format = set.source.metadata.format ?? "pbf"
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), parts[2].hasSuffix("." + format),
            let y = Int(parts[2].dropLast(format.count + 1)), (0...30).contains(z), x >= 0, y >= 0, x < 1 << z,
            y < 1 << z
        else {
            return .text(400, "Invalid tile address; expected /data/\(id)/{z}/{x}/{y}.\(format).\n")
        }
        let raw: [UInt8]?
        do { raw = try set.source.rawTileData(at: TileID(z: z, x: x, y: y)) } catch {
            return .text(500, "Cannot read tile \(z)/\(x)/\(y) of '\(id)'.\n")
        }
        guard let raw, !raw.isEmpty else { return ServerResponse(status: 204) }
        let type =
            switch format {
            case "png": "image/png"
            case "jpg", "jpeg": "image/jpeg"
            case "webp": "image/webp"
            default: "application/x-protobuf"
            }
        var headers: [(name: String, value: String)] = [("Content-Type", type), ("Cache-Control", cacheControl)]
        let gzipped = raw.count > 2 && raw[0] == 0x1f && raw[1] == 0x8b
        if gzipped && acceptsGzip {
            headers.append(("Content-Encoding", "gzip"))
            return ServerResponse(status: 200, headers: headers, body: raw)
        }
        // The bytes already read, inflated (no second read of the archive).
        guard let body = try? decompressTileData(raw) else {
            return .text(500, "Cannot inflate tile \(z)/\(x)/\(y) of '\(id)'.\n")
        }
        return ServerResponse(status: 200, headers: headers, body: body)
    }

    /// `/fonts/{fontstack}/{range}.pbf` (both percent-encoded): the fonts of the comma-separated stack that have the
    /// range, merged (``ServedGlyphs``); one font's file as it is when only one has it. 400 for a bad range, a bad
    /// font name or more than ``ServedGlyphs/maxFonts`` fonts; 404 when none has the range; 500 when several have it
    /// and none decodes, or the merged answer is over ``ServedGlyphs/maxMergedBytes``.
    func glyphs(fontstack rawStack: String, range rawRange: String, cacheControl: String) -> ServerResponse {
        guard let stack = rawStack.removingPercentEncoding, let range = rawRange.removingPercentEncoding else {
            return .text(400, "Invalid font path.\n")
        }
        let bounds =
            range.hasSuffix(".pbf") ? range.dropLast(4).split(separator: "-", omittingEmptySubsequences: false) : []
        guard bounds.count == 2, let start = Int(bounds[0]), let end = Int(bounds[1]),
            bounds[0].allSatisfy(\.isASCII), start >= 0, start % 256 == 0, end == start + 255, end <= 65535
        else {
            return .text(400, "Invalid glyph range '\(range)'; expected {start}-{start+255}.pbf.\n")
        }
        let fonts = stack.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !fonts.isEmpty, fonts.allSatisfy(Self.isFontName) else {
            return .text(400, "Invalid fontstack '\(stack)'.\n")
        }
        guard fonts.count <= ServedGlyphs.maxFonts else {
            return .text(400, "Invalid fontstack: \(fonts.count) fonts, at most \(ServedGlyphs.maxFonts).\n")
        }
        // Each font's file of the range from the first template that has it; fonts without it are skipped.
        var found: [(font: String, bytes: [UInt8])] = []
        for font in fonts where !found.contains(where: { $0.font == font }) {
            for template in glyphTemplates {
                let path = template.replacingOccurrences(of: "{fontstack}", with: font)
                    .replacingOccurrences(of: "{range}", with: "\(start)-\(end)")
                if let body = Self.smallFile(path) {
                    found.append((font, body))
                    break
                }
            }
        }
        let body: [UInt8]
        switch found.count {
        case 0: return .text(404, "No glyphs for '\(stack)' \(start)-\(end).\n")
        case 1: body = found[0].bytes
        default:
            guard let merged = ServedGlyphs.merge(found, start: start, end: end) else {
                return .text(500, "The glyph files of '\(stack)' \(start)-\(end) do not decode.\n")
            }
            guard merged.count <= ServedGlyphs.maxMergedBytes else {
                return .text(
                    500,
                    "The merged glyphs of '\(stack)' \(start)-\(end) are \(merged.count) bytes, over the limit of "
                        + "\(ServedGlyphs.maxMergedBytes).\n")
            }
            body = merged
        }
        return ServerResponse(
            status: 200, headers: [("Content-Type", "application/x-protobuf"), ("Cache-Control", cacheControl)],
            body: body)
    }

    /// Whether `name` may name a font folder: not empty, not `.`/`..`, no `/`, `\` or control character.
    static func isFontName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7f }
    }

    /// `/styles/{id}/sprite[@2x].{json,png}` of the style at `location` (`name` is the last path segment).
    func sprite(location: String, name: String, cacheControl: String) -> ServerResponse? {
        let suffixes = [
            "sprite.json": ".json", "sprite.png": ".png", "sprite@2x.json": "@2x.json",
            "sprite@2x.png": "@2x.png",
        ]
        guard let suffix = suffixes[name] else { return nil }
        guard !location.contains("://"), let root = Self.readStyle(location), let sprite = root["sprite"] as? String,
            let base = Self.localPath(sprite, folder: URL(fileURLWithPath: location).deletingLastPathComponent()),
            let body = Self.smallFile(base + suffix)
        else { return .text(404, "No sprite file \(name) for this style.\n") }
        let type = suffix.hasSuffix(".png") ? "image/png" : "application/json"
        return ServerResponse(
            status: 200, headers: [("Content-Type", type), ("Cache-Control", cacheControl)], body: body)
    }

    /// A regular file's bytes when it is at most ``maxFileBytes``; `nil` otherwise.
    static func smallFile(_ path: String) -> [UInt8]? {
        guard let a = try? FileManager.default.attributesOfItem(atPath: path),
            (a[.type] as? FileAttributeType) == .typeRegular,
            let size = (a[.size] as? NSNumber)?.intValue, size <= maxFileBytes,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return [UInt8](data)
    }
}

/// A tile archive served on the data routes: its metadata, zooms and tiles as stored. Both archive kinds answer
/// through this one seam.
protocol ServedArchive: Sendable {
    /// What the archive says about itself.
    var metadata: TileSourceMetadata { get }
    /// The lowest zoom.
    var minZoom: Int { get }
    /// The highest zoom.
    var maxZoom: Int { get }
    /// The tile's bytes as stored (gzip-compressed or not), `nil` when absent.
    func rawTileData(at address: TileID) throws -> [UInt8]?
}

extension MBTilesSource: ServedArchive {}
extension PMTilesSource: ServedArchive {}
