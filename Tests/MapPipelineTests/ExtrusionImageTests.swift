import MapData
import MapDrawing
import MapGeometry
import MapTestSupport
import Testing

@testable import MapPipeline

/// The `fill-extrusion` layer's image: one frame-sized image the backend keeps between frames
/// (``RenderBackend/writeImage(_:width:height:scale:_:)``), composited only over the box its faces drew in.
@Suite struct ExtrusionImageTests {
    /// One source tile 0/0/0 with a square from 1024 to 3072 tile units (64…192 points at zoom 0).
    private let tile: [UInt8] = MVTWriter(layers: [
        ("shapes", [.init(geometry: .polygon([(1024, 1024), (3072, 1024), (3072, 3072), (1024, 3072)]))])
    ]).encode()

    private let layers = """
        {"id": "b", "type": "fill-extrusion", "source": "t", "source-layer": "shapes",
         "paint": {"fill-extrusion-height": 10, "fill-extrusion-color": "#ff0000", "fill-extrusion-opacity": 0.5}}
        """

    /// The frame's clip and image commands, in order.
    private func drawn(_ list: DisplayList) -> (clips: [RenderRect], images: [ImageCommand]) {
        var clips: [RenderRect] = []
        var images: [ImageCommand] = []
        for command in list.commands {
            if case .clip(let r) = command { clips.append(r) }
            if case .image(let i) = command { images.append(i) }
        }
        return (clips, images)
    }

    @Test func theLayerDrawsItsFrameSizedImageClippedToItsFacesAndReleasesIt() throws {
        let backend = RecordingBackend()
        var r: MapRenderer? = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
            backend: backend)
        let first = drawn(r!.displayList(camera: camera(zoom: 0), scale: 2))
        #expect(first.clips == [RenderRect(x: 64, y: 64, width: 128, height: 128)])
        #expect(first.images.count == 1)
        let image = try #require(first.images.first)
        #expect(image.rect == RenderRect(x: 0, y: 0, width: 256, height: 256))
        #expect(image.image.pixelWidth == 512 && image.image.scale == 2)
        // The opacity is in the image's pixels (ExtrusionScanTests): the image is composited as it is.
        #expect(image.opacity == 1 && image.nearestNeighbor)
        // The next frame writes the layer's image again: the recorder's default makes a new one and gives the old
        // one back, so one image is registered for the layer frame after frame.
        let second = drawn(r!.displayList(camera: camera(zoom: 0), scale: 2))
        let again = try #require(second.images.first)
        #expect(second.clips == first.clips)
        #expect(backend.registered[image.image.id] == nil && backend.registered[again.image.id] != nil)
        r = nil
        #expect(backend.registered[again.image.id] == nil)
    }
}
