/// The geometry type of a feature as `geometry-type` reports it (GeoJSON names; `$type` in legacy filters folds the
/// multi variants into the single ones).
public enum StyleGeometryType: String, Sendable, Hashable {
    /// A point (or several points stored as one point feature).
    case point = "Point"
    /// A line.
    case lineString = "LineString"
    /// A polygon.
    case polygon = "Polygon"
    /// Several points.
    case multiPoint = "MultiPoint"
    /// Several lines.
    case multiLineString = "MultiLineString"
    /// Several polygons.
    case multiPolygon = "MultiPolygon"

    /// The single-part name used by legacy `$type` filters: `Point`, `LineString` or `Polygon`.
    public var legacyName: String {
        switch self {
        case .point, .multiPoint: return "Point"
        case .lineString, .multiLineString: return "LineString"
        case .polygon, .multiPolygon: return "Polygon"
        }
    }
}

/// A feature as expressions read it: the small protocol a tile decoder's feature type adopts so styles evaluate it
/// without copying its properties into a dictionary (architecture: `MapStyle` defines it, `MapDrawing` adapts
/// `MapData` features to it).
public protocol StyleFeature: Sendable {
    /// The value of one property, or `nil` when the feature has none of that name.
    /// - Parameter key: the property name.
    /// - Returns: the value or `nil`.
    func styleProperty(_ key: String) -> ExpressionValue?
    /// All properties (for the `properties` operator; may be slower).
    var styleProperties: [String: ExpressionValue] { get }
    /// The feature id (number or string), `.null` when it has none.
    var styleID: ExpressionValue { get }
    /// The geometry type.
    var styleGeometryType: StyleGeometryType { get }
    /// The geometry in degrees as `[longitude, latitude]` pairs, one array per point or line string, for `within`
    /// when the context carries none (``EvaluationContext/geometryCoordinates``); computed only when `within` asks,
    /// so a host pays for it only on layers that use it. `nil` (the default): unknown, `within` is false.
    var styleGeometryCoordinates: [[[Double]]]? { get }
}

extension StyleFeature {
    /// Default: the position is unknown (`within` is false).
    public var styleGeometryCoordinates: [[[Double]]]? { nil }
}

/// Everything an expression may read while it is evaluated: the globals (zoom, …) and the feature.
///
/// A value type, cheap to copy; the renderer makes one per feature (or reuses one and swaps the feature fields).
/// Thread rule: a context is a value, so evaluation is thread-safe as long as each thread has its own context.
public struct EvaluationContext: Sendable {
    /// The camera zoom level (0…24, fractional allowed), or `nil` when unknown (then `zoom` evaluates to 0).
    public var zoom: Double?
    /// The feature's properties; missing keys read as `null`. Ignored when ``feature`` is set.
    public var properties: [String: ExpressionValue]
    /// A feature read through ``StyleFeature``; when set it supplies the properties, id and geometry type instead of
    /// ``properties``, ``featureID`` and ``geometryType``. Defaults to `nil`.
    public var feature: (any StyleFeature)?
    /// The feature's id (number or string), `.null` when it has none.
    public var featureID: ExpressionValue
    /// The feature's geometry type, or `nil` when there is no feature.
    public var geometryType: StyleGeometryType?
    /// Heatmap density 0…1 for `heatmap-density`, or `nil`.
    public var heatmapDensity: Double?
    /// Fraction 0…1 along a line for `line-progress`, or `nil`.
    public var lineProgress: Double?
    /// Image names the sprite provides (for `image`); `nil` means unknown, treated as none available.
    public var availableImages: Set<String>?
    /// The feature's geometry in degrees as `[longitude, latitude]` pairs, one array per point or line string, for
    /// `within`; `nil` when the host does not provide it (then `within` asks the feature,
    /// ``StyleFeature/styleGeometryCoordinates``, and is `false` when neither knows). Defaults to `nil`.
    public var geometryCoordinates: [[[Double]]]?
    /// Style-wide values the host sets, read by `global-state`. Defaults to empty.
    public var globalState: [String: ExpressionValue] = [:]

    /// Creates a context that reads a ``StyleFeature``.
    /// - Parameters:
    ///   - zoom: camera zoom, or `nil`.
    ///   - feature: the feature.
    public init(zoom: Double?, feature: any StyleFeature) {
        self.init(zoom: zoom)
        self.feature = feature
    }

    /// The property `key` of the feature, or `nil`.
    /// - Parameter key: the property name.
    /// - Returns: the value or `nil`.
    @inlinable
    public func property(_ key: String) -> ExpressionValue? {
        if let feature { return feature.styleProperty(key) }
        return properties[key]
    }

    /// All properties of the feature.
    public var allProperties: [String: ExpressionValue] { feature?.styleProperties ?? properties }
    /// The feature id, from ``feature`` when set.
    public var resolvedID: ExpressionValue { feature?.styleID ?? featureID }
    /// The geometry type, from ``feature`` when set.
    public var resolvedGeometryType: StyleGeometryType? { feature?.styleGeometryType ?? geometryType }

    /// Creates a context.
    /// - Parameters:
    ///   - zoom: camera zoom, or `nil`. Defaults to `nil`.
    ///   - properties: feature properties. Defaults to none.
    ///   - featureID: feature id. Defaults to `.null`.
    ///   - geometryType: geometry type. Defaults to `nil`.
    public init(
        zoom: Double? = nil, properties: [String: ExpressionValue] = [:], featureID: ExpressionValue = .null,
        geometryType: StyleGeometryType? = nil
    ) {
        self.zoom = zoom
        self.properties = properties
        self.featureID = featureID
        self.geometryType = geometryType
    }
}

/// An error raised while evaluating an expression (for example a failed type assertion); the spec's message text.
public struct ExpressionEvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, worded as MapLibre words it where practical.
    public var message: String

    /// Creates an error with a message.
    /// - Parameter message: the text.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
