import GoogleMaps

/// A geometry read from GeoJSON or KML (google-maps-ios-utils' `GMUGeometry`).
public protocol GMUGeometry {
    /// The geometry's type name ("Point", "LineString", "Polygon", "GeometryCollection", "GroundOverlay").
    var type: String { get }
}

/// Something holding a geometry and the style it is drawn with (google-maps-ios-utils' `GMUGeometryContainer`):
/// ``GMUFeature`` and ``GMUPlacemark``.
public protocol GMUGeometryContainer: AnyObject {
    /// The geometry.
    var geometry: any GMUGeometry { get }
    /// The style to draw it with, or nil for the renderer's defaults.
    var style: GMUStyle? { get set }
}

/// A point (google-maps-ios-utils' `GMUPoint`); drawn as a marker.
public final class GMUPoint: GMUGeometry {
    /// "Point".
    public let type = "Point"
    /// The coordinate, degrees.
    public let coordinate: CLLocationCoordinate2D
    /// A point at `coordinate`.
    public init(coordinate: CLLocationCoordinate2D) { self.coordinate = coordinate }
}

/// A line through coordinates (google-maps-ios-utils' `GMULineString`); drawn as a polyline.
public final class GMULineString: GMUGeometry {
    /// "LineString".
    public let type = "LineString"
    /// The coordinates.
    public let path: GMSPath
    /// A line along `path`.
    public init(path: GMSPath) { self.path = path }
}

/// A polygon (google-maps-ios-utils' `GMUPolygon`): the outer ring first, then holes; drawn as a polygon.
public final class GMUPolygon: GMUGeometry {
    /// "Polygon".
    public let type = "Polygon"
    /// The rings: the outer boundary, then the holes.
    public let paths: [GMSPath]
    /// A polygon of `paths` (outer ring first).
    public init(paths: [GMSPath]) { self.paths = paths }
}

/// Several geometries as one (google-maps-ios-utils' `GMUGeometryCollection`): GeoJSON's Multi* types and
/// GeometryCollection, KML's MultiGeometry.
public final class GMUGeometryCollection: GMUGeometry {
    /// "GeometryCollection".
    public let type = "GeometryCollection"
    /// The geometries.
    public let geometries: [any GMUGeometry]
    /// A collection of `geometries`.
    public init(geometries: [any GMUGeometry]) { self.geometries = geometries }
}

/// An image over a box of the map (google-maps-ios-utils' `GMUGroundOverlay`, KML's GroundOverlay); drawn as a
/// ground overlay.
public final class GMUGroundOverlay: GMUGeometry {
    /// "GroundOverlay".
    public let type = "GroundOverlay"
    /// The north-east corner.
    public let northEast: CLLocationCoordinate2D
    /// The south-west corner.
    public let southWest: CLLocationCoordinate2D
    /// The drawing order.
    public let zIndex: Int32
    /// Degrees counter-clockwise (KML's rotation).
    public let rotation: Double
    /// The image's address, as written in the file. A relative one read by ``GMUKMLParser/init(url:)`` is resolved
    /// against the KML file's folder when drawn (as Google Earth does); otherwise a relative path is read from the
    /// process's working directory.
    public let href: String
    /// The KML document this overlay was read from, when read by ``GMUKMLParser/init(url:)``: the base of a relative
    /// ``href``.
    var documentURL: URL?

    /// An overlay of `href` over the box `southWest`…`northEast`.
    public init(
        coordinate northEast: CLLocationCoordinate2D, southWest: CLLocationCoordinate2D, zIndex: Int32,
        rotation: Double, href: String
    ) {
        self.northEast = northEast
        self.southWest = southWest
        self.zIndex = zIndex
        self.rotation = rotation
        self.href = href
    }
}

/// A GeoJSON feature (google-maps-ios-utils' `GMUFeature`).
public final class GMUFeature: GMUGeometryContainer {
    /// The geometry.
    public let geometry: any GMUGeometry
    /// The feature's `id` (numbers written as text), or nil.
    public let identifier: String?
    /// The `properties` object's members (strings, `NSNumber`s, arrays, dictionaries, `NSNull`), or nil.
    public let properties: [String: Any]?
    /// The `bbox`, or nil.
    public let boundingBox: GMSCoordinateBounds?
    /// The style to draw with, or nil for the renderer's defaults.
    public var style: GMUStyle?

    /// A feature of `geometry`.
    public init(
        geometry: any GMUGeometry, identifier: String?, properties: [String: Any]?, boundingBox: GMSCoordinateBounds?
    ) {
        self.geometry = geometry
        self.identifier = identifier
        self.properties = properties
        self.boundingBox = boundingBox
    }
}

/// A KML placemark (google-maps-ios-utils' `GMUPlacemark`).
public final class GMUPlacemark: GMUGeometryContainer {
    /// The geometry.
    public let geometry: any GMUGeometry
    /// The `name`, or nil.
    public let title: String?
    /// The `description`, or nil.
    public let snippet: String?
    /// An inline `Style`, or nil.
    public var style: GMUStyle?
    /// The `styleUrl` ("#id" of a Style or StyleMap), or nil.
    public let styleUrl: String?

    /// A placemark of `geometry`.
    public init(geometry: any GMUGeometry, title: String?, snippet: String?, style: GMUStyle?, styleUrl: String?) {
        self.geometry = geometry
        self.title = title
        self.snippet = snippet
        self.style = style
        self.styleUrl = styleUrl
    }
}

/// How a geometry is drawn (google-maps-ios-utils' `GMUStyle`, from KML's IconStyle, LineStyle and PolyStyle).
public final class GMUStyle {
    /// The style's id (without "#").
    public let styleID: String
    /// The line colour, or nil for the default (black).
    public let strokeColor: UIColor?
    /// The fill colour, or nil for the default.
    public let fillColor: UIColor?
    /// The line width, points.
    public let width: CGFloat
    /// The icon's scale.
    public let scale: CGFloat
    /// The icon's heading, degrees.
    public let heading: CGFloat
    /// The icon's anchor (hotSpot), in the unit square.
    public let anchor: CGPoint
    /// The icon's address, or nil. A relative one read by ``GMUKMLParser/init(url:)`` is resolved against the KML
    /// file's folder when drawn.
    public let iconUrl: String?
    /// The KML document this style was read from, when read by ``GMUKMLParser/init(url:)``: the base of a relative
    /// ``iconUrl``.
    var documentURL: URL?
    /// A title, or nil.
    public let title: String?
    /// Whether polygons are filled (KML `fill`).
    public let hasFill: Bool
    /// Whether lines and outlines are drawn (KML `outline`).
    public let hasStroke: Bool

    /// A style with every property given.
    public init(
        styleID: String, stroke strokeColor: UIColor?, fill fillColor: UIColor?, width: CGFloat, scale: CGFloat,
        heading: CGFloat, anchor: CGPoint, iconUrl: String?, title: String?, hasFill: Bool, hasStroke: Bool
    ) {
        self.styleID = styleID
        self.strokeColor = strokeColor
        self.fillColor = fillColor
        self.width = width
        self.scale = scale
        self.heading = heading
        self.anchor = anchor
        self.iconUrl = iconUrl
        self.title = title
        self.hasFill = hasFill
        self.hasStroke = hasStroke
    }
}

/// A key and a style address (google-maps-ios-utils' `GMUPair`): one entry of a KML StyleMap.
public final class GMUPair {
    /// "normal" or "highlight".
    public let key: String
    /// The style's address ("#id").
    public let styleUrl: String
    /// A pair of `key` and `styleUrl`.
    public init(key: String, styleUrl: String) {
        self.key = key
        self.styleUrl = styleUrl
    }
}

/// A KML StyleMap (google-maps-ios-utils' `GMUStyleMap`): styles by state; the renderer uses "normal".
public final class GMUStyleMap {
    /// The style map's id (without "#").
    public let styleMapId: String
    /// The pairs.
    public let pairs: [GMUPair]
    /// A style map `styleMapId` of `pairs`.
    public init(id styleMapId: String, pairs: [GMUPair]) {
        self.styleMapId = styleMapId
        self.pairs = pairs
    }
}
