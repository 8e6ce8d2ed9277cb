import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapHosting
import MapStorage
import MapStyle
import MapTestSupport
import Testing

/// The host gives its renderer the style's glyph PBFs: the bundled styles' `Data/glyphs`, and a user style's local
/// template (path or `file://`), read on first use.
@Suite struct HostGlyphTests {
    private static let regular = "Noto Sans Regular"

    @Test func theBundledStylesNameTheirGlyphFiles() throws {
        for name in ["default", "default-dark", "protomaps"] {
            let style = try Style.load(contentsOfFile: Fixtures.data.appendingPathComponent("styles/\(name).json").path)
            #expect(style.glyphs?.hasSuffix("/Data/glyphs/{fontstack}/{range}.pbf") == true, "\(name)")
            let store = try #require(MapHost.frameGlyphStore(for: style), "\(name)")
            for stack in ["Noto Sans Regular", "Noto Sans Bold", "Noto Sans Italic"] {
                let range = store.range(fontstack: stack, containing: 65)
                #expect(range.problem == nil, "\(name) \(stack): \(range.problem ?? "")")
                // Printable ASCII is in every stack; an SDF glyph carries a 3-pixel buffer on each side.
                #expect(range.glyphs.keys.filter { (0x20...0x7E).contains($0) }.count == 95, "\(name) \(stack)")
                let a = try #require(range.glyphs[65])
                #expect(a.bitmap.count == (a.width + 6) * (a.height + 6))
            }
        }
    }

    @Test func missingGlyphFilesAreOneWarningEachNotASilentFallback() throws {
        // The bundled styles have every file: no warning.
        for name in ["default", "default-dark", "protomaps"] {
            let style = try Style.load(contentsOfFile: Fixtures.data.appendingPathComponent("styles/\(name).json").path)
            #expect(MapHost.glyphDiagnostics(for: style).isEmpty, "\(name)")
        }
        // A copy of a bundled style in another folder: its relative template points nowhere, so each fontstack its
        // labels name is one warning naming the missing file, on the host's style diagnostics.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyph-warnings-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("style.json")
        let text = #"""
            {"version": 8, "glyphs": "../glyphs/{fontstack}/{range}.pbf",
             "sources": {"x": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [
              {"id": "a", "type": "symbol", "source": "x", "layout": {"text-field": "A", "text-font": ["Noto Sans Bold"]}},
              {"id": "b", "type": "symbol", "source": "x", "layout": {"text-field": "B"}}]}
            """#
        try Data(text.utf8).write(to: copy)
        let host = try MapHost(styleFile: copy.path)
        let warnings = host.renderer.style.diagnostics.filter { $0.path == "glyphs" }
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.message.contains("system's fonts") })
        #expect(warnings.first?.message.contains("/glyphs/Noto Sans Bold/0-255.pbf") == true)
        #expect(warnings.last?.message.contains("Open Sans Regular,Arial Unicode MS Regular") == true)
        // A relative template in a style read from no file.
        let inline = try Style.parse(bytes: Array(text.utf8))
        #expect(MapHost.glyphDiagnostics(for: inline).map(\.message).first?.hasPrefix("relative glyphs") == true)
    }

    @Test func aBundledRangeHoldsOnlyTheCodePointsTheLabelsUse() throws {
        let style = try Style.load(contentsOfFile: Fixtures.data.appendingPathComponent("styles/default.json").path)
        let store = try #require(MapHost.frameGlyphStore(for: style))
        // "Töölönlahti" and "Hämeentie" are Helsinki names: ö and ä are there; CJK has no file (an empty range).
        let latin1 = store.range(fontstack: Self.regular, containing: 0xF6)
        #expect(latin1.glyphs[0xF6] != nil && latin1.glyphs[0xE4] != nil)
        let cjk = store.range(fontstack: Self.regular, containing: 0x4E2D)
        #expect(cjk.glyphs.isEmpty && cjk.problem == nil)
    }

    @Test func aLocalTemplateResolvesAgainstTheStyleFolderOrAFileURL() throws {
        let data = Fixtures.data.path
        #expect(
            MapHost.localGlyphTemplate("../glyphs/{fontstack}/{range}.pbf", baseDirectory: data + "/styles")
                == data + "/styles/../glyphs/{fontstack}/{range}.pbf")
        #expect(
            MapHost.localGlyphTemplate("file:///a%20b/{fontstack}/{range}.pbf", baseDirectory: nil)
                == "/a b/{fontstack}/{range}.pbf")
        #expect(MapHost.localGlyphTemplate("glyphs/{fontstack}/{range}.pbf", baseDirectory: nil) == nil)
        #expect(MapHost.localGlyphTemplate("asset://glyphs/{fontstack}/{range}.pbf", baseDirectory: "/x") == nil)

        let fromFileURL = try #require(
            MapHost.frameGlyphStore(
                for: Style.parse(
                    bytes: Array(
                        #"{"version": 8, "glyphs": "file://\#(data)/glyphs/{fontstack}/{range}.pbf", "sources": {}, "layers": []}"#
                            .utf8))))
        #expect(fromFileURL.glyph(fontstack: Self.regular, codepoint: 0x61) != nil)
        // A fontstack cannot step out of the template's folder.
        let escape = fromFileURL.range(fontstack: "../../Noto Sans Regular", containing: 0x61)
        #expect(escape.glyphs.isEmpty && escape.problem != nil)
    }

    @Test func theHostDrawsTheBundledStylesTextFromTheGlyphs() throws {
        let host = try MapHost()
        #expect(host.glyphs != nil)
        // Hosts of one template share one store (and so their renderers' cached symbols).
        #expect(try MapHost().glyphs === host.glyphs)
        let camera = CameraState(
            center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 16, size: ScreenSize(width: 320, height: 200))
        let sdf = try host.render(camera: camera)
        host.renderer.setGlyphs(nil)
        let pango = try host.render(camera: camera)
        // Same map, text drawn two ways: the labels' pixels differ, the rest does not.
        var differing = 0
        for p in stride(from: 0, to: min(sdf.pixels.count, pango.pixels.count), by: 4) {
            var worst = 0
            for k in 0..<4 { worst = max(worst, abs(Int(sdf.pixels[p + k]) - Int(pango.pixels[p + k]))) }
            if worst > 16 { differing += 1 }
        }
        #expect(differing > 100, "\(differing) pixels differ")
        #expect(differing < sdf.width * sdf.height / 4, "\(differing) pixels differ")
    }

    /// Glyph labels are glyph runs; a still frame reuses the runs the frame before made (GlyphLabels.swift), and a
    /// frame moved and back draws the first frame's pixels again. A move of less than half a pixel moves nothing: the
    /// tile images are drawn at whole pixels, and the labels keep their phase with them (LabelPhaseHold.swift).
    @Test func aStillFrameDrawsTheSameGlyphRunsAsTheFrameBefore() throws {
        let host = try MapHost()
        let camera = CameraState(
            center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 16, size: ScreenSize(width: 320, height: 200))
        let list = host.renderer.displayList(camera: camera)
        #expect(list.commands.contains { if case .glyphRun = $0 { return true } else { return false } })
        let first = try host.render(camera: camera)
        let again = try host.render(camera: camera)
        #expect(again.pixels == first.pixels)
        var nudged = camera
        nudged.center = try #require(camera.latLng(for: ScreenPoint(x: 160.37, y: 100.21)))
        #expect(try host.render(camera: nudged).pixels == first.pixels)
        var moved = camera
        moved.center = try #require(camera.latLng(for: ScreenPoint(x: 161.37, y: 100.21)))
        let shifted = try host.render(camera: moved)
        #expect(shifted.pixels != first.pixels)
        let back = try host.render(camera: camera)
        #expect(back.pixels == first.pixels)
    }

    /// While the map pans, the labels move by whole pixels with the tile images (LabelPhaseHold.swift): a pan by
    /// (3.3, 1.7) points draws the very pixels of a pan by (3, 2), and those are the unpanned frame's, labels and
    /// all, three pixels left and two up. From a camera of its own (a new renderer) the pan by
    /// (3.3, 1.7) draws its labels at their exact places instead, so its pixels differ.
    @Test func aPanMovesTheLabelsByWholePixelsWithTheMap() throws {
        let host = try MapHost()
        let camera = CameraState(
            center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 16, size: ScreenSize(width: 320, height: 200))
        func panned(_ dx: Double, _ dy: Double) throws -> CameraState {
            var c = camera
            c.center = try #require(camera.latLng(for: ScreenPoint(x: 160 + dx, y: 100 + dy)))
            return c
        }
        let first = try host.render(camera: camera)
        let fractional = try host.render(camera: panned(3.3, 1.7))
        let whole = try host.render(camera: panned(3, 2))
        #expect(fractional.pixels == whole.pixels)
        // Pixel (x, y) of the pan is pixel (x + 3, y + 2) of the first frame, away from the edges and above the
        // attribution (which stays where it is).
        var differing = 0
        for y in 10..<(first.height - 30) {
            for x in 10..<(first.width - 10) {
                let a = (y * first.width + x) * 4
                let b = ((y + 2) * first.width + x + 3) * 4
                if (0..<4).contains(where: { abs(Int(whole.pixels[a + $0]) - Int(first.pixels[b + $0])) > 2 }) {
                    differing += 1
                }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ")
        let exact = try MapHost().render(camera: panned(3.3, 1.7))
        #expect(exact.pixels != fractional.pixels)
    }
}
