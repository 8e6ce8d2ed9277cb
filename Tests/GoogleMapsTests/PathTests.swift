import Foundation
import GoogleMaps
import MapGeometry
import MapTestSupport
import Testing

// GMSPath's encoded form, offsets and lengths, and GMSCoordinateBounds from paths. The encoded strings are Google's
// published example (developers.google.com/maps/documentation/utilities/polylinealgorithm) and the test lines of
// android-maps-utils' `PolyUtilTest.java` (testDecodePath, testEncodePath, and the lines testSimplify decodes;
// Apache-2.0, values only).

private func c(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

private func path(_ coordinates: [CLLocationCoordinate2D]) -> GMSMutablePath {
    let p = GMSMutablePath()
    for coordinate in coordinates { p.add(coordinate) }
    return p
}

private func coordinates(_ p: GMSPath) -> [CLLocationCoordinate2D] { (0..<p.count()).map { p.coordinate(at: $0) } }

@Suite struct PathTests {
    static let googleExample = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googleExamplePoints = [c(38.5, -120.2), c(40.7, -120.95), c(43.252, -126.453)]
    /// PolyUtilTest.TEST_LINE: 21 points ending at (37.76953, −122.41488).
    static let testLine = #"_cqeFf~cjVf@p@fA}AtAoB`ArAx@hA`GbIvDiFv@gAh@t@X\|@z@`@Z\Xf@Vf@VpA\tATJ@NBBkC"#
    /// PolyUtilTest.testSimplify's line: 95 points.
    static let simplifyLine =
        #"elfjD~a}uNOnFN~Em@fJv@tEMhGDjDe@hG^nF??@lA?n@IvAC`Ay@A{@DwCA{CF_EC{CEi@PBTFDJBJ?V?n@?D@?A@?@?F?F?LAf@?n@@`@@T@~@FpA?fA?p@?r@?vAH`@OR@^ETFJCLD?JA^?J?P?fAC`B@d@?b@A\@`@Ad@@\?`@?f@?V?H?DD@DDBBDBD?D?B?B@B@@@B@B@B@D?D?JAF@H@FCLADBDBDCFAN?b@Af@@x@@"#

    // MARK: Encoded polylines

    @Test func googlesExampleDecodes() throws {
        let decoded = try #require(GMSPath(fromEncodedPath: Self.googleExample))
        #expect(decoded.count() == 3)
        for (got, expected) in zip(coordinates(decoded), Self.googleExamplePoints) {
            #expect(abs(got.latitude - expected.latitude) < 1e-9)
            #expect(abs(got.longitude - expected.longitude) < 1e-9)
        }
    }

    @Test func googlesExampleEncodes() {
        #expect(path(Self.googleExamplePoints).encodedPath() == Self.googleExample)
        // The single value of Google's step-by-step example: −179.9832104 → "`~oia@".
        let single = path([c(-179.9832104, 0)]).encodedPath()
        #expect(single.hasPrefix("`~oia@"))
    }

    @Test func androidTestLinesRoundTrip() throws {
        let line = try #require(GMSPath(fromEncodedPath: Self.testLine))
        #expect(line.count() == 21)
        let last = line.coordinate(at: 20)
        #expect(abs(last.latitude - 37.76953) < 1e-6)
        #expect(abs(last.longitude - -122.41488) < 1e-6)
        #expect(line.encodedPath() == Self.testLine)
        let long = try #require(GMSPath(fromEncodedPath: Self.simplifyLine))
        #expect(long.count() == 95)
        #expect(long.encodedPath() == Self.simplifyLine)
    }

    @Test func randomPathsRoundTrip() throws {
        var random = SeededRandom(seed: 0x5EED_16)
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...12, using: &random)
            let original = (0..<count).map { _ in
                c(Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
            }
            let encoded = path(original).encodedPath()
            let decoded = try #require(GMSPath(fromEncodedPath: encoded))
            #expect(decoded.count() == UInt(count))
            for (got, expected) in zip(coordinates(decoded), original) {
                // Rounded to the nearest 1e−5 degree.
                #expect(abs(got.latitude - expected.latitude) <= 0.5e-5 + 1e-12)
                #expect(abs(got.longitude - expected.longitude) <= 0.5e-5 + 1e-12)
            }
            // A decoded path re-encodes to the same string.
            #expect(decoded.encodedPath() == encoded)
        }
    }

    @Test func emptyAndMinimalStrings() throws {
        #expect(try #require(GMSPath(fromEncodedPath: "")).count() == 0)
        #expect(GMSPath().encodedPath() == "")
        let origin = try #require(GMSPath(fromEncodedPath: "??"))
        #expect(coordinates(origin) == [c(0, 0)])
        #expect(GMSPath(fromEncodedPath: "?") == nil)  // a latitude without its longitude
    }

    @Test func truncatedStringsGiveNil() {
        let bytes = Array(Self.googleExample.utf8)
        // The prefixes that end exactly after a longitude are valid paths of 0…3 points.
        let boundaries: [Int: UInt] = [0: 0, 10: 1, 18: 2, 27: 3]
        for length in 0...bytes.count {
            let prefix = String(decoding: bytes[0..<length], as: UTF8.self)
            if let points = boundaries[length] {
                #expect(GMSPath(fromEncodedPath: prefix)?.count() == points, "\(prefix)")
            } else {
                #expect(GMSPath(fromEncodedPath: prefix) == nil, "\(prefix)")
            }
        }
    }

    @Test func garbageStringsGiveNil() {
        let garbage = [
            " ", "abc def", "!!!!", "_p~iF~ps|U\n", "é?", "\u{0}?", "😀", "__p~iF", ">??",
            String(repeating: "~", count: 40),  // never terminates
            String(repeating: "~", count: 11) + "?",  // a value longer than any coordinate
            Self.googleExample + "_",
        ]
        for string in garbage { #expect(GMSPath(fromEncodedPath: string) == nil, "\(string.debugDescription)") }
        // The class-func form and the mutable subclass too.
        #expect(GMSMutablePath(fromEncodedPath: "@") == nil)
        #expect(GMSMutablePath(fromEncodedPath: Self.googleExample)?.count() == 3)
    }

    @Test func randomBytesNeverTrap() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<10_000 {
            let length = Int.random(in: 0...24, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let string = String(decoding: bytes, as: UTF8.self)
            if let decoded = GMSPath(fromEncodedPath: string) {
                // Whatever decodes re-encodes to a string that decodes to the same path.
                #expect(GMSPath(fromEncodedPath: decoded.encodedPath()) == decoded)
            }
        }
    }

    @Test func encodingSkipsWhatCannotBeEncoded() throws {
        let withNaN = path([c(1, 2), c(.nan, 0), c(3, .infinity), c(1e300, 0), c(3, 4)])
        #expect(withNaN.encodedPath() == path([c(1, 2), c(3, 4)]).encodedPath())
        // Out-of-range but finite coordinates encode as written and come back.
        let wide = path([c(120, 400), c(-95, -720)])
        #expect(coordinates(try #require(GMSPath(fromEncodedPath: wide.encodedPath()))) == [c(120, 400), c(-95, -720)])
        // Rounding is symmetric about zero.
        let mirrored = path([c(-12.345_675, -0.000_015)]).encodedPath()
        let decoded = coordinates(try #require(GMSPath(fromEncodedPath: mirrored)))[0]
        let positiveString = path([c(12.345_675, 0.000_015)]).encodedPath()
        let positive = coordinates(try #require(GMSPath(fromEncodedPath: positiveString)))[0]
        #expect(decoded.latitude == -positive.latitude && decoded.longitude == -positive.longitude)
    }

    // MARK: Offsets

    @Test func pathOffsetAddsToEveryCoordinate() {
        let original = path([c(10, 20), c(-30, 170)])
        let moved = original.pathOffset(byLatitude: 1.5, longitude: 20)
        #expect(coordinates(moved) == [c(11.5, 40), c(-28.5, 190)])  // nothing wrapped
        #expect(coordinates(original) == [c(10, 20), c(-30, 170)])
        // Self: a mutable path gives a mutable path, an immutable one an immutable one.
        #expect(type(of: moved) == GMSMutablePath.self)
        let frozen = GMSPath(path: original)
        #expect(type(of: frozen.pathOffset(byLatitude: 0, longitude: 0)) == GMSPath.self)
        #expect(GMSPath().pathOffset(byLatitude: 1, longitude: 1).count() == 0)
    }

    // MARK: Lengths and segments

    @Test func lengthsOfEachKind() {
        let r = kGMSEarthRadius
        let parallel = path([c(60, 0), c(60, 40)])
        #expect(isApproximatelyEqual(parallel.length(of: .rhumb), 20 * .pi / 180 * r, tolerance: 1e-6))
        #expect(parallel.length(of: .geodesic) == GMSGeometryLength(parallel))
        #expect(parallel.length(of: .geodesic) < parallel.length(of: .rhumb))
        #expect(isApproximatelyEqual(parallel.length(of: .projected), 40.0 / 180, tolerance: 1e-12))
        let meridian = path([c(-10, 30), c(45, 30)])
        #expect(isApproximatelyEqual(meridian.length(of: .rhumb), meridian.length(of: .geodesic), tolerance: 1e-6))
        let acrossDateLine = path([c(0, 170), c(0, -170)])
        #expect(isApproximatelyEqual(acrossDateLine.length(of: .projected), 20.0 / 180, tolerance: 1e-12))
        #expect(isApproximatelyEqual(acrossDateLine.length(of: .rhumb), 20 * .pi / 180 * r, tolerance: 1e-6))
        for kind in [GMSLengthKind.geodesic, .rhumb, .projected] {
            #expect(GMSPath().length(of: kind) == 0)
            #expect(path([c(1, 2)]).length(of: kind) == 0)
        }
        #expect(GMSLengthKind.geodesic.rawValue == 0 && GMSLengthKind.rhumb.rawValue == 1)
        #expect(GMSLengthKind.projected.rawValue == 2)
    }

    @Test func segmentsForLength() {
        let line = path([c(0, 0), c(0, 1), c(0, 3)])
        let d = GMSGeometryDistance(c(0, 0), c(0, 1))
        #expect(isApproximatelyEqual(line.segments(forLength: 0.5 * d, kind: .geodesic), 0.5, tolerance: 1e-9))
        #expect(isApproximatelyEqual(line.segments(forLength: d, kind: .geodesic), 1, tolerance: 1e-9))
        #expect(isApproximatelyEqual(line.segments(forLength: 1.5 * d, kind: .geodesic), 1.25, tolerance: 1e-9))
        #expect(line.segments(forLength: 0, kind: .geodesic) == 0)
        #expect(line.segments(forLength: -5, kind: .geodesic) == 0)
        #expect(line.segments(forLength: .nan, kind: .geodesic) == 0)
        #expect(line.segments(forLength: 10 * d, kind: .geodesic) == 2)
        #expect(line.segments(forLength: .infinity, kind: .rhumb) == 2)
        // Projected: the equator from 0° to 3° is 3/180 map units.
        #expect(isApproximatelyEqual(line.segments(forLength: 2.0 / 180, kind: .projected), 1.5, tolerance: 1e-9))
        #expect(GMSPath().segments(forLength: 10, kind: .geodesic) == 0)
        #expect(path([c(1, 1)]).segments(forLength: 10, kind: .geodesic) == 0)
        // A zero-length segment is passed over.
        let repeated = path([c(0, 0), c(0, 0), c(0, 1)])
        #expect(isApproximatelyEqual(repeated.segments(forLength: 0.5 * d, kind: .geodesic), 1.5, tolerance: 1e-9))
        // A non-finite coordinate is skipped: the joined segment spans its index.
        let gap = path([c(0, 0), c(.nan, .nan), c(0, 2)])
        #expect(isApproximatelyEqual(gap.segments(forLength: d, kind: .geodesic), 1, tolerance: 1e-9))
        #expect(isApproximatelyEqual(gap.length(of: .geodesic), 2 * d, tolerance: 1e-6))
    }

    // MARK: Bounds

    @Test func boundsOfAPath() {
        let b = GMSCoordinateBounds(path: path([c(10, 170), c(20, -170), c(15, 175)]))
        #expect(b.isValid)
        #expect(b.southWest == c(10, 170))
        #expect(b.northEast == c(20, -170))
        #expect(!GMSCoordinateBounds(path: GMSPath()).isValid)
        #expect(!GMSCoordinateBounds(path: path([c(.nan, 0)])).isValid)
        let grown = GMSCoordinateBounds(coordinate: c(0, 0), coordinate: c(1, 1)).includingPath(
            path([c(-5, 3), c(2, -1)]))
        #expect(grown.southWest == c(-5, -1))
        #expect(grown.northEast == c(2, 3))
        let unchanged = GMSCoordinateBounds(coordinate: c(0, 0), coordinate: c(1, 1)).includingPath(GMSPath())
        #expect(unchanged.southWest == c(0, 0) && unchanged.northEast == c(1, 1))
    }
}
