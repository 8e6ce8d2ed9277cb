import GoogleMaps
import Testing

private func c(_ lat: Double, _ lon: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: lat, longitude: lon)
}

@Suite struct CoordinateBoundsTests {
    /// (corner 1, corner 2) → (south-west, north-east): the smaller longitude span wins.
    static let cornerCases: [((Double, Double), (Double, Double), (Double, Double), (Double, Double))] = [
        ((10, 20), (-5, 40), (-5, 20), (10, 40)),
        ((10, 170), (20, -170), (10, 170), (20, -170)),  // 20° across the antimeridian, not 340°
        ((0, -170), (0, 170), (0, 170), (0, -170)),
        ((0, -100), (0, 79), (0, -100), (0, 79)),  // 179° the direct way
        ((0, -100), (0, 81), (0, 81), (0, -100)),  // 179° across the antimeridian
        ((5, 5), (5, 5), (5, 5), (5, 5)),
        ((95, 400), (-95, 0), (-90, 0), (90, 40)),  // latitude clamped, longitude wrapped
    ]

    @Test(arguments: cornerCases)
    func twoCorners(
        a: (Double, Double), b: (Double, Double), southWest: (Double, Double), northEast: (Double, Double)
    ) {
        let bounds = GMSCoordinateBounds(coordinate: c(a.0, a.1), coordinate: c(b.0, b.1))
        #expect(bounds.isValid)
        #expect(bounds.southWest == c(southWest.0, southWest.1))
        #expect(bounds.northEast == c(northEast.0, northEast.1))
        #expect(bounds.contains(c(a.0 <= 90 ? a.0 : 90, a.1.truncatingRemainder(dividingBy: 360))))
    }

    @Test func invalidBounds() {
        let empty = GMSCoordinateBounds()
        #expect(!empty.isValid)
        #expect(!empty.contains(c(0, 0)))
        #expect(!empty.intersects(GMSCoordinateBounds(coordinate: c(-10, -10), coordinate: c(10, 10))))
        let one = empty.includingCoordinate(c(3, 4))
        #expect(one.isValid && one.southWest == c(3, 4) && one.northEast == c(3, 4))
        #expect(one.contains(c(3, 4)))
        let other = GMSCoordinateBounds(coordinate: c(0, 0), coordinate: c(1, 1))
        #expect(empty.includingBounds(other) == other)
        #expect(other.includingBounds(empty) == other)
        // Non-finite coordinates are ignored.
        #expect(!GMSCoordinateBounds(coordinate: c(.nan, 0), coordinate: c(0, .infinity)).isValid)
        #expect(GMSCoordinateBounds(coordinate: c(.nan, 0), coordinate: c(1, 2)).southWest == c(1, 2))
        #expect(other.includingCoordinate(c(.nan, .nan)) == other)
        #expect(!other.contains(c(.nan, 0)))
    }

    @Test func includingCoordinateGrowsTheShorterWay() {
        let b = GMSCoordinateBounds(coordinate: c(0, 160), coordinate: c(10, 170))
        // 175 → grow east to 175.
        let east = b.includingCoordinate(c(5, 175))
        #expect(east.southWest == c(0, 160) && east.northEast == c(10, 175))
        // −175 → growing east across 180 (15°) beats growing west (335°).
        let across = b.includingCoordinate(c(20, -175))
        #expect(across.southWest == c(0, 160) && across.northEast == c(20, -175))
        #expect(across.contains(c(5, 180)) && across.contains(c(5, -180)) && across.contains(c(5, -176)))
        #expect(!across.contains(c(5, -170)) && !across.contains(c(5, 150)))
        // 100 → grow west.
        let west = b.includingCoordinate(c(-5, 100))
        #expect(west.southWest == c(-5, 100) && west.northEast == c(10, 170))
        // Inside: unchanged.
        #expect(b.includingCoordinate(c(5, 165)) == b)
    }

    @Test func includingBounds() {
        let a = GMSCoordinateBounds(coordinate: c(0, 0), coordinate: c(10, 100))
        let b = GMSCoordinateBounds(coordinate: c(-5, 50), coordinate: c(5, 150))
        let u = a.includingBounds(b)
        #expect(u.southWest == c(-5, 0) && u.northEast == c(10, 150))
        // Disjoint across the antimeridian: [170, 175] ∪ [−175, −170] → [170, −170].
        let p = GMSCoordinateBounds(coordinate: c(0, 170), coordinate: c(1, 175))
        let q = GMSCoordinateBounds(coordinate: c(0, -175), coordinate: c(1, -170))
        let pq = p.includingBounds(q)
        #expect(pq.southWest == c(0, 170) && pq.northEast == c(1, -170))
        #expect(q.includingBounds(p) == pq)
        // One contains the other.
        #expect(u.includingBounds(a) == u)
    }

    @Test func containsCountsEdges() {
        let b = GMSCoordinateBounds(coordinate: c(-10, -20), coordinate: c(10, 20))
        for p in [c(-10, -20), c(10, 20), c(0, 0), c(10, 0), c(0, -20)] { #expect(b.contains(p)) }
        for p in [c(10.0001, 0), c(0, 20.0001), c(-11, 0)] { #expect(!b.contains(p)) }
        #expect(b.contains(c(0, 360)))  // wrapped
    }

    @Test func intersects() {
        let a = GMSCoordinateBounds(coordinate: c(0, 0), coordinate: c(10, 10))
        #expect(a.intersects(GMSCoordinateBounds(coordinate: c(10, 10), coordinate: c(20, 20))))  // a shared corner
        #expect(a.intersects(GMSCoordinateBounds(coordinate: c(2, 2), coordinate: c(3, 3))))
        #expect(!a.intersects(GMSCoordinateBounds(coordinate: c(11, 0), coordinate: c(20, 10))))
        #expect(!a.intersects(GMSCoordinateBounds(coordinate: c(0, 11), coordinate: c(10, 20))))
        let across = GMSCoordinateBounds(coordinate: c(0, 170), coordinate: c(10, -170))
        #expect(across.intersects(GMSCoordinateBounds(coordinate: c(5, -175), coordinate: c(6, -160))))
        #expect(across.intersects(GMSCoordinateBounds(coordinate: c(5, 160), coordinate: c(6, 175))))
        #expect(!across.intersects(GMSCoordinateBounds(coordinate: c(5, -160), coordinate: c(6, -100))))
        #expect(!across.intersects(GMSCoordinateBounds(coordinate: c(5, 100), coordinate: c(6, 160))))
        // 160 → −160 is the smaller (40°) span, across the antimeridian, so it holds `across`.
        #expect(across.intersects(GMSCoordinateBounds(coordinate: c(5, -160), coordinate: c(6, 160))))
    }

    @Test func fromRegion() {
        let region = GMSVisibleRegion(
            nearLeft: c(-1, 178), nearRight: c(-1, -178), farLeft: c(2, 177), farRight: c(2, -177))
        let b = GMSCoordinateBounds(region: region)
        #expect(b.southWest == c(-1, 177) && b.northEast == c(2, -177))
    }
}
