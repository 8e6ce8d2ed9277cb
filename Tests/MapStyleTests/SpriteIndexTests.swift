import MapStyle
import Testing

@Test func parsesSpriteIndexAndSkipsBadEntries() {
    let index = SpriteIndex(
        json: json(
            #"""
            {"cafe": {"x": 0, "y": 0, "width": 24, "height": 24, "pixelRatio": 2},
             "arrow": {"x": 24, "y": 0, "width": 12, "height": 12, "pixelRatio": 1, "sdf": true},
             "broken": {"x": -1, "y": 0, "width": 5, "height": 5},
             "empty": {"x": 0, "y": 0, "width": 0, "height": 5},
             "oops": 3}
            """#))
    #expect(index.images["cafe"] == SpriteImage(x: 0, y: 0, width: 24, height: 24, pixelRatio: 2, sdf: false))
    #expect(index.images["arrow"]?.sdf == true)
    #expect(index.images.count == 2)
    #expect(Set(index.diagnostics.map(\.path)) == ["broken.x", "empty.width", "oops"])
    #expect(SpriteIndex(json: .array([])).diagnostics.count == 1)
}
