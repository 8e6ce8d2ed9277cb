import MapStyle
import Testing

/// `pmtiles://` vector source URLs: local paths (relative to the style file, like `mbtiles://`), `file://` URLs, and
/// `http(s)://` URLs, kept for MapNetwork's range reader.
@Test func pmtilesURLsResolveLikeMBTiles() throws {
    let json = """
        {"version": 8, "sources": {
          "rel": {"type": "vector", "url": "pmtiles://../tiles/city.pmtiles"},
          "abs": {"type": "vector", "url": "pmtiles:///srv/maps/world.pmtiles"},
          "file": {"type": "vector", "url": "pmtiles://file:///srv/maps/file.pmtiles"},
          "web": {"type": "vector", "url": "pmtiles://https://example.org/planet.pmtiles"},
          "web2": {"type": "vector", "url": "pmtiles://http://127.0.0.1:8080/a.pmtiles"}
        }, "layers": []}
        """
    let style = try Style.parse(bytes: Array(json.utf8), fileName: "style.json", baseDirectory: "/data/styles")
    func path(_ id: String) -> String?? {
        guard case .vector(let v)? = style.sources[id] else { return .none }
        if case .pmtiles(.file(let path))? = v.location { return .some(path) }
        return .some(nil)
    }
    #expect(path("rel") == .some("/data/tiles/city.pmtiles"))
    #expect(path("abs") == .some("/srv/maps/world.pmtiles"))
    #expect(path("file") == .some("/srv/maps/file.pmtiles"))
    #expect(path("web") == .some(nil))
    #expect(path("web2") == .some(nil))
    if case .vector(let v)? = style.sources["web"] {
        #expect(v.url == "pmtiles://https://example.org/planet.pmtiles")
        #expect(v.location == .pmtiles(.url("https://example.org/planet.pmtiles")))
    }
    if case .vector(let v)? = style.sources["web2"] {
        #expect(v.location == .pmtiles(.url("http://127.0.0.1:8080/a.pmtiles")))
    }
    #expect(style.diagnostics.isEmpty)
    #expect(style.errors.isEmpty)
}
