import Foundation

/// A building with indoor data: its levels in display order and which one is shown first (spec §1.14).
///
/// Instances are made by the map from its indoor data (`Data/indoor.geojson`, built from OpenStreetMap; see
/// DATA.md "Indoor"); there is no public initialiser. Compared by identity.
/// - Thread rules: immutable; handed out by the main-thread-only ``GMSIndoorDisplay``.
open class GMSIndoorBuilding: NSObject {
    /// The levels in the order the floor picker shows them, top to bottom (highest floor first). Never empty.
    public let levels: [GMSIndoorLevel]
    /// Index into ``levels`` of the level shown when the building becomes active (the street-level floor in the
    /// bundled data); always a valid index.
    public let defaultLevelIndex: UInt
    /// `true` when the building is entirely underground; only then may ``GMSIndoorDisplay/activeLevel`` be set to
    /// `nil` to hide it.
    public let isUnderground: Bool

    /// The building's identifier in the indoor data (`"way/289767497"`). Not Google API.
    let buildingID: String
    /// The building's name in the data ("Forum"). Not Google API.
    let name: String
    /// The outline: one closed ring of coordinates, first point repeated. Not Google API.
    let outline: [CLLocationCoordinate2D]

    /// - Precondition: `levels` is not empty and `defaultLevelIndex < levels.count`.
    init(
        buildingID: String, name: String, outline: [CLLocationCoordinate2D], levels: [GMSIndoorLevel],
        defaultLevelIndex: UInt, isUnderground: Bool
    ) {
        precondition(!levels.isEmpty, "indoor building \(buildingID) has no levels")
        precondition(
            defaultLevelIndex < levels.count,
            "indoor building \(buildingID): default level index \(defaultLevelIndex) outside 0..<\(levels.count)")
        self.buildingID = buildingID
        self.name = name
        self.outline = outline
        self.levels = levels
        self.defaultLevelIndex = defaultLevelIndex
        self.isUnderground = isUnderground
        super.init()
    }

    /// The level shown when the building becomes active.
    var defaultLevel: GMSIndoorLevel { levels[Int(defaultLevelIndex)] }

    /// `"<GMSIndoorBuilding name, N levels>"`.
    open override var description: String {
        "<GMSIndoorBuilding \(name), \(levels.count) levels>"
    }
}
