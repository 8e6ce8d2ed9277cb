import Foundation
import MapStorage
import StaticMaps
import URLSigning

/// The static maps server's configuration: one JSON file (`waymark serve --config FILE`), every field optional with a
/// default that is safe on a public network. Waymark's own.
///
/// ```json
/// {
///   "bind": "127.0.0.1", "port": 8080,
///   "workers": 0, "queue": 32, "deadlineMs": 10000, "drainSeconds": 20, "connections": 256,
///   "cacheControl": "public, max-age=86400", "cacheMegabytes": 64,
///   "styles": { "default": "bundled", "dark": "bundled-dark", "mine": "/srv/styles/mine.json" },
///   "mapTypes": { "satellite": "default", "terrain": "default", "hybrid": "default" },
///   "keys": { "my-key": { "secret": "vNIXE0xscrmjlyV-12Nj_BvUPaw=" }, "open-key": {} },
///   "iconHosts": ["icons.example.com"], "publicUrl": "https://maps.example.com",
///   "limits": { "maxSize": 2048, "maxPixels": 4194304, "maxURLLength": 8192, "maxMarkers": 256,
///               "maxPathPoints": 10000, "maxStyles": 64 }
/// }
/// ```
public struct StaticMapsConfig: Sendable {
    /// The IPv4 address to listen on. Default `127.0.0.1` (only this machine; `0.0.0.0` for every interface).
    public var bind = "127.0.0.1"
    /// The port; 0 picks an ephemeral one. Default 8080.
    public var port: UInt16 = 8080
    /// Render threads; 0 (the default) means one per core.
    public var workers = 0
    /// Renders waiting beyond the busy workers; one more answers 503 with `Retry-After`. Default 32.
    public var queue = 32
    /// Milliseconds a request may take from arrival (queueing and rendering) before it answers 504. Default 10 000.
    public var deadlineMs = 10_000
    /// Seconds SIGTERM waits for requests in flight before stopping. Default 20.
    public var drainSeconds = 20.0
    /// Most open connections (each has a library thread). Default 256.
    public var connections = 256
    /// The `Cache-Control` of images. Default `public, max-age=86400`.
    public var cacheControl = "public, max-age=86400"
    /// The in-memory image cache, megabytes; 0 turns it off. Default 64.
    public var cacheMegabytes = 64
    /// Styles by id: `bundled` (Data/styles/default.json), `bundled-dark`, a file path or an `http(s)://` URL.
    /// Default `{"default": "bundled"}`. `map_id` and tileserver-gl's `/styles/{id}/` name these ids.
    public var styles: [String: String] = ["default": "bundled"]
    /// The style id drawn for each `maptype` (`roadmap`, `satellite`, `terrain`, `hybrid`); a type not listed draws
    /// `default`. Default: none listed.
    public var mapTypes: [String: String] = [:]
    /// API keys. Empty (the default): no key needed. Otherwise every request needs a listed `key`; a key with a
    /// `secret` (URL-safe base64, as Google's) also needs a valid `signature`.
    public var keys: [String: String?] = [:]
    /// Hosts custom marker icons may be fetched from (exact host names). Default none: `icon` answers 400.
    public var iconHosts: [String] = []
    /// Largest icon file, bytes. Default 262 144.
    public var maxIconBytes = 262_144
    /// Largest icon side, pixels. Default 256.
    public var maxIconSide = 256
    /// Request limits.
    public var limits = StaticMapLimits()
    /// The server's public base URL (`publicUrl`, e.g. `https://maps.example.com/tiles`, no trailing `/`), used in the
    /// absolute URLs of served TileJSON and styles. Default `nil`: `http://` and the request's `Host`.
    public var publicURL: String?

    /// The defaults.
    public init() {}

    /// Reads a configuration file.
    /// - Throws: ``StaticMapsConfigError`` naming the file and the field.
    public init(contentsOfFile path: String) throws(StaticMapsConfigError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StaticMapsConfigError(message: "cannot read config file '\(path)'")
        }
        do { try self.init(json: data) } catch { throw StaticMapsConfigError(message: "\(path): \(error.message)") }
    }

    /// Parses a configuration document.
    /// - Throws: ``StaticMapsConfigError`` naming the field.
    public init(json data: Data) throws(StaticMapsConfigError) {
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw StaticMapsConfigError(message: "the configuration must be a JSON object")
            }
            root = object
        } catch let error as StaticMapsConfigError {
            throw error
        } catch {
            throw StaticMapsConfigError(message: "not JSON: \(error.localizedDescription)")
        }
        let known: Set<String> = [
            "bind", "port", "workers", "queue", "deadlineMs", "drainSeconds", "connections", "cacheControl",
            "cacheMegabytes", "styles", "mapTypes", "keys", "iconHosts", "maxIconBytes", "maxIconSide", "limits",
            "publicUrl",
        ]
        if let unknown = root.keys.sorted().first(where: { !known.contains($0) }) {
            throw StaticMapsConfigError(message: "unknown field '\(unknown)'")
        }
        func int(_ name: String, _ range: ClosedRange<Int>, in object: [String: Any]? = nil)
            throws(StaticMapsConfigError)
            -> Int?
        {
            guard let value = (object ?? root)[name] else { return nil }
            guard let n = value as? NSNumber, let i = Int(exactly: n.doubleValue), range.contains(i) else {
                throw StaticMapsConfigError(message: "'\(name)' must be an integer in \(range), got \(value)")
            }
            return i
        }
        func string(_ name: String) throws(StaticMapsConfigError) -> String? {
            guard let value = root[name] else { return nil }
            guard let s = value as? String else {
                throw StaticMapsConfigError(message: "'\(name)' must be a string, got \(value)")
            }
            return s
        }
        func stringMap(_ name: String) throws(StaticMapsConfigError) -> [String: String]? {
            guard let value = root[name] else { return nil }
            guard let map = value as? [String: String] else {
                throw StaticMapsConfigError(message: "'\(name)' must be an object of strings")
            }
            return map
        }
        if let v = try string("bind") { bind = v }
        if let v = try int("port", 0...65535) { port = UInt16(v) }
        if let v = try int("workers", 0...256) { workers = v }
        if let v = try int("queue", 0...100_000) { queue = v }
        if let v = try int("deadlineMs", 1...600_000) { deadlineMs = v }
        if let v = try int("drainSeconds", 0...3600) { drainSeconds = Double(v) }
        if let v = try int("connections", 1...100_000) { connections = v }
        if let v = try string("cacheControl") { cacheControl = v }
        if var v = try string("publicUrl") {
            while v.hasSuffix("/") { v.removeLast() }
            guard let url = URL(string: v), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil, url.query == nil, url.fragment == nil
            else {
                throw StaticMapsConfigError(message: "'publicUrl' must be an http(s) URL without query, got '\(v)'")
            }
            publicURL = v
        }
        if let v = try int("cacheMegabytes", 0...65536) { cacheMegabytes = v }
        if let v = try int("maxIconBytes", 1...16_777_216) { maxIconBytes = v }
        if let v = try int("maxIconSide", 1...4096) { maxIconSide = v }
        if let v = try stringMap("styles") {
            guard !v.isEmpty else { throw StaticMapsConfigError(message: "'styles' must name at least one style") }
            styles = v
        }
        if let v = try stringMap("mapTypes") {
            for (type, id) in v {
                guard StaticMapType(rawValue: type) != nil else {
                    throw StaticMapsConfigError(message: "'mapTypes' has unknown map type '\(type)'")
                }
                guard styles[id] != nil else {
                    throw StaticMapsConfigError(message: "'mapTypes.\(type)' names unknown style '\(id)'")
                }
            }
            mapTypes = v
        }
        if let value = root["keys"] {
            guard let map = value as? [String: Any] else {
                throw StaticMapsConfigError(message: "'keys' must be an object of key → {\"secret\": …}")
            }
            for (key, entry) in map {
                guard let entry = entry as? [String: Any] else {
                    throw StaticMapsConfigError(message: "'keys.\(key)' must be an object")
                }
                if let secret = entry["secret"] {
                    guard let s = secret as? String, !s.isEmpty, URLSigning.base64Decode(s) != nil else {
                        throw StaticMapsConfigError(message: "'keys.\(key).secret' must be URL-safe base64")
                    }
                    keys[key] = .some(s)
                } else {
                    keys[key] = .some(nil)
                }
            }
        }
        if let value = root["iconHosts"] {
            guard let hosts = value as? [String] else {
                throw StaticMapsConfigError(message: "'iconHosts' must be an array of host names")
            }
            iconHosts = hosts.map { $0.lowercased() }
        }
        if let value = root["limits"] {
            guard let l = value as? [String: Any] else {
                throw StaticMapsConfigError(message: "'limits' must be an object")
            }
            if let v = try int("maxSize", 1...8192, in: l) { limits.maxSize = v }
            if let v = try int("maxPixels", 1...67_108_864, in: l) { limits.maxPixels = v }
            if let v = try int("maxURLLength", 256...1_048_576, in: l) { limits.maxURLLength = v }
            if let v = try int("maxMarkers", 0...100_000, in: l) { limits.maxMarkers = v }
            if let v = try int("maxPathPoints", 0...1_000_000, in: l) { limits.maxPathPoints = v }
            if let v = try int("maxStyles", 0...1000, in: l) { limits.maxStyles = v }
        }
        for (id, _) in styles where id.isEmpty || id.contains("/") {
            throw StaticMapsConfigError(message: "style id '\(id)' must be non-empty without '/'")
        }
    }

    /// The render threads: ``workers``, or the number of cores.
    public var workerCount: Int { workers > 0 ? workers : max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// The style file or URL of a style id, `nil` for an unknown id.
    public func styleLocation(_ id: String) -> String? {
        guard let value = styles[id] else { return nil }
        switch value {
        case "bundled": return DataFiles.path("styles/default.json")
        case "bundled-dark": return DataFiles.path("styles/default-dark.json")
        default: return value
        }
    }
}

/// A configuration that cannot be used; the message names the file and the field.
public struct StaticMapsConfigError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}
