import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import GoogleMapsUtils
@testable import LinuxUIKit

/// A fresh manual clock as the animator clock, a plain basemap and pinned fonts.
@MainActor func installUtilsClock() -> ManualClock {
    Fixtures.pinFonts()
    GMSMapView.makeDefaultBasemap = { _ in PlainBasemapRenderer() }
    UIAnimator.shared.reset()
    let clock = ManualClock(start: 1000)
    UIAnimator.shared.clock = clock
    return clock
}

@MainActor func tickMap(_ map: GMSMapView, _ clock: ManualClock, frames: Int) {
    for _ in 0..<frames {
        clock.advance(by: 1.0 / 60)
        map.tick()
    }
}

/// 300 items around Paris: three tight groups and a scatter, from a fixed seed.
func parisItems() -> [TestItem] {
    var rng = SeededRandom(seed: 2024)
    let groups = [(48.8606, 2.3376), (48.8530, 2.3499), (48.8738, 2.2950)]
    var items: [TestItem] = []
    for (i, g) in groups.enumerated() {
        for j in 0..<(60 + i * 20) {
            items.append(
                TestItem(
                    g.0 + Double.random(in: -0.004...0.004, using: &rng),
                    g.1 + Double.random(in: -0.006...0.006, using: &rng), "g\(i)-\(j)"))
        }
    }
    while items.count < 300 {
        items.append(
            TestItem(
                48.83 + Double.random(in: 0...0.07, using: &rng), 2.25 + Double.random(in: 0...0.17, using: &rng),
                "s\(items.count)"))
    }
    return items
}

/// Records cluster-manager taps.
@MainActor final class TapRecorder: GMUClusterManagerDelegate, GMSMapViewDelegate {
    var log: [String] = []
    var consume = true
    func clusterManager(_ clusterManager: GMUClusterManager, didTap cluster: any GMUCluster) -> Bool {
        log.append("cluster(\(cluster.count))")
        return consume
    }
    func clusterManager(_ clusterManager: GMUClusterManager, didTap clusterItem: any GMUClusterItem) -> Bool {
        log.append("item(\((clusterItem as? TestItem)?.name ?? (clusterItem as? GMSMarker)?.title ?? "?"))")
        return consume
    }
    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        log.append("map.didTap")
        return false
    }
    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) { log.append("map.idle") }
}

@MainActor @Suite(.serialized) struct ClusterManagerTests {
    func setUp(
        zoom: Float, animates: Bool = false,
        centre: CLLocationCoordinate2D = CLLocationCoordinate2D(latitude: 48.86, longitude: 2.33)
    ) -> (
        GMSMapView, GMUClusterManager, GMUDefaultClusterRenderer, ManualClock
    ) {
        let clock = installUtilsClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 400, height: 400),
            camera: GMSCameraPosition(target: centre, zoom: zoom))
        let renderer = GMUDefaultClusterRenderer(mapView: map, clusterIconGenerator: GMUDefaultClusterIconGenerator())
        renderer.animatesClusters = animates
        let manager = GMUClusterManager(
            map: map, algorithm: GMUNonHierarchicalDistanceBasedAlgorithm(), renderer: renderer)
        manager.add(parisItems())
        manager.cluster()
        tickMap(map, clock, frames: 2)
        return (map, manager, renderer, clock)
    }

    @Test func markersFollowTheAlgorithmAndTheMinimumClusterSize() {
        let (map, _, renderer, _) = setUp(zoom: 12)
        let clusters = GMUNonHierarchicalDistanceBasedAlgorithm()
        clusters.addItems(parisItems())
        let expected = clusters.clusters(atZoom: 12)
        let visible = GMSCoordinateBounds(region: map.projection.visibleRegion())
        let clusterMarkers = renderer.currentMarkers.filter { $0.userData is any GMUCluster }
        let itemMarkers = renderer.currentMarkers.filter { $0.userData is TestItem }
        let big = expected.filter { $0.count >= 4 && visible.contains($0.position) }
        #expect(clusterMarkers.count == big.count)
        #expect(
            itemMarkers.count
                == expected.filter { c in
                    c.count < 4 && (visible.contains(c.position) || c.items.contains { visible.contains($0.position) })
                }.reduce(0) { $0 + $1.count },
            "a small cluster in view shows all its items (Google's rule)")
        #expect(
            clusterMarkers.allSatisfy { $0.zIndex == 1 && $0.icon != nil && $0.groundAnchor == CGPoint(x: 0.5, y: 0.5) }
        )
        #expect(itemMarkers.allSatisfy { $0.title == nil && $0.map === map })
    }

    /// With a minimum cluster size of 1 every cluster, one-item clusters too, is one cluster marker, and updates
    /// (a pan at the same zoom) add none twice.
    @Test func everyClusterIsOneMarkerAtMinimumSizeOne() {
        // Centred on a scattered item (alone at zoom 14), with one of the groups in view.
        let (map, manager, renderer, clock) = setUp(
            zoom: 14, centre: CLLocationCoordinate2D(latitude: 48.8573, longitude: 2.3376))
        renderer.minimumClusterSize = 1
        manager.cluster()
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        algorithm.addItems(parisItems())
        let visible = GMSCoordinateBounds(region: map.projection.visibleRegion())
        let shown = algorithm.clusters(atZoom: 14).filter { visible.contains($0.position) }
        #expect(shown.contains { $0.count == 1 }, "the case needs one-item clusters in view")
        #expect(renderer.currentMarkers.count == shown.count)
        #expect(renderer.currentMarkers.allSatisfy { $0.userData is any GMUCluster })
        renderer.update()
        map.moveCamera(GMSCameraUpdate.scrollBy(x: 5, y: 0))
        tickMap(map, clock, frames: 3)
        renderer.update()
        let ids = renderer.currentMarkers.map { ObjectIdentifier($0) }
        #expect(Set(ids).count == ids.count)
        let positions = renderer.currentMarkers.map { "\($0.position.latitude),\($0.position.longitude)" }
        #expect(Set(positions).count == positions.count, "no cluster has two markers")
    }

    @Test func aboveTheMaximumClusterZoomEveryItemHasAMarker() {
        let (map, manager, renderer, _) = setUp(zoom: 12)
        renderer.maximumClusterZoom = 11
        manager.cluster()
        let visible = GMSCoordinateBounds(region: map.projection.visibleRegion())
        #expect(renderer.currentMarkers.allSatisfy { $0.userData is TestItem })
        // Every item in view has a marker (items of a cluster whose centre is in view are all shown, as Google's).
        #expect(renderer.currentMarkers.count >= parisItems().filter { visible.contains($0.position) }.count)
        #expect(renderer.currentMarkers.count <= parisItems().count)
    }

    @Test func reclustersOnlyWhenTheIntegralZoomChangesAtIdle() {
        let (map, manager, renderer, clock) = setUp(zoom: 11)
        _ = manager
        let before = renderer.currentMarkers.map { ObjectIdentifier($0) }
        // A pan at the same zoom keeps the markers (an update, no new clustering).
        map.moveCamera(GMSCameraUpdate.scrollBy(x: 10, y: 0))
        tickMap(map, clock, frames: 3)
        #expect(Set(renderer.currentMarkers.map { ObjectIdentifier($0) }).isSuperset(of: before))
        // 11.4 rounds to 11: still no re-clustering.
        map.moveCamera(GMSCameraUpdate.zoom(to: 11.4))
        tickMap(map, clock, frames: 3)
        #expect(Set(renderer.currentMarkers.map { ObjectIdentifier($0) }).isSuperset(of: before))
        // 14 is a new zoom: clusters split into more markers once the camera is idle.
        let clustersAt11 = renderer.currentMarkers.filter { $0.userData is any GMUCluster }.count
        map.moveCamera(GMSCameraUpdate.zoom(to: 14))
        map.tick()  // willMove + didChange: not idle yet
        #expect(renderer.currentMarkers.filter { $0.userData is any GMUCluster }.count == clustersAt11)
        tickMap(map, clock, frames: 3)
        let items = renderer.currentMarkers.filter { $0.userData is TestItem }.count
        #expect(items > 0, "at zoom 14 the scatter shows as single items")
        #expect(renderer.currentMarkers.allSatisfy { $0.map === map })
    }

    @Test func clearItemsRemovesEveryMarker() {
        let (map, manager, renderer, _) = setUp(zoom: 12)
        #expect(!renderer.currentMarkers.isEmpty)
        let old = renderer.currentMarkers
        manager.clearItems()
        #expect(renderer.currentMarkers.isEmpty)
        #expect(old.allSatisfy { $0.map == nil })
        _ = map
    }

    @Test func zoomingOutMergesMarkersIntoTheNewClusterThenRemovesThem() throws {
        let (map, manager, renderer, clock) = setUp(
            zoom: 17, animates: true, centre: CLLocationCoordinate2D(latitude: 48.8606, longitude: 2.3376))
        let before = renderer.currentMarkers
        let itemMarker = try #require(before.first { $0.userData is TestItem })
        map.moveCamera(GMSCameraUpdate.zoom(to: 11))
        manager.cluster()
        // The leaving item marker is moving to its new cluster and still on the map.
        let target = renderer.currentMarkers.first { m in
            (m.userData as? any GMUCluster)?.items.contains { $0 === (itemMarker.userData as AnyObject) } ?? false
        }
        if let target {
            #expect(itemMarker.map === map, "merging markers stay until the animation ends")
            #expect(itemMarker.position.latitude == target.position.latitude)
        }
        tickMap(map, clock, frames: 45)  // 0.75 s > 0.5 s
        #expect(before.allSatisfy { m in m.map == nil || renderer.currentMarkers.contains { $0 === m } })
    }

    @Test func zoomingInSplitsFromTheOldClusterPosition() {
        let (map, manager, renderer, clock) = setUp(zoom: 11, animates: true)
        let oldClusters = renderer.currentMarkers.compactMap { $0.userData as? any GMUCluster }
        map.moveCamera(GMSCameraUpdate.zoom(to: 15))
        manager.cluster()
        let splitting = renderer.currentMarkers.filter { m in
            guard let item = m.userData as? TestItem else { return false }
            return oldClusters.contains { c in c.items.contains { $0 === item } }
        }
        #expect(!splitting.isEmpty)
        for m in splitting {
            let item = m.userData as! TestItem
            let from = oldClusters.first { c in c.items.contains { $0 === item } }!
            #expect(
                (m.layer.presentationValue(forKey: kGMSMarkerLayerLatitude) as? Double) == from.position.latitude,
                "starts at the old cluster")
            #expect(m.position.latitude == item.position.latitude, "model value is the item's own position")
        }
        tickMap(map, clock, frames: 40)
        for m in splitting {
            let shown = m.layer.presentationValue(forKey: kGMSMarkerLayerLatitude) as? Double ?? .nan
            #expect(abs(shown - m.position.latitude) < 1e-12, "arrived")
        }
    }

    /// Scripted touches: a tap on a cluster marker and on an item marker reach the manager's delegate.
    @Test func tapsOnClustersAndItemsReachTheDelegate() {
        let (map, manager, renderer, clock) = setUp(zoom: 13)
        let recorder = TapRecorder()
        manager.setDelegate(recorder, mapDelegate: recorder)
        #expect(map.delegate === manager)
        tickMap(map, clock, frames: 2)
        let input = UITouchInput(rootView: map, clock: clock)
        let cluster = renderer.currentMarkers.first { ($0.userData as? any GMUCluster).map { $0.count >= 4 } ?? false }!
        let point = map.projection.point(for: cluster.position)  // the icon is centred on the position
        input.touchDown(at: point)
        input.touchUp(at: point)
        #expect(recorder.log == ["cluster(\((cluster.userData as! any GMUCluster).count))"], "\(recorder.log)")

        recorder.log.removeAll()
        recorder.consume = false
        let item = renderer.currentMarkers.first { $0.userData is TestItem }!
        let p = map.projection.point(for: item.position)
        let pin = CGPoint(x: p.x, y: p.y - 20)  // the default pin stands on its tip
        tickMap(map, clock, frames: 30)
        input.touchDown(at: pin)
        input.touchUp(at: pin)
        #expect(recorder.log.first?.hasPrefix("item(") == true, "\(recorder.log)")
        #expect(recorder.log.contains("map.didTap"), "an unconsumed tap goes on to the map delegate")
    }

    @Test func mapDelegateCallsAreForwarded() {
        let (map, manager, _, clock) = setUp(zoom: 12)
        let recorder = TapRecorder()
        manager.setMapDelegate(recorder)
        map.moveCamera(GMSCameraUpdate.zoom(to: 13))
        tickMap(map, clock, frames: 3)
        #expect(recorder.log == ["map.idle"])
    }

    @Test func markerItemsAreShownAsThemselves() {
        let clock = installUtilsClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 400, height: 400),
            camera: GMSCameraPosition(latitude: 10, longitude: 10, zoom: 16))
        let renderer = GMUDefaultClusterRenderer(mapView: map, clusterIconGenerator: GMUDefaultClusterIconGenerator())
        let manager = GMUClusterManager(
            map: map, algorithm: GMUNonHierarchicalDistanceBasedAlgorithm(), renderer: renderer)
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 10, longitude: 10))
        marker.title = "Mine"
        marker.userData = "kept"
        manager.add(marker)
        manager.cluster()
        #expect(marker.map === map && marker.userData as? String == "kept")
        let recorder = TapRecorder()
        manager.setDelegate(recorder, mapDelegate: nil)
        tickMap(map, clock, frames: 30)
        #expect(manager.mapView(map, didTap: marker))
        #expect(recorder.log == ["item(Mine)"])
    }
}

@MainActor @Suite struct ClusterIconGeneratorTests {
    @Test func labelsFollowTheBuckets() {
        let generator = GMUDefaultClusterIconGenerator()
        #expect(generator.label(forSize: 4) == "4")
        #expect(generator.label(forSize: 9) == "9")
        #expect(generator.label(forSize: 10) == "10+")
        #expect(generator.label(forSize: 49) == "10+")
        #expect(generator.label(forSize: 150) == "100+")
        #expect(generator.label(forSize: 5000) == "1000+")
        let android = GMUDefaultClusterIconGenerator(
            buckets: [10, 20, 50, 100, 200, 500, 1000], backgroundColors: Array(repeating: UIColor.red, count: 7))
        #expect(android.label(forSize: 25) == "20+")
        #expect(android.label(forSize: 600) == "500+")
        // Buckets typed `[NSNumber]`, as the Objective-C library's initialisers took them.
        let numbers: [NSNumber] = [5, 25, 125]
        let objc = GMUDefaultClusterIconGenerator(buckets: numbers, backgroundColors: [.red, .green, .blue])
        #expect(objc.label(forSize: 4) == "4")
        #expect(objc.label(forSize: 30) == "25+")
        #expect(objc.label(forSize: 200) == "125+")
        #expect(GMUDefaultClusterIconGenerator(buckets: numbers).label(forSize: 7) == "5+")
    }

    @Test func iconsAreCachedCirclesGrowingWithTheBucket() {
        _ = installUtilsClock()
        let generator = GMUDefaultClusterIconGenerator()
        let small = generator.icon(forSize: 5)
        #expect(generator.icon(forSize: 5) === small)
        let large = generator.icon(forSize: 1500)
        #expect(large.size.width > small.size.width)
        // The centre-left of the small icon is the first bucket's colour, #0099cc.
        let bgra = small.premultipliedBGRA()!
        let y = bgra.height / 2
        let i = (y * bgra.width + 3) * 4
        #expect(Array(bgra.pixels[i..<(i + 4)]) == [0xcc, 0x99, 0x00, 0xff])
    }

    @Test func backgroundImagesCarryTheLabel() {
        _ = installUtilsClock()
        let base = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 40)).image { c in
            c.cgContext.setFillColor(UIColor.black.cgColor)
            c.cgContext.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        }
        let generator = GMUDefaultClusterIconGenerator(buckets: [5, 50], backgroundImages: [base, base])
        let icon = generator.icon(forSize: 60)
        #expect(icon.size == CGSize(width: 40, height: 40))
        let bgra = icon.premultipliedBGRA()!
        #expect(bgra.pixels.enumerated().contains { $0.offset % 4 == 0 && $0.element > 200 }, "white label drawn")
    }
}
