import MapStyle
import Testing

/// Raster sources and the raster layer's paint properties (style spec "Sources › raster", "Layers › raster").
@Suite struct RasterStyleTests {
    static func style(_ sources: String, _ layers: String, base: String? = "/styles") throws -> Style {
        try Style.parse(
            bytes: Array(#"{"version": 8, "sources": \#(sources), "layers": \#(layers)}"#.utf8), baseDirectory: base)
    }

    @Test func rasterSourceFieldsAndDefaults() throws {
        let s = try Self.style(
            #"{"a": {"type": "raster", "tiles": ["tiles/{z}/{x}/{y}.png"]}, "b": {"type": "raster", "url": "mbtiles://../img.mbtiles", "tileSize": 256, "minzoom": 2, "maxzoom": 9, "bounds": [10, 20, 30, 40], "scheme": "tms", "attribution": "© Imagery"}, "c": {"type": "raster", "tiles": ["https://example.com/{z}/{x}/{y}.png", "file:///data/{z}/{x}/{y}.jpg"], "scheme": "tms"}}"#,
            "[]")
        #expect(s.errors.isEmpty, "\(s.errors)")
        guard case .raster(let a)? = s.sources["a"], case .raster(let b)? = s.sources["b"],
            case .raster(let c)? = s.sources["c"]
        else {
            Issue.record("raster sources missing")
            return
        }
        #expect(a.tileSize == 512 && a.minzoom == 0 && a.maxzoom == 22 && a.scheme == "xyz")
        #expect(a.bounds == RasterSource.worldBounds)
        #expect(a.location == .templates(["/styles/tiles/{z}/{x}/{y}.png"], scheme: .xyz))
        #expect(b.location == .mbtiles(path: "/img.mbtiles") && b.tileSize == 256 && b.minzoom == 2 && b.maxzoom == 9)
        #expect(b.bounds == [10, 20, 30, 40] && b.scheme == "tms" && b.attribution == "© Imagery")
        #expect(StyleSource.raster(b).attribution == "© Imagery")
        // The first local template, with TMS rows (the opener reads `{y}` as `{-y}`).
        #expect(c.location == .templates(["/data/{z}/{x}/{y}.jpg"], scheme: .tms))
    }

    @Test func badRasterSourceFieldsAreDiagnosedAndDefaulted() throws {
        let s = try Self.style(
            #"{"a": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"], "tileSize": 300, "bounds": [30, 0, 10, 5], "scheme": "rows"}, "b": {"type": "raster"}}"#,
            "[]")
        let paths = Set(s.errors.map(\.path))
        #expect(paths.isSuperset(of: ["sources.a.tileSize", "sources.a.bounds", "sources.a.scheme", "sources.b"]))
        guard case .raster(let a)? = s.sources["a"] else {
            Issue.record("source a missing")
            return
        }
        #expect(a.tileSize == 512 && a.bounds == RasterSource.worldBounds && a.scheme == "xyz")
    }

    @Test func rasterLayersNeedRasterSources() throws {
        let s = try Self.style(
            #"{"r": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"]}, "v": {"type": "vector", "tiles": ["v/{z}/{x}/{y}.pbf"]}}"#,
            #"[{"id": "ok", "type": "raster", "source": "r"}, {"id": "bad", "type": "raster", "source": "v"}, {"id": "fill", "type": "fill", "source": "r"}]"#
        )
        #expect(s.layers.map(\.id) == ["ok"])
        #expect(s.errors.contains { $0.path == "layers[1]" })
        #expect(s.errors.contains { $0.path == "layers[2]" })
    }

    @Test func rasterPaintDefaultsClampingAndZoomCurves() throws {
        let s = try Self.style(
            #"{"r": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"]}}"#,
            #"[{"id": "d", "type": "raster", "source": "r"}, {"id": "p", "type": "raster", "source": "r", "paint": {"raster-opacity": ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 1], "raster-saturation": -1, "raster-contrast": 0.25, "raster-hue-rotate": 90, "raster-brightness-min": 0.1, "raster-brightness-max": 0.9, "raster-resampling": "nearest", "raster-fade-duration": 0}}]"#
        )
        #expect(s.errors.isEmpty, "\(s.errors)")
        #expect(RasterPaint(layer: s.layers[0], zoom: 5) == RasterPaint())
        #expect(RasterPaint().fadeDurationMilliseconds == 300 && RasterPaint().isColorIdentity)
        let p = RasterPaint(layer: s.layers[1], zoom: 5)
        #expect(abs(p.opacity - 0.5) < 1e-9)
        #expect(p.saturation == -1 && p.contrast == 0.25 && p.hueRotate == 90)
        #expect(
            p.brightnessMin == 0.1 && p.brightnessMax == 0.9 && p.resamplesNearest && p.fadeDurationMilliseconds == 0)
        #expect(!p.isColorIdentity)
        // Out-of-range numbers clamp, unknown enum values take the default, foreign properties are reported.
        let bad = try Self.style(
            #"{"r": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"]}}"#,
            #"[{"id": "x", "type": "raster", "source": "r", "paint": {"raster-opacity": 2, "raster-resampling": "cubic", "line-width": 1}}]"#
        )
        let clamped = RasterPaint(layer: bad.layers[0], zoom: 0)
        #expect(clamped.opacity == 1 && !clamped.resamplesNearest)
        #expect(bad.diagnostics.contains { $0.path.hasSuffix("line-width") })
    }
}
