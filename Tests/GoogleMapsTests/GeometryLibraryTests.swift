import Foundation
import GoogleMaps
import MapGeometry
import MapTestSupport
import Testing

// The geometry library against Google's reference values. Inputs and expected results come from Google's
// android-maps-utils tests (Apache-2.0), which test the same formulas and Earth radius as the iOS SDK's
// GMSGeometryUtils: `SphericalUtilTest.java` (testDistances, testHeadings, testComputeOffset, testInterpolate,
// testComputeLength, testComputeArea, testComputeSignedArea) and `PolyUtilTest.java` (testOnEdge,
// testContainsLocation). Android's headings are in [−180, 180); iOS's GMSGeometryHeading is in [0, 360), so −180
// reads 180 and −90 reads 270 here. Values only; no code copied.

private func c(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A path of (latitude, longitude) pairs.
private func path(_ values: Double...) -> GMSPath {
    let p = GMSMutablePath()
    for i in stride(from: 0, to: values.count - 1, by: 2) { p.addLatitude(values[i], longitude: values[i + 1]) }
    return p
}

/// The points of (latitude, longitude) pairs.
private func points(_ values: Double...) -> [CLLocationCoordinate2D] {
    stride(from: 0, to: values.count - 1, by: 2).map { c(values[$0], values[$0 + 1]) }
}

/// Latitude within 1e−6°, longitude within 1e−6° scaled by cos(latitude) (meridians converge at the poles), compared
/// modulo 360.
private func expectClose(
    _ actual: CLLocationCoordinate2D, _ expected: CLLocationCoordinate2D,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let cosLatitude = cos(actual.latitude * .pi / 180)
    let dλ = wrap(actual.longitude - expected.longitude, minimum: -180, maximum: 180)
    #expect(
        abs(actual.latitude - expected.latitude) <= 1e-6, "\(actual) vs \(expected)", sourceLocation: sourceLocation)
    #expect(abs(cosLatitude * dλ) <= 1e-6, "\(actual) vs \(expected)", sourceLocation: sourceLocation)
}

// The vertices of an octahedron.
private let up = c(90, 0)
private let down = c(-90, 0)
private let front = c(0, 0)
private let right = c(0, 90)
private let back = c(0, -180)
private let left = c(0, -90)

@Suite struct GeometryLibraryTests {
    private let r = kGMSEarthRadius

    @Test func earthRadiusIsGoogles() {
        #expect(kGMSEarthRadius == 6_371_009)
    }

    // MARK: Distance, heading, offset, interpolation

    @Test func distanceBetweenPoles() {
        #expect(isApproximatelyEqual(GMSGeometryDistance(up, down), .pi * r, tolerance: 1e-6))
        #expect(GMSGeometryDistance(front, front) == 0)
    }

    /// SphericalUtilTest.testHeadings, in iOS's [0, 360).
    static let headingCases: [(CLLocationCoordinate2D, CLLocationCoordinate2D, Double)] = [
        (up, down, 180), (down, up, 0), (front, up, 0), (right, up, 0), (back, up, 0),
        (front, down, 180), (right, down, 180), (back, down, 180), (left, down, 180),
        (right, front, 270), (left, front, 90), (front, right, 90), (back, right, 270),
    ]

    @Test func headingsBetweenOctahedronVertices() {
        for (from, to, expected) in Self.headingCases {
            let h = GMSGeometryHeading(from, to)
            #expect(h >= 0 && h < 360)
            // 360 − ε and 0 are the same heading.
            #expect(abs(wrap(h - expected, minimum: -180, maximum: 180)) <= 1e-6, "\(from) → \(to): \(h)")
        }
        #expect(GMSGeometryHeading(c(10, 20), c(10, 20)) == 0)
        // From the North Pole, measured from the meridian of the pole's longitude.
        #expect(isApproximatelyEqual(GMSGeometryHeading(up, c(0, 90)), 90, tolerance: 1e-9))
        #expect(isApproximatelyEqual(GMSGeometryHeading(up, c(0, -90)), 270, tolerance: 1e-9))
        #expect(isApproximatelyEqual(GMSGeometryHeading(c(90, 30), c(0, 90)), 120, tolerance: 1e-9))
    }

    /// SphericalUtilTest.testComputeOffset: from front and from left.
    @Test func offsetsAlongGreatCircles() {
        let quarter = Double.pi * r / 2
        expectClose(GMSGeometryOffset(front, 0, 0), front)
        expectClose(GMSGeometryOffset(front, quarter, 0), up)
        expectClose(GMSGeometryOffset(front, quarter, 180), down)
        expectClose(GMSGeometryOffset(front, quarter, -90), left)
        expectClose(GMSGeometryOffset(front, quarter, 90), right)
        expectClose(GMSGeometryOffset(front, 2 * quarter, 0), back)
        expectClose(GMSGeometryOffset(front, 2 * quarter, 90), back)
        expectClose(GMSGeometryOffset(left, 0, 0), left)
        expectClose(GMSGeometryOffset(left, quarter, 0), up)
        expectClose(GMSGeometryOffset(left, quarter, 180), down)
        expectClose(GMSGeometryOffset(left, quarter, 90), front)
        expectClose(GMSGeometryOffset(left, quarter, -90), back)
        expectClose(GMSGeometryOffset(left, 2 * quarter, 0), right)
        expectClose(GMSGeometryOffset(left, 2 * quarter, 90), right)
    }

    @Test func offsetIsTheInverseOfDistanceAndHeading() {
        let start = c(40, 40)
        for (distance, heading) in [(1e5, 15.0), (1e5, -37.0), (3.8e6, 250.0), (12_000.0, 359.0)] {
            let end = GMSGeometryOffset(start, distance, heading)
            #expect(end.longitude >= -180 && end.longitude < 180)
            #expect(isApproximatelyEqual(GMSGeometryDistance(start, end), distance, tolerance: 1e-6))
            let h = wrap(heading, minimum: 0, maximum: 360)
            #expect(abs(wrap(GMSGeometryHeading(start, end) - h, minimum: -180, maximum: 180)) < 1e-9)
        }
        // A negative distance goes backwards.
        expectClose(GMSGeometryOffset(front, -.pi * r / 2, 90), left)
    }

    /// SphericalUtilTest.testInterpolate.
    @Test func interpolationAlongGreatCircles() {
        expectClose(GMSGeometryInterpolate(up, up, 0.5), up)
        expectClose(GMSGeometryInterpolate(down, down, 0.5), down)
        expectClose(GMSGeometryInterpolate(left, left, 0.5), left)
        expectClose(GMSGeometryInterpolate(front, up, 1 / 90.0), c(1, 0))
        expectClose(GMSGeometryInterpolate(up, front, 89 / 90.0), c(1, 0))
        expectClose(GMSGeometryInterpolate(front, up, 89 / 90.0), c(89, 0))
        expectClose(GMSGeometryInterpolate(up, front, 1 / 90.0), c(89, 0))
        expectClose(GMSGeometryInterpolate(front, down, 1 / 90.0), c(-1, 0))
        expectClose(GMSGeometryInterpolate(down, front, 89 / 90.0), c(-1, 0))
        expectClose(GMSGeometryInterpolate(front, down, 89 / 90.0), c(-89, 0))
        expectClose(GMSGeometryInterpolate(down, front, 1 / 90.0), c(-89, 0))
        expectClose(GMSGeometryInterpolate(left, back, 1 / 90.0), c(0, -91))
        expectClose(GMSGeometryInterpolate(back, left, 89 / 90.0), c(0, -91))
        expectClose(GMSGeometryInterpolate(left, back, 89 / 90.0), c(0, -179))
        expectClose(GMSGeometryInterpolate(back, left, 1 / 90.0), c(0, -179))
        // The great circle through a pole.
        expectClose(GMSGeometryInterpolate(c(45, 0), c(45, 180), 0.5), up)
        expectClose(GMSGeometryInterpolate(c(-45, 0), c(-45, 180), 0.5), down)
        // Fraction boundaries.
        expectClose(GMSGeometryInterpolate(left, back, 0), left)
        expectClose(GMSGeometryInterpolate(left, back, 1), back)
        // About 4 m apart: the linear fallback.
        expectClose(
            GMSGeometryInterpolate(c(-37.756891, 175.325262), c(-37.756853, 175.325242), 0.5), c(-37.756872, 175.325252)
        )
    }

    @Test func antimeridianIsCrossedTheShortWay() {
        #expect(isApproximatelyEqual(GMSGeometryDistance(c(0, 179), c(0, -179)), 2 * .pi / 180 * r, tolerance: 1e-6))
        #expect(isApproximatelyEqual(GMSGeometryHeading(c(0, 179), c(0, -179)), 90, tolerance: 1e-9))
        let middle = GMSGeometryInterpolate(c(0, 179), c(0, -179), 0.5)
        expectClose(middle, c(0, 180))
        #expect(middle.longitude >= -180 && middle.longitude < 180)
        // Over the pole is shorter than along the parallel.
        #expect(isApproximatelyEqual(GMSGeometryDistance(c(89, 0), c(89, 180)), 2 * .pi / 180 * r, tolerance: 1e-6))
        let east = GMSGeometryOffset(c(0, 179.5), 111_000, 90)
        #expect(east.longitude < -179 && east.longitude >= -180)
    }

    @Test func outOfRangeAndNonFiniteCoordinates() {
        // Latitudes clamp to ±90, longitudes are periodic.
        #expect(GMSGeometryDistance(c(100, 0), c(90, 0)) == 0)
        #expect(isApproximatelyEqual(GMSGeometryDistance(c(0, 540), c(0, -180)), 0, tolerance: 1e-6))
        #expect(isApproximatelyEqual(GMSGeometryDistance(c(0, 360 + 10), c(0, 10)), 0, tolerance: 1e-6))
        // Non-finite arguments give NaN, never a trap.
        #expect(GMSGeometryDistance(c(.nan, 0), front).isNaN)
        #expect(GMSGeometryDistance(front, c(0, .infinity)).isNaN)
        #expect(GMSGeometryHeading(c(.nan, 0), front).isNaN)
        let offset = GMSGeometryOffset(front, .nan, 0)
        #expect(offset.latitude.isNaN)
        #expect(GMSGeometryInterpolate(front, c(.nan, .nan), 0.5).latitude.isNaN)
        #expect(!GMSGeometryContainsLocation(c(.nan, 0), path(0, 0, 0, 10, 10, 0), true))
        #expect(!GMSGeometryIsLocationOnPath(c(0, .nan), path(0, 0, 0, 10), true))
    }

    // MARK: Length and area

    /// SphericalUtilTest.testComputeLength.
    @Test func lengths() {
        #expect(GMSGeometryLength(GMSPath()) == 0)
        #expect(GMSGeometryLength(path(0, 0)) == 0)
        let diagonal = 0.1 * .pi / 180 * 2.0.squareRoot() * r
        #expect(isApproximatelyEqual(GMSGeometryLength(path(0, 0, 0.1, 0.1)), diagonal, tolerance: 1))
        #expect(isApproximatelyEqual(GMSGeometryLength(path(0, 0, 90, 0, 0, 90)), .pi * r, tolerance: 1e-6))
        // Non-finite coordinates are skipped: the neighbours join.
        #expect(GMSGeometryLength(path(0, 0, .nan, 5, 0, 10)) == GMSGeometryLength(path(0, 0, 0, 10)))
    }

    /// SphericalUtilTest.testComputeArea and testComputeSignedArea.
    @Test func areas() {
        let forward = GMSPath(coordinates: [right, up, front, down, right])
        let reversed = GMSPath(coordinates: [right, down, front, up, right])
        #expect(isApproximatelyEqual(GMSGeometryArea(forward), .pi * r * r, tolerance: 0.4))
        #expect(isApproximatelyEqual(GMSGeometryArea(reversed), .pi * r * r, tolerance: 0.4))
        #expect(-GMSGeometrySignedArea(forward) == GMSGeometrySignedArea(reversed))
        #expect(abs(GMSGeometrySignedArea(forward)) == GMSGeometryArea(forward))
    }

    @Test func areaOrientationAndDegenerateInput() {
        // One face of the octahedron: an eighth of the sphere, counter-clockwise positive.
        let face = 4 * .pi * r * r / 8
        #expect(
            isApproximatelyEqual(GMSGeometrySignedArea(GMSPath(coordinates: [right, up, front])), face, tolerance: 1))
        #expect(
            isApproximatelyEqual(GMSGeometrySignedArea(GMSPath(coordinates: [front, up, right])), -face, tolerance: 1))
        // Closed or not, the same area.
        let open = path(0, 0, 0, 1, 1, 1, 1, 0)
        let closed = path(0, 0, 0, 1, 1, 1, 1, 0, 0, 0)
        #expect(isApproximatelyEqual(GMSGeometryArea(open), GMSGeometryArea(closed), tolerance: 1e-6))
        // About 111 km × 111 km near the equator.
        #expect(abs(GMSGeometryArea(open) / 1.2364e10 - 1) < 1e-3)
        #expect(GMSGeometryArea(GMSPath()) == 0)
        #expect(GMSGeometryArea(path(1, 2)) == 0)
        #expect(GMSGeometryArea(path(1, 2, 3, 4)) == 0)
        // A non-finite vertex is skipped.
        #expect(GMSGeometryArea(path(0, 0, 0, 1, .nan, 0, 1, 1, 1, 0)) == GMSGeometryArea(open))
        // Antipodal segments are undefined but do not trap.
        _ = GMSGeometryArea(GMSPath(coordinates: [front, back, up]))
    }

    // MARK: Containment

    /// PolyUtilTest.testContainsLocation: (polygon, inside, outside), each for geodesic and rhumb segments.
    static let containsCases: [(GMSPath, [CLLocationCoordinate2D], [CLLocationCoordinate2D])] = [
        (path(), [], points(0, 0)),
        (path(1, 2), points(1, 2), points(0, 0)),
        (path(1, 2, 3, 5), points(1, 2, 3, 5), points(0, 0, 40, 4)),
        (path(0, 0, 10, 12, 20, 5), points(10, 12, 10, 11, 19, 5), points(0, 1, 11, 12, 30, 5, 0, -180, 0, 90)),
        // Around the North Pole.
        (path(89, 0, 89, 120, 89, -120), points(90, 0, 90, 180, 90, -90), points(-90, 0, 0, 0)),
        // Around the South Pole: inside is the side without the South Pole.
        (path(-89, 0, -89, 120, -89, -120), points(90, 0, 90, 180, 90, -90, 0, 0), points(-90, 0, -90, 90)),
        // Over and under a segment on a meridian and on the equator.
        (path(5, 10, 10, 10, 0, 20, 0, -10), points(2.5, 10, 1, 0), points(15, 10, 0, -15, 0, 25, -1, 0)),
    ]

    @Test(arguments: 0..<containsCases.count)
    func containsLocation(index: Int) {
        let (polygon, inside, outside) = Self.containsCases[index]
        for geodesic in [true, false] {
            for point in inside { #expect(GMSGeometryContainsLocation(point, polygon, geodesic), "\(point)") }
            for point in outside { #expect(!GMSGeometryContainsLocation(point, polygon, geodesic), "\(point)") }
        }
    }

    @Test func containsAcrossTheAntimeridian() {
        let square = path(-10, 170, -10, -170, 10, -170, 10, 170)
        for geodesic in [true, false] {
            #expect(GMSGeometryContainsLocation(c(0, 180), square, geodesic))
            #expect(GMSGeometryContainsLocation(c(0, -175), square, geodesic))
            #expect(GMSGeometryContainsLocation(c(5, 175), square, geodesic))
            #expect(!GMSGeometryContainsLocation(c(0, 0), square, geodesic))
            #expect(!GMSGeometryContainsLocation(c(0, 160), square, geodesic))
        }
        // Geodesic and rhumb edges differ: a great circle between two points at 60° N bulges north of the parallel.
        let band = path(60, -40, 60, 40, 70, 40, 70, -40)
        #expect(!GMSGeometryContainsLocation(c(61, 0), band, true))
        #expect(GMSGeometryContainsLocation(c(61, 0), band, false))
    }

    // MARK: On path

    /// PolyUtilTest.testOnEdge with the default tolerance (0.1 m): `small` ≈ 5 cm and `big` ≈ 20 cm on the equator.
    static let small = 5e-7
    static let big = 2e-6

    /// (geodesic: nil for both, path, on, off).
    static let onPathCases: [(Bool?, GMSPath, [CLLocationCoordinate2D], [CLLocationCoordinate2D])] = [
        (nil, path(), [], points(0, 0)),
        // Endpoints.
        (nil, path(1, 2), points(1, 2), points(3, 5)),
        (nil, path(1, 2, 3, 5), points(1, 2, 3, 5), points(0, 0)),
        // On the equator.
        (
            nil, path(0, 90, 0, 180), points(0, 90 - small, 0, 90 + small, 0 - small, 90, 0, 135, small, 135),
            points(0, 90 - big, 0, 0, 0, -90, big, 135)
        ),
        // Ends on the same latitude.
        (
            nil, path(-45, -180, -45, -small),
            points(-45, 180 + small, -45, 180 - small, -45 - small, 180 - small, -45, 0),
            points(-45, big, -45, 180 - big, -45 + big, -90, -45, 90)
        ),
        // A meridian.
        (
            nil, path(-10, 30, 45, 30), points(10, 30 - small, 20, 30 + small, -10 - small, 30 + small),
            points(-10 - big, 30, 10, -150, 0, 30 - big)
        ),
        // Slanted close to a meridian, close to the North Pole.
        (
            nil, path(0, 0, 90 - small, 0 + big), points(1, 0 + small, 2, 0 - small, 90 - small, -90, 90 - small, 10),
            points(-big, 0, 90 - big, 180, 10, big)
        ),
        // An arc longer than 120°.
        (
            nil, path(0, 0, 0, 179.999), points(0, 90, 0, small, 0, 179, small, 90),
            points(0, -90, small, -100, 0, 180, 0, -big, 90, 0, -90, 180)
        ),
        (
            nil, path(10, 5, 30, 15), points(10 + 2 * big, 5 + big, 10 + big, 5 + big / 2, 30 - 2 * big, 15 - big),
            points(20, 10, 10 - big, 5 - big / 2, 30 + 2 * big, 15 + big, 10 + 2 * big, 5, 10, 5 + big)
        ),
        (
            nil, path(90 - small, 0, 0, 180 - small / 2),
            points(big, -180 + small / 2, big, 180 - small / 4, big, 180 - small),
            points(-big, -180 + small / 2, -big, 180, -big, 180 - small)
        ),
        // Reaching close to the North Pole: the great circle passes near it, the rhumb line stays at 80°.
        (
            true, path(80, 0, 80, 180 - small), points(90 - small, -90, 90, -135, 80 - small, 0, 80 + small, 0),
            points(80, 90, 79, big)
        ),
        (
            false, path(80, 0, 80, 180 - small), points(80 - small, 0, 80 + small, 0, 80, 90),
            points(79, big, 90 - small, -90, 90, -135)
        ),
    ]

    /// Each case for the open path (GMSGeometryIsLocationOnPath) and, through the engine, for the closed edge.
    @Test(arguments: 0..<onPathCases.count)
    func isLocationOnPath(index: Int) {
        let (kind, line, on, off) = Self.onPathCases[index]
        let engineLine = (0..<line.count()).map {
            LatLng(latitude: line.coordinate(at: $0).latitude, longitude: line.coordinate(at: $0).longitude)
        }
        for geodesic in kind.map({ [$0] }) ?? [true, false] {
            for point in on {
                #expect(GMSGeometryIsLocationOnPath(point, line, geodesic), "\(point) geodesic \(geodesic)")
                let p = LatLng(latitude: point.latitude, longitude: point.longitude)
                #expect(Spherical.isOnPath(p, engineLine, closed: true, geodesic: geodesic, tolerance: 0.1))
            }
            for point in off {
                #expect(!GMSGeometryIsLocationOnPath(point, line, geodesic), "\(point) geodesic \(geodesic)")
                let p = LatLng(latitude: point.latitude, longitude: point.longitude)
                #expect(!Spherical.isOnPath(p, engineLine, closed: true, geodesic: geodesic, tolerance: 0.1))
            }
        }
    }

    @Test func onPathTolerance() {
        let line = path(0, 0, 0, 1)
        let north50 = GMSGeometryOffset(c(0, 0.5), 50, 0)
        for geodesic in [true, false] {
            #expect(!GMSGeometryIsLocationOnPathTolerance(north50, line, geodesic, 49))
            #expect(GMSGeometryIsLocationOnPathTolerance(north50, line, geodesic, 51))
            #expect(!GMSGeometryIsLocationOnPath(north50, line, geodesic))
            // A negative tolerance counts as 0 (a vertex still matches), NaN matches nothing.
            #expect(GMSGeometryIsLocationOnPathTolerance(c(0, 1), line, geodesic, -5))
            #expect(!GMSGeometryIsLocationOnPathTolerance(c(0, 1.0001), line, geodesic, -5))
            #expect(!GMSGeometryIsLocationOnPathTolerance(c(0, 0.5), line, geodesic, .nan))
            // The path is open: the closing segment of a triangle does not count.
            #expect(!GMSGeometryIsLocationOnPath(c(5, 0), path(0, 0, 0, 10, 10, 0), geodesic))
        }
    }

    // MARK: Map points

    @Test func projection() {
        #expect(GMSProject(c(0, 0)) == GMSMapPoint(x: 0, y: 0))
        #expect(GMSProject(c(0, 180)).x == 1)
        #expect(GMSProject(c(0, -180)).x == -1)
        #expect(isApproximatelyEqual(GMSProject(c(0, 90)).x, 0.5, tolerance: 1e-15))
        #expect(isApproximatelyEqual(GMSProject(c(85.051_128_779_806_59, 0)).y, 1, tolerance: 1e-12))
        #expect(isApproximatelyEqual(GMSProject(c(-85.051_128_779_806_59, 0)).y, -1, tolerance: 1e-12))
        // y = asinh(tan φ) / π, north positive.
        for latitude in [-80.0, -45, -10, 0, 12.5, 45, 60, 80] {
            let expected = asinh(tan(latitude * .pi / 180)) / .pi
            #expect(isApproximatelyEqual(GMSProject(c(latitude, 10)).y, expected, tolerance: 1e-12))
        }
        // Longitudes outside ±180 wrap; the poles stay finite.
        #expect(isApproximatelyEqual(GMSProject(c(0, 270)).x, -0.5, tolerance: 1e-15))
        #expect(GMSProject(c(90, 0)).y.isFinite && GMSProject(c(90, 0)).y > 1)
        #expect(GMSProject(c(.nan, 0)).y.isNaN)
        #expect(GMSMapPoint() == GMSMapPoint(x: 0, y: 0))
    }

    @Test func unprojectionInvertsProjection() {
        var random = SeededRandom(seed: 16)
        for _ in 0..<1000 {
            let coordinate = c(
                Double.random(in: -85...85, using: &random), Double.random(in: -180..<180, using: &random))
            let back = GMSUnproject(GMSProject(coordinate))
            #expect(abs(back.latitude - coordinate.latitude) < 1e-9)
            #expect(abs(back.longitude - coordinate.longitude) < 1e-9)
        }
        #expect(GMSUnproject(GMSMapPoint(x: 1, y: 0)).longitude == 180)
        #expect(isApproximatelyEqual(GMSUnproject(GMSMapPoint(x: 2.5, y: 0)).longitude, 90, tolerance: 1e-12))
        #expect(GMSUnproject(GMSMapPoint(x: 0, y: .infinity)).latitude == 90)
        #expect(GMSUnproject(GMSMapPoint(x: 0, y: 40)).latitude <= 90)
    }

    @Test func mapPointDistanceAndInterpolationTakeTheShortWay() {
        let a = GMSMapPoint(x: 0.9, y: 0)
        let b = GMSMapPoint(x: -0.9, y: 0.1)
        #expect(isApproximatelyEqual(GMSMapPointDistance(a, b), (0.04 + 0.01).squareRoot(), tolerance: 1e-12))
        #expect(
            isApproximatelyEqual(
                GMSMapPointDistance(GMSMapPoint(x: -0.5, y: 0), GMSMapPoint(x: 0.5, y: 0)), 1, tolerance: 1e-15))
        let middle = GMSMapPointInterpolate(a, b, 0.5)
        #expect(isApproximatelyEqual(abs(middle.x), 1, tolerance: 1e-12))
        #expect(isApproximatelyEqual(middle.y, 0.05, tolerance: 1e-15))
        let past = GMSMapPointInterpolate(a, b, 0.75)
        #expect(isApproximatelyEqual(past.x, -0.95, tolerance: 1e-12))
        #expect(GMSMapPointInterpolate(a, b, 0) == a)
        #expect(isApproximatelyEqual(GMSMapPointInterpolate(a, b, 1).x, b.x, tolerance: 1e-12))
        // San Francisco → Tokyo passes the date line.
        let sf = GMSProject(c(37.77, -122.42))
        let tokyo = GMSProject(c(35.68, 139.69))
        let crossing = GMSUnproject(GMSMapPointInterpolate(sf, tokyo, 0.5))
        #expect(abs(crossing.longitude) > 170)
    }
}
