import Foundation
import MapGeometry
import MapStorage
import MicroHTTPServer

/// The local files behind the configured styles, served on tileserver-gl's data, font and sprite routes so that a
/// style fetched from `/styles/{id}/style.json` is usable by any client. Waymark's own.
///
/// - Data: every `mbtiles://` source of a local style file (resolved against the style's folder) is one data set,
///   named by the file's name without `.mbtiles` (`world`, `cities`; a second file of the same name gets `-2`, …):
///   `/data/{id}.json` (TileJSON 2.2.0) and `/data/{id}/{z}/{x}/{y}.{format}`.
/// - Fonts: the local `glyphs` templates of the style files: `/fonts/{fontstack}/{start}-{end}.pbf`. A
///   comma-separated fontstack answers the first listed font that has the range (tileserver-gl merges them).
/// - Sprites: a style's local `sprite`: `/styles/{id}/sprite[@2x].{json,png}`.
///
/// Only these files are ever read: request paths name data ids, font directory names and fixed suffixes, never file
/// paths (a fontstack holding `/`, `\`, a control character, or being `.`/`..` answers 400). Memory: the archives are
/// opened once (SQLite reads each tile on demand); a glyph or sprite file above ``maxFileBytes`` is not served.
///
/// Threads: immutable after init; every method may be called from any thread.
final class ServedData: Sendable {
    /// One `.mbtiles` archive.
    struct Dataset: Sendable {
        var id: String
        var path: String
        var source: MBTilesSource
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
    /// `mbtiles://` archives (one that does not open is left out; the style keeps that source's local URL).
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
                        let path = Self.archivePath(url, folder: folder), idOfPath[path] == nil,
                        let archive = try? MBTilesSource(path: path)
                    else { continue }
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

    /// The standardized absolute path of an `mbtiles://` URL relative to `folder`, `nil` for other URLs.
    static func archivePath(_ url: String, folder: URL) -> String? {
        guard url.hasPrefix("mbtiles://") else { return nil }
        return localPath(String(url.dropFirst("mbtiles://".count)), folder: folder)
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
    /// `mbtiles://` sources → `{base}/data/{id}.json`, local `glyphs` → `{base}/fonts/{fontstack}/{range}.pbf`,
    /// a local `sprite` → `{base}/styles/{styleID}/sprite`; `query` (`""` or `?key=…`) is appended to each.
    /// `nil` when the file is unreadable or not a JSON object.
    func servedStyle(location: String, styleID: String, base: String, query: String) -> [UInt8]? {
        guard var root = Self.readStyle(location) else { return nil }
        let folder = URL(fileURLWithPath: location).deletingLastPathComponent()
        if var sources = root["sources"] as? [String: Any] {
            for (name, value) in sources {
                guard var source = value as? [String: Any], let url = source["url"] as? String,
                    let path = Self.archivePath(url, folder: folder), let id = idOfPath[path]
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

    /// A path segment, percent-encoded.
    static func pathEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    // MARK: - Routes

    /// `/data/{id}.json`: the TileJSON of a data set, tiles at `{base}/data/{id}/{z}/{x}/{y}.{format}{query}`.
    func tileJSON(id: String, base: String, query: String) -> ServerResponse {
        guard let set = datasets[id] else { return .text(404, "Unknown data '\(id)'.\n") }
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
        if let text = meta.json,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let layers = object["vector_layers"]
        {
            json["vector_layers"] = layers
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: [UInt8](data))
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

    /// `/fonts/{fontstack}/{range}.pbf` (both percent-encoded): the first font of the stack that has the range.
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
        for font in fonts {
            for template in glyphTemplates {
                let path = template.replacingOccurrences(of: "{fontstack}", with: font)
                    .replacingOccurrences(of: "{range}", with: "\(start)-\(end)")
                if let body = Self.smallFile(path) {
                    return ServerResponse(
                        status: 200,
                        headers: [("Content-Type", "application/x-protobuf"), ("Cache-Control", cacheControl)],
                        body: body)
                }
            }
        }
        return .text(404, "No glyphs for '\(stack)' \(start)-\(end).\n")
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
