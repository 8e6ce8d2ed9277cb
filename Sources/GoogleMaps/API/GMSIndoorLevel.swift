import Foundation

/// One floor of a ``GMSIndoorBuilding``, as the floor picker lists it (spec §1.14).
///
/// Instances are made by the map from its indoor data; there is no public initialiser. Equality is by identity
/// (`NSObject`'s `isEqual(_:)` / `===`): the same level object may be shared by several buildings and then compares
/// equal whatever its names, and two distinct objects never compare equal even when their names match.
/// - Thread rules: immutable; read it anywhere, but the indoor display that hands it out is main-thread only.
open class GMSIndoorLevel: NSObject {
    /// The level's full name, e.g. "Level 1"; `nil` when the data has none.
    public let name: String?
    /// A short label for the floor picker, e.g. "1"; `nil` when the data has none.
    public let shortName: String?
    /// The OpenStreetMap `level` number of this floor (0 = the level tagged 0, higher is up). Not Google API.
    let ordinal: Int

    init(name: String?, shortName: String?, ordinal: Int) {
        self.name = name
        self.shortName = shortName
        self.ordinal = ordinal
        super.init()
    }

    /// `"<GMSIndoorLevel name shortName>"`.
    open override var description: String {
        "<GMSIndoorLevel \(name ?? "nil") \(shortName ?? "nil")>"
    }
}
