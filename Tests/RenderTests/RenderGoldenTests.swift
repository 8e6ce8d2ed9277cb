import Foundation
import MapData
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapPipeline
import MapStyle
import MapTestSupport
import Testing

/// Pins fonts (DejaVu first, Noto as fallback) before the first Pango call.
private enum PinnedFonts {
    static let once: Void = Fixtures.pinFonts()
}

private let dataFolder = Fixtures.repositoryRoot.appendingPathComponent("Data")

/// A snapshotter on the default style and the committed data.
private func defaultMapHost() throws -> MapHost {
    PinnedFonts.once
    return try MapHost(styleFile: dataFolder.appendingPathComponent("styles/default.json").path)
}

private func camera(_ lat: Double, _ lon: Double, _ zoom: Double, bearing: Double = 0, pitch: Double = 0)
    -> CameraState
{
    CameraState(
        center: LatLng(latitude: lat, longitude: lon), zoom: zoom, bearing: bearing, pitch: pitch,
        size: ScreenSize(width: 640, height: 400))
}

/// Compares `image` with `Tests/RenderTests/Goldens/<name>.png` through the suite's one golden harness
/// (``GoldenImage``): a pixel differs when a premultiplied channel is off by more than `tolerance` (0…255); at most
/// `allowedFraction` of the pixels may differ. `UPDATE=1` rewrites the golden and fails; a failure names the folder
/// holding `<name>-actual.png` and `<name>-diff.png`.
private func expectGolden(
    _ image: RasterImage, _ name: String, tolerance: Int = 10, allowedFraction: Double = 0.002,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    GoldenImage.expect(
        width: image.width, height: image.height, pixels: image.pixels,
        matches: Fixtures.golden(name, testTarget: "RenderTests"),
        channelTolerance: tolerance, maxDifferingFraction: allowedFraction, sourceLocation: sourceLocation)
}

/// An in-memory tile source for synthetic scenes.
private struct SceneSource: TileSource {
    var tiles: [TileID: [UInt8]]
    var minZoom = 0
    var maxZoom = 0
    var metadata = TileSourceMetadata()
    func tileData(at address: TileID) throws -> [UInt8]? { tiles[address] }
}

private func sceneMapHost(layers: String, tile: [UInt8]) throws -> MapHost {
    PinnedFonts.once
    let json = """
        {"version": 8, "sources": {"s": {"type": "vector", "url": "mbtiles://none", "maxzoom": 0}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f5f3ef"}}, \(layers)]}
        """
    let style = try Style.parse(bytes: Array(json.utf8))
    return try MapHost(style: style, options: MapRenderOptions(baseAttribution: nil)) { _, _ in
        SceneSource(tiles: [TileID(z: 0, x: 0, y: 0): tile])
    }
}

@Suite(.serialized) struct RenderGoldenTests {
    @Test func worldAtZoom2() throws {
        let s = try defaultMapHost()
        try expectGolden(s.render(camera: camera(30, 10, 2)), "world-z2")
    }

    @Test func helsinkiAtZoom14() throws {
        let s = try defaultMapHost()
        try expectGolden(s.render(camera: camera(60.1716, 24.9443, 14)), "helsinki-z14")
    }

    @Test func helsinkiAtZoom16() throws {
        let s = try defaultMapHost()
        try expectGolden(s.render(camera: camera(60.1699, 24.9415, 16)), "helsinki-z16")
    }

    @Test func helsinkiAtZoom16Bearing45Pitch50() throws {
        let s = try defaultMapHost()
        let image = try s.render(camera: camera(60.1699, 24.9415, 16, bearing: 45, pitch: 50))
        #expect(s.renderer.lastFrameStatistics.composedFromTileImages)
        try expectGolden(image, "helsinki-z16-b45-p50")
    }

    /// A turned flat frame: the tile images warped about the optical centre (one warp over each tile's own
    /// rectangle, so no seams between tiles), the poi dots drawn as vectors, labels upright.
    @Test func helsinkiAtZoom16Bearing30() throws {
        let s = try defaultMapHost()
        let image = try s.render(camera: camera(60.1699, 24.9415, 16, bearing: 30))
        #expect(s.renderer.lastFrameStatistics.composedFromTileImages)
        try expectGolden(image, "helsinki-z16-b30")
    }

    /// The turned frame from warped tile images against the reference vector path (tile-image cache off): the
    /// same picture but for resampled edges.
    @Test func turnedFramesFromTileImagesMatchTheVectorPath() throws {
        try expectTileImagesMatchTheVectorPath(camera(60.1699, 24.9415, 16, bearing: 30))
    }

    /// The pitched frame composed from warped tile images (the default frame path) against the
    /// reference vector path (tile-image cache off): the same picture but for resampled edges of thin lines (rail
    /// hatches, building outlines one device pixel wide), so most pixels match closely and few differ much.
    @Test func pitchedFramesFromTileImagesMatchTheVectorPath() throws {
        try expectTileImagesMatchTheVectorPath(camera(60.1699, 24.9415, 16, bearing: 45, pitch: 50))
    }

    /// The frame at `cam` composed from warped tile images (the default frame path) against the reference vector
    /// path (tile-image cache off): the mean channel difference below 1.5 and under 0.2 % of channels off by more
    /// than 64.
    private func expectTileImagesMatchTheVectorPath(_ cam: CameraState) throws {
        PinnedFonts.once
        let path = dataFolder.appendingPathComponent("styles/default.json").path
        let warped = try MapHost(styleFile: path, options: MapRenderOptions())
        let vectors = try MapHost(styleFile: path, options: MapRenderOptions(usesTileImageCache: false))
        let a = try warped.render(camera: cam)
        let warpedFrame = warped.renderer.lastFrameStatistics.composedFromTileImages
        let b = try vectors.render(camera: cam)
        #expect(warpedFrame)
        #expect(a.width == b.width && a.height == b.height)
        var total = 0
        var far = 0
        for i in 0..<min(a.pixels.count, b.pixels.count) {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            total += d
            if d > 64 { far += 1 }
        }
        let mean = Double(total) / Double(a.pixels.count)
        let farFraction = Double(far) / Double(a.pixels.count)
        #expect(mean < 1.5, "mean channel difference \(mean)")
        #expect(farFraction < 0.002, "channels off by more than 64: \(farFraction)")
    }

    /// 900 point labels on a 30 × 30 grid, 4 points apart at zoom 2: collision keeps a readable, non-overlapping
    /// subset, higher-priority (lower sort key) labels first.
    @Test func labelStress() throws {
        var features: [MVTWriter.Feature] = []
        for row in 0..<30 {
            for col in 0..<30 {
                features.append(
                    .init(
                        geometry: .point(1088 + col * 64, 1088 + row * 64),
                        properties: ["name": "L\(row)-\(col)", "rank": "\((row * 7 + col * 3) % 10)"]))
            }
        }
        let tile = MVTWriter(layers: [("labels", features)]).encode()
        let layers = """
            {"id": "dots", "type": "circle", "source": "s", "source-layer": "labels",
             "paint": {"circle-radius": 1.5, "circle-color": "#9a948c"}},
            {"id": "names", "type": "symbol", "source": "s", "source-layer": "labels",
             "layout": {"text-field": ["get", "name"], "text-size": 12, "text-anchor": "top", "text-offset": [0, 0.3],
                        "symbol-sort-key": ["to-number", ["get", "rank"]]},
             "paint": {"text-color": "#3c4043", "text-halo-color": "#ffffff", "text-halo-width": 1.5}}
            """
        let s = try sceneMapHost(layers: layers, tile: tile)
        let image = try s.render(camera: camera(0, 0, 2))
        let placed = s.renderer.lastFrameStatistics.labelsPlaced
        #expect(placed > 30 && placed < 900)
        try expectGolden(image, "label-stress")
    }

    /// A circle whose point lies 2 points left of a tile edge (z1 tiles over-zoomed from z0, composed from tile
    /// images): the right tile keeps the point in its buffer and draws its part of the circle, so the frame shows a
    /// whole disc, symmetric about its centre, not one cut straight at the tile edge.
    @Test func circleAcrossATileEdgeIsWhole() throws {
        let tile = MVTWriter(layers: [("pois", [.init(geometry: .point(2048 - 16, 1024))])]).encode()
        let layers = """
            {"id": "dots", "type": "circle", "source": "s", "source-layer": "pois",
             "paint": {"circle-radius": 6, "circle-color": "#ff0000"}}
            """
        let s = try sceneMapHost(layers: layers, tile: tile)
        let image = try s.render(
            camera: CameraState(
                center: LatLng(latitude: 0, longitude: 0), zoom: 1, size: ScreenSize(width: 512, height: 512)))
        #expect(s.renderer.lastFrameStatistics.composedFromTileImages)
        // Centre (254, 128); the tile edge is at x = 256.
        func isRed(_ x: Int, _ y: Int) -> Bool {
            let p = image.premultipliedRGBA(x: x, y: y)!
            return p.r > 200 && p.g < 60 && p.b < 60
        }
        #expect(isRed(253, 128) && isRed(257, 128) && isRed(258, 128))
        #expect(isRed(256, 124) && isRed(256, 131))
        for y in 120..<137 {
            let left = (242..<254).filter { isRed($0, y) }.count
            let right = (254..<266).filter { isRed($0, y) }.count
            #expect(abs(left - right) <= 1, "row \(y): \(left) red pixels left of the centre, \(right) right")
        }
        #expect(!isRed(261, 128) && !isRed(246, 128))
    }

    /// The committed world's water is cut along 0° and 180° (the shoreline data's seams), exactly on tile edges:
    /// the open sea on either side of those meridians is one colour, with no lighter column where the two tile
    /// images meet (TileEdge in MapPipeline/TileDraws.swift), at the zooms of the world extract.
    @Test func theSeaHasNoSeamWhereTheDataCutsItAtATileEdge() throws {
        let s = try defaultMapHost()
        for (lat, lon) in [(-40.0, 0.01), (-5.0, 179.99)] {
            for zoom in [2.0, 4, 6] {
                let image = try s.render(
                    camera: CameraState(
                        center: LatLng(latitude: lat, longitude: lon), zoom: zoom,
                        size: ScreenSize(width: 200, height: 100)))
                let sea = try #require(image.premultipliedRGBA(x: 60, y: 50))
                #expect(sea.b == 255 && sea.r < sea.g, "(\(lat), \(lon)) z\(zoom): \(sea) is not the sea")
                for y in [30, 50, 70] {
                    for x in 90..<110 {
                        let p = try #require(image.premultipliedRGBA(x: x, y: y))
                        #expect(
                            abs(Int(p.r) - Int(sea.r)) <= 2 && abs(Int(p.g) - Int(sea.g)) <= 2,
                            "(\(lat), \(lon)) z\(zoom), pixel (\(x), \(y)): \(p) against the sea's \(sea)")
                    }
                }
            }
        }
    }

    /// Labels in Latin, Cyrillic, Greek, Arabic and Hebrew (right to left), CJK and emoji.
    @Test func unicodeLabels() throws {
        let names = [
            "Helsinki Helsingfors", "Москва", "Αθήνα", "القاهرة", "ירושלים", "東京", "서울", "北京", "Café ☕ 🗺️",
        ]
        var features: [MVTWriter.Feature] = []
        for (i, name) in names.enumerated() {
            features.append(
                .init(geometry: .point(1400 + (i % 3) * 650, 1500 + (i / 3) * 520), properties: ["name": name]))
        }
        let tile = MVTWriter(layers: [("labels", features)]).encode()
        let layers = """
            {"id": "names", "type": "symbol", "source": "s", "source-layer": "labels",
             "layout": {"text-field": ["get", "name"], "text-size": 18, "text-allow-overlap": true},
             "paint": {"text-color": "#202124", "text-halo-color": "#ffffff", "text-halo-width": 2}}
            """
        let s = try sceneMapHost(layers: layers, tile: tile)
        let image = try s.render(camera: camera(0, 0, 2))
        #expect(s.renderer.lastFrameStatistics.labelsPlaced == names.count)
        try expectGolden(image, "unicode-labels")
    }
}
