import CairoGraphics
import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapStyle
import StaticMaps
import Synchronization

/// One render thread's maps: a ``MapHost`` per configured style, made on first use, and the last few styled by
/// Google's `style` parameters. Used only on the thread that made it (MapHost's rule). Waymark's own.
public final class StaticMapRenderer {
    private let config: StaticMapsConfig
    private let icons: IconStore
    private var hosts: [String: MapHost] = [:]
    private var styled: [(key: String, host: MapHost)] = []
    private var iconHandles: [String: StaticMapIcon] = [:]
    /// Styled hosts kept per thread (each holds a translated style; tiles are shared through the engine).
    static let styledCapacity = 8

    init(config: StaticMapsConfig, icons: IconStore) {
        self.config = config
        self.icons = icons
    }

    /// The snapshotter of a style id, made on first use.
    func host(_ id: String) throws -> MapHost {
        if let known = hosts[id] { return known }
        guard let location = config.styleLocation(id) else {
            throw StaticMapError(status: 404, parameter: "map_id", message: "Unknown style '\(id)'.")
        }
        let host = try MapHost(styleFile: location)
        hosts[id] = host
        return host
    }

    /// The snapshotter of a style id restyled by `rules` and with its labels in `language` (either may be absent;
    /// cached by `key`, the normalised `style` parameters, and the language).
    func host(_ id: String, rules: GoogleMapStyle?, key: String, language: LabelLanguage?) throws -> MapHost {
        let cacheKey = id + "\u{1}" + key + "\u{1}" + (language?.tag ?? "")
        if let i = styled.firstIndex(where: { $0.key == cacheKey }) {
            let hit = styled.remove(at: i)
            styled.append(hit)
            return hit.host
        }
        guard let location = config.styleLocation(id) else {
            throw StaticMapError(status: 404, parameter: "map_id", message: "Unknown style '\(id)'.")
        }
        var base = try TileNetwork.openStyle(location)
        if let language { base = base.localizingLabels(to: language) }
        let host: MapHost
        if let rules {
            host = try MapHost.styled(base, rules: rules).host
        } else {
            host = try MapHost(style: base)
            host.useSprite(of: base)
        }
        styled.append((cacheKey, host))
        if styled.count > Self.styledCapacity { styled.removeFirst() }
        return host
    }

    /// Draws `scene` over style `id` (restyled by `rules` when given, labels in `language` when given) and encodes
    /// it as `format`.
    /// - Throws: ``StaticMapError`` for an unknown style, or the renderer's errors.
    func render(
        _ scene: StaticMapScene, styleID id: String, rules: GoogleMapStyle?, rulesKey: String,
        language: LabelLanguage?, format: StaticMapFormat
    ) throws -> [UInt8] {
        let host =
            rules == nil && language == nil
            ? try self.host(id) : try self.host(id, rules: rules, key: rulesKey, language: language)
        let overlay = scene.overlay { url in self.icon(url, backend: host) }
        let image = try host.render(camera: scene.camera, scale: scene.scale, overlay: overlay)
        return format.isJPEG ? try JPEGCodec.encode(image) : try StaticMapPNG.encode(image)
    }

    /// Renders an XYZ raster tile (`z/x/y`, 256 points, `scale` pixels per point) of style `id` as PNG, without the
    /// attribution line (as tileserver-gl's tiles: the client map that shows them carries the attribution).
    func tile(styleID id: String, z: Int, x: Int, y: Int, scale: Double) throws -> [UInt8] {
        let host = try self.host(id)
        let draws = host.renderer.options.drawsAttribution
        host.renderer.options.drawsAttribution = false
        defer { host.renderer.options.drawsAttribution = draws }
        let n = Double(1 << z)
        let center = WebMercator.latLng(WorldPoint(x: (Double(x) + 0.5) / n, y: (Double(y) + 0.5) / n))
        let camera = CameraState(center: center, zoom: Double(z), size: ScreenSize(width: 256, height: 256))
        return try StaticMapPNG.encode(host.render(camera: camera, scale: scale))
    }

    /// The registered image of an icon URL on this thread's backend, fetched through ``IconStore``.
    private func icon(_ url: String, backend host: MapHost) -> StaticMapIcon? {
        if let known = iconHandles[url] { return known }
        guard let image = icons.image(url), let handle = try? host.backend.register(image) else { return nil }
        let icon = StaticMapIcon(
            image: handle, pixelWidth: Double(image.width), pixelHeight: Double(image.height))
        iconHandles[url] = icon
        return icon
    }
}

/// Custom marker icons, fetched only from the configured hosts through ``TileNetwork``'s HTTP client and its on-disk
/// cache, with size and pixel limits; decoded images are kept for the process. Thread-safe.
public final class IconStore: Sendable {
    private let hosts: Set<String>
    private let maxBytes: Int
    private let maxSide: Int
    private let images = Mutex([String: RasterImage?]())
    private let fetch: @Sendable (URL) throws -> [UInt8]

    /// Creates a store.
    /// - Parameters:
    ///   - hosts: host names icons may come from.
    ///   - maxBytes: largest file.
    ///   - maxSide: largest width and height, pixels.
    ///   - fetch: the loader; default ``TileNetwork/shared``'s client.
    public init(
        hosts: [String], maxBytes: Int, maxSide: Int,
        fetch: @escaping @Sendable (URL) throws -> [UInt8] = { try TileNetwork.shared.client.bytes($0) }
    ) {
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.maxBytes = maxBytes
        self.maxSide = maxSide
        self.fetch = fetch
    }

    /// Whether `url` may be fetched: `http(s)` on a configured host.
    public func allows(_ url: String) -> Bool {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = u.host?.lowercased()
        else { return false }
        return hosts.contains(host)
    }

    /// The decoded icon, or `nil` when it is not allowed, cannot be fetched or decoded, or is over the limits.
    public func image(_ url: String) -> RasterImage? {
        if let known = images.withLock({ $0[url] }) { return known }
        var result: RasterImage?
        if allows(url), let u = URL(string: url), let bytes = try? fetch(u), bytes.count <= maxBytes,
            let image = try? PNGCodec.decode(bytes), image.width <= maxSide, image.height <= maxSide
        {
            result = image
        }
        images.withLock { $0[url] = .some(result) }
        return result
    }
}
