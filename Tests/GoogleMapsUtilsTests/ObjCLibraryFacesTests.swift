import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import GoogleMapsUtils
@testable import LinuxUIKit

/// The utility library as code written for its Objective-C versions (before 6) uses it, beside version 6's Swift
/// names (session 19's QA of Google's utils samples): icon generators implementing either face, the default
/// generator subclassed, a renderer delegate declaring its marker non-optional, the quadtree's `add(_:)` and
/// `search(with:)`.
@MainActor @Suite(.serialized) struct ObjCLibraryFacesTests {
    /// The Objective-C face only: a 10-point square per cluster, its size remembered.
    final class ObjCFaceGenerator: GMUClusterIconGenerator {
        var sizes: [UInt] = []
        func icon(forSize size: UInt) -> UIImage {
            sizes.append(size)
            return UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10)).image { _ in UIRectFill(.infinite) }
        }
    }

    /// Version 6's face only.
    final class SwiftFaceGenerator: GMUClusterIconGenerator {
        var sizes: [Int] = []
        func iconForSize(_ size: Int) -> UIImage? {
            sizes.append(size)
            return UIGraphicsImageRenderer(size: CGSize(width: 12, height: 12)).image { _ in UIRectFill(.infinite) }
        }
    }

    /// Neither face.
    final class NoFaceGenerator: GMUClusterIconGenerator {}

    /// The default generator with one bucket drawn its own way.
    final class SubclassedGenerator: GMUDefaultClusterIconGenerator {
        var overridden = 0
        override func icon(forSize size: UInt) -> UIImage {
            overridden += 1
            return UIGraphicsImageRenderer(size: CGSize(width: 7, height: 7)).image { _ in UIRectFill(.infinite) }
        }
    }

    /// Declares the marker non-optional, as iOS lets a delegate do.
    final class PlainMarkerDelegate: GMUClusterRendererDelegate {
        var made = 0
        func renderer(_ renderer: any GMUClusterRenderer, markerFor object: Any) -> GMSMarker {
            made += 1
            let marker = GMSMarker()
            marker.title = object is any GMUCluster ? "cluster" : "item"
            return marker
        }
    }

    /// Clusters Paris items at zoom 10 (a few clusters of four or more) with `generator`.
    private func render(
        _ generator: any GMUClusterIconGenerator, delegate: (any GMUClusterRendererDelegate)? = nil
    ) -> GMUDefaultClusterRenderer {
        let clock = installUtilsClock()
        let map = GMSMapView.map(
            withFrame: CGRect(x: 0, y: 0, width: 400, height: 400),
            camera: GMSCameraPosition(latitude: 48.86, longitude: 2.33, zoom: 10))
        let renderer = GMUDefaultClusterRenderer(mapView: map, clusterIconGenerator: generator)
        renderer.delegate = delegate
        renderer.animatesClusters = false
        let manager = GMUClusterManager(
            map: map, algorithm: GMUNonHierarchicalDistanceBasedAlgorithm(), renderer: renderer)
        manager.add(parisItems())
        manager.cluster()
        tickMap(map, clock, frames: 2)
        return renderer
    }

    private func clusterIcons(_ renderer: GMUDefaultClusterRenderer) -> [CGSize] {
        renderer.currentMarkers.filter { $0.userData is any GMUCluster }.compactMap { $0.icon?.size }
    }

    @Test func eitherFaceOfTheGeneratorDrawsTheClusters() {
        let objc = ObjCFaceGenerator()
        let icons = clusterIcons(render(objc))
        #expect(!icons.isEmpty && icons.allSatisfy { $0 == CGSize(width: 10, height: 10) })
        #expect(objc.sizes.count == icons.count && objc.sizes.allSatisfy { $0 >= 4 })
        let swift = SwiftFaceGenerator()
        let swiftIcons = clusterIcons(render(swift))
        #expect(!swiftIcons.isEmpty && swiftIcons.allSatisfy { $0 == CGSize(width: 12, height: 12) })
        // Each face answers through the other too.
        #expect(objc.iconForSize(9)?.size == CGSize(width: 10, height: 10))
        #expect(swift.icon(forSize: 9).size == CGSize(width: 12, height: 12))
        #expect(objc.sizes.last == 9 && swift.sizes.last == 9)
    }

    @Test func aGeneratorWithNeitherFaceWarnsOnceAndDrawsEmptyIcons() {
        let before = GMSLogUtils.messages.filter { $0.contains("NoFaceGenerator") }.count
        let icons = clusterIcons(render(NoFaceGenerator()))
        _ = clusterIcons(render(NoFaceGenerator()))
        #expect(!icons.isEmpty && icons.allSatisfy { $0 == .zero })
        let warnings = GMSLogUtils.messages.filter { $0.contains("NoFaceGenerator") }
        #expect(warnings.count - before <= 1 && warnings.count == 1, "one warning a class: \(warnings)")
    }

    @Test func aSubclassOfTheDefaultGeneratorIsDrawnThroughItsOverride() {
        let generator = SubclassedGenerator(buckets: [10, 100])
        let icons = clusterIcons(render(generator))
        #expect(!icons.isEmpty && icons.allSatisfy { $0 == CGSize(width: 7, height: 7) })
        #expect(generator.overridden == icons.count)
        #expect(generator.label(forSize: 150) == "100+", "the superclass's initializer set the buckets")
    }

    @Test func aNonOptionalMarkerFromTheDelegateIsUsed() {
        let delegate = PlainMarkerDelegate()
        let renderer = render(GMUDefaultClusterIconGenerator(), delegate: delegate)
        #expect(delegate.made == renderer.currentMarkers.count && delegate.made > 0)
        #expect(renderer.currentMarkers.allSatisfy { $0.title == "cluster" || $0.title == "item" })
    }

    @Test func quadTreeAnswersTheObjectiveCNames() {
        let tree = GQTPointQuadTree(bounds: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1))
        let items = [GMUWeightedLatLng(coordinate: CLLocationCoordinate2D(latitude: 10, longitude: 10), intensity: 1)]
        #expect(tree.add(items[0]))
        #expect(!tree.add(nil))
        #expect(tree.search(with: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1)).count == 1)
        #expect(
            tree.search(with: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1)).first as? GMUWeightedLatLng === items[0])
        #expect(tree.remove(items[0]) && !tree.remove(items[0]) && tree.count == 0)
    }
}
