import Foundation
import LinuxUIKit
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

// Waymark's own additions for hosts and apps (not in Google's SDK): the MapLibre style a map draws, the
// my-location provider set in code, and the map's place in the window loop (issue 15).

/// The MapLibre style (v8 JSON) a map draws, Waymark's own: Google's SDK has cloud styles and `GMSMapStyle`; Waymark
/// draws open vector tiles with a MapLibre style instead.
///
/// `mbtiles://` source URLs and sprites resolve relative to the style file (for `.json`, relative to the bundled
/// styles folder, `Data/styles/`); in a style loaded over HTTP, relative `sprite`, `glyphs`, source `url` and `tiles`
/// references resolve against the style's URL (RFC 3986, as MapLibre). A style that cannot be loaded draws the plain
/// background, with one logged warning naming the problem (for a URL, the URL).
public enum MapLibreStyle: Equatable, Sendable {
    /// The bundled style, `Data/styles/default.json` (the default).
    case bundled
    /// A style JSON file at a path.
    case file(String)
    /// A style given as JSON text.
    case json(String)
    /// A `file://` or `http(s)://` URL of a style JSON file. An `http(s)` style (and its TileJSON, sprite and
    /// glyphs) is fetched in the background through the HTTP cache (`$WAYMARK_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/waymark`): no frame waits for it; the map draws its background colour, overlays and markers
    /// until the style arrives, then the style, its tiles streaming in. `mapViewDidFinishTileRendering` and
    /// `mapViewSnapshotReady` wait for the style and its tiles.
    case url(URL)

    /// The style file whose symbol layers `.hybrid` draws over imagery: this style's file, else (JSON text, remote
    /// URLs) the bundled style.
    var labelStyleFile: String {
        switch self {
        case .file(let path): return path
        case .url(let url) where url.isFileURL: return url.path
        default: return DataFiles.path("styles/default.json")
        }
    }

    /// Whether making this style's renderer may wait on the network: an `http(s)` style URL, or a style file or text
    /// with a network source (TileJSON, `tiles` templates or a PMTiles archive over HTTP: `SourceOpener`) or a remote
    /// sprite. Such styles are loaded off the main thread (`RemoteStyleBasemapRenderer`). Only the document's sprite
    /// and sources are read for this (``Style/init(resourcesOf:baseDirectory:baseURL:)``), not its layers. A file
    /// that cannot be read or parsed: `false` (the synchronous path reports it).
    var loadsOverNetwork: Bool {
        let bytes: [UInt8]
        var folder: String? = nil
        switch self {
        case .bundled: return false
        case .url(let url) where !url.isFileURL: return true
        case .url(let url):
            guard let data = FileManager.default.contents(atPath: url.path) else { return false }
            (bytes, folder) = ([UInt8](data), url.deletingLastPathComponent().path)
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            (bytes, folder) = ([UInt8](data), URL(fileURLWithPath: path).deletingLastPathComponent().path)
        case .json(let text):
            bytes = Array(text.utf8)
        }
        guard let json = try? JSONValue.parse(bytes: bytes), json.objectValue != nil else { return false }
        return MapHost.loadsOverNetwork(Style(resourcesOf: json, baseDirectory: folder))
    }

    /// A snapshotter (pipeline and Cairo backend) drawing this style with `options`.
    /// - Parameters:
    ///   - options: the pipeline options.
    ///   - remote: whether an `http(s)` style URL may be fetched here (off the main thread only).
    ///   - restyle: applied to the loaded style before the pipeline is made (the map view's Google rules, dark mode
    ///     and traffic switch: `BasemapStyle`); nil: the style as loaded.
    /// - Returns: a new host for the (restyled) style, with the style's sprite sheet set when it can be loaded.
    /// - Throws: ``MapLibreStyleError`` for a remote URL without `remote`; `StyleLoadError` naming the file or text;
    ///   the pipeline's source error.
    func makeMapHost(
        options: MapRenderOptions, remote: Bool = false, restyle: (@Sendable (Style) -> Style)? = nil
    ) throws -> MapHost {
        var style = try loadStyle(remote: remote)
        if let restyle { style = restyle(style) }
        let snapshotter = try MapHost(style: style, options: options)
        snapshotter.useSprite(of: style)
        return snapshotter
    }

    /// The parsed style (JSON text resolves against the bundled styles folder, as in ``makeMapHost(options:remote:restyle:)``).
    /// - Parameter remote: whether an `http(s)` style URL may be fetched here (off the main thread only).
    /// - Returns: the style with its diagnostics, relative references resolved against its file's folder, its URL,
    ///   or (for JSON text) the bundled styles folder.
    /// - Throws: ``MapLibreStyleError`` for a remote URL without `remote`; `StyleLoadError` naming the file or text.
    func loadStyle(remote: Bool = false) throws -> Style {
        switch self {
        case .bundled: return try Style.load(contentsOfFile: DataFiles.path("styles/default.json"))
        case .file(let path): return try Style.load(contentsOfFile: path)
        case .url(let url):
            if url.isFileURL { return try Style.load(contentsOfFile: url.path) }
            guard remote else { throw MapLibreStyleError.remoteURL(url) }
            return try TileNetwork.shared.loadStyle(url.absoluteString)
        case .json(let text):
            let directory = DataFiles.locate("styles/default.json").deletingLastPathComponent().path
            return try Style.parse(bytes: Array(text.utf8), fileName: "<style JSON>", baseDirectory: directory)
        }
    }
}

/// Why a ``MapLibreStyle`` cannot be loaded synchronously.
public enum MapLibreStyleError: Error, Equatable, CustomStringConvertible {
    /// An `http(s)` (or other non-file) URL asked of a synchronous loader: remote styles load in the background
    /// (a map view does that by itself).
    case remoteURL(URL)

    /// A message naming the URL.
    public var description: String {
        switch self {
        case .remoteURL(let url): return "remote style URLs load in the background, not here: \(url.absoluteString)"
        }
    }
}

extension GMSMapViewOptions {
    /// The MapLibre style of the map made with these options (Waymark's own). Defaults to `.bundled`.
    public var mapLibreStyle: MapLibreStyle {
        get { mapLibreStyleStorage }
        set { mapLibreStyleStorage = newValue }
    }
}

extension GMSMapView {
    /// The MapLibre style this map draws (Waymark's own; see ``MapLibreStyle``). Defaults to the options' value
    /// (`.bundled`). Setting a different style replaces the basemap; the next frame draws it.
    public var mapLibreStyle: MapLibreStyle {
        get { mapLibreStyleStorage }
        set {
            guard newValue != mapLibreStyleStorage else { return }
            mapLibreStyleStorage = newValue
            restyleBasemap()
        }
    }

    /// Replaces the map's location provider (Waymark's own). The dot and ``myLocation`` follow the new provider's
    /// fixes from the next frame while ``isMyLocationEnabled``.
    /// - Throws: `GPXError` naming the file when a GPX track cannot be read; the old provider stays.
    public func setLocationProvider(_ provider: WaymarkLocationProvider) throws {
        _locationProvider = try provider.spec.makeProvider(clock: dependencies.clock)
    }

    /// The key under which `padding` animates on the map's layer inside `UIView.animate`.
    static let paddingAnimationKey = "waymark.padding"

    /// `padding` changed: inside a `UIView.animate` block the camera's padding follows the block's curve (the
    /// target stays at the moving optical centre), else at once.
    func paddingDidChange(from old: UIEdgeInsets) {
        let from = presentedPadding(fallback: old)
        if UIView.isInsideAnimationBlock {
            mapLayer.addViewAnimation(forKey: Self.paddingAnimationKey, from: Self.rect(from), to: Self.rect(padding))
            return
        }
        applyPadding(padding)
    }

    /// The padding shown now (animated or not).
    private func presentedPadding(fallback: UIEdgeInsets) -> UIEdgeInsets {
        guard let r = mapLayer.presentationValue(forKey: Self.paddingAnimationKey) as? CGRect else { return fallback }
        return UIEdgeInsets(top: r.minY, left: r.minX, bottom: r.height, right: r.width)
    }

    /// Per frame: applies the presented padding while it animates.
    func tickPadding() {
        applyPadding(presentedPadding(fallback: padding))
    }

    private func applyPadding(_ insets: UIEdgeInsets) {
        let sanitized = EdgeInsets(adjustedPadding(insets)).sanitized
        guard animator.camera.padding != sanitized else { return }
        animator.updateViewport(size: ScreenSize(bounds.size), padding: sanitized)
    }

    /// Insets packed into a rectangle (x left, y top, width right, height bottom) so the layer animation can blend
    /// them.
    private static func rect(_ i: UIEdgeInsets) -> CGRect {
        CGRect(x: i.left, y: i.top, width: i.right, height: i.bottom)
    }
}

extension GMSMapView: UIFrameTicking {
    /// The window loop's view of the map: frames are wanted while ``needsTick``.
    package var needsFrames: Bool { needsTick }
    /// Tiles are being made on other threads: the basemap's (async tiles in a window app) or a tile layer's
    /// unanswered requests.
    package var isLoading: Bool { basemap.isLoading || tileLayersAreLoading }
    /// One frame's tick.
    package func tickFrame() { tick() }
}

extension GMSCameraPosition {
    /// Whether `a` and `b` draw identically (``GMSMapView/areEqual(forRenderingPosition:position:)``): targets less
    /// than 1/1000 point apart in Web Mercator at the larger zoom (longitude the shorter way round), zoom, bearing
    /// (the shorter way round) and viewing angle within 1e-6. Non-finite values never match.
    static func rendersSame(_ a: GMSCameraPosition, _ b: GMSCameraPosition) -> Bool {
        func mercatorY(_ latitude: Double) -> Double {
            WebMercator.mercatorY(latitudeRadians: latitude * .pi / 180) * 180 / .pi
        }
        func turn(_ d: Double) -> Double {
            let r = abs(d).truncatingRemainder(dividingBy: 360)
            return r > 180 ? 360 - r : r
        }
        let pointsPerDegree = 256 * pow(2, Double(max(a.zoom, b.zoom))) / 360
        let dx = turn(a.target.longitude - b.target.longitude) * pointsPerDegree
        let dy = abs(mercatorY(a.target.latitude) - mercatorY(b.target.latitude)) * pointsPerDegree
        return dx < 1e-3 && dy < 1e-3 && abs(Double(a.zoom) - Double(b.zoom)) < 1e-6
            && turn(a.bearing - b.bearing) < 1e-6 && abs(a.viewingAngle - b.viewingAngle) < 1e-6
    }
}
