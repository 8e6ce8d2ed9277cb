import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// SDF icons (`"sdf": true` sprite images) as MapLibre's SDF icon shader draws them: paint evaluated per feature, the
/// halo and the fill two images each at the icon's opacity, a layer's halos before its fills.
@Suite struct SDFIconPipelineTests {
    /// Two points of tile 0/0/0, 64 points apart at zoom 0 in 256-point tiles, with an opacity and a colour each.
    let points = MVTWriter(layers: [
        (
            "pois",
            [
                .init(geometry: .point(1024, 2048), properties: ["o": "0.25", "c": "#ff0000"]),
                .init(geometry: .point(3072, 2048), properties: ["o": "0.75", "c": "#0000ff"]),
            ]
        )
    ]).encode()

    /// The image commands of one frame of `layout`/`paint` drawing the points with a 4 × 4 SDF "dot".
    func images(paint: String) throws -> [ImageCommand] {
        let layer = """
            {"id": "dots", "type": "symbol", "source": "t", "source-layer": "pois",
             "layout": {"icon-image": "dot", "icon-allow-overlap": true}, "paint": \(paint)}
            """
        let r = try renderer(
            style: testStyle(layers: layer), tiles: [TileID(z: 0, x: 0, y: 0): points], options: vectorOnly,
            backend: RecordingBackend())
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for i in 0..<16 { pixels[i * 4 + 3] = [5, 6, 9, 10].contains(i) ? 255 : 128 }
        let index = SpriteIndex(
            json: try JSONValue.parse(
                #"{"dot": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1, "sdf": true}}"#))
        r.setSprite(SpriteSheet(image: RasterImage(width: 4, height: 4, pixels: pixels), index: index))
        return r.displayList(camera: camera(zoom: 0)).commands.compactMap {
            if case .image(let i) = $0 { return i }
            return nil
        }
    }

    /// `icon-opacity` from the feature; with a halo every icon's halo image comes before every fill image, both at
    /// the icon's opacity (MapLibre's halo pass, then its fill pass).
    @Test func haloAndFillAreSeparateImagesAtTheFeaturesOpacity() throws {
        let drawn = try images(
            paint:
                ##"{"icon-opacity": ["to-number", ["get", "o"]], "icon-halo-width": 1, "icon-halo-color": "#00ff00"}"##)
        #expect(drawn.count == 4)
        guard drawn.count == 4 else { return }
        #expect(Set(drawn[0...1].map(\.opacity)) == [0.25, 0.75])
        #expect(drawn[2].opacity == drawn[0].opacity && drawn[3].opacity == drawn[1].opacity)
        // The halo and the fill of one icon are two images at the same place.
        #expect(drawn[0].image.id != drawn[2].image.id && drawn[0].rect == drawn[2].rect)
        #expect(drawn[1].image.id != drawn[3].image.id && drawn[1].rect == drawn[3].rect)
    }

    /// Without a halo one image an icon, at its feature's opacity; a feature's `icon-color` makes its own image.
    @Test func withoutAHaloOneImageAnIconInTheFeaturesColour() throws {
        let drawn = try images(
            paint: ##"{"icon-opacity": ["to-number", ["get", "o"]], "icon-color": ["to-color", ["get", "c"]]}"##)
        #expect(drawn.count == 2)
        #expect(Set(drawn.map(\.opacity)) == [0.25, 0.75])
        #expect(Set(drawn.map(\.image.id)).count == 2)
        let same = try images(paint: ##"{"icon-opacity": ["to-number", ["get", "o"]]}"##)
        #expect(same.count == 2)
        #expect(Set(same.map(\.opacity)) == [0.25, 0.75])
    }
}
