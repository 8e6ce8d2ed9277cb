import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// The fills of `commands` as (colour, path bounds, anti-aliased).
private func fills(_ commands: [DrawCommand]) -> [(color: RGBAColor, bounds: RenderRect?, antialias: Bool)] {
    commands.compactMap {
        if case .fill(let f) = $0 { return (f.color, f.path.bounds, f.antialias) }
        return nil
    }
}

@Test func collisionBoxesAreOneDevicePixelEdgesInMapLibresColours() throws {
    // Shapes of layer 1: placed, collided, collided and not used; then one of layer 2.
    let out = fills(
        collisionDebugCommands(
            [
                .init(
                    geometry: .box(RenderRect(x: 10.25, y: 20.5, width: 19.75, height: 20.25)), placed: true,
                    layerIndex: 1),
                .init(geometry: .box(RenderRect(x: 0, y: 0, width: 4, height: 4)), placed: false, layerIndex: 1),
                .init(
                    geometry: .box(RenderRect(x: 0, y: 0, width: 4, height: 4)), placed: false, used: false,
                    layerIndex: 1),
                .init(geometry: .box(RenderRect(x: 0, y: 0, width: 4, height: 4)), placed: true, layerIndex: 2),
            ], layerIndex: 1, scale: 1))
    #expect(out.count == 12)
    #expect(out.allSatisfy { !$0.antialias })
    #expect(out[0..<4].allSatisfy { $0.color == RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.25) })
    #expect(out[4..<8].allSatisfy { $0.color == RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5) })
    #expect(out[8..<12].allSatisfy { abs($0.color.alpha - 0.05) < 1e-12 })
    // Top: row 20 from x 10.25 to 30; right: column 29 (30 is a whole pixel); bottom: row 40; left: column 10.
    #expect(out[0].bounds == RenderRect(x: 10.25, y: 20, width: 19.75, height: 1))
    #expect(out[1].bounds == RenderRect(x: 29, y: 20.5, width: 1, height: 20.25))
    #expect(out[2].bounds == RenderRect(x: 10.25, y: 40, width: 19.75, height: 1))
    #expect(out[3].bounds == RenderRect(x: 10, y: 20.5, width: 1, height: 20.25))
    // At 2 device pixels per point an edge is half a point wide.
    let doubled = fills(
        collisionDebugCommands(
            [.init(geometry: .box(RenderRect(x: 0, y: 0, width: 4, height: 4)), placed: false, layerIndex: 1)],
            layerIndex: 1, scale: 2))
    #expect(doubled.first?.bounds == RenderRect(x: 0, y: 0, width: 4, height: 0.5))
}

@Test func tileBordersAreRedBandsInsideEachTile() throws {
    let view = camera(zoom: 1, size: 512)
    let tiles = [TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 0)]
    let out = fills(tileBorderCommands(tiles, camera: view.transform))
    #expect(out.count == 2)
    #expect(out.allSatisfy { $0.color == RGBAColor(red: 1, green: 0, blue: 0, alpha: 1) && !$0.antialias })
    // Tile 1/0/0 covers the view's top-left quarter (256-point tiles at zoom 1 centred on 0, 0).
    let bounds = try #require(out.first?.bounds)
    #expect(abs(bounds.minX) < 1e-9 && abs(bounds.maxX - 256) < 1e-9 && abs(bounds.maxY - 256) < 1e-9)
}

/// One source tile with one named point.
private let debugTile: [UInt8] = MVTWriter(layers: [
    ("pois", [.init(geometry: .point(2048, 2048), properties: ["name": "Cafe"], id: 1)])
]).encode()

@Test func debugOverlaysAddOnlyTheirOwnCommands() throws {
    let layers = """
        {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
        {"id": "names", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": "{name}"}}
        """
    func frame(_ overlays: MapDebugOverlays) throws -> [DrawCommand] {
        var options = MapRenderOptions(usesTileImageCache: false, drawsAttribution: false)
        options.debugOverlays = overlays
        #expect(options.placement.recordsCollisionShapes == overlays.contains(.collisionShapes))
        let r = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): debugTile], options: options,
            backend: RecordingBackend())
        return r.displayList(camera: camera(zoom: 0)).commands
    }
    let plain = try frame([])
    let collision = try frame(.collisionShapes)
    let borders = try frame(.tileBorders)
    // Off: nothing extra. Collision: the label's box as four edges right after its text. Borders: a fill a tile, last.
    #expect(collision.count == plain.count + 4)
    #expect(Array(collision.prefix(plain.count)) == plain)
    #expect(fills(Array(collision.suffix(4))).allSatisfy { $0.color == placedCollisionColor })
    #expect(borders.count > plain.count)
    #expect(Array(borders.prefix(plain.count)) == plain)
    #expect(
        fills(Array(borders.dropFirst(plain.count))).allSatisfy { $0.color == RGBAColor(red: 1, green: 0, blue: 0) })
    #expect(fills(Array(borders.dropFirst(plain.count))).count == borders.count - plain.count)
}
