import Foundation
import MapStorage

// Waymark's own: choosing one of the styles bundled in `Data/styles/` by name (issue 13).

extension MapLibreStyle {
    /// A style bundled in `Data/styles/` by name (Waymark's own), optionally with its vector sources pointed at your
    /// tiles.
    ///
    /// Bundled styles: `default` (OpenMapTiles schema over the bundled world and cities, the same as ``bundled``) and
    /// `protomaps` (the Protomaps basemap schema, version 4 or 3 property names, in the default style's palette; its
    /// source defaults to `Data/styles/protomaps.pmtiles`, which Waymark does not ship, so give `sourceURL`).
    ///
    /// - Parameters:
    ///   - name: the file name without `.json`: letters, digits, `-` and `_` only.
    ///   - sourceURL: when given, every `vector` source of the style reads this URL instead of its own (its `tiles`
    ///     list dropped): `pmtiles://…` (a path, `file://`, `http(s)://`), `mbtiles://…`, or a TileJSON `http(s)://`
    ///     or `file://` URL. Relative paths resolve against `Data/styles/`.
    /// - Returns: ``bundled`` for `default` without `sourceURL`, ``file(_:)`` of the bundled file without
    ///   `sourceURL`, else ``json(_:)`` with the edited style.
    /// - Throws: ``BundledStyleError`` naming the name or the file when the name is not allowed, the file is
    ///   missing, or it is not a style JSON object.
    public static func bundled(named name: String, sourceURL: String? = nil) throws -> MapLibreStyle {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            throw BundledStyleError(name: name, message: "not a bundled style name (letters, digits, - and _ only)")
        }
        if name == "default" && sourceURL == nil { return .bundled }
        let path = DataFiles.path("styles/\(name).json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BundledStyleError(name: name, message: "no bundled style \(path)")
        }
        guard let sourceURL else { return .file(path) }
        guard var style = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            var sources = style["sources"] as? [String: Any]
        else { throw BundledStyleError(name: name, message: "\(path) is not a style JSON object with sources") }
        for (id, value) in sources {
            guard var source = value as? [String: Any], source["type"] as? String == "vector" else { continue }
            source["url"] = sourceURL
            source.removeValue(forKey: "tiles")
            sources[id] = source
        }
        style["sources"] = sources
        let text = try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys, .withoutEscapingSlashes])
        return .json(String(decoding: text, as: UTF8.self))
    }
}

/// Why ``MapLibreStyle/bundled(named:sourceURL:)`` could not make a style (Waymark's own).
public struct BundledStyleError: Error, Equatable, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    /// What is wrong, naming the file where there is one.
    public var message: String
    /// `bundled style '<name>': <message>`.
    public var description: String { "bundled style '\(name)': \(message)" }
}
