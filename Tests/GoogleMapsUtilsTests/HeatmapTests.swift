import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport

@testable import GoogleMaps
@testable import GoogleMapsUtils
@testable import LinuxUIKit

/// The coordinate at the centre of pixel (`px`, `py`) of the 512-pixel tile `x`, `y` at `zoom`.
func coordinate(tileX x: Int, y: Int, zoom: Int, px: Double, py: Double) -> CLLocationCoordinate2D {
    let w = 2 / pow(2, Double(zoom))
    let bw = w / 512
    return GMSUnproject(GMSMapPoint(x: -1 + Double(x) * w + (px + 0.5) * bw, y: 1 - Double(y) * w - (py + 0.5) * bw))
}

/// Premultiplied B, G, R, A of pixel (`px`, `py`).
func pixel(_ image: UIImage, _ px: Int, _ py: Int) -> [UInt8] {
    let b = image.premultipliedBGRA()!
    let i = (py * b.width + px) * 4
    return Array(b.pixels[i..<(i + 4)])
}

@MainActor @Suite struct HeatmapTests {
    func layer(_ points: [GMUWeightedLatLng]) -> GMUHeatmapTileLayer {
        let layer = GMUHeatmapTileLayer()
        layer.weightedData = points
        // Setting a map captures the settings.
        layer.map = GMSMapView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        return layer
    }

    @Test func defaults() {
        let layer = GMUHeatmapTileLayer()
        #expect(layer.radius == 20 && layer.opacity == 0.7 && layer.tileSize == 512)
        #expect(layer.minimumZoomIntensity == 5 && layer.maximumZoomIntensity == 10)
        let map = layer.gradient.generateColorMap()
        #expect(map.count == 1000)
        var r: CGFloat = 0
        var g: CGFloat = 0
        var b: CGFloat = 0
        var a: CGFloat = 0
        _ = map[0].getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect(a == 0, "below the first start point the gradient fades from transparent")
        _ = map[999].getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect(abs(r - 1) < 1e-9 && g < 1e-9 && b < 1e-9 && a == 1, "red at the top")
        // 0.2 is reached at index 0.2 × 999 ≈ 200: the green start colour rgb(102, 225, 0).
        _ = map[200].getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect(abs(r * 255 - 102) < 2 && abs(g * 255 - 225) < 2 && b < 0.01 && a > 0.99)
    }

    /// One point of weight 1 at a pixel centre: the maximum at the zoom is 1, so that pixel takes the top colour;
    /// 6 pixels away the kernel is exp(−36 / (2 (20/3)²)) ≈ 0.667, index 666; beyond the radius nothing.
    @Test func knownIntensitiesAtKnownPixels() {
        let zoom = 7
        let c = coordinate(tileX: 70, y: 40, zoom: zoom, px: 100, py: 300)
        let layer = layer([GMUWeightedLatLng(coordinate: c, intensity: 1)])
        let tile = layer.tileFor(x: 70, y: 40, zoom: UInt(zoom))!
        #expect(tile !== kGMSTileLayerNoTile)
        #expect(pixel(tile, 100, 300) == [0, 0, 255, 255], "the centre is the gradient's red")
        let colors = layer.gradient.colorMapRGBA()
        let k = expf(-36 / (2 * (20 / 3) * (20 / 3)))
        let index = Int(k * 999)
        #expect(index == 666)
        let want = colors[index]
        let got = pixel(tile, 106, 300)
        #expect(abs(Double(got[2]) - want.r * want.a * 255) <= 1 && abs(Double(got[1]) - want.g * want.a * 255) <= 1)
        #expect(pixel(tile, 100, 306) == got, "the kernel is the same both ways")
        #expect(pixel(tile, 100, 321) == [0, 0, 0, 0], "beyond the radius: transparent")
        #expect(layer.tileFor(x: 10, y: 10, zoom: UInt(zoom)) === kGMSTileLayerNoTile, "no data: no tile")
    }

    /// Google's normalisation: two points in one bucket at zoom 5 sum to the maximum 2, so one point alone at
    /// zoom 5 is drawn at half intensity; at zoom 12 (above the maximum intensity zoom) the zoom-10 maximum holds.
    @Test func intensityIsNormalisedPerZoom() {
        let c = coordinate(tileX: 2, y: 1, zoom: 3, px: 200, py: 200)
        let layer = layer([
            GMUWeightedLatLng(coordinate: c, intensity: 1), GMUWeightedLatLng(coordinate: c, intensity: 1),
            GMUWeightedLatLng(coordinate: coordinate(tileX: 2, y: 1, zoom: 3, px: 400, py: 400), intensity: 1),
        ])
        let snapshot = HeatmapSnapshot(
            data: layer.weightedData, radius: 20, gradient: layer.gradient, minimumZoomIntensity: 5,
            maximumZoomIntensity: 10)
        #expect(snapshot.maxIntensities[5] == 2)
        #expect(snapshot.maxIntensities[0] == 2 && snapshot.maxIntensities[21] == snapshot.maxIntensities[10])
        let tile = layer.tileFor(x: 2, y: 1, zoom: 3)!
        #expect(pixel(tile, 200, 200) == [0, 0, 255, 255], "weight 2 / max 2: red")
        let single = pixel(tile, 400, 400)
        let half = layer.gradient.colorMapRGBA()[Int(Float(0.5) * 999)]
        #expect(abs(Double(single[1]) - half.g * half.a * 255) <= 1, "weight 1 / max 2: the middle of the gradient")
    }

    /// Waymark's own tile size: a 256-pixel tile is the quarter of the 512-pixel tile one zoom lower, pixel for
    /// pixel (the same kernel in pixels over half the map width, the same normalisation), with points inside it,
    /// on its edges and beyond them.
    @Test func a256PixelTileIsAQuarterOfThe512PixelTileAZoomBelow() {
        var rng = SeededRandom(seed: 31)
        let points = (0..<60).map { i in
            // Pixel centres of the 512-pixel tile (70, 40) at zoom 7, most about its top-left quarter.
            let px = Double(Int.random(in: 0..<(i % 3 == 0 ? 512 : 300), using: &rng))
            let py = Double(Int.random(in: 0..<(i % 3 == 0 ? 512 : 300), using: &rng))
            return GMUWeightedLatLng(
                coordinate: coordinate(tileX: 70, y: 40, zoom: 7, px: px, py: py),
                intensity: Float.random(in: 0.5...2, using: &rng))
        }
        let big = layer(points).tileFor(x: 70, y: 40, zoom: 7)!
        let small = GMUHeatmapTileLayer()
        small.weightedData = points
        small.tileSize = 256
        small.map = GMSMapView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let quarter = small.tileFor(x: 140, y: 80, zoom: 8)!
        let b = big.premultipliedBGRA()!
        let q = quarter.premultipliedBGRA()!
        #expect(b.width == 512 && q.width == 256 && q.height == 256)
        var differing = 0
        var coloured = 0
        for y in 0..<256 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4
                let j = (y * 512 + x) * 4
                if q.pixels[i..<(i + 4)] != b.pixels[j..<(j + 4)] { differing += 1 }
                if q.pixels[i + 3] > 0 { coloured += 1 }
            }
        }
        #expect(differing == 0)
        #expect(coloured > 10_000, "the points colour the quarter")
    }

    @Test func pointsAcrossTheAntimeridianReachTheTile() {
        // A point 5 pixels west of the antimeridian, seen from the first tile east of it.
        let zoom = 4
        let c = coordinate(tileX: 15, y: 7, zoom: zoom, px: 507, py: 256)
        let layer = layer([GMUWeightedLatLng(coordinate: c, intensity: 1)])
        let east = layer.tileFor(x: 0, y: 7, zoom: UInt(zoom))!
        #expect(east !== kGMSTileLayerNoTile)
        #expect(pixel(east, 0, 256)[3] > 0, "the kernel crosses the antimeridian")
    }

    @Test func heatmapGolden() {
        var rng = SeededRandom(seed: 7)
        var points: [GMUWeightedLatLng] = []
        // Hot spots over Paris at zoom 12 (one tile).
        let spots = [(100.0, 150.0, 400), (300.0, 280.0, 250), (420.0, 90.0, 120)]
        for (x, y, n) in spots {
            for _ in 0..<n {
                let dx = Double.random(in: -1...1, using: &rng) * Double.random(in: 0...60, using: &rng)
                let dy = Double.random(in: -1...1, using: &rng) * Double.random(in: 0...60, using: &rng)
                points.append(
                    GMUWeightedLatLng(
                        coordinate: coordinate(tileX: 2074, y: 1409, zoom: 12, px: x + dx, py: y + dy),
                        intensity: Float.random(in: 0.5...2, using: &rng)))
            }
        }
        let tile = layer(points).tileFor(x: 2074, y: 1409, zoom: 12)!
        expectImage(
            tile, matchesGolden: "heatmap-tile", channelTolerance: 2, maxDifferingFraction: 0.001)
    }
}
