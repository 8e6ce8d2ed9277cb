import Foundation
import MapGeometry
import MapTestSupport
import Testing

@Suite struct WebMercatorTests {
    /// Independent form of the Mercator y: `(1 − asinh(tan φ) / π) / 2` (the formula OSM's wiki gives).
    static func referenceY(_ latitude: Double) -> Double {
        let φ = latitude * .pi / 180
        return (1 - asinh(tan(φ)) / .pi) / 2
    }

    static let forwardCases: [(Double, Double, Double)] = [
        (0, 0, 0.5), (0, -180, 0), (0, 180, 1), (45, 90, 0.75), (-60, -90, 0.25), (85.0511287798, 0, 0.5),
        (33.3, 200, 380.0 / 360),
    ]

    @Test(arguments: forwardCases)
    func forward(latitude: Double, longitude: Double, x: Double) {
        let w = WebMercator.worldPoint(LatLng(latitude: latitude, longitude: longitude))
        #expect(isApproximatelyEqual(w.x, x, tolerance: 1e-12))
        #expect(isApproximatelyEqual(w.y, Self.referenceY(latitude), tolerance: 1e-12))
    }

    @Test func edgesOfTheSquare() {
        #expect(isApproximatelyEqual(WebMercator.maximumLatitude, 85.051_128_779_806_59, tolerance: 1e-9))
        let north = WebMercator.worldPoint(LatLng(latitude: WebMercator.maximumLatitude, longitude: -180))
        #expect(isApproximatelyEqual(north.y, 0, tolerance: 1e-12))
        #expect(isApproximatelyEqual(north.x, 0, tolerance: 1e-15))
        // Poles stay finite.
        #expect(WebMercator.worldPoint(LatLng(latitude: 90, longitude: 0)).y.isFinite)
        #expect(WebMercator.worldPoint(LatLng(latitude: -90, longitude: 0)).y.isFinite)
    }

    @Test(arguments: [-89.0, -85, -45.5, 0, 12.25, 60, 85, 89])
    func roundTrip(latitude: Double) {
        for longitude in stride(from: -540.0, through: 540, by: 37.5) {
            let p = LatLng(latitude: latitude, longitude: longitude)
            let back = WebMercator.latLng(WebMercator.worldPoint(p))
            #expect(isApproximatelyEqual(back.latitude, latitude, tolerance: 1e-10))
            #expect(isApproximatelyEqual(back.longitude, longitude, tolerance: 1e-10))
        }
    }

    @Test(arguments: [-89.0, -85, -45.5, 0, 12.25, 60, 85, 89])
    func mercatorOrdinate(latitude: Double) {
        let φ = latitude * .pi / 180
        let y = WebMercator.mercatorY(latitudeRadians: φ)
        #expect(isApproximatelyEqual(y, asinh(tan(φ)), tolerance: 1e-12))
        #expect(isApproximatelyEqual(WebMercator.latitudeRadians(mercatorY: y), φ, tolerance: 1e-12))
        #expect(isApproximatelyEqual(0.5 - y / (2 * .pi), Self.referenceY(latitude), tolerance: 1e-12))
    }

    @Test func metersPerPoint() {
        // Zoom 0 at the equator: the whole circumference over 256 points.
        #expect(
            isApproximatelyEqual(
                WebMercator.metersPerPoint(latitude: 0, zoom: 0), 40_075_016.685_578_5 / 256, tolerance: 1e-6))
        // At 60° the scale halves; each zoom level halves again.
        #expect(
            isApproximatelyEqual(
                WebMercator.metersPerPoint(latitude: 60, zoom: 3), 40_075_016.685_578_5 / 256 / 2 / 8, tolerance: 1e-6))
    }

    @Test(arguments: [
        (-180.0, -180.0), (180, -180), (179.999, 179.999), (480, 120), (840, 120), (1200, 120), (-190, 170),
        (-540, -180), (0, 0),
    ])
    func longitudeWrap(input: Double, expected: Double) {
        #expect(
            isApproximatelyEqual(LatLng(latitude: 0, longitude: input).wrapped.longitude, expected, tolerance: 1e-9))
    }
}
