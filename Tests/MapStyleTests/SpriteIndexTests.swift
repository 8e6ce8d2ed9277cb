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

@Test func readsStretchableImageMetadataAndWarnsAboutBadValues() {
    let index = SpriteIndex(
        json: json(
            #"""
            {"nine": {"x": 0, "y": 0, "width": 40, "height": 40, "pixelRatio": 2, "stretchX": [[10, 30]],
                      "stretchY": [[5, 10], [20, 30]], "content": [10, 10, 30, 30],
                      "textFitWidth": "stretchOnly", "textFitHeight": "proportional"},
             "bad": {"x": 0, "y": 0, "width": 20, "height": 20, "stretchX": [[10, 30]], "stretchY": [[8, 4]],
                     "content": [1, 2], "textFitWidth": "wide"}}
            """#))
    let nine = index.images["nine"]
    #expect(nine?.stretchX == [[10, 30]])
    #expect(nine?.stretchY == [[5, 10], [20, 30]])
    #expect(nine?.content == [10, 10, 30, 30])
    #expect(nine?.textFitWidth == "stretchOnly" && nine?.textFitHeight == "proportional")
    // Bad values are dropped with warnings; the image stays.
    let bad = index.images["bad"]
    #expect(bad != nil && bad?.stretchX == [] && bad?.stretchY == [] && bad?.content == nil && bad?.textFitWidth == nil)
    #expect(
        Set(index.diagnostics.map(\.path)) == ["bad.stretchX", "bad.stretchY", "bad.content", "bad.textFitWidth"])
}
