import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

@testable import MapPipeline

/// What a fill-extrusion polygon's faces share, worked out once (ExtrusionShared.swift): the same values as worked out
/// per face.
@Suite struct ExtrusionSharedTests {
    /// A generator of numbers in 0..<1 from `seed` (xorshift).
    private struct Numbers {
        var state: UInt64
        mutating func next() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test func aFeaturesShaderLightsAsTheLightDoes() {
        var numbers = Numbers(state: 0x9E37_79B9_7F4A_7C15)
        var compared = 0
        for intensity in [0.0, 0.2, 0.5, 0.9, 1.0] {
            var style = StyleLight()
            style.intensity = intensity
            style.color = StyleColor(red: numbers.next(), green: numbers.next(), blue: 1, alpha: 1)
            let light = ExtrusionLight(style, bearing: numbers.next() * 360)
            for _ in 0..<200 {
                let color = StyleColor(
                    red: numbers.next(), green: numbers.next(), blue: numbers.next(), alpha: numbers.next())
                let shader = light.shader(color)
                let angle = numbers.next() * 2 * .pi
                let normal = numbers.next() < 0.2 ? (x: 0.0, y: 0.0, z: 1.0) : (x: cos(angle), y: sin(angle), z: 0.0)
                let gradient = numbers.next() < 0.3 ? 1 : 0.7 + 0.3 * numbers.next()
                let expected = light.shade(color, normal: normal, gradient: gradient)
                let got = shader.shade(directional: shader.directional(normal), gradient)
                #expect(got.0 == expected.0 && got.1 == expected.1 && got.2 == expected.2)
                compared += 1
            }
        }
        #expect(compared == 1000)
    }

    @Test func aLevelFacesPlanesAreTheLargestTrianglesPlanes() {
        var numbers = Numbers(state: 42)
        let raster = ExtrusionRaster()
        raster.beginLayer(width: 64, height: 64)
        var level = 0
        for face in 0..<300 {
            // Random rings at one depth; some start with points on one line (their first triangles have no area).
            let count = 3 + Int(numbers.next() * 12)
            let depth = 50 + numbers.next() * 100
            var points = (0..<count).map { _ in (numbers.next() * 80 - 8, numbers.next() * 80 - 8) }
            if face % 3 == 0 { points[1] = (points[0].0 + 1, points[0].1 + 2) }
            if face % 3 == 0 { points[2] = (points[0].0 + 2, points[0].1 + 4) }
            let vertices = points.map { ExtrusionRaster.Vertex(x: $0.0, y: $0.1, depth: depth, t: 1) }
            vertices.withUnsafeBufferPointer { all in
                let got = raster.prepare(all)
                guard let rows = raster.rows(of: all), let (a, b, c) = ExtrusionRaster.spanningTriangle(all) else {
                    #expect(got == nil)
                    return
                }
                let (va, vb, vc) = (all[a], all[b], all[c])
                let w = ExtrusionRaster.plane(va, vb, vc, 1 / va.depth, 1 / vb.depth, 1 / vc.depth)
                let tw = ExtrusionRaster.plane(va, vb, vc, va.t / va.depth, vb.t / vb.depth, vc.t / vc.depth)
                guard let got else {
                    Issue.record("face \(face) prepared as covering nothing")
                    return
                }
                #expect(got.0 == rows)
                // Equal as the raster uses them: ±0 slopes and the same constant.
                #expect(got.1.0 == w.0 && got.1.1 == w.1 && got.1.2 == w.2)
                #expect(got.2.0 == tw.0 && got.2.1 == tw.1 && got.2.2 == tw.2)
                #expect(w.0 == 0 && w.1 == 0 && w.2 == 1 / depth)
                level += 1
            }
        }
        #expect(level > 250)
        // All on one line: no triangle, as the largest-triangle search finds none.
        let line = (0..<5).map { ExtrusionRaster.Vertex(x: Double($0) * 3, y: Double($0) * 2, depth: 10, t: 1) }
        line.withUnsafeBufferPointer { #expect(raster.prepare($0) == nil) }
    }

    @Test func aRingProjectedOnceGivesTheVerticesEachFaceProjects() {
        let state = CameraState(
            center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 17, bearing: 30, pitch: 0,
            size: ScreenSize(width: 1280, height: 720))
        let camera = CameraTransform(state)
        let tile = TileID.containing(WebMercator.worldPoint(state.center), zoom: 16)
        let projector = ExtrusionProjector(tile: tile, extent: 4096, camera: camera)
        let ring = [(100, 200), (900, 250), (1200, 1400), (80, 1300), (100, 200)].map {
            VectorTilePoint(x: Int32($0.0), y: Int32($0.1))
        }
        for (meters, t) in [(0.0, 0.0), (35.0, 1.0)] {
            var shared: [ExtrusionRaster.Vertex] = []
            #expect(projector.projectRing(ring, meters: meters, t: t, ground: (0, 0), scale: 2, into: &shared))
            var single: [ExtrusionRaster.Vertex] = []
            let n = projector.project(count: ring.count, scale: 2, into: &single) { k in
                let c = projector.cameraPoint(Double(ring[k].x), Double(ring[k].y), meters: meters, ground: (0, 0))
                return (c.x, c.y, c.depth, t)
            }
            #expect(n == ring.count)
            #expect(shared.map { [$0.x, $0.y, $0.depth, $0.t] } == single.map { [$0.x, $0.y, $0.depth, $0.t] })
        }
        // A ring reaching behind the near plane is not projected at once.
        let tall = projector.camera.distance / projector.pointsPerMeter
        var out: [ExtrusionRaster.Vertex] = []
        #expect(!projector.projectRing(ring, meters: tall, t: 1, ground: (0, 0), scale: 2, into: &out))
    }
}
