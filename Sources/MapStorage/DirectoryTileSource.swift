import Foundation
import MapData
import MapGeometry

/// A ``TileSource`` over tile files in a folder, named by a path template such as `{z}/{x}/{y}.mvt`,
/// `{z}-{x}-{y}.mvt.gz` or MapLibre's render-test layout `tiles/{z}-{x}-{y}.mvt` (XYZ scheme: `{y}` counts rows from
/// the north; `{-y}` names the TMS row, counted from the south).
///
/// Payloads are inflated when they start with a gzip or zlib header. The zoom range is given, or found by listing the
/// folder once (files matching the template); addresses outside it have no tile (callers over-zoom from
/// ``maxZoom``). Useful for test fixtures, render tests, `local://` style sources and tiles exported by other tools.
///
/// Thread rules: immutable; reads go straight to the file system, so an instance may be shared across threads.
public struct DirectoryTileSource: TileSource {
    /// The folder holding the tiles.
    public let directory: URL
    /// The path of one tile relative to ``directory``, with `{z}`, `{x}` and `{y}` (or `{-y}`) placeholders.
    public let template: String
    /// The lowest zoom, `0...30`.
    public let minZoom: Int
    /// The highest zoom, `minZoom...30`.
    public let maxZoom: Int
    /// Only ``TileSourceMetadata/minZoom`` and ``TileSourceMetadata/maxZoom`` are set.
    public let metadata: TileSourceMetadata

    /// Creates a source over `directory`.
    /// - Parameters:
    ///   - directory: the folder; it must exist.
    ///   - template: the relative path of a tile, with `{z}`, `{x}` and `{y}` (or `{-y}`) placeholders. As in a
    ///     MapLibre tile URL, a template without some placeholder names one file for every tile it covers (a render
    ///     test's single fixture tile); the zoom range must then be given. Defaults to `{z}/{x}/{y}.mvt`.
    ///   - zoomRange: the zooms served, clamped to `0...30`; `nil` (the default) scans the folder for files matching
    ///     the template.
    /// - Throws: ``MBTilesError`` with reason `.cannotOpen` naming the folder when it does not exist, or when
    ///   `zoomRange` is `nil` and the template lacks a placeholder (the folder cannot be scanned).
    public init(directory: URL, template: String = "{z}/{x}/{y}.mvt", zoomRange: ClosedRange<Int>? = nil) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw MBTilesError(path: directory.path, reason: .cannotOpen, detail: "no such folder")
        }
        guard
            zoomRange != nil
                || (template.contains("{z}") && template.contains("{x}")
                    && (template.contains("{y}") || template.contains("{-y}")))
        else {
            throw MBTilesError(
                path: directory.path, reason: .cannotOpen,
                detail: "template '\(template)' needs {z}, {x} and {y} (or {-y})")
        }
        self.directory = directory
        self.template = template
        var range = zoomRange
        if range == nil {
            let zooms = Self.scanZooms(directory: directory, template: template)
            if let lo = zooms.min(), let hi = zooms.max() { range = lo...hi }
        }
        let lo = min(max(range?.lowerBound ?? 0, 0), 30)
        minZoom = lo
        maxZoom = min(max(range?.upperBound ?? lo, lo), 30)
        var meta = TileSourceMetadata()
        meta.minZoom = minZoom
        meta.maxZoom = maxZoom
        metadata = meta
    }

    /// The file path of the tile at `address`.
    public func path(for address: TileID) -> String {
        let relative = template.replacingOccurrences(of: "{z}", with: String(address.z))
            .replacingOccurrences(of: "{x}", with: String(address.x))
            .replacingOccurrences(of: "{-y}", with: String((1 << max(0, min(30, address.z))) - 1 - address.y))
            .replacingOccurrences(of: "{y}", with: String(address.y))
        return directory.appendingPathComponent(relative).path
    }

    /// The uncompressed tile, or `nil` when its file does not exist, the address is invalid, or its zoom lies
    /// outside ``minZoom``...``maxZoom``.
    /// - Throws: ``MBTilesError`` naming the file when it exists but cannot be read (`.cannotOpen`) or does not
    ///   inflate (`.badTile`).
    public func tileData(at address: TileID) throws -> [UInt8]? {
        guard address.z >= minZoom, address.z <= maxZoom else { return nil }
        let file = path(for: address)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw MBTilesError(path: file, reason: .cannotOpen, detail: "unreadable")
        }
        do {
            return try inflateIfCompressed([UInt8](data))
        } catch {
            throw MBTilesError(path: file, reason: .badTile, detail: "tile \(address): \(error)")
        }
    }

    /// Zoom levels of files matching the template (the `{z}` text of each match).
    static func scanZooms(directory: URL, template: String) -> Set<Int> {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        // Turn the template into a matcher: literal pieces between placeholders, numbers in the placeholders.
        let pattern =
            "^"
            + NSRegularExpression.escapedPattern(for: template)
            .replacingOccurrences(of: "\\{z\\}", with: "(?<z>[0-9]+)")
            .replacingOccurrences(of: "\\{x\\}", with: "[0-9]+")
            .replacingOccurrences(of: "\\{y\\}", with: "[0-9]+")
            .replacingOccurrences(of: "\\{-y\\}", with: "[0-9]+") + "$"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        var zooms: Set<Int> = []
        while let name = enumerator.nextObject() as? String {
            let range = NSRange(name.startIndex..., in: name)
            guard let match = regex.firstMatch(in: name, range: range),
                let zRange = Range(match.range(withName: "z"), in: name), let z = Int(name[zRange])
            else { continue }
            zooms.insert(z)
        }
        return zooms
    }
}

extension DirectoryTileSource: TileLocating {
    /// The tile's file path (``path(for:)``).
    public func location(of address: TileID) -> String { path(for: address) }
}
