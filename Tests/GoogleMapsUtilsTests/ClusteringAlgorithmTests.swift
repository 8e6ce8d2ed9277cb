import GoogleMaps
import MapTestSupport
import Testing

@testable import GoogleMapsUtils

/// A cluster item at a coordinate.
final class TestItem: GMUClusterItem {
    let position: CLLocationCoordinate2D
    let name: String
    init(_ lat: Double, _ lng: Double, _ name: String = "") {
        position = CLLocationCoordinate2D(latitude: lat, longitude: lng)
        self.name = name
    }
}

/// Google's non-hierarchical algorithm written out with a linear search: the reference for the fuzz.
func bruteForceClusters(_ items: [TestItem], zoom: Float, distancePoints: Double = 100) -> [[ObjectIdentifier]] {
    let radius = distancePoints * 2 / pow(2, Double(zoom) + 8)
    let points = items.map { GMSProject($0.position) }
    var owner = [Int](repeating: -1, count: items.count)
    var dist = [Double](repeating: 0, count: items.count)
    var centres: [Int] = []
    for i in items.indices where owner[i] < 0 {
        let c = centres.count
        centres.append(i)
        for j in items.indices {
            let dx = points[j].x - points[i].x
            let dy = points[j].y - points[i].y
            guard abs(dx) <= radius && abs(dy) <= radius else { continue }
            let d = dx * dx + dy * dy
            if owner[j] >= 0 && dist[j] < d { continue }
            owner[j] = c
            dist[j] = d
        }
    }
    return centres.indices.map { c in items.indices.filter { owner[$0] == c }.map { ObjectIdentifier(items[$0]) } }
}

func memberIDs(_ clusters: [any GMUCluster]) -> [[ObjectIdentifier]] {
    clusters.map { $0.items.map { ObjectIdentifier($0) } }
}

@Suite struct ClusteringAlgorithmTests {
    /// Three items 10 points apart at zoom 10 and one 400 points away: two clusters, the first at the first item.
    @Test func nearbyItemsClusterAtTheFirstItem() {
        // At zoom 10 one point is 360 / (256 × 1024) degrees of longitude at the equator.
        let pt = 360.0 / (256 * 1024)
        let a = TestItem(0, 0)
        let b = TestItem(0, 10 * pt)
        let c = TestItem(0, 20 * pt)
        let far = TestItem(0, 400 * pt)
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        algorithm.addItems([a, b, c, far])
        let clusters = algorithm.clusters(atZoom: 10)
        #expect(clusters.count == 2)
        #expect(clusters[0].count == 3 && clusters[0].position.longitude == 0)
        #expect(clusters[1].count == 1 && clusters[1].items.first === far)
        // Zoomed in 4 levels the 10-point gaps become 160 points: every item alone.
        #expect(algorithm.clusters(atZoom: 14).count == 4)
        // Zoomed out 2 levels the far item is 100 points away: inside the (inclusive) square.
        #expect(algorithm.clusters(atZoom: 8).count == 1)
    }

    /// An item between two centres goes to the closer one, ties to the later one (Google's `<` test).
    @Test func itemsMoveToACloserLaterCluster() {
        let pt = 360.0 / (256 * 1024)
        let first = TestItem(0, 0)
        let outside = TestItem(0, 150 * pt)  // beyond first's 100 pt: starts the second cluster
        let middle = TestItem(0, 90 * pt)  // 90 from first, 60 from outside
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        algorithm.addItems([first, outside, middle])
        let clusters = algorithm.clusters(atZoom: 10)
        #expect(clusters.count == 2)
        #expect(clusters[0].items.map { ObjectIdentifier($0) } == [ObjectIdentifier(first)])
        #expect(
            Set(clusters[1].items.map { ObjectIdentifier($0) }) == [
                ObjectIdentifier(outside), ObjectIdentifier(middle),
            ])
    }

    @Test func customDistanceAndInvalidPositions() {
        let pt = 360.0 / (256 * 1024)
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm(clusterDistancePoints: 5)
        let bad = TestItem(.nan, 0)
        algorithm.addItems([TestItem(0, 0), TestItem(0, 10 * pt), bad, TestItem(89.9, 0), TestItem(89.95, 0)])
        let clusters = algorithm.clusters(atZoom: 10)
        #expect(clusters.reduce(0) { $0 + $1.count } == 5, "every item is in exactly one cluster")
        #expect(clusters.count == 4, "10 pt apart with a 5 pt radius: apart; the two polar items share the edge")
        #expect(clusters.contains { $0.count == 1 && $0.items.first === bad })
    }

    @Test func removeAndClear() {
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        let items = (0..<10).map { TestItem(Double($0) * 0.0001, 0) }
        algorithm.addItems(items)
        algorithm.removeItem(items[0])
        algorithm.removeItem(TestItem(0, 0))  // not there: nothing happens
        let clusters = algorithm.clusters(atZoom: 5)
        #expect(clusters.count == 1 && clusters[0].count == 9)
        #expect(clusters[0].position.latitude == items[1].position.latitude, "the first remaining item is the centre")
        algorithm.clearItems()
        #expect(algorithm.clusters(atZoom: 5).isEmpty)
    }

    /// Seeded random adds and removes; after each batch the clusters equal the brute-force reference's.
    @Test(arguments: [11, 12, 13, 14])
    func fuzzAgainstBruteForce(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        var live: [TestItem] = []
        for round in 0..<12 {
            for _ in 0..<Int.random(in: 0...120, using: &rng) {
                // A city-sized spread with hot spots.
                let hot = Int.random(in: 0..<4, using: &rng) == 0
                let item = TestItem(
                    48.85 + Double.random(in: -0.2...0.2, using: &rng) * (hot ? 0.01 : 1),
                    2.35 + Double.random(in: -0.3...0.3, using: &rng) * (hot ? 0.01 : 1))
                algorithm.addItems([item])
                live.append(item)
            }
            for _ in 0..<Int.random(in: 0...60, using: &rng) where !live.isEmpty {
                let i = Int.random(in: 0..<live.count, using: &rng)
                algorithm.removeItem(live[i])
                live.remove(at: i)
            }
            for zoom in [6, 9, 11, 13, 16] as [Float] {
                let got = memberIDs(algorithm.clusters(atZoom: zoom)).map { Set($0) }
                let want = bruteForceClusters(live, zoom: zoom).map { Set($0) }
                #expect(got == want, "seed \(seed) round \(round) zoom \(zoom): \(got.count) vs \(want.count) clusters")
            }
        }
    }

    /// The grid the algorithm searches finds what a linear search finds on awkward spreads: many items at one
    /// point, a horizontal and a vertical line (a grid of one row or column), the map's edges, one item alone, and
    /// zooms from the whole world (every item in one search) to far below the spread, at 100 and 0 points.
    @Test(arguments: [0, 100] as [UInt])
    func gridSearchesMatchALinearSearchOnAwkwardSpreads(distance: UInt) {
        var rng = SeededRandom(seed: 2024)
        var spreads: [[TestItem]] = [
            (0..<300).map { _ in TestItem(10, 20) },
            (0..<300).map { _ in TestItem(10, Double.random(in: -180...180, using: &rng)) },
            (0..<300).map { _ in TestItem(Double.random(in: -85...85, using: &rng), -180) },
            [TestItem(1, 1)],
        ]
        spreads.append(
            (0..<600).map { i in
                // Hot spots with repeats, the map's corners and a uniform spread.
                switch i % 4 {
                case 0: return TestItem(85, 180)
                case 1: return TestItem(-85, -180)
                case 2:
                    return TestItem(
                        48.85 + Double.random(in: -1...1, using: &rng) * 1e-4,
                        2.35 + Double.random(in: -1...1, using: &rng) * 1e-4)
                default:
                    return TestItem(
                        Double.random(in: -85...85, using: &rng), Double.random(in: -180...180, using: &rng))
                }
            })
        for (s, items) in spreads.enumerated() {
            let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm(clusterDistancePoints: distance)
            algorithm.addItems(items)
            for zoom in [0, 2, 7, 12, 18, 24, 30] as [Float] {
                let got = memberIDs(algorithm.clusters(atZoom: zoom)).map { Set($0) }
                let want = bruteForceClusters(items, zoom: zoom, distancePoints: Double(distance)).map { Set($0) }
                #expect(got == want, "spread \(s) zoom \(zoom): \(got.count) vs \(want.count) clusters")
            }
        }
    }

    /// More removals than items left compacts the storage; order and results stay the same.
    @Test func compactionKeepsInsertionOrder() {
        var rng = SeededRandom(seed: 99)
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        var live = (0..<3000).map { _ in
            TestItem(Double.random(in: 40...41, using: &rng), Double.random(in: 0...1, using: &rng))
        }
        algorithm.addItems(live)
        for _ in 0..<2200 {
            let i = Int.random(in: 0..<live.count, using: &rng)
            algorithm.removeItem(live.remove(at: i))
        }
        #expect(
            memberIDs(algorithm.clusters(atZoom: 9)).map { Set($0) }
                == bruteForceClusters(live, zoom: 9).map { Set($0) })
    }

    @Test func gridAlgorithmPutsEachCellsItemsAtItsCentre() {
        let algorithm = GMUGridBasedClusterAlgorithm()
        // Zoom 0: the world is 256 points, ceil(256 / 100) = 3 cells a side.
        let a = TestItem(10, 10)
        let b = TestItem(20, 30)
        let c = TestItem(-60, -170)
        algorithm.addItems([a, b, c])
        let clusters = algorithm.clusters(atZoom: 0)
        #expect(clusters.count == 2)
        #expect(clusters[0].count == 2 && clusters[0].position.longitude == 0, "the middle cell's centre")
        #expect(abs(clusters[1].position.longitude - -120) < 1e-9, "the west cell's centre is at 1/6 of the world")
        algorithm.removeItem(a)
        #expect(algorithm.clusters(atZoom: 0).map(\.count) == [1, 1])
    }

    @Test func simpleAlgorithmDealsItemsRoundTenClusters() {
        let algorithm = GMUSimpleClusterAlgorithm()
        let items = (0..<25).map { TestItem(Double($0), 0) }
        algorithm.addItems(items)
        let clusters = algorithm.clusters(atZoom: 3)
        #expect(clusters.count == 10)
        #expect(clusters.map(\.count) == [2, 2, 2, 2, 2, 1, 1, 1, 1, 1])
        #expect(
            clusters[0].items.map { ObjectIdentifier($0) } == [
                ObjectIdentifier(items[10]), ObjectIdentifier(items[20]),
            ])
        #expect(clusters[3].position.latitude == 3)
    }

    /// A cluster of one item sits at its item; a returned cluster keeps its items whatever later happens to the
    /// algorithm or to another cluster, and one changed by `addItem`/`removeItem` changes alone.
    @Test func clustersAreIndependentOfTheAlgorithmAndOfEachOther() throws {
        let items = parisItems()
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        algorithm.addItems(items)
        let alone = algorithm.clusters(atZoom: 21).filter { $0.count == 1 }
        #expect(alone.count > items.count * 9 / 10, "at zoom 21 nearly every item is alone")
        for cluster in alone {
            #expect(cluster.items.count == 1)
            let item = cluster.items[0]
            #expect(
                cluster.position.latitude == item.position.latitude
                    && cluster.position.longitude == item.position.longitude)
        }
        let grouped = algorithm.clusters(atZoom: 12)
        let big = try #require(grouped.first { $0.count > 3 } as? GMUStaticCluster)
        let members = big.items.map { ObjectIdentifier($0) }
        let other = try #require(grouped.last { $0.count > 1 && $0 as? GMUStaticCluster !== big })
        let otherMembers = other.items.map { ObjectIdentifier($0) }
        // The algorithm changes: the clusters already made do not.
        algorithm.removeItem(big.items[0])
        algorithm.addItems([TestItem(48.86, 2.33)])
        #expect(big.items.map { ObjectIdentifier($0) } == members)
        // One cluster changes: the others do not.
        let extra = TestItem(0, 0)
        big.addItem(extra)
        big.removeItem(big.items[0])
        #expect(big.items.map { ObjectIdentifier($0) } == Array(members.dropFirst()) + [ObjectIdentifier(extra)])
        #expect(big.count == members.count)
        #expect(other.items.map { ObjectIdentifier($0) } == otherMembers)
    }

    @Test func staticClusterAddsAndRemoves() {
        let cluster = GMUStaticCluster(position: CLLocationCoordinate2D(latitude: 1, longitude: 2))
        let a = TestItem(0, 0)
        cluster.addItem(a)
        cluster.addItem(TestItem(1, 1))
        cluster.addItem(a)
        #expect(cluster.count == 3)
        cluster.removeItem(a)
        #expect(cluster.count == 1 && cluster.position.longitude == 2)
    }
}
