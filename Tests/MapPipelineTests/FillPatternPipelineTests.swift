import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// `fill-pattern` and `background-pattern` as pattern fills in the display list (MapLibre `fill_pattern`): the image
/// on the world pixel grid at the integer zoom, scaled within the zoom level, per feature, without outline colour.
@Suite struct FillPatternPipelineTests {
    /// Two squares in tile 0/0/0: a "dot" on the left half, a "bar" on the right half (tile units).
    let squares = MVTWriter(layers: [
        (
            "areas",
            [
                .init(
                    geometry: .polygon([(512, 512), (1536, 512), (1536, 1536), (512, 1536), (512, 512)]),
                    properties: ["kind": "dot"]),
                .init(
                    geometry: .polygon([(2560, 512), (3584, 512), (3584, 1536), (2560, 1536), (2560, 512)]),
                    properties: ["kind": "bar"]),
            ]
        )
    ]).encode()

    /// A 5 × 2 sheet: a 2 × 2 "dot" at x 0 and a 3 × 2 "bar" at x 2.
    func sprite() throws -> SpriteSheet {
        let index = SpriteIndex(
            json: try JSONValue.parse(
                #"{"dot": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 1},"#
                    + #""bar": {"x": 2, "y": 0, "width": 3, "height": 2, "pixelRatio": 1}}"#))
        return SpriteSheet(
            image: RasterImage(width: 5, height: 2, pixels: [UInt8](repeating: 255, count: 40)), index: index)
    }

    func list(_ layers: String, camera: CameraState, sprite: Bool = true) throws -> DisplayList {
        let r = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): squares], options: vectorOnly,
            backend: RecordingBackend())
        if sprite { r.setSprite(try self.sprite()) }
        return r.displayList(camera: camera)
    }

    func fills(_ list: DisplayList) -> [FillCommand] {
        list.commands.compactMap {
            if case .fill(let f) = $0 { return f }
            return nil
        }
    }

    /// At a whole zoom the tile's points are the pattern's: identity transform, one fill per feature with its own
    /// image (data-driven), `fill-opacity` kept, no outline although `fill-outline-color` is set.
    @Test func patternedFillsDumpTheirImageAndTransform() throws {
        let layer = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas",
             "paint": {"fill-pattern": ["get", "kind"], "fill-opacity": 0.5, "fill-outline-color": "#ff0000"}}
            """
        let l = try list(layer, camera: camera(zoom: 0))
        let lines = l.description.split(separator: "\n").filter { $0.contains("fill ") }
        #expect(
            lines.map { $0.trimmingCharacters(in: .whitespaces) } == [
                "fill pattern=#1 2x2pt transform=[1 0 0 1 0 0] opacity=0.5 rule=evenodd path{1 sub, 4 pts, "
                    + "bounds=(32,32 64x64): M(32,32) (96,32) (96,96) (32,96) Z}",
                "fill pattern=#2 3x2pt transform=[1 0 0 1 0 0] opacity=0.5 rule=evenodd path{1 sub, 4 pts, "
                    + "bounds=(160,32 64x64): M(160,32) (224,32) (224,96) (160,96) Z}",
            ])
        #expect(!l.commands.contains { if case .stroke = $0 { return true } else { return false } })
    }

    /// Within a zoom level the pattern scales by 2^(zoom − floor zoom) with the map; at the next whole zoom it is
    /// back to one point per image point, and it lines up across tiles on the world pixel grid.
    @Test func patternScalesWithinTheZoomAndAlignsToTheWorld() throws {
        let layer = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas", "paint": {"fill-pattern": "bar"}}
            """
        let half = try #require(fills(try list(layer, camera: camera(zoom: 0.5))).first?.pattern)
        let k = 2.0.squareRoot()
        #expect(abs(half.transform.a - k) < 1e-9 && abs(half.transform.d - k) < 1e-9)
        #expect(half.transform.b == 0 && half.transform.c == 0)
        // The world's north-west corner sits at 128 − 128·√2 points and is a pattern origin.
        #expect(abs(half.transform.tx - (128 - 128 * k)) < 1e-9)
        // Zoom 1 (source maxzoom 0, so each of the four tiles over-zooms tile 0/0/0): the pattern's period is 3
        // points; every tile's transform puts a pattern origin at a world point that is a multiple of 3.
        let whole = fills(try list(layer, camera: camera(zoom: 1, size: 512)))
        #expect(whole.count >= 2)
        for f in whole {
            let t = try #require(f.pattern?.transform)
            #expect(t.a == 1 && t.d == 1)
            // Screen point 0 is world point 0 at zoom 1 (the 512-point world fills the view).
            let x = t.tx.truncatingRemainder(dividingBy: 3)
            let y = t.ty.truncatingRemainder(dividingBy: 3)
            #expect(abs(x) < 1e-9 && abs(y) < 1e-9, "transform \(t)")
        }
    }

    /// The bearing turns the pattern with the map.
    @Test func bearingTurnsThePattern() throws {
        let layer = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas", "paint": {"fill-pattern": "dot"}}
            """
        let t = try #require(fills(try list(layer, camera: camera(zoom: 0, bearing: 90))).first?.pattern?.transform)
        // Bearing 90°: east points up, so the pattern's x axis runs up the screen and its y axis to the right.
        #expect(abs(t.a) < 1e-9 && abs(t.b + 1) < 1e-9 && abs(t.c - 1) < 1e-9 && abs(t.d) < 1e-9, "\(t)")
    }

    /// Under pitch the pattern is linearised about a visible point of each feature: every patterned feature still
    /// draws, with a finite transform that maps that point's neighbourhood as the perspective does (squeezed
    /// vertically).
    @Test func pitchedFillsKeepTheirPattern() throws {
        let layer = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas", "paint": {"fill-pattern": "dot"}}
            """
        let pitched = fills(try list(layer, camera: camera(zoom: 1, size: 512, pitch: 50)))
        #expect(pitched.count >= 2)
        for f in pitched {
            let t = try #require(f.pattern?.transform)
            let finite = [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy { $0.isFinite }
            #expect(finite)
            #expect(abs(t.b) < 1e-6 && abs(t.c) < 0.5 && t.d > 0 && t.d < t.a, "transform \(t)")
        }
    }

    /// A pattern the sprite lacks (or no sprite) draws nothing, as in MapLibre; the fill colour is not a fallback.
    @Test func missingPatternDrawsNothing() throws {
        let layer = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas",
             "paint": {"fill-pattern": "nope", "fill-color": "#00ff00"}}
            """
        #expect(fills(try list(layer, camera: camera(zoom: 0))).isEmpty)
        let known = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas",
             "paint": {"fill-pattern": "dot", "fill-color": "#00ff00"}}
            """
        #expect(fills(try list(known, camera: camera(zoom: 0), sprite: false)).isEmpty)
    }

    /// `background-pattern` is the same pattern fill over the whole frame, on the same world grid.
    @Test func backgroundPatternIsOnePatternFill() throws {
        let layer = """
            {"id": "bg", "type": "background", "paint": {"background-pattern": "bar", "background-opacity": 0.5}}
            """
        let all = fills(try list(layer, camera: camera(zoom: 0)))
        #expect(all.count == 1)
        let f = try #require(all.first)
        #expect(f.opacity == 0.5 && f.path.bounds == RenderRect(x: 0, y: 0, width: 256, height: 256))
        let t = try #require(f.pattern?.transform)
        // World point 0 (the view's corner at zoom 0) is a pattern origin: its screen x is a multiple of 3.
        #expect(t.a == 1 && t.d == 1)
        let x = t.tx.truncatingRemainder(dividingBy: 3)
        #expect(abs(x) < 1e-9 || abs(abs(x) - 3) < 1e-9, "transform \(t)")
        #expect(abs(t.ty.truncatingRemainder(dividingBy: 2)) < 1e-9)
    }

    /// Tile images hold pattern fills too, aligned the same way (tile 0/0/0 at zoom 0 is the world); setting the
    /// sprite drops tile images drawn without it.
    @Test func tileImagesDrawPatternsAndFollowTheSprite() throws {
        let layer = """
            {"id": "p", "type": "fill", "source": "t", "source-layer": "areas", "paint": {"fill-pattern": "bar"}}
            """
        let backend = RecordingBackend()
        let r = try renderer(
            style: testStyle(layers: layer), tiles: [TileID(z: 0, x: 0, y: 0): squares],
            options: MapRenderOptions(drawsAttribution: false), backend: backend)
        func patterns() -> [FillPattern] {
            backend.renderedLists.flatMap(\.commands).compactMap {
                if case .fill(let f) = $0 { return f.pattern }
                return nil
            }
        }
        _ = r.displayList(camera: camera(zoom: 0))
        #expect(patterns().isEmpty)
        r.setSprite(try sprite())
        _ = r.displayList(camera: camera(zoom: 0))
        let found = patterns()
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.transform == .identity && $0.image.pixelWidth == 3 })
    }
}
