import Foundation
import MapStorage

/// Why indoor data could not be loaded. Every message names the file.
enum IndoorDataError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, message: String)
    /// The file is not the GeoJSON `scripts/data/build-indoor.py` writes; `message` says what is wrong and where.
    case malformed(path: String, message: String)

    var description: String {
        switch self {
        case .unreadable(let path, let message): "indoor data \(path): cannot read: \(message)"
        case .malformed(let path, let message): "indoor data \(path): \(message)"
        }
    }
}

/// A shop, room or corridor on one or more levels of an indoor building.
struct IndoorFeature: Equatable {
    enum Geometry: Equatable {
        case point(CLLocationCoordinate2D)
        case lineString([CLLocationCoordinate2D])
        /// One ring, closed (first point repeated).
        case polygon([CLLocationCoordinate2D])
    }

    /// The OSM object, e.g. `"node/306957582"`.
    var osmID: String
    /// The name, when the data has one.
    var name: String?
    /// The OSM tag value that classifies it (`shop=*`, else `amenity=*`, `indoor=*`, `highway=*`).
    var category: String
    /// The OSM `level` numbers (ordinals) it is on, ascending.
    var levels: [Int]
    var geometry: Geometry
}

/// The indoor buildings of `Data/indoor.geojson` (see DATA.md "Indoor") and their per-level features.
///
/// Format (written by `scripts/data/build-indoor.py`): a GeoJSON FeatureCollection. A feature with `kind: "building"`
/// has a Polygon outline and `building_id`, `name`, `levels` (top to bottom, each `{ordinal, short_name, name}`),
/// `default_level` (an ordinal among `levels`) and `underground`; a feature with `kind: "indoor"` has `building_id`,
/// `levels` (ordinals), `name`, `category`, `osm_id` and a Point, LineString or Polygon geometry. Features of other
/// kinds are ignored.
struct IndoorDataset {
    /// Buildings in file order.
    let buildings: [GMSIndoorBuilding]
    private let featuresByBuilding: [String: [IndoorFeature]]

    init(buildings: [GMSIndoorBuilding], features: [String: [IndoorFeature]]) {
        self.buildings = buildings
        self.featuresByBuilding = features
    }

    /// The features of `building` drawn on `level` (`level` must be one of its levels), in file order.
    func features(of building: GMSIndoorBuilding, on level: GMSIndoorLevel) -> [IndoorFeature] {
        (featuresByBuilding[building.buildingID] ?? []).filter { $0.levels.contains(level.ordinal) }
    }

    /// Every feature of `building`.
    func features(of building: GMSIndoorBuilding) -> [IndoorFeature] {
        featuresByBuilding[building.buildingID] ?? []
    }

    /// The file name the locator looks for.
    static let fileName = "indoor.geojson"

    /// Finds the data file: `$WAYMARK_DATA_DIR/indoor.geojson` when that variable is set; else the first
    /// `Data/indoor.geojson` in the working directory or one of its ancestors, then beside the executable or in one
    /// of its ancestors (the same order as the geocoder database).
    /// - Returns: the URL found, or the first candidate (for the "not found" message) when none exists.
    static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    ) -> URL {
        DataFiles.locate(fileName, environment: environment, workingDirectory: workingDirectory, executable: executable)
    }

    /// Reads and parses a file.
    /// - Throws: ``IndoorDataError``.
    static func load(contentsOf url: URL) throws(IndoorDataError) -> IndoorDataset {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, message: "\(error.localizedDescription)")
        }
        return try parse(data, path: url.path)
    }

    /// Parses GeoJSON text; `path` only names the input in errors.
    /// - Throws: ``IndoorDataError/malformed(path:message:)`` naming the feature index and member at fault.
    static func parse(_ data: Data, path: String) throws(IndoorDataError) -> IndoorDataset {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .malformed(path: path, message: "not a JSON object")
        }
        guard root["type"] as? String == "FeatureCollection", let features = root["features"] as? [Any] else {
            throw .malformed(path: path, message: "not a GeoJSON FeatureCollection")
        }
        var buildings: [GMSIndoorBuilding] = []
        var byID: [String: GMSIndoorBuilding] = [:]
        var indoor: [String: [IndoorFeature]] = [:]
        var pending: [(Int, [String: Any], [String: Any])] = []
        for (index, item) in features.enumerated() {
            guard let feature = item as? [String: Any], let properties = feature["properties"] as? [String: Any],
                let geometry = feature["geometry"] as? [String: Any]
            else { throw .malformed(path: path, message: "feature \(index): needs properties and geometry") }
            switch properties["kind"] as? String {
            case "building":
                let building = try parseBuilding(properties, geometry, index: index, path: path)
                guard byID[building.buildingID] == nil else {
                    throw .malformed(path: path, message: "feature \(index): building \(building.buildingID) repeated")
                }
                byID[building.buildingID] = building
                buildings.append(building)
            case "indoor":
                pending.append((index, properties, geometry))
            default:
                continue
            }
        }
        for (index, properties, geometry) in pending {
            guard let buildingID = properties["building_id"] as? String, byID[buildingID] != nil else {
                throw .malformed(path: path, message: "feature \(index): building_id names no building")
            }
            guard let levels = (properties["levels"] as? [Any])?.compactMap({ ($0 as? NSNumber)?.intValue }),
                !levels.isEmpty
            else { throw .malformed(path: path, message: "feature \(index): levels must be a non-empty number array") }
            let shape = try parseGeometry(geometry, index: index, path: path)
            indoor[buildingID, default: []].append(
                IndoorFeature(
                    osmID: properties["osm_id"] as? String ?? "", name: properties["name"] as? String,
                    category: properties["category"] as? String ?? "", levels: levels.sorted(), geometry: shape))
        }
        return IndoorDataset(buildings: buildings, features: indoor)
    }

    private static func parseBuilding(
        _ properties: [String: Any], _ geometry: [String: Any], index: Int, path: String
    ) throws(IndoorDataError) -> GMSIndoorBuilding {
        guard let id = properties["building_id"] as? String, let name = properties["name"] as? String else {
            throw .malformed(path: path, message: "feature \(index): building needs building_id and name")
        }
        guard case .polygon(let outline) = try parseGeometry(geometry, index: index, path: path), outline.count >= 4
        else { throw .malformed(path: path, message: "feature \(index): building \(id) outline must be a Polygon") }
        guard let rawLevels = properties["levels"] as? [Any], !rawLevels.isEmpty else {
            throw .malformed(path: path, message: "feature \(index): building \(id) has no levels")
        }
        var levels: [GMSIndoorLevel] = []
        for raw in rawLevels {
            guard let level = raw as? [String: Any], let ordinal = (level["ordinal"] as? NSNumber)?.intValue else {
                throw .malformed(path: path, message: "feature \(index): building \(id): a level has no ordinal")
            }
            levels.append(
                GMSIndoorLevel(
                    name: level["name"] as? String, shortName: level["short_name"] as? String, ordinal: ordinal))
        }
        guard let defaultOrdinal = (properties["default_level"] as? NSNumber)?.intValue,
            let defaultIndex = levels.firstIndex(where: { $0.ordinal == defaultOrdinal })
        else {
            throw .malformed(
                path: path, message: "feature \(index): building \(id): default_level is not one of its levels")
        }
        return GMSIndoorBuilding(
            buildingID: id, name: name, outline: outline, levels: levels, defaultLevelIndex: UInt(defaultIndex),
            isUnderground: properties["underground"] as? Bool ?? false)
    }

    private static func parseGeometry(
        _ geometry: [String: Any], index: Int, path: String
    ) throws(IndoorDataError) -> IndoorFeature.Geometry {
        func position(_ any: Any) -> CLLocationCoordinate2D? {
            guard let pair = any as? [Any], pair.count >= 2, let lon = (pair[0] as? NSNumber)?.doubleValue,
                let lat = (pair[1] as? NSNumber)?.doubleValue
            else { return nil }
            let coordinate = CLLocationCoordinate2D(latitude: lat, longitude: lon)
            return CLLocationCoordinate2DIsValid(coordinate) ? coordinate : nil
        }
        func line(_ any: Any?) -> [CLLocationCoordinate2D]? {
            guard let array = any as? [Any] else { return nil }
            let points = array.compactMap(position)
            return points.count == array.count && points.count >= 2 ? points : nil
        }
        let coordinates = geometry["coordinates"]
        switch geometry["type"] as? String {
        case "Point":
            if let point = coordinates.flatMap(position) { return .point(point) }
        case "LineString":
            if let points = line(coordinates) { return .lineString(points) }
        case "Polygon":
            if let rings = coordinates as? [Any], let ring = line(rings.first), ring.count >= 4, ring.first == ring.last
            {
                return .polygon(ring)
            }
        default:
            break
        }
        throw .malformed(path: path, message: "feature \(index): invalid or unsupported geometry")
    }
}
