// GoogleMapsUtils as an iOS app uses it: markers are cluster items, added and read from nonisolated code and from
// the main actor (issue 31; building GoogleMapsUtils for this target must print no warning of its own either).
import GoogleMaps
import GoogleMapsUtils

/// Markers made and clustered off the main actor, as a background loader does.
func clusterItems(at positions: [CLLocationCoordinate2D]) -> [any GMUClusterItem] {
    positions.map { position -> any GMUClusterItem in
        let marker = GMSMarker(position: position)
        marker.title = "Stop"
        return marker
    }
}

/// The items' titles, read through the protocol from nonisolated code.
func clusterTitles(_ items: [any GMUClusterItem]) -> [String] {
    items.compactMap { $0.title }
}

/// A manager fed from the main actor.
@MainActor func addClusterItems(to manager: GMUClusterManager, _ items: [any GMUClusterItem]) {
    manager.add(items)
    manager.cluster()
}
