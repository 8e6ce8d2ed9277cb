// The glyph PBFs a host gives its renderer (MapRenderer.setGlyphs): a style's `glyphs` template read from local
// files (the bundled styles' Data/glyphs, or a user style's path or file:// URL) on first use, or over HTTP through
// TileNetwork with the ranges fetched once, when the host is made, so that no frame waits on the network.
import Foundation
import MapData
import MapNetwork
import MapStyle
import Synchronization

extension MapHost {
    /// The glyph store a host's renderer draws from (``glyphs``; `MapRenderer.setGlyphs(_:)`), so that no frame waits on
    /// the network: a local template (a path, relative ones against the style's folder, or a `file://` URL) reads
    /// its range files on first use on the frame thread (``localGlyphStore(pathTemplate:)``); an `http(s)` one is
    /// fetched ahead (``prefetchedGlyphStore(template:style:network:)``), here, through `network`. `nil` without a
    /// template, for other schemes, or for a relative path without a base folder (text then drawn by Pango).
    /// Waymark's own.
    /// - Parameters:
    ///   - style: the style; its `glyphs`, `baseDirectory` and (for the fetch ahead) its layers' `text-font`.
    ///   - network: where `http(s)` ranges are fetched; `nil`, the default: ``TileNetwork/shared``.
    /// - Returns: the store, or `nil` (see above).
    public static func frameGlyphStore(for style: Style, network: TileNetwork? = nil) -> GlyphStore? {
        guard let template = style.glyphs else { return nil }
        if StyleURL.isHTTP(template) {
            // Made afresh for another network (tests); shared for the shared one.
            if let network { return prefetchedGlyphStore(template: template, style: style, network: network) }
            return sharedStore("http|" + template + "|" + fontstacks(of: style).sorted().joined(separator: "|")) {
                prefetchedGlyphStore(template: template, style: style, network: .shared)
            }
        }
        guard let path = localGlyphTemplate(template, baseDirectory: style.baseDirectory) else { return nil }
        return sharedStore(path) { localGlyphStore(pathTemplate: path) }
    }

    /// What a style's local `glyphs` template cannot give, as warnings for ``Style/diagnostics`` (path `glyphs`): a
    /// relative template in a style without a folder, and each fontstack its text layers name (constant `text-font`)
    /// whose first range file (`0-255`) is missing. Such text is drawn with the system's fonts through Pango, the
    /// documented fallback, so the warning is the one message that says so (it does not fail `--strict`). Empty for
    /// a style without `glyphs`, an `http(s)` template (its fetch reports its own problems) or files all present.
    /// Waymark's own. Thread rules: any thread; it asks the file system whether one file a fontstack exists (the
    /// hosts call it once, when made).
    /// - Parameter style: the style, with its `baseDirectory`.
    /// - Returns: the warnings, in fontstack order.
    public static func glyphDiagnostics(for style: Style) -> [StyleDiagnostic] {
        guard let template = style.glyphs, !StyleURL.isHTTP(template) else { return [] }
        guard let path = localGlyphTemplate(template, baseDirectory: style.baseDirectory) else {
            guard !template.contains("://") else { return [] }
            return [
                StyleDiagnostic(
                    .warning, path: "glyphs",
                    "relative glyphs \(template.debugDescription) in a style read from no file: text is drawn with "
                        + "the system's fonts")
            ]
        }
        return fontstacks(of: style).sorted().compactMap { fontstack in
            let file = path.replacingOccurrences(of: "{fontstack}", with: fontstack)
                .replacingOccurrences(of: "{range}", with: "0-255")
            guard !FileManager.default.fileExists(atPath: file) else { return nil }
            return StyleDiagnostic(
                .warning, path: "glyphs",
                "no glyph file \(file.debugDescription) for fontstack \(fontstack.debugDescription): its text is drawn "
                    + "with the system's fonts")
        }
    }

    /// The stores hosts share by key (so their renderers share symbols in the engine and decode a range once);
    /// emptied past 64 keys.
    private static let sharedStores = Mutex<[String: GlyphStore]>([:])

    private static func sharedStore(_ key: String, make: () -> GlyphStore) -> GlyphStore {
        if let known = sharedStores.withLock({ $0[key] }) { return known }
        let made = make()
        return sharedStores.withLock { stores in
            if let known = stores[key] { return known }
            if stores.count >= 64 { stores.removeAll() }
            stores[key] = made
            return made
        }
    }

    /// The fontstacks of `style`'s text layers (constant `text-font`, MapLibre's default stack when unset).
    static func fontstacks(of style: Style) -> Set<String> {
        var stacks = Set<String>()
        for layer in style.layers where layer.type == .symbol && layer.layout["text-field"] != nil {
            let names = layer.layout["text-font"]?.strings(EvaluationContext(zoom: 0)) ?? []
            stacks.insert(
                (names.isEmpty ? ["Open Sans Regular", "Arial Unicode MS Regular"] : names).joined(separator: ","))
        }
        return stacks
    }

    /// The ranges fetched when a host is made over an `http(s)` `glyphs` template, for every fontstack the style's
    /// layers name: Basic Latin and Latin-1 (0–255), Latin Extended-A and -B (256–511, 512–767) and General
    /// Punctuation (8192–8447). Waymark's own.
    public static let prefetchedGlyphRanges = [0, 256, 512, 8192]

    /// The largest glyph PBF file read, in bytes: 16 MiB (a range of 256 SDF glyphs at 24 px is about 150 KB).
    public static let maxGlyphFileBytes = 16 << 20

    /// The file path template of a local `glyphs` template (a path, relative ones against `baseDirectory`, or a
    /// `file://` URL, percent escapes decoded); `nil` for other schemes, or a relative path without a base.
    /// Waymark's own.
    /// - Parameters:
    ///   - template: the style's `glyphs` as written (with `{fontstack}` and `{range}`).
    ///   - baseDirectory: the style file's folder, or `nil`.
    /// - Returns: the path template, or `nil`.
    public static func localGlyphTemplate(_ template: String, baseDirectory: String?) -> String? {
        var path = template
        if path.hasPrefix("file://") {
            path.removeFirst("file://".count)
            path = path.removingPercentEncoding ?? path
        } else if path.contains("://") {
            return nil
        }
        if !path.hasPrefix("/") {
            guard let baseDirectory else { return nil }
            path = baseDirectory + "/" + path
        }
        return path
    }

    /// A store reading `{fontstack}/{range}` files of a local template on first use (on the calling thread): a
    /// missing file is a range without glyphs; a fontstack holding `/` or `..`, or a file larger than
    /// ``maxGlyphFileBytes``, is a range with a problem (its text drawn with the backend's fonts). Waymark's own.
    /// - Parameter pathTemplate: a file path with `{fontstack}` and `{range}` (``localGlyphTemplate(_:baseDirectory:)``).
    /// - Returns: the store (nothing is read until a range is asked for).
    public static func localGlyphStore(pathTemplate: String) -> GlyphStore {
        GlyphStore { fontstack, start in
            struct GlyphFileError: Error, CustomStringConvertible { var description: String }
            guard !fontstack.contains("/"), fontstack != "..", fontstack != "." else {
                throw GlyphFileError(description: "fontstack \(fontstack.debugDescription) names no file")
            }
            let path = pathTemplate.replacingOccurrences(of: "{fontstack}", with: fontstack)
                .replacingOccurrences(of: "{range}", with: "\(start)-\(start + 255)")
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            let size = attributes[.size] as? Int ?? 0
            guard size <= maxGlyphFileBytes else {
                throw GlyphFileError(description: "\(path): \(size) bytes, more than \(maxGlyphFileBytes)")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw GlyphFileError(description: "\(path) cannot be read")
            }
            return [UInt8](data)
        }
    }

    /// A store over an `http(s)` template: ``prefetchedGlyphRanges`` of every fontstack `style`'s layers name
    /// (constant `text-font`, MapLibre's default stack when unset) are fetched now through `network`, side by side,
    /// and waited for; frames are then answered from them without waiting. Any other range is a range without
    /// glyphs (its text drawn with the backend's fonts). A range that failed keeps its error as its problem.
    /// Waits for the fetches (bounded by `network`'s timeouts): make such hosts off the main thread, as
    /// `GMSMapView` makes the host of a remote style. Waymark's own.
    /// - Parameters:
    ///   - template: an `http(s)` template with `{fontstack}` and `{range}`.
    ///   - style: the style whose symbol layers' fontstacks are fetched.
    ///   - network: the network the ranges are fetched through.
    /// - Returns: the store of the fetched ranges.
    public static func prefetchedGlyphStore(template: String, style: Style, network: TileNetwork) -> GlyphStore {
        let stacks = fontstacks(of: style)
        let fetched = Mutex<[String: Result<[UInt8]?, any Error>]>([:])
        let jobs = stacks.sorted().flatMap { stack in prefetchedGlyphRanges.map { (stack, $0) } }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let (stack, start) = jobs[i]
            let result = Result<[UInt8]?, any Error> {
                try network.glyphs(template: template, fontstack: stack, range: start)
            }
            fetched.withLock { $0["\(start)|\(stack)"] = result }
        }
        let ranges = fetched.withLock { $0 }
        return GlyphStore { fontstack, start in
            try ranges["\(start)|\(fontstack)"]?.get() ?? nil
        }
    }
}
