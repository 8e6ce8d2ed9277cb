import GoogleMaps

/// Draws GeoJSON features and KML placemarks on a map (google-maps-ios-utils' `GMUGeometryRenderer`) as markers,
/// polylines, polygons and ground overlays, with their styles.
///
/// A container's style is its own ``GMUGeometryContainer/style``, else the style its placemark's `styleUrl` names
/// (directly, or through a StyleMap's "normal" pair). Points become markers (title and snippet from the placemark,
/// the style's icon, scale, heading and anchor); lines become polylines (the style's stroke colour and width);
/// polygons become polygons with holes (the fill only when ``GMUStyle/hasFill``, the outline only when
/// ``GMUStyle/hasStroke``); ground overlays become ground overlays (bearing −rotation, zIndex from drawOrder).
/// Without a style the GoogleMaps defaults apply. Icons and overlay images are read from `file:` URLs or paths at
/// once (a relative one from a KML file read by ``GMUKMLParser/init(url:)`` against that file's folder); `http(s)`
/// images are not fetched (GoogleMapsUtils does no networking). An image that is not read leaves the
/// default marker (or an overlay without image) and one logged warning.
/// - Thread rules: main thread (main actor).
@preconcurrency @MainActor public final class GMUGeometryRenderer {
    private weak var map: GMSMapView?
    private let geometries: [any GMUGeometryContainer]
    private let styles: [String: GMUStyle]
    private let styleMaps: [String: GMUStyleMap]
    private var overlays: [GMSOverlay] = []

    /// A renderer of `geometries` on `map` without shared styles.
    public convenience init(map: GMSMapView, geometries: [any GMUGeometryContainer]) {
        self.init(map: map, geometries: geometries, styles: nil, styleMaps: nil)
    }

    /// A renderer of `geometries` on `map` with the shared `styles`.
    public convenience init(map: GMSMapView, geometries: [any GMUGeometryContainer], styles: [GMUStyle]?) {
        self.init(map: map, geometries: geometries, styles: styles, styleMaps: nil)
    }

    /// A renderer of `geometries` on `map` with the shared `styles` and `styleMaps`.
    public init(
        map: GMSMapView, geometries: [any GMUGeometryContainer], styles: [GMUStyle]?, styleMaps: [GMUStyleMap]?
    ) {
        self.map = map
        self.geometries = geometries
        self.styles = Dictionary((styles ?? []).map { ($0.styleID, $0) }, uniquingKeysWith: { first, _ in first })
        self.styleMaps = Dictionary(
            (styleMaps ?? []).map { ($0.styleMapId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The overlays drawn now (Waymark's own accessor; Google's `mapOverlays`).
    public func mapOverlays() -> [GMSOverlay] { overlays }

    /// Draws the geometries (again: the previous drawing is cleared first).
    public func render() {
        clear()
        guard let map else { return }
        for container in geometries {
            let placemark = container as? GMUPlacemark
            let style = container.style ?? style(for: placemark?.styleUrl)
            add(container.geometry, style: style, placemark: placemark, on: map)
        }
    }

    /// Removes everything ``render()`` drew.
    public func clear() {
        for o in overlays { o.map = nil }
        overlays = []
    }

    private func style(for url: String?) -> GMUStyle? {
        guard var key = url else { return nil }
        if key.hasPrefix("#") { key.removeFirst() }
        if let s = styles[key] { return s }
        if let m = styleMaps[key], let normal = m.pairs.first(where: { $0.key == "normal" }) ?? m.pairs.first {
            var k = normal.styleUrl
            if k.hasPrefix("#") { k.removeFirst() }
            return styles[k]
        }
        return nil
    }

    private func add(_ geometry: any GMUGeometry, style: GMUStyle?, placemark: GMUPlacemark?, on map: GMSMapView) {
        switch geometry {
        case let point as GMUPoint:
            let marker = GMSMarker(position: point.coordinate)
            marker.title = placemark?.title ?? style?.title
            marker.snippet = placemark?.snippet
            if let style {
                marker.groundAnchor = style.anchor
                marker.rotation = Double(style.heading)
                if let url = style.iconUrl {
                    let scale = style.scale
                    loadImage(url, relativeTo: style.documentURL) { image in
                        marker.icon = Self.scaled(image, by: scale)
                    }
                }
            }
            marker.map = map
            overlays.append(marker)
        case let line as GMULineString:
            let polyline = GMSPolyline(path: line.path)
            if let style {
                if let c = style.strokeColor { polyline.strokeColor = c }
                polyline.strokeWidth = style.width
            }
            polyline.title = placemark?.title
            polyline.map = map
            overlays.append(polyline)
        case let poly as GMUPolygon:
            guard let outer = poly.paths.first else { return }
            let polygon = GMSPolygon(path: outer)
            polygon.holes = Array(poly.paths.dropFirst())
            if let style {
                polygon.fillColor = style.hasFill ? (style.fillColor ?? polygon.fillColor) : .clear
                polygon.strokeColor = style.hasStroke ? (style.strokeColor ?? polygon.strokeColor) : .clear
                polygon.strokeWidth = style.width
            }
            polygon.title = placemark?.title
            polygon.map = map
            overlays.append(polygon)
        case let collection as GMUGeometryCollection:
            for g in collection.geometries { add(g, style: style, placemark: placemark, on: map) }
        case let ground as GMUGroundOverlay:
            let bounds = GMSCoordinateBounds(coordinate: ground.northEast, coordinate: ground.southWest)
            let overlay = GMSGroundOverlay(bounds: bounds, icon: nil)
            overlay.bearing = -ground.rotation
            overlay.zIndex = ground.zIndex
            overlay.title = placemark?.title
            loadImage(ground.href, relativeTo: ground.documentURL) { image in overlay.icon = image }
            overlay.map = map
            overlays.append(overlay)
        default:
            GMSLogUtils.warning("GMUGeometryRenderer: geometry type \(geometry.type) is not drawn")
        }
    }

    private static func scaled(_ image: UIImage, by scale: CGFloat) -> UIImage {
        guard scale > 0, scale.isFinite, scale != 1 else { return image }
        let size = CGSize(width: image.size.width * scale, height: image.size.height * scale)
        return UIGraphicsImageRenderer(size: size).image { _ in image.draw(in: CGRect(origin: .zero, size: size)) }
    }

    /// Reads the image at `address` (a path or a file URL; a relative one against the folder of `document` when
    /// given) and hands it to `apply`.
    private func loadImage(_ address: String, relativeTo document: URL?, _ apply: (UIImage) -> Void) {
        guard !address.isEmpty else { return }
        let written = URL(string: address)
        if let url = written, url.scheme == "http" || url.scheme == "https" {
            GMSLogUtils.warning("GMUGeometryRenderer: remote image \(address) is not fetched; the default is drawn")
            return
        }
        var path = written.flatMap { $0.isFileURL ? $0.path : nil } ?? address
        if written?.scheme == nil, !address.hasPrefix("/"), let document, document.isFileURL {
            // A relative reference (RFC 3986), or a plain relative path that is not a valid URL (spaces).
            if let resolved = URL(string: address, relativeTo: document)?.absoluteURL, resolved.isFileURL {
                path = resolved.path
            } else {
                path = document.deletingLastPathComponent().appendingPathComponent(address).path
            }
        }
        if let image = UIImage(contentsOfFile: path) {
            apply(image)
        } else {
            GMSLogUtils.warning("GMUGeometryRenderer: no image at \(address)")
        }
    }
}
