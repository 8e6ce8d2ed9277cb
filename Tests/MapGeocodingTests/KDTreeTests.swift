import Foundation
import MapTestSupport
import Testing

@testable import MapGeocoding

/// Brute-force nearest neighbour with the tree's tie rule (smaller index wins).
private func bruteNearest(_ points: [UnitVector], _ q: UnitVector, limit: Double = 4) -> (Int, Double)? {
    var best: (Int, Double)?
    for (i, p) in points.enumerated() {
        let d = p.squaredChord(to: q)
        guard d <= limit else { continue }
        if best == nil || d < best!.1 { best = (i, d) }
    }
    return best
}

private func randomCoordinate(_ rng: inout SeededRandom) -> (Double, Double) {
    // Uniform on the sphere: latitude = asin(z) for uniform z.
    let z = Double.random(in: -1...1, using: &rng)
    return (asin(z) * 180 / Double.pi, Double.random(in: -180...180, using: &rng))
}

@Suite("KDTree")
struct KDTreeTests {
    @Test("nearest equals brute force on seeded random points", arguments: [1, 7, 8, 9, 100, 5000])
    func nearestMatchesBruteForce(count: Int) {
        var rng = SeededRandom(seed: UInt64(count) &* 7919)
        let points = (0..<count).map { _ in
            let (lat, lon) = randomCoordinate(&rng)
            return UnitVector(latitude: lat, longitude: lon)
        }
        let tree = KDTree(points: points)
        #expect(tree.count == count)
        for _ in 0..<500 {
            let (lat, lon) = randomCoordinate(&rng)
            let q = UnitVector(latitude: lat, longitude: lon)
            let got = tree.nearest(to: q)
            let want = bruteNearest(points, q)
            #expect(got?.index == want?.0)
            #expect(got?.squaredChord == want?.1)
        }
    }

    @Test("nearest equals brute force on clustered points with duplicates (ties go to the smaller index)")
    func clusteredWithDuplicates() {
        var rng = SeededRandom(seed: 42)
        var points: [UnitVector] = []
        for _ in 0..<2000 {
            // A grid of 0.01° cells around Helsinki: many exact duplicates.
            let lat = 60.1 + Double(Int.random(in: 0..<20, using: &rng)) * 0.01
            let lon = 24.9 + Double(Int.random(in: 0..<20, using: &rng)) * 0.01
            points.append(UnitVector(latitude: lat, longitude: lon))
        }
        let tree = KDTree(points: points)
        for _ in 0..<300 {
            let q = UnitVector(
                latitude: Double.random(in: 60.05...60.35, using: &rng),
                longitude: Double.random(in: 24.85...25.15, using: &rng))
            #expect(tree.nearest(to: q)?.index == bruteNearest(points, q)?.0)
        }
    }

    @Test("radius query returns exactly the brute-force set")
    func radiusQueryMatchesBruteForce() {
        var rng = SeededRandom(seed: 2024)
        let points = (0..<3000).map { _ in
            let (lat, lon) = randomCoordinate(&rng)
            return UnitVector(latitude: lat, longitude: lon)
        }
        let tree = KDTree(points: points)
        for radiusKm in [10.0, 300, 1500] {
            let chord = GreatCircle.chord(forMetres: radiusKm * 1000)
            for _ in 0..<50 {
                let (lat, lon) = randomCoordinate(&rng)
                let q = UnitVector(latitude: lat, longitude: lon)
                var found: [Int] = []
                tree.forEach(within: chord * chord, of: q) { i, d in
                    found.append(i)
                    #expect(d == points[i].squaredChord(to: q))
                }
                let want = points.indices.filter { points[$0].squaredChord(to: q) <= chord * chord }
                #expect(found.sorted() == want)
            }
        }
    }

    @Test("a limit excludes farther points; an empty tree answers nil")
    func limitsAndEmpty() {
        let tree = KDTree(points: [UnitVector(latitude: 0, longitude: 0)])
        let q = UnitVector(latitude: 0, longitude: 1)  // 111.2 km away
        let near = GreatCircle.chord(forMetres: 100_000)
        let far = GreatCircle.chord(forMetres: 120_000)
        #expect(tree.nearest(to: q, maxSquaredChord: near * near) == nil)
        #expect(tree.nearest(to: q, maxSquaredChord: far * far)?.index == 0)
        #expect(KDTree(points: []).nearest(to: q) == nil)
    }

    @Test("across the antimeridian the nearest point is on the other side")
    func antimeridian() {
        // 179.99° E and 179.99° W are 2.2 km apart at the equator; 179.9° W is 11 km from 179.99° W.
        let points = [
            UnitVector(latitude: -16.5, longitude: 179.99),
            UnitVector(latitude: -16.5, longitude: -179.9),
        ]
        let tree = KDTree(points: points)
        #expect(tree.nearest(to: UnitVector(latitude: -16.5, longitude: -179.995))?.index == 0)
        #expect(tree.nearest(to: UnitVector(latitude: -16.5, longitude: 180))?.index == 0)
        #expect(tree.nearest(to: UnitVector(latitude: -16.5, longitude: -179.93))?.index == 1)
    }

    @Test("near the poles longitude barely matters")
    func poles() {
        // 89.9° N at 0° E and at 180° E are 22.2 km apart; 89.5° N at 0° E is 44 km from 89.9° N 0° E.
        let points = [
            UnitVector(latitude: 89.9, longitude: 180),
            UnitVector(latitude: 89.5, longitude: 0),
        ]
        let tree = KDTree(points: points)
        #expect(tree.nearest(to: UnitVector(latitude: 89.9, longitude: 0))?.index == 0)
        #expect(tree.nearest(to: UnitVector(latitude: 90, longitude: 123))?.index == 0)
    }
}

@Suite("GreatCircle")
struct GreatCircleTests {
    @Test("one degree of a great circle is πR/180 m")
    func oneDegree() {
        let expected = GreatCircle.earthRadiusMetres * Double.pi / 180  // 111,195.08 m
        let meridian = GreatCircle.distance(latitude1: 10, longitude1: 5, latitude2: 11, longitude2: 5)
        let equator = GreatCircle.distance(latitude1: 0, longitude1: 179.5, latitude2: 0, longitude2: -179.5)
        #expect(isApproximatelyEqual(meridian, expected, tolerance: 1e-6))
        #expect(isApproximatelyEqual(equator, expected, tolerance: 1e-6))
    }

    @Test("pole to pole is πR; the poles are one point for every longitude")
    func poles() {
        let half = GreatCircle.distance(latitude1: 90, longitude1: 0, latitude2: -90, longitude2: 77)
        #expect(isApproximatelyEqual(half, GreatCircle.earthRadiusMetres * Double.pi, tolerance: 1e-6))
        #expect(GreatCircle.distance(latitude1: 90, longitude1: 0, latitude2: 90, longitude2: 180) < 1e-6)
    }

    @Test("chord and metres are inverse; chord agrees with the unit vectors", arguments: [0.0, 1, 1000, 5e5, 1e7])
    func chordRoundTrip(metres: Double) {
        #expect(
            isApproximatelyEqual(
                GreatCircle.metres(forChord: GreatCircle.chord(forMetres: metres)), metres,
                tolerance: 1e-6 * max(1, metres)))
        // A point `metres` north of (0, 0) along the meridian.
        let lat = metres / GreatCircle.earthRadiusMetres * 180 / Double.pi
        let chord = UnitVector(latitude: 0, longitude: 0).squaredChord(to: UnitVector(latitude: lat, longitude: 0))
            .squareRoot()
        #expect(isApproximatelyEqual(chord, GreatCircle.chord(forMetres: metres), tolerance: 1e-12))
    }
}
