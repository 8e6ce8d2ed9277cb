import Foundation
import MapTestSupport
import Testing

@testable import MapGeometry

// Reference values from Google's android-maps-utils tests (Apache-2.0), which test the same formulas Waymark's
// geometry library uses: `SphericalUtilTest.java` (testAngles, testIsCCW, testComputeTriangleArea,
// testComputeSignedTriangleArea) and `MathUtilTest.java` (testWrap, testHav, testArcHav, testSinFromHav,
// testHavFromSin, testSinSumFromHav, testMercator, testInverseMercator). Values only; no code copied.

private func p(_ latitude: Double, _ longitude: Double) -> LatLng { LatLng(latitude: latitude, longitude: longitude) }

// The vertices of an octahedron.
private let up = p(90, 0)
private let down = p(-90, 0)
private let front = p(0, 0)
private let right = p(0, 90)
private let back = p(0, -180)
private let left = p(0, -90)

@Suite struct SphericalTests {
    /// SphericalUtilTest.testAngles: (a, b, central angle in radians).
    static let angleCases: [(LatLng, LatLng, Double)] = [
        (up, up, 0), (down, down, 0), (left, left, 0), (right, right, 0), (front, front, 0), (back, back, 0),
        (up, front, .pi / 2), (up, right, .pi / 2), (up, back, .pi / 2), (up, left, .pi / 2),
        (down, front, .pi / 2), (down, right, .pi / 2), (down, back, .pi / 2), (down, left, .pi / 2),
        (back, up, .pi / 2), (back, right, .pi / 2), (back, down, .pi / 2), (back, left, .pi / 2),
        (up, down, .pi), (front, back, .pi), (left, right, .pi),
    ]

    @Test func anglesBetweenOctahedronVertices() {
        for (a, b, expected) in Self.angleCases {
            #expect(isApproximatelyEqual(Spherical.angleBetween(a, b), expected, tolerance: 1e-6), "\(a) \(b)")
        }
    }

    private static func signedTriangle(_ a: LatLng, _ b: LatLng, _ c: LatLng) -> Double {
        Spherical.signedArea([a, b, c], radius: 1)
    }

    /// SphericalUtilTest.testIsCCW: one face of the octahedron in both orders.
    @Test func orientationOfAFace() {
        for (a, b, c) in [(right, up, front), (up, front, right), (front, right, up)] {
            #expect(Self.signedTriangle(a, b, c) > 0)
        }
        for (a, b, c) in [(front, up, right), (up, right, front), (right, front, up)] {
            #expect(Self.signedTriangle(a, b, c) < 0)
        }
    }

    /// SphericalUtilTest.testComputeTriangleArea and testComputeSignedTriangleArea, on the unit sphere.
    @Test func triangleAreasOnTheUnitSphere() {
        #expect(isApproximatelyEqual(Self.signedTriangle(right, up, front), .pi / 2, tolerance: 1e-6))
        #expect(isApproximatelyEqual(Self.signedTriangle(front, up, right), -.pi / 2, tolerance: 1e-6))
        #expect(isApproximatelyEqual(Spherical.area([front, up, right], radius: 1), .pi / 2, tolerance: 1e-6))
        let small = 0.1 * .pi / 180
        #expect(
            isApproximatelyEqual(
                Self.signedTriangle(p(0, 0), p(0, 0.1), p(0.1, 0.1)), small * small / 2, tolerance: 1e-6))
        // A microscopic triangle keeps its area (legs of 1e−6 rad): no cancellation to 0.
        let d = 1e-6 * 180 / .pi
        let tiny = Spherical.area([p(0, 0), p(0, d), p(d, 0)], radius: 1)
        #expect(abs(tiny - 1e-12 / 2) < 1e-20)
    }

    @Test func areaScalesWithTheSquareOfTheRadius() {
        let ring = [p(0, 0), p(0, 1), p(1, 1), p(1, 0)]
        let unit = Spherical.signedArea(ring, radius: 1)
        #expect(isApproximatelyEqual(Spherical.signedArea(ring, radius: 3), 9 * unit, tolerance: 1e-15))
        #expect(Spherical.signedArea(ring) == unit * Spherical.earthRadius * Spherical.earthRadius)
    }

    /// MathUtilTest.testWrap: the engine's `wrap` (half-open range) gives Google's values.
    @Test func wrapValues() {
        #expect(wrap(1, minimum: 0, maximum: 2) == 1)
        #expect(wrap(3, minimum: 0, maximum: 2) == 1)
        #expect(wrap(-1, minimum: 0, maximum: 2) == 1)
    }

    /// MathUtilTest: the haversine helpers (tolerance 1e−15 as there).
    @Test func haversineHelpers() {
        let δ = 1e-15
        #expect(isApproximatelyEqual(Spherical.hav(0), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.hav(.pi), 1, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.hav(.pi / 2), 0.5, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.arcHav(0), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.arcHav(1), .pi, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.arcHav(0.5), .pi / 2, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.sinFromHav(0), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.sinFromHav(1), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.sinFromHav(0.5), 1, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.havFromSin(0), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.havFromSin(1), 0.5, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.sinSumFromHav(0, 0), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.sinSumFromHav(0.5, 0), 1, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.sinSumFromHav(0, 0.5), 1, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.havDistance(0, 0, 0), 0, tolerance: δ))
        #expect(isApproximatelyEqual(Spherical.havDistance(0, .pi, 0), 1, tolerance: δ))
        // Out-of-range haversines (rounding) are clamped rather than giving NaN.
        #expect(Spherical.arcHav(1 + 1e-15) == .pi)
    }

    /// MathUtilTest.testMercator and testInverseMercator, on the primitives Spherical uses.
    @Test func mercatorHelpers() {
        #expect(isApproximatelyEqual(WebMercator.mercatorY(latitudeRadians: 0), 0, tolerance: 1e-15))
        // tan(π/2) is finite in floating point: very large, not +∞.
        #expect(WebMercator.mercatorY(latitudeRadians: .pi / 2) > 30)
        #expect(isApproximatelyEqual(WebMercator.latitudeRadians(mercatorY: 0), 0, tolerance: 1e-15))
        #expect(isApproximatelyEqual(WebMercator.latitudeRadians(mercatorY: .infinity), .pi / 2, tolerance: 1e-15))
        #expect(isApproximatelyEqual(WebMercator.latitudeRadians(mercatorY: -.infinity), -.pi / 2, tolerance: 1e-15))
    }

    @Test func rhumbDistances() {
        let r = Spherical.earthRadius
        // Along a meridian and along the equator rhumb lines are great circles.
        #expect(
            isApproximatelyEqual(Spherical.rhumbDistance(p(-10, 30), p(45, 30)), 55 * .pi / 180 * r, tolerance: 1e-6))
        #expect(isApproximatelyEqual(Spherical.rhumbDistance(p(0, 10), p(0, 40)), 30 * .pi / 180 * r, tolerance: 1e-6))
        // Along the parallel at 60° the rhumb line is the parallel: half the equatorial length, longer than the great
        // circle.
        let parallel = Spherical.rhumbDistance(p(60, 0), p(60, 40))
        #expect(isApproximatelyEqual(parallel, 20 * .pi / 180 * r, tolerance: 1e-6))
        #expect(parallel > Spherical.distance(p(60, 0), p(60, 40)))
        // The short way across the antimeridian.
        #expect(
            isApproximatelyEqual(Spherical.rhumbDistance(p(0, 170), p(0, -170)), 20 * .pi / 180 * r, tolerance: 1e-6))
        // To a pole the rhumb line spirals but its length stays finite: |Δφ| / cos(heading).
        #expect(Spherical.rhumbDistance(p(0, 0), p(90, 0)).isFinite)
        #expect(Spherical.rhumbDistance(p(.nan, 0), p(1, 1)).isNaN)
    }

    @Test func offsetAndDistanceOnOtherSpheres() {
        let q = Spherical.offset(from: front, distance: .pi / 2, heading: 0, radius: 1)
        #expect(isApproximatelyEqual(q.latitude, 90, tolerance: 1e-9))
        #expect(isApproximatelyEqual(Spherical.distance(front, right, radius: 2), .pi, tolerance: 1e-12))
    }

    @Test func onPathClosedCountsTheClosingSegment() {
        let triangle = [p(0, 0), p(0, 10), p(10, 0)]
        let onClosingSide = p(5, 0)  // on the meridian segment from (10, 0) back to (0, 0)
        for geodesic in [true, false] {
            #expect(Spherical.isOnPath(onClosingSide, triangle, closed: true, geodesic: geodesic, tolerance: 0.1))
            #expect(!Spherical.isOnPath(onClosingSide, triangle, closed: false, geodesic: geodesic, tolerance: 0.1))
        }
    }
}
