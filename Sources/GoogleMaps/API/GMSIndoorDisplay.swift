import Foundation

/// The map's indoor state: which building is focused and which of its levels is shown (spec §1.14); obtained from
/// `mapView.indoorDisplay`.
///
/// The map focuses a building from its camera (see `IndoorFocusRule`: camera target inside the building's outline
/// at zoom ≥ 17); a newly focused building starts at its `defaultLevelIndex`.
/// - Thread rules: main thread only.
open class GMSIndoorDisplay: NSObject {
    /// Receives building and level changes; not retained. Defaults to `nil`.
    open weak var delegate: (any GMSIndoorDisplayDelegate)?

    /// The focused building with indoor data, or `nil` when none is focused.
    open private(set) var activeBuilding: GMSIndoorBuilding?

    private var storedLevel: GMSIndoorLevel?

    /// The level shown for ``activeBuilding``.
    ///
    /// Updated whenever the building changes (to its default level). May be set to any member of
    /// `activeBuilding.levels` (compared by identity), or to `nil` only when the building ``GMSIndoorBuilding/isUnderground``
    /// (hides it; the building stays active). Every other assignment, and any assignment while no building is active,
    /// is ignored. Always `nil` when there is no active building. Setting a different valid value calls
    /// ``GMSIndoorDisplayDelegate/didChangeActiveLevel(_:)``; setting the current value calls nothing.
    open var activeLevel: GMSIndoorLevel? {
        get { storedLevel }
        set {
            guard let building = activeBuilding else { return }
            if let level = newValue {
                guard building.levels.contains(where: { $0 === level }) else { return }
            } else {
                guard building.isUnderground else { return }
            }
            guard newValue !== storedLevel else { return }
            storedLevel = newValue
            onLevelChange?()
            delegate?.didChangeActiveLevel(newValue)
        }
    }

    /// Called after the active level changes for any reason (the map redraws); set by the owning map view.
    var onLevelChange: (() -> Void)?

    /// Creates a display with no building.
    public override init() {
        super.init()
    }

    /// Focuses `building` (or none). When it differs from the active one: `activeLevel` becomes its default level
    /// (`nil` for none), then the delegate hears `didChangeActiveBuilding` and `didChangeActiveLevel`, in that order
    /// (spec §2.10). Focusing the active building again does nothing.
    func focus(_ building: GMSIndoorBuilding?) {
        guard building !== activeBuilding else { return }
        activeBuilding = building
        storedLevel = building?.defaultLevel
        onLevelChange?()
        delegate?.didChangeActiveBuilding(building)
        delegate?.didChangeActiveLevel(storedLevel)
    }
}
