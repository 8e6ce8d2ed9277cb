import GoogleMaps

/// Clusters items on a map (google-maps-ios-utils' `GMUClusterManager`): holds an algorithm and a renderer, and
/// re-clusters when the camera's integral zoom (`floor(zoom + 0.5)`) changes.
///
/// The manager watches the camera from creation: when the camera comes to rest (`idleAt`) at a new integral zoom it
/// calls ``cluster()``; at the same zoom it asks the renderer to ``GMUClusterRenderer/update()`` (clusters that came
/// into view). It does so once per movement, never on every frame. Taps reach ``delegate`` only after
/// ``setDelegate(_:mapDelegate:)`` or ``setMapDelegate(_:)``, which make the manager the map's delegate and forward
/// every other delegate call to `mapDelegate`.
/// - Thread rules: main thread (main actor).
@preconcurrency @MainActor public final class GMUClusterManager: NSObject, GMSMapViewDelegate {
    /// The algorithm grouping the items.
    public private(set) var algorithm: any GMUClusterAlgorithm
    /// Hears taps on clusters and items (weak). Set with ``setDelegate(_:mapDelegate:)``.
    public private(set) weak var delegate: (any GMUClusterManagerDelegate)?
    /// Receives the map's delegate calls the manager does not consume (weak).
    public private(set) weak var mapDelegate: (any GMSMapViewDelegate)?
    private weak var mapView: GMSMapView?
    private let renderer: any GMUClusterRenderer
    /// The integral zoom of the last clustering, or nil before the first.
    private var clusteredZoom: Float?

    /// A manager clustering with `algorithm` and drawing with `renderer` on `map`. Items are shown after the first
    /// ``cluster()``.
    public init(map: GMSMapView, algorithm: any GMUClusterAlgorithm, renderer: any GMUClusterRenderer) {
        self.algorithm = algorithm
        self.renderer = renderer
        self.mapView = map
        super.init()
        map.addCameraIdleObserver(self) { [weak self] map in self?.cameraDidIdle(map) }
    }

    /// Makes the manager the map's delegate, with `delegate` hearing cluster and item taps and `mapDelegate` every
    /// other map event (and taps the delegate does not consume).
    public func setDelegate(_ delegate: (any GMUClusterManagerDelegate)?, mapDelegate: (any GMSMapViewDelegate)?) {
        self.delegate = delegate
        setMapDelegate(mapDelegate)
    }

    /// Makes the manager the map's delegate, forwarding the map's events to `mapDelegate`.
    public func setMapDelegate(_ mapDelegate: (any GMSMapViewDelegate)?) {
        self.mapDelegate = mapDelegate
        mapView?.delegate = self
    }

    /// Adds `item` to the algorithm; call ``cluster()`` to show it.
    public func add(_ item: any GMUClusterItem) {
        algorithm.addItems([item])
    }

    /// Adds `items` to the algorithm; call ``cluster()`` to show them.
    public func add(_ items: [any GMUClusterItem]) {
        algorithm.addItems(items)
    }

    /// Removes `item` from the algorithm; call ``cluster()`` to update the map.
    public func remove(_ item: any GMUClusterItem) {
        algorithm.removeItem(item)
    }

    /// Removes every item and re-clusters at once (the map loses the markers).
    public func clearItems() {
        algorithm.clearItems()
        cluster()
    }

    /// Clusters the items at the camera's integral zoom and renders the clusters. Called by the manager when the
    /// zoom changes; call it after adding or removing items.
    public func cluster() {
        guard let mapView else { return }
        let zoom = (mapView.camera.zoom + 0.5).rounded(.down)
        clusteredZoom = zoom
        renderer.renderClusters(algorithm.clusters(atZoom: zoom))
    }

    private func cameraDidIdle(_ map: GMSMapView) {
        guard clusteredZoom != nil else { return }
        if (map.camera.zoom + 0.5).rounded(.down) != clusteredZoom {
            cluster()
        } else {
            renderer.update()
        }
    }

    // MARK: GMSMapViewDelegate

    /// A tap on a cluster marker goes to the delegate's cluster method, on an item marker to its item method; taps
    /// they do not consume (and other markers') go to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        if let delegate {
            if let cluster = marker.userData as? any GMUCluster {
                if delegate.clusterManager(self, didTap: cluster) { return true }
            } else if let item = clusterItem(of: marker) {
                if delegate.clusterManager(self, didTap: item) { return true }
            }
        }
        return mapDelegate?.mapView(mapView, didTap: marker) ?? false
    }

    /// The item a marker shows: its userData, or the marker itself when it is an item the default renderer shows.
    private func clusterItem(of marker: GMSMarker) -> (any GMUClusterItem)? {
        if let item = marker.userData as? any GMUClusterItem { return item }
        if let renderer = renderer as? GMUDefaultClusterRenderer, renderer.isItemMarker(marker) { return marker }
        return nil
    }

    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, willMove gesture: Bool) {
        mapDelegate?.mapView(mapView, willMove: gesture)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {
        mapDelegate?.mapView(mapView, didChange: position)
    }
    /// Forwarded to ``mapDelegate`` (the manager re-clusters after it).
    public func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        mapDelegate?.mapView(mapView, idleAt: position)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) {
        mapDelegate?.mapView(mapView, didTapAt: coordinate)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D) {
        mapDelegate?.mapView(mapView, didLongPressAt: coordinate)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
        mapDelegate?.mapView(mapView, didTapInfoWindowOf: marker)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didLongPressInfoWindowOf marker: GMSMarker) {
        mapDelegate?.mapView(mapView, didLongPressInfoWindowOf: marker)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didTap overlay: GMSOverlay) {
        mapDelegate?.mapView(mapView, didTap: overlay)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(
        _ mapView: GMSMapView, didTapPOIWithPlaceID placeID: String, name: String, location: CLLocationCoordinate2D
    ) {
        mapDelegate?.mapView(mapView, didTapPOIWithPlaceID: placeID, name: name, location: location)
    }
    /// Forwarded to ``mapDelegate``; nil without one.
    public func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView? {
        mapDelegate?.infoWindow(for: marker, in: mapView)
    }
    /// Forwarded to ``mapDelegate``; nil without one.
    public func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView? {
        mapDelegate?.infoContents(for: marker, in: mapView)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker) {
        mapDelegate?.mapView(mapView, didCloseInfoWindowOf: marker)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didBeginDragging marker: GMSMarker) {
        mapDelegate?.mapView(mapView, didBeginDragging: marker)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didDrag marker: GMSMarker) {
        mapDelegate?.mapView(mapView, didDrag: marker)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didEndDragging marker: GMSMarker) {
        mapDelegate?.mapView(mapView, didEndDragging: marker)
    }
    /// Forwarded to ``mapDelegate``; false without one.
    public func didTapMyLocationButton(for mapView: GMSMapView) -> Bool {
        mapDelegate?.didTapMyLocationButton(for: mapView) ?? false
    }
    /// Forwarded to ``mapDelegate``.
    public func mapView(_ mapView: GMSMapView, didTapMyLocation location: CLLocationCoordinate2D) {
        mapDelegate?.mapView(mapView, didTapMyLocation: location)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapViewDidStartTileRendering(_ mapView: GMSMapView) {
        mapDelegate?.mapViewDidStartTileRendering(mapView)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapViewDidFinishTileRendering(_ mapView: GMSMapView) {
        mapDelegate?.mapViewDidFinishTileRendering(mapView)
    }
    /// Forwarded to ``mapDelegate``.
    public func mapViewSnapshotReady(_ mapView: GMSMapView) {
        mapDelegate?.mapViewSnapshotReady(mapView)
    }
}
