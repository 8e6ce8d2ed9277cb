import GoogleMaps

/// An item to cluster (google-maps-ios-utils' `GMUClusterItem`): a point with an optional title and snippet.
/// ``GMSMarker`` is one. Items are told apart by identity.
public protocol GMUClusterItem: AnyObject {
    /// Where the item is, degrees. It must not change while the item is in an algorithm (remove and re-add it).
    var position: CLLocationCoordinate2D { get }
    /// An optional title (the item marker's title). Defaults to nil.
    var title: String? { get }
    /// An optional snippet (the item marker's snippet). Defaults to nil.
    var snippet: String? { get }
}

extension GMUClusterItem {
    /// No title (Google's protocol made it optional).
    public var title: String? { nil }
    /// No snippet (Google's protocol made it optional).
    public var snippet: String? { nil }
}

/// A ``GMSMarker`` is a cluster item at its position, with its title and snippet. The marker's properties are
/// nonisolated (see ``GMSMarker``'s thread rules), so the conformance is too: read them from any thread while the
/// marker is on no map, and from the main thread once it is.
extension GMSMarker: GMUClusterItem {}

/// A group of items shown as one marker (google-maps-ios-utils' `GMUCluster`).
public protocol GMUCluster {
    /// Where the cluster's marker goes, degrees.
    var position: CLLocationCoordinate2D { get }
    /// The number of items; the same as `items.count`.
    var count: Int { get }
    /// The items, a copy.
    var items: [any GMUClusterItem] { get }
}

/// A cluster at a fixed position (google-maps-ios-utils' `GMUStaticCluster`), holding the items added to it.
/// - Thread rules: not thread-safe; one thread at a time.
public final class GMUStaticCluster: GMUCluster {
    /// Where the cluster's marker goes, set at creation.
    public private(set) var position: CLLocationCoordinate2D
    private var storage: Storage

    /// The items: an array of their own, or (a cluster an algorithm made) a run of a ``ClusterMembership`` shared by
    /// every cluster of one clustering, so that making a cluster retains no item and allocates no array. A shared
    /// cluster changed by ``addItem(_:)`` or ``removeItem(_:)`` takes an array of its own first.
    private enum Storage {
        case own([any GMUClusterItem])
        case shared(ClusterMembership, Int32, Int32)
    }

    /// The number of items.
    public var count: Int {
        switch storage {
        case .own(let items): items.count
        case .shared(_, let lo, let hi): Int(hi - lo)
        }
    }

    /// The items, in the order they were added.
    public var items: [any GMUClusterItem] {
        switch storage {
        case .own(let items): items
        case .shared(let membership, let lo, let hi): membership.items(Int(lo)..<Int(hi))
        }
    }

    /// An empty cluster at `position`.
    public init(position: CLLocationCoordinate2D) {
        self.position = position
        self.storage = .own([])
    }

    /// A cluster at `position` holding `items` (Waymark's own: one allocation for the algorithms).
    init(position: CLLocationCoordinate2D, items: [any GMUClusterItem]) {
        self.position = position
        self.storage = .own(items)
    }

    /// A cluster at `position` holding the items of `membership` in `range` (Waymark's own: the algorithms' clusters).
    init(position: CLLocationCoordinate2D, membership: ClusterMembership, range: Range<Int32>) {
        self.position = position
        self.storage = .shared(membership, range.lowerBound, range.upperBound)
    }

    /// Adds `item` (again, if it is already there).
    public func addItem(_ item: any GMUClusterItem) {
        var items = takeItems()
        items.append(item)
        storage = .own(items)
    }

    /// Removes every occurrence of `item` (by identity).
    public func removeItem(_ item: any GMUClusterItem) {
        var items = takeItems()
        items.removeAll { $0 === item }
        storage = .own(items)
    }

    /// The items as an array of the cluster's own, the storage left empty (so that the caller's array is unique).
    private func takeItems() -> [any GMUClusterItem] {
        let items = self.items
        storage = .own([])
        return items
    }
}

/// A cluster of one item, at the item's position: what ``GMUNonHierarchicalDistanceBasedAlgorithm`` returns for an
/// item alone (nearly every item at high zooms). A value that fits an existential's inline buffer, so making one
/// allocates nothing (Waymark's own; Google's returns a ``GMUStaticCluster`` for every cluster, which this one
/// matches in `position`, `count` and `items`). Its item names it within one clustering (an item is in one cluster).
struct SingleItemCluster: GMUCluster {
    /// The cluster's item.
    let item: any GMUClusterItem
    /// The item's position.
    var position: CLLocationCoordinate2D { item.position }
    /// One.
    var count: Int { 1 }
    /// The item alone.
    var items: [any GMUClusterItem] { [item] }
}

/// The members of the clusters of one clustering: the algorithm's items (its array, shared copy-on-write, so
/// sharing it retains no item) and their ids sorted by cluster. Immutable; held by the clusters.
final class ClusterMembership {
    /// The algorithm's items by id (nil for a removed one).
    let itemsByID: [(any GMUClusterItem)?]
    /// Ids grouped by cluster; the ids of one cluster are a run.
    let order: [Int32]

    init(itemsByID: [(any GMUClusterItem)?], order: [Int32]) {
        self.itemsByID = itemsByID
        self.order = order
    }

    /// The items whose ids are at `range` of ``order`` (every one a live item).
    func items(_ range: Range<Int>) -> [any GMUClusterItem] {
        var result: [any GMUClusterItem] = []
        result.reserveCapacity(range.count)
        itemsByID.withUnsafeBufferPointer { items in
            order.withUnsafeBufferPointer { order in
                for j in range { result.append(items[Int(order[j])]!) }
            }
        }
        return result
    }
}

/// Groups items into clusters (google-maps-ios-utils' `GMUClusterAlgorithm`).
public protocol GMUClusterAlgorithm {
    /// Adds `items` (an item added twice counts twice).
    func addItems(_ items: [any GMUClusterItem])
    /// Removes `item` (by identity; every copy of it).
    func removeItem(_ item: any GMUClusterItem)
    /// Removes every item.
    func clearItems()
    /// The clusters of the items at `zoom` (a camera zoom; the cluster manager passes it rounded to an integer).
    func clusters(atZoom zoom: Float) -> [any GMUCluster]
}

/// Shows clusters on a map (google-maps-ios-utils' `GMUClusterRenderer`).
@preconcurrency @MainActor public protocol GMUClusterRenderer: AnyObject {
    /// Shows `clusters`, replacing those shown before.
    func renderClusters(_ clusters: [any GMUCluster])
    /// The camera moved without a change of (integral) zoom: show clusters that came into view.
    func update()
}

/// Makes the icon of a cluster marker (google-maps-ios-utils' `GMUClusterIconGenerator`).
///
/// The library's two Swift faces are both requirements, each with a default that calls the other, so a generator
/// implements either one: ``icon(forSize:)`` as the Objective-C versions before 6 are seen from Swift
/// (`iconForSize:`, an `NSUInteger` and a non-nil image), or ``iconForSize(_:)`` as version 6 declares it. The
/// renderer asks ``iconForSize(_:)``. A generator implementing neither gets an empty image and one logged warning.
@preconcurrency @MainActor public protocol GMUClusterIconGenerator: AnyObject {
    /// The icon for a cluster of `size` items (the Objective-C library's `iconForSize:`).
    func icon(forSize size: UInt) -> UIImage
    /// The icon for a cluster of `size` items, or nil for none (version 6's name); the renderer calls this one.
    func iconForSize(_ size: Int) -> UIImage?
}

/// Whether a default of ``GMUClusterIconGenerator`` is running: the other default then knows that the generator
/// implements neither requirement.
@MainActor private var iconGeneratorDefaultRunning = false
/// The generator classes already warned about (one warning each).
@MainActor private var iconGeneratorsWarned: Set<ObjectIdentifier> = []

extension GMUClusterIconGenerator {
    /// Calls ``iconForSize(_:)``; an empty image when that gives nil or is not implemented either.
    public func icon(forSize size: UInt) -> UIImage {
        guard !iconGeneratorDefaultRunning else {
            if iconGeneratorsWarned.insert(ObjectIdentifier(type(of: self))).inserted {
                GMSLogUtils.warning(
                    "\(type(of: self)) implements neither icon(forSize:) nor iconForSize(_:) of "
                        + "GMUClusterIconGenerator: its clusters get empty icons")
            }
            return UIImage()
        }
        iconGeneratorDefaultRunning = true
        defer { iconGeneratorDefaultRunning = false }
        return iconForSize(Int(clamping: size)) ?? UIImage()
    }

    /// Calls ``icon(forSize:)`` (sizes below 0 as 0).
    public func iconForSize(_ size: Int) -> UIImage? {
        guard !iconGeneratorDefaultRunning else { return nil }
        iconGeneratorDefaultRunning = true
        defer { iconGeneratorDefaultRunning = false }
        return icon(forSize: UInt(max(0, size)))
    }
}

/// Hears taps on cluster and item markers (google-maps-ios-utils' `GMUClusterManagerDelegate`). Both methods are
/// optional (they default to false).
@preconcurrency @MainActor public protocol GMUClusterManagerDelegate: AnyObject {
    /// The user tapped the marker of `cluster`. Return true to consume the tap (no other handling).
    func clusterManager(_ clusterManager: GMUClusterManager, didTap cluster: any GMUCluster) -> Bool
    /// The user tapped the marker of `clusterItem`. Return true to consume the tap.
    func clusterManager(_ clusterManager: GMUClusterManager, didTap clusterItem: any GMUClusterItem) -> Bool
}

extension GMUClusterManagerDelegate {
    /// Not handled: the tap goes on to the map delegate and the default behaviour.
    public func clusterManager(_ clusterManager: GMUClusterManager, didTap cluster: any GMUCluster) -> Bool { false }
    /// Not handled: the tap goes on to the map delegate and the default behaviour.
    public func clusterManager(_ clusterManager: GMUClusterManager, didTap clusterItem: any GMUClusterItem) -> Bool {
        false
    }
}

/// What the non-optional ``GMUClusterRendererDelegate/renderer(_:markerFor:)-(_,_)->GMSMarker`` returns by default:
/// a marker no delegate can return, meaning "not implemented".
@MainActor private let noDelegateMarker = GMSMarker()

/// Customises ``GMUDefaultClusterRenderer``'s markers (google-maps-ios-utils' `GMUClusterRendererDelegate`). Every
/// method is optional.
@preconcurrency @MainActor public protocol GMUClusterRendererDelegate: AnyObject {
    /// The marker to use for `object` (a ``GMUCluster`` or a ``GMUClusterItem``), or nil for a new plain marker. The
    /// renderer sets its position, icon (clusters), ground anchor, zIndex and userData; set others here.
    func renderer(_ renderer: any GMUClusterRenderer, markerFor object: Any) -> GMSMarker?
    /// ``renderer(_:markerFor:)-(_,_)->GMSMarker?`` declared with a non-optional marker, as a delegate may implement
    /// it on iOS (Objective-C matches the method by its selector whatever the optionality). Whichever of the two a
    /// delegate implements is called; with both, the optional one is asked first.
    func renderer(_ renderer: any GMUClusterRenderer, markerFor object: Any) -> GMSMarker
    /// `marker` is about to be added to the map (`marker.userData` is its cluster or item).
    func renderer(_ renderer: any GMUClusterRenderer, willRenderMarker marker: GMSMarker)
    /// `marker` has just been added to the map, its animation started.
    func renderer(_ renderer: any GMUClusterRenderer, didRenderMarker marker: GMSMarker)
}

extension GMUClusterRendererDelegate {
    /// No marker of the delegate's: the renderer makes one.
    public func renderer(_ renderer: any GMUClusterRenderer, markerFor object: Any) -> GMSMarker? { nil }
    /// No marker (the optional declaration decides).
    public func renderer(_ renderer: any GMUClusterRenderer, markerFor object: Any) -> GMSMarker {
        noDelegateMarker
    }

    /// The delegate's marker for `object`, from whichever declaration of
    /// ``renderer(_:markerFor:)-(_,_)->GMSMarker?`` it implements (the optional one first); nil for none.
    func marker(for object: Any, renderer: any GMUClusterRenderer) -> GMSMarker? {
        if let marker: GMSMarker = self.renderer(renderer, markerFor: object) as GMSMarker? { return marker }
        let marker: GMSMarker = self.renderer(renderer, markerFor: object)
        return marker === noDelegateMarker ? nil : marker
    }
    /// Nothing to do.
    public func renderer(_ renderer: any GMUClusterRenderer, willRenderMarker marker: GMSMarker) {}
    /// Nothing to do.
    public func renderer(_ renderer: any GMUClusterRenderer, didRenderMarker marker: GMSMarker) {}
}
