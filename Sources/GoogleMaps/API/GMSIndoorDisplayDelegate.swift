import Foundation

/// Told when the focused indoor building or its displayed level changes (spec §1.7, §2.10). Both methods are
/// optional (default implementations do nothing).
///
/// Order: when the active building changes, ``GMSIndoorDisplay/activeLevel`` is updated first, then
/// ``didChangeActiveBuilding(_:)`` is called, then ``didChangeActiveLevel(_:)``. Assigning `activeLevel` to a
/// different valid level calls only ``didChangeActiveLevel(_:)``, before the assignment returns.
/// - Thread rules: called on the main thread.
public protocol GMSIndoorDisplayDelegate: AnyObject {
    /// The focused building changed (`nil`: no building is focused any more); `activeLevel` already belongs to it.
    func didChangeActiveBuilding(_ building: GMSIndoorBuilding?)
    /// The displayed level changed, by focus or by assignment (`nil`: no level, or an underground building hidden).
    func didChangeActiveLevel(_ level: GMSIndoorLevel?)
}

extension GMSIndoorDisplayDelegate {
    /// Does nothing.
    public func didChangeActiveBuilding(_ building: GMSIndoorBuilding?) {}
    /// Does nothing.
    public func didChangeActiveLevel(_ level: GMSIndoorLevel?) {}
}
