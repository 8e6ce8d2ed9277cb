import FoundationEssentials

/// URL references inside style documents and TileJSON: relative ones resolve against the URL of the document that
/// holds them, as MapLibre resolves them (RFC 3986 §5.2, through Foundation's `URL(string:relativeTo:)`).
///
/// Tile and glyph templates keep their `{z}`, `{x}`, `{y}`, `{fontstack}`, `{range}`… tokens: braces are not valid
/// in a URL, so they are percent-encoded for the resolution and decoded again afterwards. Waymark's own helper.
public enum StyleURL {
    /// Whether `reference` names its scheme (`http:`, `file:`, `mbtiles:`…: RFC 3986 §3.1, a letter then letters,
    /// digits, `+`, `-`, `.`, then `:`), i.e. is not a relative reference.
    public static func hasScheme(_ reference: String) -> Bool {
        guard let first = reference.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        for c in reference.unicodeScalars.dropFirst() {
            if c == ":" { return true }
            guard c.isASCII, c.properties.isAlphabetic || ("0"..."9").contains(c) || "+-.".unicodeScalars.contains(c)
            else { return false }
        }
        return false
    }

    /// Whether `reference` names an `http://` or `https://` resource (the scheme compared case-insensitively): what
    /// needs the network, as opposed to files (`file://`, paths, `mbtiles://`, local `pmtiles://`).
    public static func isHTTP(_ reference: String) -> Bool {
        let head = reference.prefix(8).lowercased()
        return head.hasPrefix("http://") || head.hasPrefix("https://")
    }

    /// `reference` resolved against `base` (RFC 3986 §5.2: an absolute URL as written; `//host/…`, `/path`,
    /// `path`, `../path`, `?query` against the base's parts), template tokens kept.
    /// - Parameters:
    ///   - reference: a URL or URL template as written in the document.
    ///   - base: the URL of the document holding it (`http(s)://` or `file://`).
    /// - Returns: the absolute URL text; `reference` unchanged when it already has a scheme or cannot be parsed.
    public static func resolve(_ reference: String, against base: URL) -> String {
        if hasScheme(reference) { return reference }
        let escaped = reference.replacing("{", with: "%7B").replacing("}", with: "%7D")
            .replacing(" ", with: "%20")
        guard let url = URL(string: escaped, relativeTo: base) else { return reference }
        return url.absoluteString.replacing("%7B", with: "{").replacing("%7D", with: "}")
    }

    /// The `file://` URL of an absolute or working-directory-relative `path`, template tokens kept.
    public static func fileURL(path: String) -> String {
        URL(fileURLWithPath: path).absoluteString.replacing("%7B", with: "{")
            .replacing("%7D", with: "}")
    }
}
