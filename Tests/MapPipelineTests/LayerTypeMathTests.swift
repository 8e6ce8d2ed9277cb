import Foundation
import MapDrawing
import MapGeometry
import MapStyle
import Testing

@testable import MapPipeline

/// The heatmap kernel, the hillshade slope and shading, and the extrusion light, against MapLibre's shader maths.
@Suite struct LayerTypeMathTests {
    @Test func theHeatmapKernelIsAGaussianWithSigmaAThirdOfTheRadius() {
        let peak = HeatmapKernel.value(weight: 1, intensity: 1, distanceInRadii: 0)
        #expect(abs(peak - 1 / (2 * Double.pi).squareRoot()) < 1e-12)
        // One sigma (a third of the radius) down: e^(-1/2).
        let sigma = HeatmapKernel.value(weight: 1, intensity: 1, distanceInRadii: 1.0 / 3)
        #expect(abs(sigma / peak - exp(-0.5)) < 1e-12)
        #expect(
            HeatmapKernel.value(weight: 2, intensity: 0.5, distanceInRadii: 0.4)
                == HeatmapKernel.value(
                    weight: 1, intensity: 1, distanceInRadii: 0.4))
    }

    @Test func theKernelSquareEndsWhereTheDensityFallsToMapLibresZero() throws {
        let s = try #require(HeatmapKernel.halfSide(weight: 1, intensity: 1))
        // MapLibre's S for weight × intensity 1: sqrt(-2 ln(ZERO / GAUSS_COEF)) / 3.
        #expect(abs(s - 1.2820) < 1e-3)
        #expect(abs(HeatmapKernel.value(weight: 1, intensity: 1, distanceInRadii: s) - HeatmapKernel.zero) < 1e-12)
        // Heavier points reach further; a point too light to reach ZERO draws nothing.
        #expect(try #require(HeatmapKernel.halfSide(weight: 10, intensity: 1)) > s)
        #expect(HeatmapKernel.halfSide(weight: 0, intensity: 1) == nil)
        #expect(HeatmapKernel.halfSide(weight: 0.0005, intensity: 1) == nil)
    }

    @Test func theDensityBufferAddsKernelsAtAQuarterResolution() {
        var density = HeatmapDensity(frameWidth: 64, frameHeight: 32)
        #expect(density.width == 16 && density.height == 8)
        // A point on a cell centre (device pixel 18, 10 is the centre of cell 4, 2).
        density.add(x: 18, y: 10, radius: 12, weight: 1, intensity: 1)
        let peak = HeatmapKernel.value(weight: 1, intensity: 1, distanceInRadii: 0)
        #expect(abs(Double(density.values[2 * 16 + 4]) - peak) < 1e-6)
        // The next cell is 4 device pixels away.
        let next = HeatmapKernel.value(weight: 1, intensity: 1, distanceInRadii: 4.0 / 12)
        #expect(abs(Double(density.values[2 * 16 + 5]) - next) < 1e-6)
        // Beyond the square (1.207 × 12 ≈ 14.5 px) nothing.
        #expect(density.values[2 * 16 + 9] == 0)
        // Two points add.
        density.add(x: 18, y: 10, radius: 12, weight: 1, intensity: 1)
        #expect(abs(Double(density.values[2 * 16 + 4]) - 2 * peak) < 1e-6)
        // Device pixel 18's centre (18.5) lies an eighth of a cell past cell 4's centre: bilinear between cells 4 and 5.
        let sampled = density.sample(pixelX: 18, pixelY: 9)
        let a = Double(density.values[2 * 16 + 4])
        let b = Double(density.values[2 * 16 + 5])
        let a1 = Double(density.values[1 * 16 + 4])
        let b1 = Double(density.values[1 * 16 + 5])
        // Pixel row 9 (centre 9.5) lies between cell rows 1 (centre 6) and 2 (centre 10): 7/8 of the way.
        let expected = (a1 * 7 / 8 + b1 / 8) / 8 + (a * 7 / 8 + b / 8) * 7 / 8
        #expect(abs(sampled - expected) < 1e-6)
    }

    @Test func theSquareHomographyMapsCornersAndInvertsPoints() throws {
        let quad = [
            ScreenPoint(x: 10, y: 20), ScreenPoint(x: 50, y: 22), ScreenPoint(x: 44, y: 40), ScreenPoint(x: 16, y: 38),
        ]
        let h = try #require(SquareHomography(quad))
        for (corner, expected) in zip(quad, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]) {
            let (u, v) = try #require(h.inverse(x: corner.x, y: corner.y))
            #expect(abs(u - expected.0) < 1e-9 && abs(v - expected.1) < 1e-9)
        }
        // The diagonals' crossing is the square's centre under a projective map.
        let (u, v) = try #require(h.inverse(x: 29.666666666666668, y: 31.568627450980394))
        #expect(abs(u - 0.5) < 1e-6 && abs(v - 0.5) < 1e-6)
    }

    @Test func aKernelOnTheGroundFillsItsQuadrilateral() throws {
        var density = HeatmapDensity(frameWidth: 64, frameHeight: 64)
        let s = try #require(HeatmapKernel.halfSide(weight: 1, intensity: 1))
        // A square of 2s radii seen flat as 40 × 40 device pixels centred on (32, 32): the centre cell gets the peak,
        // the cells outside nothing.
        let corners = [
            ScreenPoint(x: 12, y: 12), ScreenPoint(x: 52, y: 12), ScreenPoint(x: 52, y: 52), ScreenPoint(x: 12, y: 52),
        ]
        density.add(corners: corners, weight: 1, intensity: 1)
        let radius = 20 / s
        // Cell (7, 7)'s centre is device pixel (30, 30): 2√2 px from the point.
        let expected = HeatmapKernel.value(weight: 1, intensity: 1, distanceInRadii: (8.0).squareRoot() / radius)
        #expect(abs(Double(density.values[7 * 16 + 7]) - expected) < 1e-6)
        #expect(density.values[0] == 0 && density.values[15 * 16 + 15] == 0)
    }

    @Test func theColorRampStoresPremultipliedFlooredBytesOverADensityOf256Steps() throws {
        let style = try Style.parse(
            bytes: Array(
                #"{"version": 8, "sources": {"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "h", "type": "heatmap", "source": "v", "source-layer": "p", "paint": {"heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(255, 0, 0, 0)", 1, "rgba(255, 0, 0, 1)"]}}]}"#
                    .utf8))
        let property = try #require(style.layers.first?.paint["heatmap-color"])
        let ramp = HeatmapColorRamp(property, zoom: 0)
        // Entry 128 is density 0.5: red 0.5 × alpha 0.5 … floored.
        #expect(ramp.entries[128 * 4] == 127 && ramp.entries[128 * 4 + 3] == 127)
        #expect(ramp.entries[0] == 0 && ramp.entries[3] == 0)
        // Densities past 1 clamp to the last entry.
        #expect(ramp.color(at: 5).3 == Double(ramp.entries[255 * 4 + 3]) / 255)
    }

    /// A DEM tile of `dim` pixels whose elevation is `f(x, y)` metres.
    func dem(_ dim: Int, _ f: (Int, Int) -> Double) -> DEMTile {
        var pixels = [UInt8](repeating: 255, count: dim * dim * 4)
        for y in 0..<dim {
            for x in 0..<dim {
                // Terrarium: metres + 32768 = R·256 + G + B/256.
                let v = f(x, y) + 32768
                let o = (y * dim + x) * 4
                pixels[o + 2] = UInt8(Int(v) >> 8)
                pixels[o + 1] = UInt8(Int(v) & 255)
                pixels[o] = UInt8(((v - v.rounded(.down)) * 256).rounded())
            }
        }
        return DEMTile(image: RasterImage(width: dim, height: dim, pixels: pixels), encoding: .terrarium)!
    }

    @Test func aFlatDEMHasNoSlopeAndShadesTransparent() {
        let flat = dem(8) { _, _ in 100 }
        let d = HillshadeMath.derivative(flat, x: 3, y: 3, z: 12, maxZoom: 15)
        // The stored byte is 128 (0.5 rounds up), read back as 1/255.
        #expect(abs(d.0) <= 1.0 / 255 + 1e-12 && abs(d.1) <= 1.0 / 255 + 1e-12)
        let paint = HillshadePaint(layer: hillshadeLayer(), zoom: 12)
        let c = HillshadeMath.shade(deriv: (0, 0), latitude: 0, paint: paint, azimuth: 335 * .pi / 180)
        #expect(c.0 == 0 && c.1 == 0 && c.2 == 0 && c.3 == 0)
    }

    @Test func theSobelSlopeFollowsMapLibresScale() {
        // Rising 10 m per pixel eastwards at zoom 12 of a maxzoom-12 source: deriv.x = 8 × 10 / 4 / 2^(19.2562 - 12).
        let ramp = dem(8) { x, _ in Double(x) * 10 }
        let d = HillshadeMath.derivative(ramp, x: 3, y: 3, z: 12, maxZoom: 12)
        let expected = 8 * 10 / 4 / pow(2, 19.2562 - 12)
        let stored = ((expected / 2 + 0.5) * 255).rounded() / 255 * 2 - 1
        #expect(abs(d.0 - stored) < 1e-12)
        #expect(abs(d.1 - (128.0 / 255 * 2 - 1)) < 1e-12)
        // The border copies the nearest pixel: the slope at the edge is half as steep.
        let edge = HillshadeMath.derivative(ramp, x: 0, y: 3, z: 12, maxZoom: 12)
        #expect(edge.0 < d.0)
    }

    @Test func theBorderIsFilledFromNeighbours() {
        var tile = dem(4) { _, _ in 0 }
        let east = dem(4) { x, _ in Double(x + 1) * 7 }
        tile.backfill(from: east, dx: 1, dy: 0)
        #expect(tile[4, 0] == 7 && tile[4, 3] == 7)
        #expect(tile[-1, 0] == 0)
        let south = dem(4) { _, y in Double(y + 1) * 3 }
        tile.backfill(from: south, dx: 0, dy: 1)
        #expect(tile[2, 4] == 3)
    }

    @Test func slopesFacingTheLightAreLitAndSlopesFacingAwayAreShaded() {
        let paint = HillshadePaint(layer: hillshadeLayer(), zoom: 12)
        let azimuth = 335 * Double.pi / 180
        // The light comes from the north-north-west (335°). A slope rising to the south faces it (the ground faces
        // north), one rising to the north faces away.
        let facing = HillshadeMath.shade(deriv: (0, 0.5), latitude: 0, paint: paint, azimuth: azimuth)
        let away = HillshadeMath.shade(deriv: (0, -0.5), latitude: 0, paint: paint, azimuth: azimuth)
        // Highlight white, shadow black (premultiplied): the lit one is brighter for the same opacity.
        #expect(facing.0 > away.0)
        #expect(facing.3 > 0 && away.3 > 0)
    }

    @Test func theDefaultLightLightsRoofsAlmostFully() {
        let light = ExtrusionLight(bearing: 0)
        let grey = StyleColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        let roof = light.shade(grey, normal: (0, 0, 1), gradient: 1)
        // directional = mix(0.5, max(1 - 0.5 + 0.5, 1), cos 30° × 1.15 clamped) on 0.5 + 0.03 ambient.
        let directional = 0.5 + (1.0 - 0.5) * min(cos(30 * Double.pi / 180) * 1.15, 1)
        #expect(abs(roof.0 - 0.53 * directional) < 1e-9)
        // A wall facing away from the light is darker than one facing it.
        let north = light.shade(grey, normal: (0, -1, 0), gradient: 1)
        let south = light.shade(grey, normal: (0, 1, 0), gradient: 1)
        #expect(north.0 != south.0)
    }

    func hillshadeLayer() -> StyleLayer {
        let style = try! Style.parse(
            bytes: Array(
                #"{"version": 8, "sources": {"d": {"type": "raster-dem", "tiles": ["d/{z}/{x}/{y}.png"]}}, "layers": [{"id": "h", "type": "hillshade", "source": "d"}]}"#
                    .utf8))
        return style.layers[0]
    }
}
