import GoogleMaps

/// Google's cluster renderer (google-maps-ios-utils' `GMUDefaultClusterRenderer`): a marker with a generated icon
/// per cluster of at least ``minimumClusterSize`` items at zooms up to ``maximumClusterZoom``, and a marker per item
/// otherwise; only clusters in (or, when animating, coming into) the visible region get markers.
///
/// When ``animatesClusters`` is true (the default), zooming in splits clusters: item and sub-cluster markers start
/// at the old cluster's position and move to their own over ``animationDuration``; zooming out merges them: the old
/// markers move into the new cluster, then disappear. A ``GMSMarker`` added as an item is shown as itself (its
/// `userData` left alone) and is not moved by the animations.
/// - Thread rules: main thread (main actor).
@preconcurrency @MainActor open class GMUDefaultClusterRenderer: GMUClusterRenderer {
    /// Whether clusters animate apart and together on zoom. Defaults to true.
    open var animatesClusters = true
    /// Clusters with fewer items are shown as their items. Defaults to 4.
    open var minimumClusterSize: UInt = 4
    /// Above this zoom every cluster is shown as its items. Defaults to 20.
    open var maximumClusterZoom: UInt = 20
    /// The split and merge animation's length, seconds. Defaults to 0.5.
    open var animationDuration: Double = 0.5
    /// The zIndex of every marker the renderer adds. Defaults to 1.
    open var zIndex: Int32 = 1
    /// Customises the markers (weak).
    open weak var delegate: (any GMUClusterRendererDelegate)?

    private weak var mapView: GMSMapView?
    private let clusterIconGenerator: any GMUClusterIconGenerator
    private var markers: [GMSMarker] = []
    private var clusters: [any GMUCluster] = []
    /// Clusters and items that have a marker now (by identity).
    private var renderedClusters: Set<ObjectIdentifier> = []
    private var renderedItems: Set<ObjectIdentifier> = []
    /// Item markers showing a ``GMSMarker`` item as itself.
    private var itemMarkers: Set<ObjectIdentifier> = []
    private var previousZoom: Float = 0
    /// Item → the cluster it was in (zooming in) or is going to (zooming out), for the animations.
    private var itemToOldCluster: [ObjectIdentifier: any GMUCluster] = [:]
    private var itemToNewCluster: [ObjectIdentifier: any GMUCluster] = [:]

    /// A renderer drawing on `mapView` with icons from `clusterIconGenerator`.
    public init(mapView: GMSMapView, clusterIconGenerator: any GMUClusterIconGenerator) {
        self.mapView = mapView
        self.clusterIconGenerator = clusterIconGenerator
    }

    /// The markers shown now (cluster and item markers).
    open var currentMarkers: [GMSMarker] { markers }

    /// Whether `cluster` is shown as one marker at `zoom`: at least ``minimumClusterSize`` items and `zoom` at most
    /// ``maximumClusterZoom``. Subclasses override it for other rules.
    open func shouldRender(as cluster: any GMUCluster, atZoom zoom: Float) -> Bool {
        cluster.count >= Int(minimumClusterSize) && zoom <= Float(maximumClusterZoom)
    }

    /// Shows `clusters` in place of the current ones (animated per ``animatesClusters``).
    open func renderClusters(_ clusters: [any GMUCluster]) {
        renderedClusters.removeAll()
        renderedItems.removeAll()
        guard let mapView else { return }
        let old = markers
        markers = []
        itemMarkers.removeAll()
        if animatesClusters {
            let zoom = mapView.camera.zoom
            let zoomingIn = zoom > previousZoom
            prepareAnimation(newClusters: clusters, zoomingIn: zoomingIn, zoom: zoom)
            previousZoom = zoom
            self.clusters = clusters
            addOrUpdate(clusters, animated: zoomingIn)
            let kept = Set(markers.map(ObjectIdentifier.init))
            let leaving = old.filter { !kept.contains(ObjectIdentifier($0)) }
            if zoomingIn {
                for m in leaving { m.map = nil }
            } else {
                clearAnimated(leaving)
            }
        } else {
            self.clusters = clusters
            let kept = Set(clusters.flatMap { $0.items }.map { ObjectIdentifier($0) })
            for m in old where !kept.contains(ObjectIdentifier(m)) { m.map = nil }
            addOrUpdate(clusters, animated: false)
        }
    }

    /// Adds markers for clusters that came into view since the last render.
    open func update() {
        addOrUpdate(clusters, animated: false)
    }

    /// Removes every marker the renderer added.
    open func clear() {
        for m in markers { m.map = nil }
        markers = []
        itemMarkers.removeAll()
        renderedClusters.removeAll()
        renderedItems.removeAll()
        clusters = []
        itemToOldCluster = [:]
        itemToNewCluster = [:]
    }

    /// Whether `marker` is a ``GMSMarker`` item shown as itself (the cluster manager's tap routing).
    func isItemMarker(_ marker: GMSMarker) -> Bool { itemMarkers.contains(ObjectIdentifier(marker)) }

    private func prepareAnimation(newClusters: [any GMUCluster], zoomingIn: Bool, zoom: Float) {
        itemToOldCluster = [:]
        itemToNewCluster = [:]
        if zoomingIn {
            for cluster in clusters
            where shouldRender(as: cluster, atZoom: zoom) || shouldRender(as: cluster, atZoom: previousZoom) {
                for item in cluster.items { itemToOldCluster[ObjectIdentifier(item)] = cluster }
            }
        } else {
            for cluster in newClusters where shouldRender(as: cluster, atZoom: zoom) {
                for item in cluster.items { itemToNewCluster[ObjectIdentifier(item)] = cluster }
            }
        }
    }

    /// The first cluster in `map` holding one of `cluster`'s items.
    private func overlappingCluster(_ cluster: any GMUCluster, in map: [ObjectIdentifier: any GMUCluster])
        -> (any GMUCluster)?
    {
        for item in cluster.items { if let c = map[ObjectIdentifier(item)] { return c } }
        return nil
    }

    private func addOrUpdate(_ clusters: [any GMUCluster], animated: Bool) {
        guard let mapView else { return }
        let visible = GMSCoordinateBounds(region: mapView.projection.visibleRegion())
        let zoom = mapView.camera.zoom
        for cluster in clusters {
            if let id = Self.identity(of: cluster), renderedClusters.contains(id) { continue }
            let asCluster = shouldRender(as: cluster, atZoom: zoom)
            var show = visible.contains(cluster.position)
            if !show {
                for item in cluster.items {
                    if !asCluster && visible.contains(item.position) {
                        show = true
                        break
                    }
                    if animated, let old = itemToOldCluster[ObjectIdentifier(item)], visible.contains(old.position) {
                        show = true
                        break
                    }
                }
            }
            if show { render(cluster, asCluster: asCluster, animated: animated) }
        }
    }

    /// What names `cluster` in ``renderedClusters``: a class cluster's object; a one-item cluster of the
    /// algorithm's, its item (an item is in one cluster of a clustering); nil for another value cluster.
    private static func identity(of cluster: any GMUCluster) -> ObjectIdentifier? {
        if let single = cluster as? SingleItemCluster { return ObjectIdentifier(single.item) }
        return type(of: cluster) is AnyClass ? ObjectIdentifier(cluster as AnyObject) : nil
    }

    private func render(_ cluster: any GMUCluster, asCluster: Bool, animated: Bool) {
        if asCluster {
            let from = animated ? overlappingCluster(cluster, in: itemToOldCluster)?.position : nil
            guard let icon = clusterIconGenerator.iconForSize(cluster.count) else { return }
            let marker = delegate?.marker(for: cluster, renderer: self) ?? GMSMarker()
            marker.userData = cluster
            marker.icon = icon
            marker.groundAnchor = CGPoint(x: 0.5, y: 0.5)
            show(marker, at: cluster.position, from: from)
            if let id = Self.identity(of: cluster) { renderedClusters.insert(id) }
        } else {
            for item in cluster.items where !renderedItems.contains(ObjectIdentifier(item)) {
                let from = animated ? itemToOldCluster[ObjectIdentifier(item)]?.position : nil
                let marker: GMSMarker
                if let own = delegate?.marker(for: item, renderer: self) {
                    marker = own
                    marker.userData = item
                } else if let itemMarker = item as? GMSMarker {
                    marker = itemMarker
                    itemMarkers.insert(ObjectIdentifier(marker))
                } else {
                    marker = GMSMarker()
                    marker.userData = item
                    marker.title = item.title
                    marker.snippet = item.snippet
                }
                show(marker, at: item.position, from: itemMarkers.contains(ObjectIdentifier(marker)) ? nil : from)
                renderedItems.insert(ObjectIdentifier(item))
            }
            if let id = Self.identity(of: cluster) { renderedClusters.insert(id) }
        }
    }

    /// Puts `marker` on the map at `position`, moving there from `from` over ``animationDuration`` when given.
    private func show(_ marker: GMSMarker, at position: CLLocationCoordinate2D, from: CLLocationCoordinate2D?) {
        marker.zIndex = zIndex
        marker.position = from ?? position
        delegate?.renderer(self, willRenderMarker: marker)
        marker.map = mapView
        if from != nil {
            CATransaction.begin()
            CATransaction.setAnimationDuration(animationDuration)
            marker.position = position
            CATransaction.commit()
        }
        markers.append(marker)
        delegate?.renderer(self, didRenderMarker: marker)
    }

    /// Moves the leaving markers into the new cluster holding their items, then removes them; markers out of view
    /// or with nowhere to go are removed at once.
    private func clearAnimated(_ leaving: [GMSMarker]) {
        guard let mapView else { return }
        let visible = GMSCoordinateBounds(region: mapView.projection.visibleRegion())
        // One transaction: the leaving markers move together and are removed when the moves have played (on the
        // map's animation clock).
        CATransaction.begin()
        CATransaction.setAnimationDuration(animationDuration)
        var moving: [GMSMarker] = []
        for marker in leaving {
            let target: (any GMUCluster)?
            if let cluster = marker.userData as? any GMUCluster {
                target = overlappingCluster(cluster, in: itemToNewCluster)
            } else if let item = marker.userData as? any GMUClusterItem {
                target = itemToNewCluster[ObjectIdentifier(item)]
            } else {
                target = nil  // a GMSMarker item: never moved
            }
            guard let target, visible.contains(marker.position) else {
                marker.map = nil
                continue
            }
            marker.position = target.position
            moving.append(marker)
        }
        CATransaction.setCompletionBlock { [weak self] in
            let shown = Set((self?.markers ?? []).map(ObjectIdentifier.init))
            for m in moving where !shown.contains(ObjectIdentifier(m)) { m.map = nil }
        }
        CATransaction.commit()
    }
}
