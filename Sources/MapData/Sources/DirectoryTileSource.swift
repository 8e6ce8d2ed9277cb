import FoundationEssentials

/// Tiles stored as files named by a URL template such as `tiles/{z}-{x}-{y}.mvt` (MapLibre's render-test layout) or
/// `{z}/{x}/{y}.pbf`, below a base folder.
///
/// A missing file is "no such tile" (`nil`); gzip-compressed files are not inflated here (MapData has no zlib) — a
/// file starting with the gzip magic `1f 8b` throws. Thread rules: immutable, safe from any thread.
public struct DirectoryTileSource: TileSource {
    /// Lowest zoom, `0...30`.
    public let minZoom: Int
    /// Highest zoom, `minZoom...30`; above it callers over-zoom.
    public let maxZoom: Int
    /// Name (the template) and format (`pbf`).
    public let metadata: TileSourceMetadata
    /// The folder the template is relative to.
    public let baseDirectory: String
    /// The path template with `{z}`, `{x}`, `{y}` placeholders (`{-y}` for TMS rows is also accepted).
    public let template: String

    /// Creates the source.
    /// - Parameters:
    ///   - baseDirectory: folder holding the files.
    ///   - template: relative path with placeholders, e.g. `tiles/{z}-{x}-{y}.mvt`.
    ///   - minZoom: clamped to `0...30`, default 0.
    ///   - maxZoom: clamped to `minZoom...30`, default 14.
    public init(baseDirectory: String, template: String, minZoom: Int = 0, maxZoom: Int = 14) {
        self.baseDirectory = baseDirectory
        self.template = template
        self.minZoom = min(30, max(0, minZoom))
        self.maxZoom = min(30, max(self.minZoom, maxZoom))
        var metadata = TileSourceMetadata()
        metadata.name = template
        metadata.format = "pbf"
        metadata.minZoom = self.minZoom
        metadata.maxZoom = self.maxZoom
        self.metadata = metadata
    }

    /// The file path for an address.
    public func path(for address: TileAddress) -> String {
        let tms = (1 << address.z) - 1 - address.y
        var relative = ""
        var rest = Substring(template)
        let values = [
            "{z}": String(address.z), "{x}": String(address.x), "{-y}": String(tms), "{y}": String(address.y),
        ]
        outer: while !rest.isEmpty {
            for (key, value) in values where rest.hasPrefix(key) {
                relative += value
                rest = rest.dropFirst(key.count)
                continue outer
            }
            relative.append(rest.removeFirst())
        }
        return baseDirectory.hasSuffix("/") ? baseDirectory + relative : baseDirectory + "/" + relative
    }

    /// The file's bytes, or `nil` when the address is invalid, outside the zoom range, or the file is absent.
    /// - Throws: ``DirectoryTileSourceError`` when the file is gzip-compressed.
    public func tileData(at address: TileAddress) throws -> [UInt8]? {
        guard address.isValid, address.z >= minZoom, address.z <= maxZoom else { return nil }
        let path = path(for: address)
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        let bytes = [UInt8](data)
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            throw DirectoryTileSourceError(path: path, message: "gzip-compressed tiles are not supported")
        }
        return bytes
    }
}

/// A tile file that could not be used, naming the file.
public struct DirectoryTileSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What was wrong.
    public var message: String

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
