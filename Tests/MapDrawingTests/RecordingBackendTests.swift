import MapDrawing
import MapGeometry
import Testing

@Suite struct RecordingBackendTests {
    @Test func recordsListsAndTracksHandlesThroughTheTileCache() throws {
        let backend = RecordingBackend()
        var cache = TileImageCache(byteLimit: 2 * 256 * 256 * 4)
        for x in 0..<3 {
            var tile = DisplayList(size: ScreenSize(width: 256, height: 256))
            tile.append(.clear(.white))
            let handle = try backend.renderImage(tile)
            for evicted in cache.insert(handle, for: TileImageKey(revision: 1, z: 2, x: x, y: 1, pixelScale: 1)) {
                backend.unregister(evicted)
            }
        }
        #expect(backend.renderedLists.count == 3)
        #expect(backend.registered.keys.sorted() == [2, 3])  // the first tile was evicted and released
        let image = try backend.render(DisplayList(size: ScreenSize(width: 10, height: 4), scale: 2))
        #expect(image.width == 20 && image.height == 8 && image.pixels.allSatisfy { $0 == 0 })
        #expect(throws: RenderError.invalidSize(width: 0, height: 0)) {
            try backend.render(DisplayList(size: ScreenSize(width: 0, height: 0)))
        }
        #expect(backend.textMeasurer.measure("abc", style: TextStyle(size: 10)).width == 18)
    }
}
